"""The test tiers: which tests are slow, and which tests of a module are left for the fast tier.

``pytest -m "not slow"`` is the fast tier (a couple of minutes on two cores): it leaves out whole
games, the expert's searches, browsers and server processes, but every module of tests/ keeps a
test in it, so a change anywhere meets a test of its subject at once (tests/test_tiers.py checks
that). ``tests/conftest.py`` makes the tests that carry one of ``SLOW_BECAUSE`` slow too.

:func:`fast_tests` reads a test module's source rather than collecting it: collecting every module
takes seconds, reading them a fraction of one. It follows the ways this suite marks tests: a
module's or a class's ``pytestmark``, decorators, and ``pytest.param(..., marks=...)`` in a
``parametrize`` whose every case is then slow.
"""

from __future__ import annotations

import ast

SLOW = "slow"
#: Markers that make a test slow wherever they are: a browser, processes started and killed.
SLOW_BECAUSE = ("browser", "processes")
_SLOW_NAMES = frozenset((SLOW, *SLOW_BECAUSE))


def _mark_name(expr: ast.expr, aliases: dict[str, str]) -> str | None:
    """The marker an expression applies (``pytest.mark.slow``, ``pytest.mark.skipif(...)``, an
    alias of one), or None."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Name):
        return aliases.get(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = expr.value
        if (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
            isinstance(owner, ast.Name) and owner.id == "mark"
        ):
            return expr.attr
    return None


def _marks(expr: ast.expr, aliases: dict[str, str]) -> set[str]:
    """The markers of a ``pytestmark`` or ``marks=`` value: one mark or a list or tuple of them."""
    items = expr.elts if isinstance(expr, (ast.List, ast.Tuple)) else [expr]
    return {name for item in items if (name := _mark_name(item, aliases)) is not None}


def _every_case_slow(decorator: ast.expr, aliases: dict[str, str]) -> bool:
    """Whether a ``parametrize`` decorator lists its cases and marks every one of them slow."""
    if not (isinstance(decorator, ast.Call) and _mark_name(decorator, aliases) == "parametrize"):
        return False
    values = decorator.args[1] if len(decorator.args) > 1 else None
    values = next((k.value for k in decorator.keywords if k.arg == "argvalues"), values)
    if not isinstance(values, (ast.List, ast.Tuple)) or not values.elts:
        return False
    for case in values.elts:
        if not (
            isinstance(case, ast.Call) and isinstance(case.func, ast.Attribute) and case.func.attr == "param"
        ):
            return False
        marks = next((k.value for k in case.keywords if k.arg == "marks"), None)
        if marks is None or not _marks(marks, aliases) & _SLOW_NAMES:
            return False
    return True


def _slow(decorators: list[ast.expr], aliases: dict[str, str]) -> bool:
    return any(_mark_name(d, aliases) in _SLOW_NAMES or _every_case_slow(d, aliases) for d in decorators)


def _pytestmark(body: list[ast.stmt], aliases: dict[str, str]) -> set[str]:
    found: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            found |= _marks(stmt.value, aliases)
    return found


def fast_tests(source: str) -> list[str]:
    """The tests of a module's source that the fast tier runs (``name`` or ``Class.name``)."""
    tree = ast.parse(source)
    aliases: dict[str, str] = {}
    for stmt in tree.body:  # SLOW = pytest.mark.slow
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = _mark_name(stmt.value, {})
            if name is not None:
                aliases[stmt.targets[0].id] = name
    if _pytestmark(tree.body, aliases) & _SLOW_NAMES:
        return []
    fast: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith("test"):
            if not _slow(stmt.decorator_list, aliases):
                fast.append(stmt.name)
        elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
            if _slow(stmt.decorator_list, aliases) or _pytestmark(stmt.body, aliases) & _SLOW_NAMES:
                continue
            fast += [
                f"{stmt.name}.{f.name}"
                for f in stmt.body
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                and f.name.startswith("test")
                and not _slow(f.decorator_list, aliases)
            ]
    return fast
