"""The flat action space of the environments: ids, masks and card-by-card selections match the engine."""

from __future__ import annotations

import random

import pytest

from pedro.cards import parse_card
from pedro.engine.actions import (
    FOLD,
    PASS,
    PLAY_BASE,
    Verb,
    arg_of,
    bid_action,
    cards_action,
    make,
    play_action,
    play_cards,
    play_mask,
    trump_action,
    verb_of,
)
from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState
from pedro.envs import actions as actions_module
from pedro.envs.actions import BID_BASE, DONE, PASS_ID, TRUMP_BASE, ActionSpace, Decision
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: option sets that make card-set decisions with rule checks (keep some non-trumps, rob, claim, excess)
CHECKED_OPTIONS = [
    ("cinch", {"keep_nontrumps": True}),
    ("pidro", {"dealer_robs_discards": True}),
    ("pidro", {"trump_discard_claim": "anyone"}),
    ("king_pedro", {"excess_trumps": "must_discard_to_6"}),
    ("sixty_three", {"excess_trumps": "kill_nonscoring_face_up"}),
    ("eighty_three", {}),
    ("piedro_jokers", {"excess_trumps": "pass_to_partner"}),
    ("king_pedro_canadian", {"fold_mandatory": False}),
]

LIST_LIMIT = 400  # decisions with at most this many legal actions are checked exhaustively


def _expected_ids(
    space: ActionSpace, legal: tuple[int, ...] | CardChoice, selection: tuple[int, ...]
) -> set[int]:
    """The legal ids after ``selection``, worked out from the engine's full list of legal actions."""
    actions = list(legal)
    plain = not isinstance(legal, CardChoice)
    stacks = plain and any(verb_of(a) == Verb.PLAY and play_mask(a).bit_count() > 1 for a in actions)
    chosen = 0
    for c in selection:
        chosen |= 1 << c
    ids: set[int] = set()
    for a in actions:
        verb = verb_of(a)
        if verb == Verb.PLAY and stacks:
            cards = play_cards(a)
            if not selection:
                ids.add(cards[0])
                continue
            if cards[0] != selection[0] or play_mask(a) & chosen != chosen:
                continue
            mask = play_mask(a)
        elif verb in (Verb.DISCARD, Verb.KEEP, Verb.KILL, Verb.GIVE, Verb.CLAIM):
            mask = arg_of(a)
            if mask & chosen != chosen:
                continue
        else:
            if not selection:
                single = space.id_of(a)
                assert single is not None
                ids.add(single)
            continue
        ids.update(c for c in range(55) if (mask & ~chosen) >> c & 1)
        if mask == chosen:
            ids.add(DONE)
    return ids


def _walk(space: ActionSpace, state: GameState, rng: random.Random, exhaustive: bool) -> int:
    """Pick random legal ids until the decision completes; check masks on the way; return the action."""
    legal = state.legal()
    decision = Decision(space, legal)
    small = not isinstance(legal, CardChoice) or legal.upper_bound() <= LIST_LIMIT
    while True:
        ids = decision.legal_ids()
        assert ids, f"no legal id after {decision.selection} in {state.rules.id}"
        assert ids == sorted(ids)
        mask = decision.mask()
        assert mask.dtype.name == "int8" and mask.shape == (space.size,)
        assert [i for i in range(space.size) if mask[i]] == ids
        if exhaustive and small:
            assert set(ids) == _expected_ids(space, legal, decision.selection)
        action = decision.choose(rng.choice(ids))
        if action is not None:
            assert state.why_illegal(action) is None
            assert decision.complete and decision.legal_ids() == []
            return action


def _check_round_trip(space: ActionSpace, state: GameState, rng: random.Random) -> None:
    """Every legal engine action (or a sample of a huge card choice) is reachable by ``ids_for``."""
    legal = state.legal()
    if isinstance(legal, CardChoice) and legal.upper_bound() > LIST_LIMIT:
        targets = {legal.sample(rng) for _ in range(20)}
    else:
        targets = set(legal)
    for action in targets:
        ids = Decision(space, legal).ids_for(action)
        replay = Decision(space, legal)
        results = [replay.choose(i) for i in ids]
        assert results[-1] == action and all(r is None for r in results[:-1])


def _play(
    rules_id: str, options: dict[str, object], seeds: range, hands: int, exhaustive: bool = True
) -> int:
    rules = make_ruleset(rules_id, options)
    space = ActionSpace(rules)
    decisions = 0
    for seed in seeds:
        state = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < hands:
            _check_round_trip(space, state, rng)
            state.apply(_walk(space, state, rng, exhaustive))
            decisions += 1
    return decisions


def test_layout_of_the_cinch_space() -> None:
    space = ActionSpace(make_ruleset("cinch"))
    assert space.min_bid_value == 7 and space.max_bid_value == 14
    assert space.size == BID_BASE + 8
    assert space.describe(parse_card("AH")) == "AH"
    assert space.describe(DONE) == "done"
    assert space.describe(PASS_ID) == "pass"
    assert space.describe(TRUMP_BASE + 1) == "trump hearts"
    assert space.describe(BID_BASE) == "bid 7"
    assert space.describe(space.size - 1) == "bid 14"
    assert space.id_of(PASS) == PASS_ID
    assert space.id_of(bid_action(9)) == BID_BASE + 2
    assert space.id_of(trump_action(3)) == TRUMP_BASE + 3
    assert space.id_of(play_action([parse_card("5C")])) == parse_card("5C")
    assert space.id_of(play_action([parse_card("5C"), parse_card("2D")])) is None
    assert space.id_of(cards_action(Verb.DISCARD, 1 << 4)) is None
    assert space.id_of(bid_action(15)) is None
    assert space.engine_action(BID_BASE + 1) == bid_action(8)
    assert space.engine_action(3) is None
    with pytest.raises(ValueError, match="ids are 0 to 72"):
        space.describe(73)


def test_bid_ids_cover_a_forced_bid_below_the_minimum_and_special_calls() -> None:
    nicaragua = ActionSpace(make_ruleset("nicaragua"))  # the dealer is forced to bid 6, others bid 7+
    assert nicaragua.min_bid_value == 6
    assert nicaragua.describe(nicaragua.id_of(bid_action(6)) or 0) == "bid 6"
    eighty_three = ActionSpace(make_ruleset("eighty_three"))
    assert eighty_three.describe(eighty_three.id_of(make(Verb.BID_DOUBLE)) or 0) == "bid 83-double"
    assert eighty_three.size == BID_BASE + 83 - 30 + 1
    assert ActionSpace(make_ruleset("cinch", {"min_bid": 6, "dealer_forced_bid": 6})).min_bid_value == 6


def test_a_one_card_play_is_one_id_and_a_stack_is_its_cards_then_done() -> None:
    space = ActionSpace(make_ruleset("cinch"))
    ah, kh, two_s, three_s = (parse_card(t) for t in ("AH", "KH", "2S", "3S"))
    singles = Decision(space, [play_action([ah]), play_action([kh])])
    assert singles.legal_ids() == sorted([ah, kh])
    assert singles.choose(kh) == play_action([kh])
    stacks = [play_action([ah, two_s]), play_action([ah, three_s]), play_action([kh, two_s])]
    decision = Decision(space, stacks)
    assert decision.legal_ids() == sorted([ah, kh])  # a stack starts with its top card
    assert decision.choose(ah) is None
    assert decision.legal_ids() == sorted([two_s, three_s])
    assert decision.choose(three_s) is None
    assert decision.legal_ids() == [DONE]
    assert decision.choose(DONE) == play_action([ah, three_s])
    assert Decision(space, stacks).ids_for(stacks[2]) == [kh, two_s, DONE]


def test_card_choice_offers_pass_only_before_a_card_and_done_only_for_a_legal_size() -> None:
    space = ActionSpace(make_ruleset("cinch"))
    pool = sum(1 << c for c in (0, 1, 2, 3))
    choice = CardChoice(Verb.DISCARD, pool, (2, 3), "discard two or three", alternatives=(PASS,))
    decision = Decision(space, choice)
    assert decision.legal_ids() == [0, 1, 2, 3, PASS_ID]
    assert decision.choose(2) is None
    assert decision.legal_ids() == [0, 1, 3]  # one card is no legal set yet: no DONE, no pass
    assert decision.choose(0) is None
    assert decision.legal_ids() == [1, 3, DONE]
    assert decision.choose(3) is None
    assert decision.legal_ids() == [DONE]  # a fourth card would make a set too large
    assert decision.choose(DONE) == cards_action(Verb.DISCARD, 0b1101)
    assert Decision(space, choice).choose(PASS_ID) == PASS


def test_required_cards_must_be_chosen_before_done() -> None:
    space = ActionSpace(make_ruleset("cinch"))
    choice = CardChoice(Verb.DISCARD, 0b1111, (3,), "all non-trumps and one trump", required=0b0011)
    decision = Decision(space, choice)
    decision.choose(2)
    decision.choose(0)
    assert decision.legal_ids() == [1]  # the last place must go to the required card
    decision.choose(1)
    assert decision.choose(DONE) == cards_action(Verb.DISCARD, 0b0111)


def test_checked_choice_offers_only_cards_of_some_legal_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule check (here: card 0 and card 1 never together) prunes cards, listed or searched."""
    space = ActionSpace(make_ruleset("cinch"))

    def check(mask: int) -> str | None:
        return "not both" if mask & 0b11 == 0b11 else None

    choice = CardChoice(Verb.KEEP, 0b1111, (2,), "keep two, not 0 and 1", check)
    for limit in (actions_module.ENUMERATE_LIMIT, 0):  # listed in full, then searched card by card
        monkeypatch.setattr(actions_module, "ENUMERATE_LIMIT", limit)
        decision = Decision(space, choice)
        decision.choose(0)
        assert decision.legal_ids() == [2, 3]
        decision.choose(3)
        assert decision.legal_ids() == [DONE]


def test_illegal_id_says_which_ids_are_legal() -> None:
    space = ActionSpace(make_ruleset("cinch"))
    decision = Decision(space, [PASS, bid_action(7)])
    with pytest.raises(
        ValueError, match=r"action id 61 \(trump spades\) is not legal; legal ids: 56 \(pass\)"
    ):
        decision.choose(TRUMP_BASE)
    with pytest.raises(ValueError, match="is not legal in this decision"):
        decision.ids_for(FOLD)
    assert decision.choose(BID_BASE) == bid_action(7)
    with pytest.raises(ValueError, match="decision is complete"):
        decision.choose(PASS_ID)


def test_a_list_with_a_card_set_needs_done() -> None:
    """king_pedro_canadian's give-and-fold is a plain list with a two-card ``give``."""
    space = ActionSpace(make_ruleset("king_pedro_canadian"))
    give = cards_action(Verb.GIVE, 0b101)
    decision = Decision(space, [PASS, give])
    assert decision.legal_ids() == [0, 2, PASS_ID]
    assert decision.choose(2) is None and decision.legal_ids() == [0]
    assert decision.choose(0) is None and decision.choose(DONE) == give
    assert PLAY_BASE not in (give, PASS)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_masks_match_the_engine_in_every_variant(variant: str) -> None:
    """Random games: each mask equals the engine's legal set, every legal action round-trips."""
    assert _play(variant, {}, range(3), hands=2) > 20


@pytest.mark.parametrize(("variant", "options"), CHECKED_OPTIONS)
def test_masks_match_the_engine_under_checked_card_choices(variant: str, options: dict[str, object]) -> None:
    assert _play(variant, options, range(3), hands=2) > 20


def test_searched_masks_match_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """With listing switched off, checked choices are searched card by card: still exact."""
    monkeypatch.setattr(actions_module, "ENUMERATE_LIMIT", 0)
    for variant, options in CHECKED_OPTIONS[:4]:
        assert _play(variant, options, range(2), hands=2) > 10


def _every_completion(space: ActionSpace, legal: tuple[int, ...] | CardChoice) -> set[int]:
    """Every engine action reachable by any id sequence, checking each mask on the way."""
    reached: set[int] = set()

    def visit(prefix: list[int]) -> None:
        decision = Decision(space, legal)
        for i in prefix:
            assert decision.choose(i) is None
        assert set(decision.legal_ids()) == _expected_ids(space, legal, decision.selection)
        for i in decision.legal_ids():
            replay = Decision(space, legal)
            for j in prefix:
                replay.choose(j)
            action = replay.choose(i)
            if action is None:
                visit([*prefix, i])
            else:
                reached.add(action)

    visit([])
    return reached


@pytest.mark.parametrize(("variant", "options", "seed"), [("eighty_three", {}, 10), ("sixty_three", {}, 9)])
def test_give_to_partner_reaches_exactly_the_legal_gives(
    variant: str, options: dict[str, object], seed: int
) -> None:
    """``pass_to_partner``: a checked choice of trumps to give; every id path ends in a legal give."""
    state = GameState(make_ruleset(variant, options), seed=seed)
    rng = random.Random(seed)
    legal = state.legal()
    while not (isinstance(legal, CardChoice) and legal.verb == Verb.GIVE):
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
        legal = state.legal()
    assert _every_completion(ActionSpace(state.rules), legal) == set(legal)


def test_a_decision_without_any_legal_set_is_reported() -> None:
    """A card choice that no set satisfies would leave a learner with an empty mask: say so."""
    space = ActionSpace(make_ruleset("cinch"))
    impossible = CardChoice(Verb.DISCARD, 0b111, (9,), "discard 9 of 3 cards")
    with pytest.raises(RuntimeError, match="offers no legal action"):
        Decision(space, impossible).legal_ids()
