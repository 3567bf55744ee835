"""Ratings per variant with openskill: a finished game moves them as the library says."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.ratings import Rating, rate_game, side_ranks, stood_in_for_most
from pedro.variants.options import make_ruleset


def finished_game(variant: str, seed: int) -> GameState:
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    players = [make_player("basic", seed * 16 + s) for s in range(rules.players)]
    while not state.is_over:
        state.apply(choose(players[state.current_player], state))
    return state


def test_a_partnership_game_moves_the_ratings_as_openskill_says() -> None:
    state = finished_game("cinch", 3)
    rules = state.rules
    before = {"ann": Rating(27.0, 6.0, 12), "bo": Rating(22.0, 7.5, 3)}
    players = ["ann", "club", "bo", "club"]  # two computers of one level as partners
    after = rate_game(rules, players, before, state.scores, state.winner)

    model = PlackettLuce()
    ann, bo = (model.rating(mu=r.mu, sigma=r.sigma) for r in (before["ann"], before["bo"]))
    club1, club2 = model.rating(), model.rating()
    winner = state.winner
    assert winner is not None
    ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    [[ann2, bo2], [c1, c2]] = model.rate([[ann, bo], [club1, club2]], ranks=ranks)
    assert after["ann"].mu == pytest.approx(ann2.mu) and after["ann"].sigma == pytest.approx(ann2.sigma)
    assert after["bo"].mu == pytest.approx(bo2.mu)
    assert after["club"].mu == pytest.approx((c1.mu + c2.mu) / 2)
    assert (after["ann"].games, after["bo"].games, after["club"].games) == (13, 4, 1)
    # the winners go up, the losers down
    won = {"ann", "bo"} if winner == 0 else {"club"}
    for name, rating in after.items():
        start = before.get(name, Rating())
        assert (rating.mu > start.mu) == (name in won), name


def test_a_game_of_four_players_each_alone_ranks_them_by_the_outcome() -> None:
    state = finished_game("dom_pedro", 1)
    rules = state.rules
    players = ["ann", "bo", "cy", "beginner"]
    after = rate_game(rules, players, {}, state.scores, state.winner)
    ranks = side_ranks(state.scores, state.winner)
    assert ranks[state.winner or 0] == 1
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in players], ranks=[float(r) for r in ranks])
    for seat, name in enumerate(players):
        assert after[name].mu == pytest.approx(expected[seat][0].mu), name
    best = max(players, key=lambda name: after[name].mu)
    assert players.index(best) == state.winner


def test_a_player_on_both_sides_is_not_moved_and_a_newcomer_shows_zero() -> None:
    state = finished_game("cinch", 4)
    after = rate_game(state.rules, ["club", "club", "ann", "bo"], {}, state.scores, state.winner)
    assert "club" not in after and set(after) == {"ann", "bo"}
    assert Rating().shown == pytest.approx(0.0)


def test_ties_share_a_place_and_the_winner_comes_first_whatever_the_score() -> None:
    assert side_ranks([62, 70], winner=0) == [1, 2]  # won by bidding out below the other's score
    assert side_ranks([30, 30, 10], winner=None) == [1, 1, 3]


def test_a_game_a_computer_played_for_a_person_most_of_the_time_is_not_rated() -> None:
    assert stood_in_for_most(30, 16)
    assert not stood_in_for_most(30, 15)
    assert not stood_in_for_most(0, 0)


def test_wrong_seats_or_sides_are_refused() -> None:
    rules = make_ruleset("cinch")
    with pytest.raises(ValueError, match="3 players for 4 seats"):
        rate_game(rules, ["a", "b", "c"], {}, [10, 62], 1)
    with pytest.raises(ValueError, match="3 scores for 2 sides"):
        rate_game(rules, ["a", "b", "c", "d"], {}, [10, 62, 5], 1)


def test_a_newcomer_starts_at_0_and_one_loss_takes_the_shown_rating_below_it() -> None:
    """What the leaderboard says of a newcomer's rating: 0 at first, below 0 after an early loss."""
    assert Rating().shown == 0
    rules = make_ruleset("cinch", {})
    after = rate_game(rules, ["ann", "bo", "cy", "di"], {}, [62, 30], 0)
    assert after["ann"].shown > 0 > after["bo"].shown
