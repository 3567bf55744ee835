"""What the review workers compute: a game's review hand by hand, and a practice table's hint.

A review values each decision of one seat as ``pedro analyze`` values it; a hint values each
legal choice of a seat now, as ``pedro play --hints`` does. Everything here runs in a worker
process (``finished.workers``): plain functions of plain values. A review job is one hand of
one seat, so the server can show progress hand by hand and keep each finished hand's review in
the database (``reviews.routes``). The estimates are ``pedro.analysis``'s, with a fresh estimator
per hand and seat, so a seat's review is exactly what ``pedro analyze --seat S --json`` gives for
it.

A review holds only what its seat saw: each entry is made from the seat's own
observation at the decision (its hand, the trick so far, the calls), and the
values are the expert's estimates from that observation. Nobody else's cards
are in it, so a seat may read its review before the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pedro.analysis import ChoiceEstimator, Review, decisions, review
from pedro.cards import SUITS
from pedro.display import sort_hand
from pedro.engine.actions import parse_action_text
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.i18n import N_
from pedro.observation_json import calls_json, cards_json, label, seen_trick_json, words
from pedro.players import make_player
from pedro.records import record_from_game, replay
from pedro.server.settings import ServerSettings
from pedro.server.tables.game import table_game

#: The estimates' seed: ``pedro analyze``'s, so the two agree (the player is the server's
#: ``review_player``, ``pedro analyze``'s by default).
SEED = 0
#: What each phase's decisions are called, and the part of the game their costs count to.
_PHASES = {Phase.AUCTION: "call", Phase.TRUMP: "trump", Phase.EXCHANGE: "exchange", Phase.PLAY: "play"}
_PARTS = {"call": "bidding", "trump": "bidding", "exchange": "exchange", "play": "play"}
#: A hand's decisions listed with at most this many choices each (the rest are counted).
MAX_CHOICES = 12


@dataclass(frozen=True)
class ReviewGame:
    """A game to review: a server table's actions, or an uploaded ``pedro-record/1`` record."""

    variant: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    actions: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    record: Mapping[str, Any] | None = None
    #: the table's number of hands (a tournament deal's: 1), None: played to the game's end
    hands: int | None = None

    def as_record(self) -> dict[str, Any]:
        """The game as a record (a table's actions played once)."""
        if self.record is not None:
            return dict(self.record)
        state = table_game(self.variant, self.options, self.seed, self.hands)
        for text in self.actions:
            state.apply(parse_action_text(text, state.rules.max_bid)[1])
        return record_from_game(state, self.names)


@dataclass(frozen=True)
class HandJob:
    """A worker's job: one hand (1-based) of one seat."""

    game: ReviewGame
    hand: int
    seat: int
    player: str = ServerSettings.review_player


@dataclass(frozen=True)
class Outline:
    """What a review is made of: the seats and their names, and the hands finished so far."""

    players: int
    names: tuple[str, ...]
    hands: int
    over: bool


def outline(game: ReviewGame) -> Outline:
    """The game's seats and finished hands; ``ValueError`` with a plain message for a bad record."""
    record = game.as_record()
    result = replay(record)  # ReplayError (a ValueError) says what is wrong with an uploaded record
    return Outline(len(record["names"]), tuple(record["names"]), len(result.results), result.finished)


def review_hand(job: HandJob) -> dict[str, Any]:
    """The review of one hand of one seat (docs/server.md, "Game review")."""
    record = job.game.as_record()
    found = decisions(record, [job.hand], [job.seat])
    reviews = review(found, lambda: _estimator(job.player))
    entries = [_entry_json(r) for r in reviews]
    return {"hand": job.hand, "player": job.player, "entries": entries, "lost": lost(entries)}


def _estimator(player: str) -> ChoiceEstimator:
    return cast(ChoiceEstimator, make_player(player, SEED))


def _entry_json(r: Review) -> dict[str, Any]:
    """One decision: what was chosen, every choice's value, the cost, and what the seat saw."""
    d, est = r.decision, r.estimates
    rules = d.obs.rules
    phase = _PHASES.get(d.phase, "other")
    ranked = est.ranked() if est is not None else []
    best = ranked[0][0] if est is not None and est.comparable else None
    return {
        "hand": d.hand,
        "number": d.number,
        "index": d.index,
        "phase": phase,
        "part": _PARTS.get(phase, "play"),
        "action": label(d.action, rules),
        "words": words(d.action, rules),
        "unit": est.unit if est is not None else None,
        "choices": [
            {
                "action": label(a, rules),
                "words": words(a, rules),
                "value": round(v, 3),
                "chosen": a == d.action,
            }
            for a, v in ranked[:MAX_CHOICES]
        ],
        "more": max(0, len(ranked) - MAX_CHOICES),
        "legal": est.legal if est is not None else None,
        "not_valued": est.note() or None if est is not None else N_("no estimate for this decision"),
        "cost": round(r.cost, 3) if r.cost is not None else None,
        "verdict": r.verdict,
        "best": label(best, rules) if best is not None else None,
        "best_words": words(best, rules) if best is not None else None,
        "seen": _seen_json(d.obs),
    }


def _seen_json(obs: Observation) -> dict[str, Any]:
    """The decision as its seat saw it: its own cards, the contract, the calls, the trick so far."""
    rules = obs.rules
    tt = rules.tables(obs.trump) if obs.trump is not None else None
    return {
        "hand": cards_json(sort_hand(obs.hand, tt)),
        "trump": SUITS[obs.trump] if obs.trump is not None else None,
        "bidder": obs.bidder,
        "bid": obs.bid,
        "calls": calls_json(obs.calls, obs.dealer, rules),
        "trick": seen_trick_json(obs.trick) if obs.trick is not None else None,
        "scores": list(obs.scores),
    }


def lost(entries: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """The costs of the entries, summed per part of the game (bidding, exchange, play)."""
    out = dict.fromkeys(("bidding", "exchange", "play"), 0.0)
    for e in entries:
        if e["cost"]:
            out[e["part"]] = round(out[e["part"]] + e["cost"], 3)
    return out


def summary(hands: Sequence[Mapping[str, Any]], top: int = 10) -> dict[str, Any]:
    """The game's totals per part, and its costliest decisions first."""
    total = dict.fromkeys(("bidding", "exchange", "play"), 0.0)
    for h in hands:
        for part, value in h["lost"].items():
            total[part] = round(total[part] + value, 3)
    entries = [e for h in hands for e in h["entries"]]
    costly = sorted(
        (e for e in entries if (e["cost"] or 0) > 1e-9), key=lambda e: (-e["cost"], e["hand"], e["number"])
    )
    return {
        "lost": total,
        "decisions": len(entries),
        "not_valued": sum(1 for e in entries if e["not_valued"]),
        "mistakes": costly[:top],
    }


def warm_up() -> None:
    """Run in a review worker as it starts: the expert and what it imports loaded, ready for a job."""
    make_player(ServerSettings.review_player, SEED)


@dataclass(frozen=True)
class HintJob:
    """A worker's job: the expert's estimates for ``seat`` after ``actions``."""

    table_id: str
    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    actions: tuple[str, ...] = ()
    seat: int = 0


def hint(job: HintJob) -> dict[str, Any]:
    """In a worker: every legal choice of ``seat`` now, valued, best first."""
    state = table_game(job.variant, job.options, job.seed, None)
    for text in job.actions:
        state.apply(parse_action_text(text, state.rules.max_bid)[1])
    obs = state.observation(job.seat)
    rules = state.rules
    expert = cast(ChoiceEstimator, make_player("expert", f"hints:{job.table_id}"))
    est = expert.estimates(obs)
    if est is None:
        return {"unit": None, "choices": [], "legal": 0, "not_valued": N_("no hint for this decision")}
    return {
        "unit": est.unit,
        "choices": [
            {"action": words(a, rules), "label": label(a, rules), "value": round(v, 3)}
            for a, v in est.ranked()
        ],
        "legal": est.legal,
        "not_valued": est.note() or None,
    }


__all__ = [
    "HandJob",
    "HintJob",
    "Outline",
    "ReviewGame",
    "hint",
    "lost",
    "outline",
    "review_hand",
    "summary",
    "warm_up",
]
