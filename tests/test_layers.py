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


# ---------------------------------------------------------------------------- the server's packages

#: The server's parts from the bottom up: a part imports only the parts before it (and itself).
SERVER_ORDER = (
    "settings",
    "storage",
    "sync",
    "http",
    "tables",
    "offline",
    "finished",
    "profiles",
    "reviews",
    "tournaments",
    "services",
    "app",
)
SERVER = PACKAGE / "server"


def server_modules() -> dict[str, Path]:
    """Every Python module of the server by dotted name (``tables.room``; a package: ``tables``)."""
    modules = {}
    for path in sorted(SERVER.rglob("*.py")):
        parts = path.relative_to(SERVER).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def server_imports(path: Path) -> set[str]:
    """The server modules ``path`` imports anywhere (``from pedro.server.tables.room import Room``:
    ``tables.room``; ``from pedro.server.http import heap``: ``http.heap``)."""
    known = server_modules()
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            if name.startswith("pedro.server."):
                dotted = name.removeprefix("pedro.server.")
                if dotted in known:
                    found.add(dotted)
    return found


def order_violations(imports: dict[str, set[str]], order: tuple[str, ...]) -> list[str]:
    """Each module that imports a part of the server not before its own (``imports``: module ->
    the modules it imports, each named from the server down, its first name its part)."""
    place = {part: i for i, part in enumerate(order)}
    wrong = []
    for module, imported in sorted(imports.items()):
        own = module.split(".")[0]
        for other in sorted(imported):
            part = other.split(".")[0]
            if part != own and place[part] > place[own]:
                wrong.append(f"{module} ({own}) imports {other} ({part}, a later part)")
    return wrong


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among modules: each set of modules that import one another, round."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for start in sorted(imports):  # Tarjan's strongly connected components, without recursion
        if start in index:
            continue
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            for other in edges:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    work.append((other, iter(sorted(imports.get(other, ())))))
                    break
                if other in stack:
                    low[node] = min(low[node], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while (member := stack.pop()) != node:
                        component.append(member)
                    if component:
                        found.append(sorted([node, *component]))
    return found


def server_import_graph() -> dict[str, set[str]]:
    return {name: server_imports(path) for name, path in server_modules().items() if name}


def test_every_part_of_the_server_has_a_place_in_the_order() -> None:
    parts = {name.split(".")[0] for name in server_modules() if name}
    assert parts == set(SERVER_ORDER)


def test_no_server_module_imports_a_later_part() -> None:
    wrong = order_violations(server_import_graph(), SERVER_ORDER)
    assert not wrong, "\n".join(wrong)


def test_no_server_modules_import_one_another_round() -> None:
    assert cycles(server_import_graph()) == []


def test_no_server_module_imports_inside_a_function() -> None:
    """An import put off into a function would hide a cycle or a later part from the checks above."""
    wrong = []
    for name, path in server_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
                wrong += [f"server/{name or '__init__'}: line {n.lineno}" for n in inner]
    assert not wrong, "\n".join(wrong)


def test_a_package_is_used_by_the_others_through_the_modules_it_names() -> None:
    """Each server package's ``__all__`` names the modules the other parts may import."""
    modules = server_modules()
    public = {}
    for name, path in modules.items():
        if path.name == "__init__.py" and name:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            assert ast.get_docstring(tree), f"server/{name} says nothing of what it owns"
            named = next(
                ast.literal_eval(node.value)
                for node in tree.body
                if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
            )
            assert {f"{name}.{m}" for m in named} <= set(modules), f"server/{name}.__all__ names no module"
            public[name] = set(named)
    wrong = []
    for module, imported in server_import_graph().items():
        own = module.split(".")[0]
        for other in imported:
            package, _, leaf = other.partition(".")
            if package != own and package in public and leaf and leaf.split(".")[0] not in public[package]:
                wrong.append(f"{module} imports {other}, which server/{package} keeps to itself")
    assert not wrong, "\n".join(wrong)


def test_the_checks_find_a_later_import_and_a_cycle() -> None:
    """The order and cycle checks above fail on a violation (they are not vacuous)."""
    graph = {"tables.room": {"storage.tables_db", "tournaments.running"}, "storage.tables_db": set()}
    assert order_violations(graph, SERVER_ORDER) == [
        "tables.room (tables) imports tournaments.running (tournaments, a later part)"
    ]
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


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
