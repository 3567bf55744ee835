"""Random draws that equal the standard library's, written out so the compiled build runs them.

``random.Random``'s ``shuffle``, ``sample`` and ``choices`` are Python code; the engine's
seeded deals and every random or sampling player call them at each decision. These
functions make the same calls to the generator (``getrandbits``, ``random``) in the same
order, so they return what the library would and leave the generator where it would: a seed
keeps giving the same games, whichever build runs. ``tests/test_draws.py`` holds them to the
library on many seeds and sizes.
"""

from __future__ import annotations

import random
from functools import cache
from math import ceil, log
from typing import cast


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place into the same order as ``rng.shuffle(cards)``.

    This is CPython's Fisher-Yates shuffle written out: each index ``j <= i``
    is drawn as ``getrandbits(k)`` with ``k = (i + 1).bit_length()``, drawing
    again while it is out of range (``Random._randbelow_with_getrandbits``).
    Inline it costs half as much, and a seed keeps giving the same deals.

    >>> a, b = list(range(52)), list(range(52))
    >>> random.Random("pedro").shuffle(a)
    >>> shuffle(random.Random("pedro"), b)
    >>> a == b
    True
    """
    getrandbits = rng.getrandbits
    items = cast("list[object]", cards)  # compiled: moved as objects, never unboxed and boxed
    for i, k in _draws(len(cards)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@cache
def _draws(n: int) -> tuple[tuple[int, int], ...]:
    """The shuffle's steps for ``n`` cards: (index i, bits drawn for an index up to i)."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``, drawn as the library draws it."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``: ``k`` distinct members in the order drawn.

    >>> rng_a, rng_b = random.Random(7), random.Random(7)
    >>> sample(rng_a, list(range(30)), 6) == rng_b.sample(list(range(30)), 6)
    True
    """
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    setsize = 21  # the library's choice between its two ways
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    result: list[int] = []
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        return result
    selected = 0
    for _ in range(k):
        j = below(rng, n)
        while selected >> j & 1:
            j = below(rng, n)
        selected |= 1 << j
        result.append(population[j])
    return result


def weighted_index(rng: random.Random, weights: list[int]) -> int:
    """The index ``rng.choices(range(len(weights)), weights)[0]`` draws (positive total).

    >>> rng_a, rng_b = random.Random(3), random.Random(3)
    >>> [weighted_index(rng_a, [1, 5, 10]) for _ in range(8)] == [
    ...     rng_b.choices(range(3), [1, 5, 10])[0] for _ in range(8)]
    True
    """
    cumulative: list[int] = []
    total = 0
    for w in weights:
        total += w
        cumulative.append(total)
    x = rng.random() * float(total)
    last = len(cumulative) - 1  # the library's bisect stops before the last entry
    i = 0
    while i < last and cumulative[i] <= x:
        i += 1
    return i
