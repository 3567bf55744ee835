"""Sampled worlds agree with everything a seat has seen, in every variant and some house rules."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pedro.cards import cards_of, mask_of
from pedro.engine.deal import DealError
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState
from pedro.players.base import RandomPlayer
from pedro.players.basic import BasicPlayer
from pedro.players.hand_constraints import knowledge, play_floors, played_by, trumps_stay_in_play
from pedro.players.hand_strength import expected_points
from pedro.players.sampling import World, bid_weight, call_chances, consistent, sample_hands, sample_worlds
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

CASES: list[tuple[str, dict[str, object]]] = [(v, {}) for v in VARIANTS] + [
    ("pidro", {"cold_cards_face": "down"}),
    ("cinch", {"keep_nontrumps": True}),
    ("cinch", {"dealer_robs_discards": True}),
    ("cinch", {"first_lead_trump": True, "plain_lead": "must_follow"}),
    ("cinch", {"excess_trumps": "must_discard_to_6", "discards_face": "down"}),
    ("king_pedro", {"plain_lead": "follow_or_trump_void_must_trump"}),
    ("pitch_fives", {"relative_high_low": True}),
    ("eighty_three", {"nine_card_deal": True}),
    ("cinch", {"trump_discard_claim": "anyone", "discards_face_up": True}),
    ("cinch", {"excess_trumps": "pass_to_partner"}),
    ("pedro_sancho", {"deal_all_out": True}),
]
IDS = [v + "+" + ",".join(o) if o else v for v, o in CASES]


def play_observations(
    variant: str, options: dict[str, object], games: int, bidders: bool = False
) -> Iterator[tuple[tuple[int, ...], Observation]]:
    """The true hands and the mover's observation at every card play of a few games.

    The players are random, or ``basic`` (which bids by its hand) with ``bidders``.
    """
    rules = make_ruleset(variant, options)
    for g in range(games):
        state = GameState(rules, seed=g)
        players = [BasicPlayer(g * 10 + s) if bidders else RandomPlayer(g * 10 + s) for s in range(4)]
        try:
            while not state.is_over and state.hand_index < 2:
                seat = state.current_player
                if state.phase == Phase.PLAY:
                    yield tuple(state.hands), state.observation(seat)
                state.apply(players[seat].act(state.observation(seat)))
        except DealError:
            continue  # a short stock and wash ran out: the game cannot go on


def _hidden_from(obs: Observation) -> list[int]:
    """Per seat, cards the observing seat knows that seat does not hold now."""
    rules = obs.rules
    public = mask_of(obs.own_discards)
    for t in [*obs.tricks, *([obs.trick] if obs.trick else [])]:
        for _s, cards in t.plays:
            public |= mask_of(cards)
    for cards in obs.face_up:
        public |= mask_of(cards)
    mine = mask_of(obs.hand)
    out = []
    for s in range(rules.players):
        if s == obs.seat:
            out.append(~mine & rules.deck_mask)
            continue
        no = public | mine
        if obs.shown[s]:
            no |= rules.deck_mask & ~mask_of(obs.shown[s])
        if not rules.partnerships or s != (obs.seat + 2) % rules.players:
            no |= mask_of(obs.seen)
        out.append(no)
    return out


@pytest.mark.parametrize(("variant", "options"), CASES, ids=IDS)
def test_true_hands_and_every_sample_are_consistent(variant: str, options: dict[str, object]) -> None:
    rng = random.Random(7)
    seen = 0
    for hands, obs in play_observations(variant, options, 6):
        assert consistent(obs, hands), "the true deal must pass the check"
        worlds = sample_worlds(obs, 3, rng)
        assert len(worlds) == 3
        no = _hidden_from(obs)
        for w in worlds:
            assert consistent(obs, w.hands)
            assert w.weight > 0
            for s, hand in enumerate(w.hands):
                assert hand.bit_count() == obs.hand_sizes[s]
                assert not hand & no[s], "a card the seat knows is elsewhere was put in a hand"
        seen += 1
    assert seen > 20


def _variant(
    variant: str, options: dict[str, object] | None = None
) -> list[tuple[tuple[int, ...], Observation]]:
    return list(play_observations(variant, options or {}, 3))


def test_the_check_rejects_worlds_that_contradict_the_play() -> None:
    """Moving one card between two hidden hands breaks a shown void often; a wrong hand size always."""
    rejected = tried = 0
    for hands, obs in _variant("cinch"):
        others = [s for s in range(4) if s != obs.seat and hands[s]]
        if len(others) < 2:
            continue
        a, b = others[:2]
        swapped = list(hands)
        ca, cb = cards_of(hands[a])[0], cards_of(hands[b])[0]
        swapped[a] ^= (1 << ca) | (1 << cb)
        swapped[b] ^= (1 << ca) | (1 << cb)
        tried += 1
        rejected += not consistent(obs, swapped)
        short = list(hands)
        short[a] &= short[a] - 1  # one card fewer
        assert not consistent(obs, short)
        mine = list(hands)
        mine[obs.seat], mine[a] = mine[a], mine[obs.seat]
        assert mine[obs.seat] == hands[obs.seat] or not consistent(obs, mine)
    assert tried > 20
    assert 0 < rejected < tried


def test_a_seat_that_did_not_follow_a_trump_lead_never_gets_a_trump() -> None:
    """Follow-or-trump: a non-trump played to a trump lead shows the seat has no trump left."""
    checked = 0
    rng = random.Random(3)
    for _state, obs in _variant("cinch"):
        assert obs.trump is not None
        tt = obs.rules.tables(obs.trump)
        void = set()
        for t in [*obs.tricks, *([obs.trick] if obs.trick else [])]:
            if t.plays and tt.trump_mask >> t.plays[0][1][0] & 1:
                void |= {s for s, cards in t.plays[1:] if not tt.trump_mask >> cards[0] & 1}
        void.discard(obs.seat)
        if not void:
            continue
        for w in sample_worlds(obs, 5, rng):
            for s in void:
                assert not w.hands[s] & tt.trump_mask
        checked += 1
    assert checked > 5


def test_cold_players_hold_no_trumps_even_face_down() -> None:
    rng = random.Random(4)
    checked = 0
    for _state, obs in _variant("pidro", {"cold_cards_face": "down"}):
        assert obs.trump is not None
        tt = obs.rules.tables(obs.trump)
        cold = [s for s, st in enumerate(obs.statuses) if st == Status.COLD and s != obs.seat]
        if not cold or any(obs.shown[s] for s in cold):
            continue
        for w in sample_worlds(obs, 4, rng):
            assert all(not w.hands[s] & tt.trump_mask for s in cold)
        checked += 1
    assert checked > 3


def test_kept_trumps_are_in_hand_or_played_where_every_non_trump_is_discarded() -> None:
    """Cinch: a seat that laid aside d of its 9 cards kept 9 - d trumps (the sampler's floor)."""
    rng = random.Random(5)
    checked = 0
    for hands, obs in list(play_observations("cinch", {}, 4, bidders=True)):
        assert obs.trump is not None
        tt = obs.rules.tables(obs.trump)
        sure, likely = play_floors(obs)
        played = played_by(obs)
        for s in range(4):
            assert ((hands[s] | played[s]) & tt.trump_mask).bit_count() >= sure[s]
            assert likely[s] >= sure[s]
        for w in sample_worlds(obs, 3, rng):
            for s in range(4):
                if s != obs.seat:
                    assert ((w.hands[s] | played[s]) & tt.trump_mask).bit_count() >= likely[s]
        checked += any(likely)
    assert checked > 10


@pytest.mark.parametrize("variant", ["cinch", "pidro", "king_pedro_canadian", "eighty_three"])
def test_where_no_trump_leaves_play_every_unseen_trump_is_in_a_hand(variant: str) -> None:
    """Cinch robs the stock's trumps, the 63/83 family deal the whole pack: no trump is dead."""
    rules = make_ruleset(variant, {})
    assert trumps_stay_in_play(rules)
    rng = random.Random(8)
    for hands, obs in _variant(variant):
        assert obs.trump is not None
        trumps = obs.rules.tables(obs.trump).trump_mask & rules.deck_mask
        public = played_by(obs)
        gone = mask_of(obs.own_discards) | mask_of(c for cards in obs.face_up for c in cards)
        for p in public:
            gone |= p
        assert trumps & ~(gone | sum(hands)) == 0
        for w in sample_worlds(obs, 2, rng):
            assert trumps & ~(gone | sum(w.hands)) == 0


def test_trumps_may_be_out_of_play_where_the_stock_is_not_all_dealt() -> None:
    assert not trumps_stay_in_play(make_ruleset("pitch_fives", {}))
    assert not trumps_stay_in_play(make_ruleset("pedro_sancho", {}))
    assert not trumps_stay_in_play(make_ruleset("nicaragua", {}))


def test_knowledge_is_sound_for_the_true_deal() -> None:
    """The sampler's own constraints (allowed cards, sizes, trumps) hold for the real hands."""
    for variant in ("cinch", "pidro", "king_pedro", "sixty_three", "piedro_jokers"):
        for hands, obs in _variant(variant):
            k = knowledge(obs, likely=False)
            assert obs.trump is not None
            trumps = obs.rules.tables(obs.trump).trump_mask
            for s in range(4):
                hidden = hands[s] & ~k.fixed[s]
                assert k.fixed[s] & ~hands[s] == 0
                assert hidden.bit_count() == k.need[s]
                if s != obs.seat:
                    assert hidden & ~k.allowed[s] == 0
                    assert (hidden & trumps).bit_count() >= k.min_trumps[s]


def test_bids_weigh_worlds_towards_a_strong_bidder() -> None:
    """Worlds where the bidder's hand is strong in trumps weigh more than those where it is weak."""
    rng = random.Random(6)
    compared = heavier = 0
    for _hands, obs in list(play_observations("cinch", {}, 6, bidders=True)):
        assert obs.trump is not None and obs.bidder is not None
        if obs.bidder == obs.seat or obs.tricks:
            continue
        bidder, trump = obs.bidder, obs.trump
        worlds: list[World] = sample_worlds(obs, 20, rng)
        played = played_by(obs)
        strength = {
            w.hands: expected_points(obs.rules, w.hands[bidder] | played[bidder], trump) for w in worlds
        }
        ranked = sorted(worlds, key=lambda w: strength[w.hands])
        weak, strong = ranked[0], ranked[-1]
        if strength[weak.hands] == strength[strong.hands] or bidder not in call_chances(obs, weak.hands):
            continue  # no difference, or a forced dealer (whose bid says nothing)
        compared += 1
        assert call_chances(obs, strong.hands)[bidder] > call_chances(obs, weak.hands)[bidder]
        heavier += sum(w.weight for w in ranked[-5:]) > sum(w.weight for w in ranked[:5])
        assert 0 < bid_weight(obs, weak.hands) <= 1
    assert compared > 5
    assert heavier > 0.6 * compared


def test_sampling_is_deterministic_for_a_seed() -> None:
    obs = next(o for _s, o in _variant("eighty_three") if o.tricks)
    a = sample_worlds(obs, 5, random.Random(1))
    b = sample_worlds(obs, 5, random.Random(1))
    assert [w.hands for w in a] == [w.hands for w in b]


def test_sampling_outside_the_card_play_is_an_error() -> None:
    state = GameState(make_ruleset("cinch", {}), seed=1)
    with pytest.raises(ValueError, match="card play"):
        knowledge(state.observation(state.current_player))


def _non_trump_ranks(obs: Observation, hands: list[int] | tuple[int, ...]) -> list[int]:
    assert obs.trump is not None
    trumps = obs.rules.tables(obs.trump).trump_mask
    return [c % 13 for s in range(4) if s != obs.seat for c in cards_of(hands[s] & ~trumps)]


def test_eighty_three_worlds_hold_the_non_trumps_players_keep() -> None:
    """83 cuts each hand to six from the deal and players keep their best non-trumps: the
    worlds' hidden non-trumps rank as high as the true hands' do, not as a random draw's."""
    rng = random.Random(3)
    true, drawn, ignoring = [], [], []
    for hands, obs in play_observations("eighty_three", {}, 8, bidders=True):
        if obs.tricks:
            continue
        true += _non_trump_ranks(obs, hands)
        drawn += [r for w in sample_worlds(obs, 5, rng) for r in _non_trump_ranks(obs, w.hands)]
        blind = knowledge(obs, likely=False)  # without the exchange model
        ignoring += [r for _ in range(5) for r in _non_trump_ranks(obs, sample_hands(blind, rng) or hands)]
    assert len(true) > 100
    true_mean, drawn_mean, ignoring_mean = (sum(x) / len(x) for x in (true, drawn, ignoring))
    assert abs(drawn_mean - true_mean) < 1.0
    assert ignoring_mean < true_mean - 2.5


def test_a_seat_that_passed_trumps_to_its_partner_holds_only_trumps() -> None:
    """83: a seat that laid aside fewer cards than it held beyond six gave its partner trumps,
    so it kept six trumps; the likely worlds give it nothing else, as the true deals do."""
    rng = random.Random(4)
    givers = 0
    for hands, obs in play_observations("eighty_three", {}, 8, bidders=True):
        assert obs.trump is not None
        trumps = obs.rules.tables(obs.trump).trump_mask
        sure, likely = play_floors(obs)
        played = played_by(obs)
        for s in range(4):
            if s == obs.seat or likely[s] == sure[s]:
                continue
            givers += 1
            assert likely[s] == obs.hand_sizes[s] + played[s].bit_count()
            assert ((hands[s] | played[s]) & trumps).bit_count() == likely[s]
            for w in sample_worlds(obs, 3, rng):
                assert w.hands[s] & ~trumps == 0
    assert givers > 10


def test_a_seat_that_can_hold_no_more_non_trumps_is_dealt_trumps_first() -> None:
    """Where hands are cut to six (every trump in a hand), a seat void in every plain suit it
    could still hold must fill its places with trumps: the draw gives it those first, so nearly
    every draw fits (placing trumps blindly, most such draws were thrown away)."""
    rng = random.Random(5)
    seen = 0
    for _, obs in play_observations("king_pedro_canadian", {}, 30, bidders=True):
        k = knowledge(obs, likely=True)
        assert obs.trump is not None
        non_trumps = k.pool & ~obs.rules.tables(obs.trump).trump_mask
        short = [
            s
            for s in range(4)
            if s != obs.seat and k.need[s] > (non_trumps & k.allowed[s]).bit_count() and k.thrown
        ]
        if not short:
            continue
        seen += 1
        drawn = [sample_hands(k, rng) for _ in range(20)]
        fitting = [h for h in drawn if h is not None]
        assert len(fitting) >= 15, (len(fitting), short)
        for hands in fitting:
            assert all(hands[s].bit_count() - k.fixed[s].bit_count() == k.need[s] for s in short)
    assert seen >= 3
