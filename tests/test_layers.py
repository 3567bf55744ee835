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
