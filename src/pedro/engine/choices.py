"""Exchange decisions that pick a set of cards.

Some choices have too many outcomes to list (the ``nicaragua`` dealer picks up
to seven of some thirty cards), so such a decision is described by a rule —
a pool, allowed sizes and a check — that can test, count, list and sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from pedro.cards import cards_of
from pedro.engine.actions import Verb, cards_action

#: Returns None when a chosen mask is allowed, else the reason it is not.
Check = Callable[[int], "str | None"]


def _always(_mask: int) -> str | None:
    return None


@dataclass(frozen=True)
class CardChoice:
    """Choose a subset of ``pool`` whose size is in ``sizes`` and that passes ``check``.

    ``alternatives`` are other legal actions of the same decision (``pass``,
    ``fold``) offered beside the card sets.
    """

    verb: Verb
    pool: int
    sizes: tuple[int, ...]
    rule: str
    check: Check = field(default=_always, compare=False)
    alternatives: tuple[int, ...] = ()

    def reason_illegal(self, action: int) -> str | None:
        if action in self.alternatives:
            return None
        if action >> 64 != self.verb:
            return f"expected {self._expected()}"
        mask = action & ((1 << 64) - 1)
        if mask & ~self.pool:
            return f"only these cards may be chosen: {_fmt(self.pool)}; {self.rule}"
        if mask.bit_count() not in self.sizes:
            return self.rule
        return self.check(mask)

    def _expected(self) -> str:
        from pedro.engine.actions import VERB_WORDS

        words = [VERB_WORDS[self.verb] + " CARDS"]
        words += [VERB_WORDS[Verb(a >> 64)] for a in self.alternatives]
        return " or ".join(words)

    def __contains__(self, action: int) -> bool:
        return self.reason_illegal(action) is None

    def masks(self) -> Iterator[int]:
        cards = cards_of(self.pool)
        for k in self.sizes:
            for combo in combinations(cards, k):
                mask = 0
                for c in combo:
                    mask |= 1 << c
                if self.check(mask) is None:
                    yield mask

    def __iter__(self) -> Iterator[int]:
        yield from self.alternatives
        for mask in self.masks():
            yield cards_action(self.verb, mask)

    def upper_bound(self) -> int:
        n = self.pool.bit_count()
        return len(self.alternatives) + sum(comb(n, k) for k in self.sizes)

    def only_action(self) -> int | None:
        """The single legal action if there is exactly one, else None."""
        found = None
        for action in self:
            if found is not None:
                return None
            found = action
        return found

    def sample(self, rng: random.Random) -> int:
        """A random legal action (not uniform over sets; good enough for random play)."""
        if self.upper_bound() <= 4096:
            return rng.choice(list(self))
        if self.alternatives and rng.random() < 0.5:
            return rng.choice(self.alternatives)
        cards = cards_of(self.pool)
        for _ in range(2000):
            k = rng.choice(self.sizes)
            mask = 0
            for c in rng.sample(cards, k):
                mask |= 1 << c
            if self.check(mask) is None:
                return cards_action(self.verb, mask)
        return next(iter(self))


def _fmt(mask: int) -> str:
    from pedro.cards import format_cards

    return format_cards(cards_of(mask))
