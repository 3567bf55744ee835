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
