"""What an observation says about the other seats: only what the table sees."""

import dataclasses

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.variants.catalog import get_variant


def test_discard_counts_are_public_and_match_the_non_trumps_thrown() -> None:
    rules = get_variant("cinch")
    for seed in range(20):
        state = GameState(rules, seed=seed)
        players = [make_player("basic", seat) for seat in range(4)]
        while state.phase != Phase.PLAY:
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat)))
        assert state.trump is not None
        dealt = state.deal_records[0][0]
        for watcher in range(4):
            seen = state.observation(watcher).discarded
            for seat in range(4):
                thrown = [c for c in dealt[seat] if not state.rules.tables(state.trump).trump_mask >> c & 1]
                # cinch: every non-trump of the deal, nothing else; a short stock that deals discards
                # again (the wash) does not lower the count: which pile they came from is hidden
                assert seen[seat] == len(thrown)


def test_the_score_sheet_lists_every_finished_hand_as_the_table_saw_it() -> None:
    rules = get_variant("pidro")
    state = GameState(rules, seed=3)
    players = [make_player("basic", seat) for seat in range(4)]
    sheets = []
    while len(state.results) < 3:
        seat = state.current_player
        obs = state.observation(seat)
        sheets.append(obs.history)
        state.apply(players[seat].act(obs))
    final = state.observation(0).history
    assert [(h.dealer, h.bidder, h.bid, h.points, h.made, h.score) for h in final] == [
        (r.dealer, r.bidder, r.bid, tuple(r.points), r.made, tuple(r.score)) for r in state.results
    ]
    # each sheet seen during the game is the start of the final one: hands already written never change
    assert all(final[: len(sheet)] == sheet for sheet in sheets)
    assert {len(sheet) for sheet in sheets} == {0, 1, 2}


def test_an_observation_made_without_its_init_has_every_field_as_its_init_would_give_it() -> None:
    rules = get_variant("pidro")
    state = GameState(rules, seed=5)
    players = [make_player("basic", seat) for seat in range(4)]
    checked = 0
    while len(state.results) < 2:
        seat = state.current_player
        for watcher in range(4):
            obs = state.observation(watcher)
            fields = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
            assert set(vars(obs)) == set(fields)
            assert type(obs)(**fields) == obs
            checked += 1
        state.apply(players[seat].act(state.observation(seat)))
    assert checked > 100
