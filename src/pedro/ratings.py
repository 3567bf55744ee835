"""Ratings of people and computer players, one per variant, with openskill's Plackett-Luce model.

A rated game that ends updates the rating of the player at every seat. The
sides are the model's teams (two partners, or one player alone), ranked by how
the game ended: the winner first, the other sides by their final scores, equal
scores sharing a place. openskill handles partnerships and more than two sides,
which Elo does not, and keeps an uncertainty (``sigma``) per player, so a
newcomer's rating moves fast and a regular's slowly.

Computer players are rated like people, under their level's or player's name,
so that each level is a reference point on the same scale ("club ≈ 24").
A player found on more than one side of a game (two computers of one level
playing each other) is not moved by it: its wins and losses in that game are
against itself. On one side (two partners of one level) it takes the mean of
the two updates.

The rating shown is openskill's ``ordinal``, ``mu - 3 sigma``: a player's
rating is most likely higher, and a newcomer starts at 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from pedro.players.levels import LEVELS
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import option_values

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

#: A new player's rating: openskill's defaults, which the model is made with.
MU = 25.0
SIGMA = MU / 3


@cache
def _model() -> PlackettLuce:
    """The Plackett-Luce model, imported when a game is first rated: the rest of this module
    (which games are rated) serves where openskill is not installed (the offline app's Python)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one variant: the model's belief (``mu``, ``sigma``) and the games rated."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        """The rating pages show: openskill's ordinal, mu − 3 sigma."""
        return self.mu - 3 * self.sigma


def side_ranks(final_scores: Sequence[int], winner: int | None) -> list[int]:
    """Each side's place, from 1: the winner first, then by final score (equal scores share a place).

    >>> side_ranks([40, 62], winner=1)
    [2, 1]
    >>> side_ranks([100, 85, 85, 12], winner=0)
    [1, 2, 2, 4]
    """

    def key(side: int) -> tuple[bool, int]:
        return side != winner, -final_scores[side]

    order = sorted(range(len(final_scores)), key=key)
    ranks = [0] * len(final_scores)
    for place, side in enumerate(order, start=1):
        previous = order[place - 2] if place > 1 else None
        tied = previous is not None and key(previous) == key(side)
        ranks[side] = ranks[previous] if tied and previous is not None else place
    return ranks


def rate_game(
    rules: Ruleset,
    players: Sequence[str],
    ratings: Mapping[str, Rating],
    final_scores: Sequence[int],
    winner: int | None,
) -> dict[str, Rating]:
    """The new ratings, in this variant, of the players at the seats (``players[seat]``, a name
    or profile id) after a rated game that ended with ``final_scores`` per side.

    ``ratings`` holds their ratings before the game (a player missing from it is new). The
    answer holds every player the game moves.
    """
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for {rules.players} seats")
    if len(final_scores) != rules.num_sides:
        raise ValueError(f"{len(final_scores)} scores for {rules.num_sides} sides")
    sides_of: dict[str, set[int]] = {}
    for seat, player in enumerate(players):
        sides_of.setdefault(player, set()).add(rules.side_of(seat))
    teams: list[list[int]] = [[] for _ in range(rules.num_sides)]  # seats per side
    for seat in range(rules.players):
        teams[rules.side_of(seat)].append(seat)

    def model_rating(player: str) -> PlackettLuceRating:
        known = ratings.get(player, Rating())
        return _model().rating(mu=known.mu, sigma=known.sigma, name=player)

    rated = _model().rate(
        [[model_rating(players[seat]) for seat in team] for team in teams],
        ranks=[float(r) for r in side_ranks(final_scores, winner)],
    )
    updates: dict[str, list[tuple[float, float]]] = {}
    for team, new in zip(teams, rated, strict=True):
        for seat, rating in zip(team, new, strict=True):
            updates.setdefault(players[seat], []).append((rating.mu, rating.sigma))
    out: dict[str, Rating] = {}
    for player, moves in updates.items():
        if len(sides_of[player]) > 1:
            continue  # on both sides: it played itself
        before = ratings.get(player, Rating())
        mu = sum(m for m, _ in moves) / len(moves)
        sigma = sum(s for _, s in moves) / len(moves)
        out[player] = Rating(mu, sigma, before.games + 1)
    return out


def stood_in_for_most(decisions: int, stood_in: int) -> bool:
    """Whether a computer stood in for a person in most of the person's decisions of a game:
    such a game is not rated (the person did not play it).

    >>> stood_in_for_most(40, 25), stood_in_for_most(40, 20)
    (True, False)
    """
    return decisions > 0 and 2 * stood_in > decisions


@dataclass(frozen=True)
class SeatTaker:
    """Who sits at a seat, as far as rating needs: a person or a computer (its player), and the
    profile linked to the seat (a person's, or None)."""

    kind: str
    player: str | None = None
    profile: str | None = None


#: The computer players a rated game may have at its seats: the strength levels (by their names or
#: players), each a fixed reference point. Any other player (``random``, an expert with other
#: settings) would hand out rating points nobody earned against a known strength.
RATED_COMPUTERS = frozenset(name for level in LEVELS for name in (level.name, level.player))


def unrated_reason(
    variant: str,
    options: Mapping[str, object],
    practice: bool,
    hands: int | None,
    seats: Sequence[SeatTaker],
) -> tuple[str | None, int | None]:
    """Why a game at these seats will not be rated (its reason's code, and the seat it is about),
    or (None, None): one rule, which the table shows before the start and the game's end applies
    (the end adds only what play decides: a stand-in for most of a seat's decisions).

    A rated game is the variant's own (a target at least the variant's, longer games measuring
    better, and no other house rule), with distinct profiles at the seats and only rated
    computer levels beside the people.

    >>> human = SeatTaker("human", profile="p1")
    >>> unrated_reason("pitch_fives", {}, False, None, [human, SeatTaker("computer", "random")] * 2)
    ('shared_profile', 2)
    >>> unrated_reason("cinch", {"target": 11}, False, None, [human] + [SeatTaker("computer", "club")] * 3)
    ('low_target', None)
    """
    if hands is not None:
        return "tournament_deal", None
    if not any(s.profile for s in seats):
        return "no_profiles", None
    if practice:
        return "practice", None
    seen: set[str] = set()
    for i, s in enumerate(seats):
        if s.profile is not None and s.profile in seen:
            return "shared_profile", i
        if s.profile is not None:
            seen.add(s.profile)
    for i, s in enumerate(seats):
        if s.kind == "computer" and (s.player or "basic") not in RATED_COMPUTERS:
            return "unrated_player", i
    return _house_rules_reason(variant, options), None


def _house_rules_reason(variant: str, options: Mapping[str, object]) -> str | None:
    """ "low_target" for a target below the variant's own, "house_rules" for any other option that
    is not the variant's own value; None for the variant as it is (a longer target allowed)."""
    rules = VARIANTS.get(variant)
    if rules is None:
        return "house_rules"
    own = option_values(rules)
    for name, value in options.items():
        if name == "target":
            if not isinstance(value, int) or isinstance(value, bool) or value < rules.target:
                return "low_target"
        elif name not in own or own[name] != value:
            return "house_rules"
    return None
