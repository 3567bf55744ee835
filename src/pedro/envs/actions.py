"""A fixed, small action space over the engine's actions, for learning environments.

The engine's actions are wide integers (``verb << 64 | arg``) and some
decisions pick a set of cards among thousands of sets. A learner wants a
small fixed list of ids with a mask, so:

* ids ``0..54`` are cards (the card index of ``pedro.cards``), ``55`` is
  ``DONE``, then one id per call (``pass``, ``fold``, ``protect``, ``bid 28-56``,
  the double call), four trump suits, and one id per bid value of the ruleset;
* a decision between single actions (a call, a suit, a one-card play) takes
  one id;
* a decision that picks several cards (a discard, a keep, a give, a claim, a
  first-trick stack) is built one card at a time and confirmed with ``DONE``.
  A stack's first card is its top card (the one that counts).

The mask of a partial selection is exact: a card is offered only when some
legal set contains the selection and that card, and ``DONE`` only when the
selection itself is legal. So every card offered leads to a legal set, no
selection ever gets stuck, and the engine never refuses a completed choice.

>>> from pedro.variants.options import make_ruleset
>>> space = ActionSpace(make_ruleset("cinch"))
>>> space.size, space.describe(DONE), space.describe(space.id_of(bid_action(9)))
(73, 'done', 'bid 9')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from pedro.cards import NUM_CARDS, SUIT_NAMES, cards_of, format_card
from pedro.engine.actions import (
    CARD_BITS,
    FOLD,
    PASS,
    PROTECT,
    VERB_SHIFT,
    Verb,
    action_words,
    arg_of,
    bid_action,
    cards_action,
    make,
    play_cards,
    play_mask,
    trump_action,
)
from pedro.engine.choices import CardChoice
from pedro.variants.model import Ruleset

#: ids 0..54 are cards (the card index of pedro.cards; 55 cards incl. jokers in some variants)
CARDS = NUM_CARDS
#: confirms a card-set selection (or a multi-card first-trick stack)
DONE = 55
PASS_ID = 56
FOLD_ID = 57
PROTECT_ID = 58
BID_28_56_ID = 59
BID_DOUBLE_ID = 60
#: ``TRUMP_BASE + suit`` names trumps (suit 0..3 = spades, hearts, diamonds, clubs)
TRUMP_BASE = 61
#: ``BID_BASE + value - space.min_bid_value`` bids ``value``
BID_BASE = 65

#: card-set decisions with a rule check are listed in full up to this many sets
ENUMERATE_LIMIT = 20_000

_PLAY = int(Verb.PLAY)
_FIXED = {
    PASS: PASS_ID,
    FOLD: FOLD_ID,
    PROTECT: PROTECT_ID,
    make(Verb.BID_28_56): BID_28_56_ID,
    make(Verb.BID_DOUBLE): BID_DOUBLE_ID,
}
_TRUMPS = {trump_action(s): TRUMP_BASE + s for s in range(4)}
#: the default check of a CardChoice: no rule beyond pool, sizes and required cards
_NO_CHECK = CardChoice(Verb.DISCARD, 0, (), "").check


class ActionSpace:
    """The fixed flat action ids of one ruleset (the same for every state of that game)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        forced = rules.dealer_forced_bid
        #: the lowest and highest bid value the ruleset can ever call
        self.min_bid_value = min(rules.min_bid, forced) if forced is not None else rules.min_bid
        self.max_bid_value = max(rules.max_bid, forced) if forced is not None else rules.max_bid
        self.size = BID_BASE + self.max_bid_value - self.min_bid_value + 1
        engine: list[int | None] = [None] * self.size
        for action, i in (_FIXED | _TRUMPS).items():
            engine[i] = action
        for v in range(self.min_bid_value, self.max_bid_value + 1):
            engine[BID_BASE + v - self.min_bid_value] = bid_action(v)
        self._engine = tuple(engine)
        self._ids = {a: i for i, a in enumerate(engine) if a is not None}

    def describe(self, action_id: int) -> str:
        """The id in words: ``AH``, ``done``, ``pass``, ``bid 7``, ``trump hearts``, ``bid 14-double``."""
        self._check_range(action_id)
        if action_id < CARDS:
            return format_card(action_id)
        if action_id == DONE:
            return "done"
        if TRUMP_BASE <= action_id < BID_BASE:
            return f"trump {SUIT_NAMES[action_id - TRUMP_BASE]}"
        action = self._engine[action_id]
        assert action is not None
        return action_words(action, self.rules.max_bid)

    def id_of(self, engine_action: int) -> int | None:
        """The id of a single-id engine action (a call, a suit, a one-card play); None for card sets."""
        if engine_action >> VERB_SHIFT == _PLAY:
            mask = engine_action & CARD_BITS
            if mask and not mask & (mask - 1):
                return mask.bit_length() - 1
            return None
        return self._ids.get(engine_action)

    def engine_action(self, action_id: int) -> int | None:
        """The engine action of a non-card id (``pass``, ``bid 9``...); None for cards and ``DONE``."""
        self._check_range(action_id)
        return self._engine[action_id]

    def _check_range(self, action_id: int) -> None:
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is out of range; ids are 0 to {self.size - 1}")


class Decision:
    """The current engine decision seen through ids; a card-set decision is built one card at a time.

    ``legal`` is the engine's legal actions (``GameState.legal()``). After the
    id that completes an engine action, the decision is used up.
    """

    def __init__(self, space: ActionSpace, legal: list[int] | tuple[int, ...] | CardChoice) -> None:
        self.space = space
        self.selection: tuple[int, ...] = ()
        self._mask = 0  # the selection as a card mask
        self._done = False
        #: id -> engine action, for decisions of one id
        self._singles: dict[int, int] = {}
        #: (top card or -1, cards, engine action) of the card-set actions, when listed
        self._sets: list[tuple[int, int, int]] = []
        self._choice: CardChoice | None = None
        self._legal_cache: list[int] | None = None
        if isinstance(legal, CardChoice):
            self._init_choice(legal)
        else:
            self._init_list(legal)

    # ------------------------------------------------------------------ set-up

    def _init_list(self, legal: Sequence[int]) -> None:
        space = self.space
        multi_play = any(a >> VERB_SHIFT == _PLAY and (a & CARD_BITS).bit_count() > 1 for a in legal)
        for action in legal:
            verb = action >> VERB_SHIFT
            if verb == _PLAY and multi_play:
                cards = play_cards(action)
                self._sets.append((cards[0], play_mask(action), action))
                continue
            i = space.id_of(action)
            if i is not None:
                self._singles[i] = action
            elif Verb(verb) in (Verb.DISCARD, Verb.KEEP, Verb.KILL, Verb.GIVE, Verb.CLAIM):
                self._sets.append((-1, arg_of(action), action))
            else:
                raise ValueError(
                    f"the engine action {action:#x} has no id in the {space.rules.id} action space"
                )

    def _init_choice(self, choice: CardChoice) -> None:
        for action in choice.alternatives:
            i = self.space.id_of(action)
            if i is None:
                raise ValueError(f"the alternative {action:#x} has no id in the {self.space.rules.id} space")
            self._singles[i] = action
        if choice.check is not _NO_CHECK and choice.upper_bound() <= ENUMERATE_LIMIT:
            self._sets = [(-1, m, cards_action(choice.verb, m)) for m in choice.masks()]
        else:
            self._choice = choice

    # ------------------------------------------------------------------ queries

    @property
    def complete(self) -> bool:
        """Whether an engine action has been produced (the decision is used up)."""
        return self._done

    def legal_ids(self) -> list[int]:
        """The ids allowed now, sorted; never empty while the decision is pending."""
        if self._legal_cache is None:
            self._legal_cache = [] if self._done else sorted(self._compute_legal())
            if not self._legal_cache and not self._done:
                raise RuntimeError(
                    f"the engine offers no legal action in this {self.space.rules.id} decision "
                    "(a card choice no set of cards satisfies): a rules-engine bug"
                )
        return self._legal_cache

    def mask(self) -> npt.NDArray[np.int8]:
        """1 where an id is legal now: int8 of shape ``(space.size,)``."""
        out = np.zeros(self.space.size, dtype=np.int8)
        out[self.legal_ids()] = 1
        return out

    def _compute_legal(self) -> set[int]:
        sel = self._mask
        ids: set[int] = set(self._singles) if not self.selection else set()
        if self._choice is not None:
            cards, done = self._choice_extensions(self._choice)
        else:
            cards, done = self._set_extensions()
        ids.update(cards_of(cards & ~sel))
        if done:
            ids.add(DONE)
        return ids

    def _compatible(self) -> Iterator[tuple[int, int, int]]:
        sel = self._mask
        top = self.selection[0] if self.selection else -1
        for t, m, a in self._sets:
            if m & sel == sel and (t < 0 or not self.selection or t == top):
                yield t, m, a

    def _set_extensions(self) -> tuple[int, int]:
        """Cards that extend the selection to a listed set, and whether it is one already."""
        cards = 0
        done = False
        sel = self._mask
        for t, m, _a in self._compatible():
            if not self.selection and t >= 0:
                cards |= 1 << t  # a stack starts with its top card
            else:
                cards |= m
            if m == sel:
                done = True
        return cards, done

    def _choice_extensions(self, choice: CardChoice) -> tuple[int, int]:
        """The same for a card choice too large to list."""
        sel = self._mask
        pool_size = choice.pool.bit_count()
        need = choice.required | sel
        n_need = need.bit_count()
        remaining = choice.pool & ~sel
        done = sel & choice.required == choice.required and sel.bit_count() in choice.sizes
        if done and not sel:
            done = cards_action(choice.verb, 0) in choice
        elif done and choice.check is not _NO_CHECK:
            done = choice.check(sel) is None
        if choice.check is _NO_CHECK:
            # a set is legal by its size and required cards alone: any size left will do
            cards = 0
            if any(n_need + 1 <= k <= pool_size for k in choice.sizes):
                cards = remaining
            elif any(n_need <= k <= pool_size for k in choice.sizes):
                cards = remaining & choice.required
            return cards, done
        cards = 0
        for c in cards_of(remaining):
            if cards >> c & 1:
                continue
            found = _legal_superset(choice, sel | 1 << c)
            if found is not None:
                cards |= found & ~sel
        return cards, done

    # ------------------------------------------------------------------ acting

    def choose(self, action_id: int) -> int | None:
        """Take one id: the engine action once complete, else None (the selection grew).

        Raises ValueError, naming the legal ids, if ``action_id`` is not legal now.
        """
        legal = self.legal_ids()
        if action_id not in legal:
            raise ValueError(self._illegal_message(action_id, legal))
        self._legal_cache = None
        if action_id in self._singles and not self.selection:
            self._done = True
            return self._singles[action_id]
        if action_id == DONE:
            self._done = True
            return self._completed()
        self.selection += (action_id,)
        self._mask |= 1 << action_id
        return None

    def _completed(self) -> int:
        if self._choice is not None:
            return cards_action(self._choice.verb, self._mask)
        for _t, m, a in self._compatible():
            if m == self._mask:
                return a
        raise AssertionError("DONE was offered without a legal set")  # pragma: no cover

    def _illegal_message(self, action_id: int, legal: list[int]) -> str:
        if self._done:
            return "this decision is complete; no id is legal"
        try:
            what = f"{action_id} ({self.space.describe(action_id)})"
        except ValueError as exc:
            what = f"{action_id}: {exc}"
        chosen = " ".join(format_card(c) for c in self.selection)
        sofar = f" after choosing {chosen}" if chosen else ""
        names = ", ".join(f"{i} ({self.space.describe(i)})" for i in legal)
        return f"action id {what} is not legal{sofar}; legal ids: {names}"

    def ids_for(self, engine_action: int) -> list[int]:
        """The ids that produce ``engine_action`` from an empty selection (ValueError if not legal)."""
        for i, a in self._singles.items():
            if a == engine_action:
                return [i]
        if self._choice is not None:
            if engine_action in self._choice and engine_action >> VERB_SHIFT == self._choice.verb:
                return [*cards_of(arg_of(engine_action)), DONE]
        else:
            for t, m, a in self._sets:
                if a == engine_action:
                    if t >= 0:
                        return [t, *(c for c in cards_of(m) if c != t), DONE]
                    return [*cards_of(m), DONE]
        raise ValueError(f"the engine action {engine_action:#x} is not legal in this decision")


def _legal_superset(choice: CardChoice, base: int) -> int | None:
    """A legal card set of ``choice`` containing ``base``, or None: an exhaustive search."""
    base |= choice.required
    if base & ~choice.pool:
        return None
    free = cards_of(choice.pool & ~base)
    have = base.bit_count()
    for k in sorted(choice.sizes):
        if k < have or k - have > len(free):
            continue
        for combo in combinations(free, k - have):
            mask = base
            for c in combo:
                mask |= 1 << c
            if choice.check(mask) is None:
                return mask
    return None
