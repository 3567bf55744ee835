"""Exchange decisions that pick a set of cards.

Some choices have too many outcomes to list (the ``nicaragua`` dealer picks up
to seven of some thirty cards), so such a decision is described by a rule —
a pool, allowed sizes and a check — that can test, count, list and sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import combinations
from math import comb
from typing import Final, final

from pedro.cards import cards_of, format_cards
from pedro.engine.actions import ARG_MASK, VERB_SHIFT, VERB_WORDS, Verb, cards_action
from pedro.engine.draws import sample, weighted_index
from pedro.marks import N_

#: Returns None when a chosen mask is allowed, else the reason it is not.
Check = Callable[[int], "str | None"]
#: A ``CardChoice``'s fields in order: verb, pool, sizes, rule, check, alternatives, required.
_Fields = tuple[Verb, int, tuple[int, ...], str, Check, tuple[int, ...], int]


def _always(_mask: int) -> str | None:
    return None


@final
class CardChoice:
    """Choose a subset of ``pool`` whose size is in ``sizes`` and that passes ``check``.

    ``alternatives`` are other legal actions of the same decision (``pass``,
    ``fold``) offered beside the card sets. A choice is part of an observation,
    so ``check`` is a module function or a frozen object of plain values, never a
    closure (which could reach the state): a choice pickles and compares whole.

    Immutable. Compiled, a native class with ``Final`` fields: the exchange makes one at
    each of its decisions, several a hand, where a frozen dataclass runs Python code.
    """

    def __init__(
        self,
        verb: Verb,
        pool: int,
        sizes: tuple[int, ...],
        rule: str,
        check: Check = _always,
        alternatives: tuple[int, ...] = (),
        required: int = 0,
    ) -> None:
        self.verb: Final = verb
        self.pool: Final = pool
        self.sizes: Final = sizes
        self.rule: Final = rule
        self.check: Final = check
        self.alternatives: Final = alternatives
        #: cards every chosen set must contain (part of ``pool``)
        self.required: Final = required

    def _fields(self) -> tuple[Verb, int, tuple[int, ...], str, Check, tuple[int, ...], int]:
        return self.verb, self.pool, self.sizes, self.rule, self.check, self.alternatives, self.required

    def __reduce__(
        self,
    ) -> tuple[type[CardChoice], tuple[Verb, int, tuple[int, ...], str, Check, tuple[int, ...], int]]:
        return CardChoice, self._fields()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardChoice) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"CardChoice(verb={self.verb!r}, pool={self.pool}, sizes={self.sizes}, rule={self.rule!r}, "
            f"check={self.check!r}, alternatives={self.alternatives}, required={self.required})"
        )

    def reason_illegal(self, action: int) -> str | None:
        if action in self.alternatives:
            return None
        if action >> VERB_SHIFT != self.verb:
            return N_("expected {choices}").format(choices=self._expected())
        mask = action & ARG_MASK
        if mask & ~self.pool:
            return N_("only these cards may be chosen: {cards}; {rule}").format(
                cards=_fmt(self.pool), rule=self.rule
            )
        if mask.bit_count() not in self.sizes:
            return self.rule
        if mask & self.required != self.required:
            return N_("{rule} (these must be included: {cards})").format(
                rule=self.rule, cards=_fmt(self.required)
            )
        return self.check(mask)

    def _expected(self) -> str:
        words = [VERB_WORDS[self.verb] + " CARDS"]
        words += [VERB_WORDS[Verb(a >> VERB_SHIFT)] for a in self.alternatives]
        return " or ".join(words)

    def __contains__(self, action: int) -> bool:
        return self.reason_illegal(action) is None

    def masks(self) -> Iterator[int]:
        cards = cards_of(self.pool & ~self.required)
        base = self.required.bit_count()
        for k in self.sizes:
            if k < base:
                continue
            for combo in combinations(cards, k - base):
                mask = self.required
                for c in combo:
                    mask |= 1 << c
                if self.check(mask) is None:
                    yield mask

    def __iter__(self) -> Iterator[int]:
        yield from self.alternatives
        for mask in self.masks():
            yield cards_action(self.verb, mask)

    def upper_bound(self) -> int:
        n = (self.pool & ~self.required).bit_count()
        base = self.required.bit_count()
        return len(self.alternatives) + sum(comb(n, k - base) for k in self.sizes if k >= base)

    def only_action(self) -> int | None:
        """The single legal action if there is exactly one, else None."""
        if self.check is _always and self.upper_bound() != 1:
            return None  # with no check to pass, every counted set is legal
        found = None
        for action in self:
            if found is not None:
                return None
            found = action
        return found

    def sample(self, rng: random.Random) -> int:
        """A uniformly random legal action.

        Sizes are drawn in proportion to the number of sets of that size, then
        sets are drawn until one passes the check (rejection keeps it uniform).
        The draws are ``rng.choices`` and ``rng.sample``'s own (``pedro.engine.draws``).
        """
        cards = cards_of(self.pool & ~self.required)
        n = len(cards)
        base = self.required.bit_count()
        sizes = [k - base for k in self.sizes if k >= base]
        weights = [1] * len(self.alternatives) + [comb(n, k) for k in sizes]
        options = list(self.alternatives) + [-1 - k for k in sizes]
        for _attempt in range(200):
            pick = options[weighted_index(rng, weights)]
            if pick >= 0:
                return pick
            mask = self.required
            for c in sample(rng, cards, -1 - pick):
                mask |= 1 << c
            if self.check(mask) is None:
                return cards_action(self.verb, mask)
        # legal sets are rare among all sets: list them
        return rng.choice(list(self))


def _fmt(mask: int) -> str:
    return format_cards(cards_of(mask))
