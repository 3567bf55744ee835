"""docs/server.md's reference of the messages the server sends, generated from ``tables.messages``.

The reference is one block of the document, between two marker comments; a test fails when the
block is not what the schema says, so a message or field cannot be added, changed or removed on
one side only. To write it again after changing the schema::

    python -m pedro.server.tables.message_docs docs/server.md
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
import types
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

from typing_extensions import is_typeddict

from pedro.server.tables import messages
from pedro.server.tables.messages import ERROR_CODES, AnyMessage, Error, Kind

BEGIN = "<!-- generated from pedro/server/tables/messages.py: python -m pedro.server.tables.message_docs -->"
END = "<!-- end of the generated reference -->"

#: The messages, in the order the reference tells them.
MESSAGES: tuple[type, ...] = get_args(AnyMessage)
_NAMES = {int: "int", float: "number", str: "string", bool: "bool", type(None): "null"}


def reference() -> str:
    """The block of docs/server.md between the markers (the markers included)."""
    docs = _field_docs()
    lines = [BEGIN, ""]
    lines += [*(f"- *{kind.name}*: {kind.meaning}" for kind in _kinds()), ""]
    for message in MESSAGES:
        kind = get_args(get_type_hints(message)["type"])[0]
        lines += [f"#### `{kind}`", "", _doc(message), "", *_table(message, docs), ""]
        if message is Error:
            lines += ["Codes:", "", *(f"- `{code}`: {meaning}" for code, meaning in ERROR_CODES.items()), ""]
    lines += ["#### The parts of a message", ""]
    for part in _parts():
        lines += [f"##### `{part.__name__}`", "", _doc(part), "", *_table(part, docs), ""]
    lines.append(END)
    return "\n".join(lines)


def rewritten(document: str) -> str:
    """``document`` with its block between the markers made anew (ValueError without them)."""
    start, end = document.find(BEGIN), document.find(END)
    if start < 0 or end < start:
        raise ValueError("the document has no generated reference of the messages (its markers are missing)")
    return document[:start] + reference() + document[end + len(END) :]


def _doc(cls: type) -> str:
    """A class's own docstring as one paragraph (a typed dictionary would inherit ``dict``'s)."""
    return " ".join((cls.__doc__ or "").split())


def _table(cls: type, docs: dict[str, dict[str, str]]) -> list[str]:
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for name, hint in get_type_hints(cls, include_extras=True).items():
        optional = get_origin(hint) is NotRequired
        text = _type_text(get_args(hint)[0] if optional else hint) + (", optional" if optional else "")
        rows.append(f"| `{name}` | {text} | {docs[cls.__name__].get(name, '')} |")
    return rows


def _type_text(hint: Any) -> str:
    """A type as the reference writes it: ``int \\| null``, ``[card]``, a link to a part."""
    origin = get_origin(hint)
    if hint in _NAMES:
        return _NAMES[hint]
    if origin is Annotated:
        kinds = [m.name for m in hint.__metadata__ if isinstance(m, Kind)]
        return kinds[0] if kinds else _type_text(get_args(hint)[0])
    if origin is Literal:
        return " \\| ".join(f"`{json.dumps(value)}`" for value in get_args(hint))
    if origin in (Union, types.UnionType):
        return " \\| ".join(_type_text(arg) for arg in get_args(hint))
    if origin is list:
        return f"[{_type_text(get_args(hint)[0])}]"
    if origin is dict:
        key, value = get_args(hint)
        return f"{{{_type_text(key)}: {_type_text(value)}}}"
    if is_typeddict(hint):
        return f"[`{hint.__name__}`](#{hint.__name__.lower()})"
    raise TypeError(f"the reference cannot write the type {hint!r}")


def _parts() -> list[type]:
    """The typed dictionaries the messages are made of, in the order they are first met."""
    found: list[type] = []

    def visit(hint: Any) -> None:
        if is_typeddict(hint):
            if hint not in found:
                found.append(hint)
                for field in get_type_hints(hint, include_extras=True).values():
                    visit(field)
            return
        for arg in get_args(hint):
            visit(arg)

    for message in MESSAGES:
        for field in get_type_hints(message, include_extras=True).values():
            visit(field)
    return found


def _kinds() -> list[Kind]:
    """The named strings the messages' fields are, in the order they are first met."""
    found: dict[str, Kind] = {}

    def visit(hint: Any) -> None:
        if get_origin(hint) is Annotated:
            found.update({m.name: m for m in hint.__metadata__ if isinstance(m, Kind)})
        for arg in get_args(hint):
            visit(arg)

    for cls in (*MESSAGES, *_parts()):
        for field in get_type_hints(cls, include_extras=True).values():
            visit(field)
    return sorted(found.values(), key=lambda kind: kind.name)


def _field_docs() -> dict[str, dict[str, str]]:
    """Per class of ``messages``, its fields' docstrings (the string under a field), those of its
    base classes included."""
    classes = [n for n in ast.parse(inspect.getsource(messages)).body if isinstance(n, ast.ClassDef)]
    docs: dict[str, dict[str, str]] = {}
    for node in classes:  # a base class comes before the classes made from it
        own = docs[node.name] = {}
        for base in node.bases:
            own.update(docs.get(base.id, {}) if isinstance(base, ast.Name) else {})
        for field, after in zip(node.body, [*node.body[1:], None], strict=True):
            if not (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)):
                continue
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                own[field.target.id] = " ".join(str(after.value.value).split())
    return docs


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[0])
    path.write_text(rewritten(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
