"""Duplicate deals and games between two computer players, mapped over a backend.

A *deal* is the first hand of ``GameState(rules, seed=seed + index)``: the
same seed gives the same cards to the same seats and the same first dealer.
Each deal is played twice: player A in the even seats and B in the odd seats,
then the other way round, so each seat's cards are played once by each
player and the luck of the cards cancels in the difference A − B. In the
partnership variants this swaps the two partnerships; in the variants where
everyone plays alone (n seats), A holds seats 0, 2, 4, ... and B the odd
seats the first time, and the reverse the second time, so every seat is
played by each player exactly once per deal (with an odd n, A holds one
more seat in the first play and B in the second).

The seat ``s`` player of a deal (or game) with seed ``d`` is made with the
seed ``d * 16 + s``, as ``pedro simulate`` does, in both plays: a result
depends only on (seed, index, seat), never on the process that played it,
so every ``--jobs`` gives the same results, and the first play of deal ``i``
is the first hand of ``pedro simulate --seed S+i --games 1 --players A,B,A,B``.
A player against itself thus plays the same game twice, and A − B is 0.

:func:`play_duplicate_deal` and :func:`play_duplicate_game` take only plain,
picklable arguments and return plain frozen dataclasses, so any backend that
can map a function over indexes can run them; :class:`LocalBackend` maps
them over a local process pool.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, Protocol, TypeVar

from pedro.engine.state import GameState, HandResult
from pedro.players.games import GameFailure, GameRun, run_game
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionValue, make_ruleset

T = TypeVar("T")

#: How the two players are called in reports: A is the first name of ``--players``.
LABELS = ("A", "B")


class TournamentError(Exception):
    """A deal could not be played to its end: a player chose an illegal action or the deal failed."""


#: A player's bot faults in a play: (why, how many decisions the fallback made), sorted by why.
Faults = tuple[tuple[str, int], ...]
NO_FAULTS: tuple[Faults, Faults] = ((), ())


def add_faults(*parts: Faults) -> Faults:
    """The faults of several plays together."""
    total: dict[str, int] = {}
    for part in parts:
        for kind, count in part:
            total[kind] = total.get(kind, 0) + count
    return tuple(sorted(total.items()))


def _faults_json(faults: tuple[Faults, Faults]) -> dict[str, Any]:
    """``{"faults": {"A": {why: n}, "B": {...}}}``, or nothing when no bot faulted (rows stay short)."""
    if faults == NO_FAULTS:
        return {}
    return {"faults": {label: dict(f) for label, f in zip(LABELS, faults, strict=True)}}


def _faults_from_json(doc: Mapping[str, Any]) -> tuple[Faults, Faults]:
    """Read back :func:`_faults_json`; a document written before bots had faults has none."""
    faults = doc.get("faults", {})
    a, b = (tuple(sorted(faults.get(label, {}).items())) for label in LABELS)
    return a, b


# ---------------------------------------------------------------------------
# seating


def owner(seat: int, swapped: bool) -> int:
    """Which player (0 = A, 1 = B) holds ``seat``: A the even seats, unless the play is swapped."""
    return (seat + swapped) % 2


def seating(players: Sequence[str], num_seats: int, swapped: bool) -> list[str]:
    """The player name at each seat for one of the two plays."""
    return [players[owner(s, swapped)] for s in range(num_seats)]


# ---------------------------------------------------------------------------
# plain results


@dataclass(frozen=True)
class PlayRecord:
    """One play of a deal: who sat where and what each player and side got."""

    swapped: bool
    #: player name per seat
    seats: tuple[str, ...]
    #: points taken per side of the table (a seat, where everyone plays alone)
    side_points: tuple[int, ...]
    #: score change per side of the table
    side_change: tuple[int, ...]
    #: per player (A, B): points taken by the sides it holds
    points: tuple[int, int]
    #: per player (A, B): score change of the sides it holds
    change: tuple[int, int]
    #: the seat that won the auction (``None`` when the hand was thrown in)
    bidder: int | None
    #: the player (0 = A, 1 = B) holding the bidder's seat
    bid_by: int | None
    bid: int | None
    made: bool | None
    #: per player (A, B): decisions its bot programs left to the fallback player, by why
    faults: tuple[Faults, Faults] = NO_FAULTS

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "side_points": list(self.side_points),
            "side_change": list(self.side_change),
            "points": dict(zip(LABELS, self.points, strict=True)),
            "change": dict(zip(LABELS, self.change, strict=True)),
            "bidder": self.bidder,
            "bid_by": None if self.bid_by is None else LABELS[self.bid_by],
            "bid": self.bid,
            "made": self.made,
        } | _faults_json(self.faults)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], swapped: bool) -> PlayRecord:
        """Read back :meth:`to_json` (the second play of a deal is the swapped one)."""
        return cls(
            swapped=swapped,
            seats=tuple(doc["seats"]),
            side_points=tuple(doc["side_points"]),
            side_change=tuple(doc["side_change"]),
            points=(doc["points"]["A"], doc["points"]["B"]),
            change=(doc["change"]["A"], doc["change"]["B"]),
            bidder=doc["bidder"],
            bid_by=None if doc["bid_by"] is None else LABELS.index(doc["bid_by"]),
            bid=doc["bid"],
            made=doc["made"],
            faults=_faults_from_json(doc),
        )


@dataclass(frozen=True)
class DealResult:
    """A duplicate deal: the same cards played twice, sides swapped."""

    index: int
    seed: int
    dealer: int
    plays: tuple[PlayRecord, PlayRecord]

    def points(self, player: int) -> float:
        """The player's points per play of this deal (the mean of the two plays)."""
        return (self.plays[0].points[player] + self.plays[1].points[player]) / 2

    def change(self, player: int) -> float:
        """The player's score change per play of this deal (the mean of the two plays)."""
        return (self.plays[0].change[player] + self.plays[1].change[player]) / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "points": {label: self.points(p) for p, label in enumerate(LABELS)},
            "change": {label: self.change(p) for p, label in enumerate(LABELS)},
            "plays": [play.to_json() for play in self.plays],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], index: int | None = None) -> DealResult:
        """Read back :meth:`to_json`, renumbered to ``index`` when given."""
        first, second = doc["plays"]
        return cls(
            index=doc["index"] if index is None else index,
            seed=doc["seed"],
            dealer=doc["dealer"],
            plays=(PlayRecord.from_json(first, False), PlayRecord.from_json(second, True)),
        )


@dataclass(frozen=True)
class GameResult:
    """A duplicate game: the same seed played to the end twice, sides swapped."""

    index: int
    seed: int
    #: per play, the winning player (0 = A, 1 = B), or ``None`` if stopped unfinished
    winners: tuple[int | None, int | None]
    #: per play, the hands played
    hands: tuple[int, int]
    #: per play, the final score of each side of the table
    scores: tuple[tuple[int, ...], tuple[int, ...]]
    #: per player (A, B), over both plays: decisions its bot programs left to the fallback player
    faults: tuple[Faults, Faults] = NO_FAULTS

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "winners": [None if w is None else LABELS[w] for w in self.winners],
            "hands": list(self.hands),
            "scores": [list(s) for s in self.scores],
        } | _faults_json(self.faults)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], index: int | None = None) -> GameResult:
        """Read back :meth:`to_json`, renumbered to ``index`` when given."""
        first, second = (None if w is None else LABELS.index(w) for w in doc["winners"])
        hands, scores = doc["hands"], doc["scores"]
        return cls(
            index=doc["index"] if index is None else index,
            seed=doc["seed"],
            winners=(first, second),
            hands=(hands[0], hands[1]),
            scores=(tuple(scores[0]), tuple(scores[1])),
            faults=_faults_from_json(doc),
        )


# ---------------------------------------------------------------------------
# playing


@lru_cache(maxsize=16)
def _ruleset(variant: str, options: tuple[tuple[str, OptionValue], ...]) -> Ruleset:
    return make_ruleset(variant, dict(options))


def ruleset(variant: str, options: Mapping[str, OptionValue]) -> Ruleset:
    """The rules of a variant with options, built once per process."""
    return _ruleset(variant, tuple(sorted(options.items())))


def play_hands(rules: Ruleset, names: Sequence[str], seed: int, max_hands: int) -> GameState:
    """Play from ``GameState(rules, seed=seed)`` until the game ends or ``max_hands`` hands are done."""
    return _run(rules, names, seed, max_hands).state


def _run(rules: Ruleset, names: Sequence[str], seed: int, max_hands: int) -> GameRun:
    try:
        return run_game(rules, names, seed, max_hands)
    except GameFailure as exc:
        raise TournamentError(str(exc)) from None


def player_faults(run: GameRun, swapped: bool) -> tuple[Faults, Faults]:
    """The bot faults of a play, summed per player (A, B) over the seats it holds."""
    per: tuple[list[Faults], list[Faults]] = ([], [])
    for seat, faults in run.faults.items():
        per[owner(seat, swapped)].append(tuple(faults.items()))
    return add_faults(*per[0]), add_faults(*per[1])


def _per_player(rules: Ruleset, values: Sequence[int], swapped: bool) -> tuple[int, int]:
    """Sum ``values`` (one per side of the table) over the sides each player holds."""
    sides: tuple[set[int], set[int]] = (set(), set())
    for seat in range(rules.players):
        sides[owner(seat, swapped)].add(rules.side_of(seat))
    a, b = (sum(values[side] for side in held) for held in sides)
    return a, b


def play_record(
    rules: Ruleset,
    result: HandResult,
    seats: Sequence[str],
    swapped: bool,
    faults: tuple[Faults, Faults] = NO_FAULTS,
) -> PlayRecord:
    """What one play of a deal gave each side and each player."""
    bidder = result.bidder
    return PlayRecord(
        swapped=swapped,
        seats=tuple(seats),
        side_points=tuple(result.points),
        side_change=tuple(result.change),
        points=_per_player(rules, result.points, swapped),
        change=_per_player(rules, result.change, swapped),
        bidder=bidder,
        bid_by=None if bidder is None else owner(bidder, swapped),
        bid=result.bid if bidder is not None else None,
        made=result.made if bidder is not None else None,
        faults=faults,
    )


def play_duplicate_deal(
    variant: str, options: Mapping[str, OptionValue], players: Sequence[str], seed: int, index: int
) -> DealResult:
    """Play deal ``index`` (seed ``seed + index``) twice, sides swapped; the unit a backend maps."""
    rules = ruleset(variant, options)
    deal_seed = seed + index
    plays: list[PlayRecord] = []
    dealer = 0
    for swapped in (False, True):
        seats = seating(players, rules.players, swapped)
        run = _run(rules, seats, deal_seed, max_hands=1)
        result = run.state.results[0]
        dealer = result.dealer
        plays.append(play_record(rules, result, seats, swapped, player_faults(run, swapped)))
    return DealResult(index=index, seed=deal_seed, dealer=dealer, plays=(plays[0], plays[1]))


def play_duplicate_game(
    variant: str,
    options: Mapping[str, OptionValue],
    players: Sequence[str],
    seed: int,
    max_hands: int,
    index: int,
) -> GameResult:
    """Play game ``index`` (seed ``seed + index``) to the end twice, sides swapped."""
    rules = ruleset(variant, options)
    game_seed = seed + index
    winners: list[int | None] = []
    hands: list[int] = []
    scores: list[tuple[int, ...]] = []
    faults: list[tuple[Faults, Faults]] = []
    for swapped in (False, True):
        run = _run(rules, seating(players, rules.players, swapped), game_seed, max_hands)
        state = run.state
        faults.append(player_faults(run, swapped))
        winner = state.winner
        if winner is None:
            winners.append(None)
        else:  # a side: its first seat tells who holds it
            winners.append(owner(rules.sides()[winner][0], swapped))
        hands.append(len(state.results))
        scores.append(tuple(state.scores))
    return GameResult(
        index=index,
        seed=game_seed,
        winners=(winners[0], winners[1]),
        hands=(hands[0], hands[1]),
        scores=(scores[0], scores[1]),
        faults=(add_faults(faults[0][0], faults[1][0]), add_faults(faults[0][1], faults[1][1])),
    )


# ---------------------------------------------------------------------------
# backends


class Backend(Protocol):
    """Maps a picklable one-argument function over indexes, yielding results in any order."""

    def map_unordered(self, fn: Callable[[int], T], indexes: Sequence[int]) -> Iterator[T]: ...


class LocalBackend:
    """This process alone (``jobs=1``) or a pool of ``jobs`` local processes.

    Workers are started by a fork server where there is one (never forked from
    this process, which runs the progress bar's thread), else spawned.
    """

    def __init__(self, jobs: int = 1, start_method: str | None = None) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.jobs = jobs
        if start_method is None:
            methods = multiprocessing.get_all_start_methods()
            start_method = "forkserver" if "forkserver" in methods else "spawn"
        self.start_method = start_method

    def map_unordered(self, fn: Callable[[int], T], indexes: Sequence[int]) -> Iterator[T]:
        if self.jobs == 1 or len(indexes) < 2:
            # a loop, not ``map``: a StopIteration escaping ``fn`` would end ``map`` as if every
            # deal were played (a short result, silently); here it fails loudly (PEP 479)
            for index in indexes:
                yield fn(index)
            return
        chunk = max(1, min(16, len(indexes) // (self.jobs * 8)))
        with multiprocessing.get_context(self.start_method).Pool(min(self.jobs, len(indexes))) as pool:
            yield from pool.imap_unordered(fn, indexes, chunksize=chunk)


@dataclass(frozen=True)
class TournamentResults:
    """Every deal and game of a tournament, in index order."""

    deals: list[DealResult]
    games: list[GameResult]


def run_tournament(
    variant: str,
    options: Mapping[str, OptionValue],
    players: Sequence[str],
    *,
    seed: int,
    deals: int,
    games: int = 0,
    max_hands: int = 500,
    backend: Backend | None = None,
    advance: Callable[[], object] | None = None,
) -> TournamentResults:
    """Play ``deals`` duplicate deals and ``games`` duplicate games; ``advance`` is called after each."""
    backend = backend or LocalBackend()
    names = tuple(players)
    opts = dict(options)

    def collect(results: Iterable[T]) -> list[T]:
        out = []
        for r in results:
            out.append(r)
            if advance is not None:
                advance()
        return out

    deal_results = collect(
        backend.map_unordered(partial(play_duplicate_deal, variant, opts, names, seed), range(deals))
    )
    play_game = partial(play_duplicate_game, variant, opts, names, seed, max_hands)
    game_results = collect(backend.map_unordered(play_game, range(games)))
    return TournamentResults(
        deals=sorted(deal_results, key=lambda d: d.index),
        games=sorted(game_results, key=lambda g: g.index),
    )
