"""JSON views of one seat's ``Observation``: what the browser and a bot program are told.

Everything here is built from a seat's observation only, never the game
state, so a card the rules keep hidden cannot reach a client or a bot by
mistake: it is not in anything this module reads. The server
(``pedro.server.tables.views``) and the bot protocol (``pedro.players.external``)
share these builders, so both speak one format.

Actions travel as their record words (``"play AH"``, ``"bid 3"``,
``"discard 2C 7D"``): engine actions are integers wider than JavaScript's
safe range, and the words are already the record contract.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from itertools import combinations
from typing import Any

from pedro.cards import SUITS, cards_of, format_card
from pedro.display import DEALER_ROBS, STATUS_WORDS, Took, breakdown, sort_hand
from pedro.engine.actions import (
    VERB_WORDS,
    Verb,
    action_cards,
    action_words,
    make,
    play_mask,
    play_top,
    verb_of,
)
from pedro.engine.auction import forced_call
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation, SeatSecrets, SeenHand, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.variants.model import Ruleset
from pedro.variants.tables import TrumpTables

PHASE_NAMES = {
    Phase.AUCTION: "auction",
    Phase.TRUMP: "trump",
    Phase.EXCHANGE: "exchange",
    Phase.PLAY: "play",
    Phase.GAME_OVER: "over",
}
#: How many legal card sets a view lists one by one before describing the rule instead.
LIST_LIMIT = 60

#: ``memo(name, key, build)``: ``build()``, or what stands for it when ``name`` was last built from
#: an equal ``key`` (a server keeps the parts that seldom change encoded from one message to the
#: next; see ``pedro.server.tables.views.Parts``). ``key`` holds everything ``build`` reads besides the
#: rules, so one memo serves one table.
Memo = Callable[[Hashable, Any, Callable[[], Any]], Any]


def _build(name: Hashable, key: Any, build: Callable[[], Any]) -> Any:
    """The memo that keeps nothing."""
    return build()


_VERB_PROMPTS = {
    Verb.DISCARD: "Choose the cards to discard",
    Verb.KEEP: "Choose the cards to keep",
    Verb.KILL: "Choose the card(s) to kill",
    Verb.GIVE: "Choose the cards to give your partner",
    Verb.CLAIM: "Choose the face-up trumps to claim",
}


def cards_json(cards: Sequence[int]) -> list[str]:
    return [format_card(c) for c in cards]


def words(action: int, rules: Ruleset) -> str:
    return _words(action, rules.max_bid)


def label(action: int, rules: Ruleset) -> str:
    """The words a button shows: ``Bid 8``, ``Pass``, ``Trump ♥``, ``Play 10♥``."""
    return _label(action, rules.min_bid, rules.max_bid)


# Every state message names many actions, and a game uses few distinct ones: cache their texts
# (keyed by the bid limits, as hashing a whole Ruleset costs more than the words themselves).
@functools.lru_cache(maxsize=1 << 16)
def _words(action: int, max_bid: int) -> str:
    return action_words(action, max_bid)


@functools.lru_cache(maxsize=1 << 16)
def _label(action: int, min_bid: int, max_bid: int) -> str:
    verb = verb_of(action)
    if verb == Verb.TRUMP:
        return "Trump " + "♠♥♦♣"[action & 3]
    if verb == Verb.PROTECT:
        return f"Protect ({min_bid})"
    text = action_words(action, max_bid, pretty=True)
    return text[:1].upper() + text[1:]


def seen_trick_json(trick: SeenTrick) -> dict[str, Any]:
    """A trick as everyone saw it (its winner null while it is played)."""
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "cards": cards_json(cards)} for seat, cards in trick.plays],
        "winner": trick.winner if trick.winner >= 0 else None,
    }


def sheet_row_json(hand: SeenHand, rules: Ruleset | None = None) -> dict[str, Any]:
    """One finished hand's row of the score sheet; with ``rules``, also what each side took
    (``taken``: per side, ``{"name", "card", "points"}`` as in ``pedro.display.breakdown``)."""
    taken = (
        {"taken": [[_took_json(t) for t in side] for side in breakdown(rules, hand)]}
        if rules is not None
        else {}
    )
    return {
        "dealer": hand.dealer,
        "bidder": hand.bidder,
        "bid": hand.bid,
        "call": hand.call,
        "trump": SUITS[hand.trump] if hand.trump is not None else None,
        "points": list(hand.points),
        "made": hand.made,
        "score": list(hand.score),
        **taken,
    }


def _took_json(took: Took) -> dict[str, Any]:
    return {
        "name": took.name,
        "card": format_card(took.card) if took.card is not None else None,
        "points": took.points,
    }


def _legal_json(
    legal: tuple[int, ...] | CardChoice | None, obs: Observation, tt: TrumpTables | None
) -> dict[str, Any] | None:
    rules = obs.rules
    if legal is None:
        return None
    if isinstance(legal, CardChoice):
        return _choice_json(legal, rules, tt)
    actions = [{"action": words(a, rules), "label": label(a, rules)} for a in legal]
    # single-card plays are clicked on the card itself
    cards = {
        format_card(play_top(a)): words(a, rules)
        for a in legal
        if verb_of(a) == Verb.PLAY and play_mask(a).bit_count() == 1
    }
    return {"kind": "list", "prompt": _prompt(obs, legal), "actions": actions, "cards": cards}


def _choice_json(choice: CardChoice, rules: Ruleset, tt: TrumpTables | None) -> dict[str, Any]:
    listed: list[str] | None = None
    sizes = list(choice.sizes)
    if choice.upper_bound() <= LIST_LIMIT:
        masks = list(choice.masks())
        listed = [" ".join(cards_json(sort_hand(cards_of(m), tt))) for m in masks]
        sizes = sorted({m.bit_count() for m in masks})
    else:
        sizes = _possible_sizes(choice)
    return {
        "kind": "cards",
        "verb": Verb(choice.verb).name.lower(),
        "prompt": f"{_VERB_PROMPTS.get(Verb(choice.verb), 'Choose cards')}: {choice.rule}",
        "rule": choice.rule,
        "pool": cards_json(sort_hand(cards_of(choice.pool), tt)),
        # only sizes some legal set has, so a chooser never offers a size the rule refuses
        "sizes": sizes,
        "required": cards_json(sort_hand(cards_of(choice.required), tt)),
        # every legal set, when there are few enough to list (else the rule alone says)
        "sets": listed,
        "alternatives": [{"action": words(a, rules), "label": label(a, rules)} for a in choice.alternatives],
    }


#: How many card sets are tried at most when looking for the sizes a rule allows.
SIZE_SEARCH_BUDGET = 4000


def _possible_sizes(choice: CardChoice) -> list[int]:
    """The sizes for which some set passes the rule's check (a size stays when the budget runs out)."""
    free = cards_of(choice.pool & ~choice.required)
    base = choice.required.bit_count()
    budget = SIZE_SEARCH_BUDGET
    sizes = []
    for k in choice.sizes:
        if k < base:
            continue
        for combo in combinations(free, k - base):
            budget -= 1
            mask = choice.required | sum(1 << c for c in combo)
            if budget < 0 or choice.reason_illegal(make(choice.verb, mask)) is None:
                sizes.append(k)
                break
    return sizes


def _prompt(obs: Observation, legal: Sequence[int]) -> str:
    phase = obs.phase
    if phase == Phase.AUCTION:
        return "Your call"
    if phase == Phase.TRUMP:
        return "Name the trump suit"
    if phase == Phase.PLAY:
        return "Your lead" if obs.trick is None or not obs.trick.plays else "Your play"
    verbs = {verb_of(a) for a in legal}
    if Verb.FOLD in verbs:
        return "Fold, or play on"
    return "Your decision"


def public_json(obs: Observation, *, sheet: bool = True, memo: Memo = _build) -> dict[str, Any]:
    """What everyone at the table sees (the seat's own fields are left out).

    ``sheet=False`` leaves out the score sheet, which grows by a row per hand:
    for a caller that sends it row by row (the replay), not whole every time.
    The parts that change seldom (the calls, the trumps, the finished tricks,
    the sheet ...) go through ``memo``.
    """
    rules = obs.rules
    tt = _tables(obs)
    trump = obs.trump
    return {
        "phase": PHASE_NAMES[Phase(obs.phase)],
        "hand_index": obs.hand_index,
        "dealer": obs.dealer,
        "turn": obs.current_player if obs.phase != Phase.GAME_OVER else None,
        "hand_sizes": list(obs.hand_sizes),
        "calls": memo(
            "calls",
            (obs.calls, obs.dealer),
            lambda: calls_json(obs.calls, obs.dealer, rules),
        ),
        "bidder": obs.bidder,
        "bid": obs.bid,
        "trump": SUITS[trump] if trump is not None else None,
        "trumps": memo("trumps", trump, lambda: _trumps_json(tt)),
        "face_up": memo(
            "face_up", (obs.face_up, trump), lambda: [cards_json(sort_hand(c, tt)) for c in obs.face_up]
        ),
        "shown": memo("shown", (obs.shown, trump), lambda: [cards_json(sort_hand(c, tt)) for c in obs.shown]),
        "discarded": list(obs.discarded),
        "drawn": list(obs.drawn),
        "wash": obs.wash,
        "statuses": memo("statuses", obs.statuses, lambda: [STATUS_WORDS[Status(s)] for s in obs.statuses]),
        "trick": seen_trick_json(obs.trick) if obs.trick is not None else None,
        "tricks": memo("tricks", obs.tricks, lambda: [seen_trick_json(t) for t in obs.tricks]),
        "scores": list(obs.scores),
        **({"sheet": memo("sheet", obs.history, lambda: _sheet_json(obs.history, rules))} if sheet else {}),
        "winner": obs.winner,
    }


def _trumps_json(tt: TrumpTables | None) -> list[str]:
    return cards_json(sort_hand(cards_of(tt.trump_mask), tt)) if tt is not None else []


def _sheet_json(history: Sequence[SeenHand], rules: Ruleset) -> list[dict[str, Any]]:
    return [sheet_row_json(h, rules) for h in history]


def calls_json(calls: Sequence[tuple[int, int]], dealer: int, rules: Ruleset) -> list[dict[str, Any]]:
    """The auction so far; a dealer's bid made because everyone else passed has ``"forced": true``."""
    forced = forced_call(rules, calls, dealer)
    return [
        {
            "seat": s,
            "action": words(a, rules),
            "label": label(a, rules),
            **({"forced": True} if i == forced else {}),
        }
        for i, (s, a) in enumerate(calls)
    ]


def private_json(secrets: SeatSecrets | None, obs: Observation, *, memo: Memo = _build) -> dict[str, Any]:
    """One seat's own fields (``secrets``), or their empty form for a spectator.

    ``obs`` is any seat's observation of the same moment, for the rules and trump.
    The seat's cards go through ``memo`` (as for :func:`public_json`).
    """
    if secrets is None:
        return {"hand": [], "own_discards": [], "seen": [], "legal": None}
    tt = _tables(obs)
    trump = obs.trump
    seat = secrets.seat
    hand, own_discards, seen = secrets.hand, secrets.own_discards, secrets.seen
    return {
        "hand": memo(("hand", seat), (hand, trump), lambda: cards_json(sort_hand(hand, tt))),
        "own_discards": memo(
            ("own_discards", seat), (own_discards, trump), lambda: cards_json(sort_hand(own_discards, tt))
        ),
        "seen": memo(("seen", seat), (seen, trump), lambda: cards_json(sort_hand(seen, tt))),
        "legal": _legal_json(secrets.legal, obs, tt),
    }


def observation_json(obs: Observation, *, private: bool, sheet: bool = True) -> dict[str, Any]:
    """The game as ``obs.seat`` sees it; with ``private=False``, only what everyone sees.

    ``sheet`` as for :func:`public_json`.
    """
    return public_json(obs, sheet=sheet) | private_json(obs.secrets if private else None, obs)


def _tables(obs: Observation) -> TrumpTables | None:
    return obs.rules.tables(obs.trump) if obs.trump is not None else None


#: Actions whose cards everyone sees: plays, and claims of face-up trumps.
_PUBLIC_VERBS = frozenset({Verb.PLAY, Verb.CLAIM})


def last_json(
    last: tuple[int, int] | None, obs: Observation, secrets: SeatSecrets | None
) -> dict[str, Any] | None:
    """The last action as a seat (or, with ``secrets`` None, a spectator) may know it.

    A discard laid face down or the cards a dealer kept are told to the others
    only as a count: ``Discard 6 cards``.
    """
    if last is None:
        return None
    seat, action = last
    rules = obs.rules
    verb = verb_of(action)
    cards = action_cards(action)
    if cards and verb not in _PUBLIC_VERBS:
        visible = {c for group in (*obs.face_up, *obs.shown) for c in group}
        if secrets is not None:
            visible.update(secrets.hand, secrets.own_discards, secrets.seen)
        if not visible.issuperset(cards):
            count = len(cards)
            told = f"{VERB_WORDS[verb].capitalize()} {count} card{'s' if count != 1 else ''}"
            return {"seat": seat, "action": None, "label": told, "count": count}
    return {"seat": seat, "action": words(action, rules), "label": label(action, rules)}


def rules_json(rules: Ruleset) -> dict[str, Any]:
    """The table's rules as the client needs them to draw the table."""
    return {
        "variant": rules.id,
        "name": rules.name,
        "players": rules.players,
        "partnerships": rules.partnerships,
        "sides": rules.sides(),
        "target": rules.target,
        # the dealer robs the pack (the table says "robbed the pack: took 3", not "drew 3")
        "dealer_robs": rules.fill in DEALER_ROBS,
    }
