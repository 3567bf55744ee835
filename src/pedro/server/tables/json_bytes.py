"""JSON as UTF-8 bytes, with parts encoded once and spliced into later messages.

The server encodes with orjson, which is quick and splices pre-encoded parts (``Fragment``). In
the browser's Python (Pyodide, the offline app) orjson has no build, so there the standard
library's ``json`` encodes: a part is kept as its value and encoded again each time, which
gives the same JSON, only slower.

>>> dumps({"seat": 1, "cards": ["A♠", "5♥"], "part": encoded_once([1, 2])})
b'{"seat":1,"cards":["A\\xe2\\x99\\xa0","5\\xe2\\x99\\xa5"],"part":[1,2]}'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

try:
    import orjson
except ImportError:  # Pyodide: no orjson build
    orjson = None  # type: ignore[assignment]


class _Kept:
    """A part kept as its value, for ``json`` to encode where it is spliced in."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _kept_value(part: object) -> Any:
    if isinstance(part, _Kept):
        return part.value
    raise TypeError(f"{type(part).__name__} is not JSON")


def _json_dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_kept_value).encode()


def _json_encoded_once(value: Any) -> Any:
    return _Kept(value)


def _orjson_encoded_once(value: Any) -> Any:
    return orjson.Fragment(orjson.dumps(value))


#: ``value`` as compact UTF-8 JSON.
dumps: Callable[[Any], bytes] = _json_dumps if orjson is None else orjson.dumps
#: ``value`` as a part that ``dumps`` splices into a message as it is (encoded once where it can).
encoded_once: Callable[[Any], Any] = _json_encoded_once if orjson is None else _orjson_encoded_once
