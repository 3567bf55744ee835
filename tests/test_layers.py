"""The import layers: a lower layer never imports a higher one (nor a sibling of its own layer)."""

from __future__ import annotations

import ast
from pathlib import Path

import pedro

#: Each top-level part of the package and its layer: the mark of a text to translate → the player's
#: language and cards → rules → engine →
#: how things are shown, records and the solver → players → what drives players → interfaces (the
#: command line starts the server).
LAYERS = {
    "i18n": 1,
    "marks": 0,
    "cards": 1,
    "variants": 2,
    "engine": 3,
    "display": 4,
    "observation_json": 5,
    "records": 5,
    "solver": 5,
    "terminal": 5,
    "players": 6,
    "analysis": 7,
    "tournament": 7,
    "ratings": 7,
    "envs": 8,
    "server": 8,
    "cli": 9,
}
PACKAGE = Path(pedro.__file__).parent


def part_of(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def imported_parts(path: Path) -> set[str]:
    """The package's top-level parts that ``path`` imports anywhere (lazy imports included)."""
    parts = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + (
                [f"{node.module}.{a.name}" for a in node.names] if node.module == "pedro" else []
            )
        for name in names:
            bits = name.split(".")
            if bits[0] == "pedro" and len(bits) > 1:
                parts.add(bits[1])
    return parts


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {part_of(p) for p in PACKAGE.rglob("*.py")} - {"__init__"}
    assert parts == set(LAYERS)


def test_no_module_imports_a_part_of_its_own_or_a_higher_layer() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = part_of(path)
        if own == "__init__":
            continue
        for part in imported_parts(path) - {own}:
            if LAYERS[part] >= LAYERS[own]:
                wrong.append(
                    f"{path.relative_to(PACKAGE)} (layer {LAYERS[own]}) imports {part} ({LAYERS[part]})"
                )
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- inside the engine

ENGINE = PACKAGE / "engine"

#: The engine's modules by tier: a module imports only modules of a lower tier, so the engine has
#: no import cycle (docs/engine.md, "Inside the engine"). Values and the rules' pieces; the turn
#: order and the exchange's plan and checks; the table (the state's fields, the view that reads
#: them and the moves that change them); what reads or moves the table; the driver; the state.
ENGINE_TIERS = (
    ("actions", "draws", "phases"),
    ("auction", "choices", "deal", "play", "play_position", "results", "scoring"),
    ("exchange_checks", "exchange_plan", "turns"),
    ("table",),
    ("exchange_stock", "observation", "position_text"),
    ("exchange", "position_replay"),
    ("driver",),
    ("state",),
)
TIER = {module: tier for tier, modules in enumerate(ENGINE_TIERS) for module in modules}


def engine_modules() -> list[Path]:
    return sorted(p for p in ENGINE.glob("*.py") if p.stem != "__init__")


def engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports anywhere (under ``TYPE_CHECKING`` and in functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "pedro.engine":
                found |= {a.name for a in node.names}
            elif node.module.startswith("pedro.engine."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("pedro.engine.")}
    return found


def test_every_engine_module_has_a_tier() -> None:
    assert {p.stem for p in engine_modules()} == set(TIER)


def test_an_engine_module_imports_only_modules_of_a_lower_tier() -> None:
    wrong = [
        f"{path.stem} (tier {TIER[path.stem]}) imports {module} ({TIER[module]})"
        for path in engine_modules()
        for module in sorted(engine_imports(path))
        if TIER[module] >= TIER[path.stem]
    ]
    assert not wrong, "\n".join(wrong)


def test_no_engine_module_imports_inside_a_function_or_a_class() -> None:
    """Every import is at the top of its module: none waits for a call to dodge a cycle."""
    wrong = []
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for scope in ast.walk(tree):
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                wrong += [
                    f"{path.stem}:{node.lineno}"
                    for node in ast.walk(scope)
                    if isinstance(node, ast.Import | ast.ImportFrom)
                ]
    assert not wrong, "\n".join(wrong)


def is_store_on_self(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def declared_private_names(tree: ast.Module) -> set[str]:
    """The ``_``-names a module's classes declare: fields (annotated, or set on ``self``) and methods."""
    names = set()
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif is_store_on_self(node):
                assert isinstance(node, ast.Attribute)
                names.add(node.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def test_an_engine_module_reaches_no_private_name_of_another_module() -> None:
    """A module uses another's objects through their public names: ``x._name`` only for a name its
    own classes declare (``self._name`` of a subclass excepted), and no ``_name`` imported."""
    wrong = []
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = declared_private_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pedro"):
                wrong += [
                    f"{path.stem}:{node.lineno} imports {a.name}" for a in node.names if a.name[0] == "_"
                ]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                base = node.value
                if not (isinstance(base, ast.Name) and base.id in ("self", "cls")) and node.attr not in own:
                    wrong.append(f"{path.stem}:{node.lineno} reaches {ast.unparse(node)}")
    assert not wrong, "\n".join(wrong)
