"""A JSON response body kept gzip-compressed: what is built once and served many times.

A finished game's record and replay, a review and a language's texts never change once made, so
they are kept as the gzip-compressed bytes of their JSON (a long game's replay is some ten times
smaller so) and served as they are (``compressed.body_response``). Plain values only: a body is
built in a worker process and crosses back by pickling.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from typing import Any

import orjson

#: zlib's default: within a few percent of the smallest output, several times faster than level 9.
_GZIP_LEVEL = 6


def gzipped(raw: bytes) -> bytes:
    """``raw`` gzip-compressed as every kept body is (mtime 0: the same bytes give the same output)."""
    return gzip.compress(raw, compresslevel=_GZIP_LEVEL, mtime=0)


@dataclass(frozen=True)
class Body:
    """A JSON response body kept gzip-compressed; ``size`` is its length uncompressed."""

    gzipped: bytes
    size: int
    #: the file name it is downloaded as, if it is a download
    download: str | None = None

    @classmethod
    def of_json(cls, value: Any, download: str | None = None) -> Body:
        raw = orjson.dumps(value)
        return cls(gzipped(raw), len(raw), download)

    def plain(self) -> bytes:
        return gzip.decompress(self.gzipped)
