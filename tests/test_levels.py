"""Strength levels: named computer players from a beginner to the expert, each a real step up."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from pedro.cli.play.seats import seat_players
from pedro.players import (
    LEVELS,
    PLAYERS,
    BasicPlayer,
    ExpertPlayer,
    HeuristicPlayer,
    UnknownPlayerError,
    check_player,
    make_player,
    samples_of,
)
from pedro.players.basic import BasicBidder, BasicExchanger, RuleCardPlayer
from pedro.players.card_search import SolvingCardPlayer
from pedro.players.expert_bidding import SolvedBidder
from pedro.players.expert_config import ExpertConfig
from pedro.players.expert_exchange import ExpertExchanger
from pedro.players.heuristic import HeuristicExchanger, SimulatedBidder
from pedro.players.levels import level_player
from pedro.players.parts import ComposedPlayer

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: A step's figure in docs/strength.md: the score change per deal, its 95% interval and the deals.
FIGURE = re.compile(r"[+−-]\d+\.\d+ \([+−-]\d+\.\d+ to [+−-]\d+\.\d+\), [\d,]+ deals")


def test_the_levels_go_from_the_beginner_to_the_expert_and_each_is_a_real_player() -> None:
    assert [level.name for level in LEVELS] == ["beginner", "club", "strong", "expert"]
    kinds = [type(make_player(level.name, 0)) for level in LEVELS]
    assert kinds == [BasicPlayer, HeuristicPlayer, ExpertPlayer, ExpertPlayer]
    for level in LEVELS:
        check_player(level.player)
        assert level.description
        # a level's name is never another player's: "expert" is the expert itself
        assert level.name not in PLAYERS or level.player == level.name


def test_the_strong_level_searches_fewer_deals_and_bids_as_club() -> None:
    strong = make_player("strong", 0)
    assert isinstance(strong, ExpertPlayer)
    assert strong.config.samples == 3 and not isinstance(strong.bidder, SolvedBidder)
    assert samples_of("strong") == 3  # what a server's strength cap counts
    expert = make_player("expert", 0)
    assert (
        isinstance(expert, ExpertPlayer)
        and isinstance(expert.bidder, SolvedBidder)
        and expert.config.samples > strong.config.samples
    )


def test_each_level_is_a_composition_of_a_bidder_an_exchanger_and_a_card_player() -> None:
    parts = {
        level.name: tuple(type(part) for part in (p.bidder, p.exchanger, p.card_player))
        for level in LEVELS
        if isinstance(p := make_player(level.name, 0), ComposedPlayer)
    }
    assert parts == {
        "beginner": (BasicBidder, BasicExchanger, RuleCardPlayer),
        "club": (SimulatedBidder, HeuristicExchanger, RuleCardPlayer),
        "strong": (SimulatedBidder, ExpertExchanger, SolvingCardPlayer),
        "expert": (SolvedBidder, ExpertExchanger, SolvingCardPlayer),
    }
    # a setting puts heuristic's part in place of the expert's own, and changes nothing else
    both = make_player("expert:bid=heuristic:exchange=heuristic", 0)
    assert isinstance(both, ExpertPlayer) and both.config == ExpertConfig()
    assert (type(both.bidder), type(both.exchanger)) == (SimulatedBidder, HeuristicExchanger)


def test_an_unknown_name_lists_the_levels_too() -> None:
    with pytest.raises(UnknownPlayerError, match="levels: beginner, club, strong, expert"):
        make_player("grandmaster", 0)
    assert level_player("cmd:python bot.py") == "cmd:python bot.py"


def test_one_level_names_every_computer_seat_of_a_terminal_game() -> None:
    assert seat_players("club", 4) == ["human", "club", "club", "club"]
    assert seat_players("Strong", 3) == ["human", "strong", "strong"]
    with pytest.raises(ValueError, match="levels: beginner, club, strong, expert"):
        seat_players("club,club", 4)


def test_every_level_is_measured_against_the_one_below_in_the_strength_figures() -> None:
    text = (DOCS / "strength.md").read_text(encoding="utf-8")
    section = text.split("### Strength levels", 1)[1].split("\n## ", 1)[0]
    for below, level in pairwise(LEVELS):
        step = f"`{level.name}` − `{below.name}`"
        row = next((line for line in section.splitlines() if line.startswith(f"| {step}")), None)
        assert row is not None, step
        # a figure with its interval and deals in each variant's column
        assert len(FIGURE.findall(row)) == 2, row
