"""Seeded random games of every variant and option set, pinned by a hash of everything they show.

A refactor of the engine must not change any game: the same seed and the
same choices must give the same deals, the same legal actions, the same
observations and the same record. Each game here is hashed step by step (the
acting seat's observation as JSON, with its legal actions, and the action
taken) and at the end (the whole record), and the hash is pinned. A change in
the rules on purpose changes a pin: print the new ones with
``PYTHONPATH=. python tests/test_game_fingerprints.py`` and say in the commit why.
"""

from __future__ import annotations

import hashlib
import random

import orjson
import pytest
from tests.test_properties import RULESET_CASES, RULESETS, random_action

from pedro.engine.state import GameState
from pedro.observation_json import observation_json
from pedro.records import record_from_game

#: Hands per game: enough for washes, claims, kills and most endings to come up somewhere.
HANDS = 12
SEEDS = (1, 2, 3, 4)


def fingerprint(name: str, seed: int) -> str:
    state = GameState(RULESETS[name], seed=f"fingerprint-{seed}")
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not state.is_over and state.hand_index < HANDS:
        seat = state.current_player
        digest.update(orjson.dumps(observation_json(state.observation(seat), private=True, sheet=False)))
        action = random_action(state, rng)
        digest.update(f"{seat}:{action};".encode())
        state.apply(action)
    digest.update(orjson.dumps(record_from_game(state), option=orjson.OPT_SORT_KEYS))
    return digest.hexdigest()[:16]


#: Each ruleset's name, then its games' hashes (one per seed).
_PINS = """
cinch
    afbc711d78cdc273 ad4d1693fb52fef9 ea91974a20861621 abe780c8d53fabe4
pidro
    75a0e3f03639234f b28097f9871128cb bbb0b3b88c8970d2 9ae21fa47df6ade8
nicaragua
    ed201e2fb3807627 6c9f0d6041be7bb3 2064fca1f080e016 59b8b0e039ccaa0e
pitch_fives
    236e3fa0dbf296d0 d50d7309dcb91ceb 9c48341e372a3930 abad5521a03c3147
pedro_sancho
    a25485926efb0c60 d4e93496ee012c41 b26d0821d327d444 33ec0aaccec2f64d
dom_pedro
    2dc4f3c0d251766f d4b0315dea61b688 228f3186cec32f0b acfb728cf26dcc42
king_pedro
    146cf0a4ddd71c86 4354581a47457c54 4ee7430988f93bdd b408b029aa21fd26
king_pedro_canadian
    c5a7883a403b30cc 8696897dcf6c2210 d445f3dd7651ace8 0319caff4d938786
sixty_three
    17e962d094c14114 12586723f933a110 a48a31b438eb49d4 389c9d38b0c615aa
eighty_three
    086051ae211b1ec7 aa4850d1b9404463 51ca872e38627d66 d7801b0aa58fb18e
piedro_jokers
    683ed83c49a5bff7 dd2c5199b5c7294f d0cbeec05d23d517 49758f6daf06d2ad
petro_russian
    1692f9f4bad3fb65 a8c6e64f398d85a4 d0fd2810e127f200 85b98df6ad5ac443
cinch+discards_face_up=True
    af4667115bcd295a 87ffa9535224c956 04aa5597680a93ae 13b6fc20878b1044
cinch+dealer_robs_discards=True
    06939d71a12b49f7 f18b158380adb49b 55cfadf63bd5f91a 4f365e824dd69cf2
cinch+excess_trumps=must_discard_to_6+discarded_scoring_trumps=to_opponents
    83607c09969f015e 44ebad939e9d2283 258d34d5efd571eb cce07d6d22070ed8
cinch+keep_nontrumps=True+first_lead_trump=True
    25fcfb799d81d218 4d0e6cb14583bdf5 bbbce7afb73a4856 75b7552149db4e27
cinch+slam=True+bid_28_56=True+scoring=difference+preset=cinch_min6_forced6
    5fd894853fc10327 742f76c76fd3c434 ddbde11ad4fb1dd0 20569883d3242380
eighty_three+nine_card_deal=True
    dda23cbca9a2ad62 20d4651e9b1c0ae3 93ae1c0a1c96236d 0012cd93bd79a4c0
sixty_three+nine_card_deal=True
    097aaf9d798807aa dce98d4fa0b7df5b 720a62413e5e0ffd b1888ebbee9ddc6f
sixty_three+joker=True+low_rule=holder
    202aab93c90ee11a 95f47a5fc158bab8 57d568744b83f22c cf1a814f98d611c5
pedro_sancho+deal_all_out=True+players=5
    fdf89041234cecdc 9d488e821bae9349 b6501c48f1295679 0c681b7453d6ba30
dom_pedro+discard_and_fill=True+players=7
    48e26681170f8ee6 3b55d13289805b0c 67bb35334895ea7e ee2ae640c10c3440
king_pedro_canadian+fold_mandatory=False+made_scores=bid
    c6a298e54418b4cb 781978a156d338ed 0338a27f31066c6c 1520dde800ab3747
king_pedro_canadian+excess_trumps=pass_to_partner
    daf2b8afdb9e567e 6d92224764a33846 f507bf6c2f89f62c 60c644a7fcef8736
nicaragua+play_hand_size=6+low_rule=dealt
    d2084e42465acd8d 62eb9202e5060e41 506fb9c10f3e4478 e04eacc5115a670b
pitch_fives+relative_high_low=True
    693a61e59dffe0d0 5385267eddb829b7 a10c02badf100ee2 e2f965d284e36164
petro_russian+plain_honours_score=True+fives_rank=standard+auction_model=single_round
    dbc863b6218f6e06 3e2f6f3d5b66fd12 062c47215e0f5cd0 16ad66b7b9eeabeb
petro_russian+discards_face=down
    d1cfff632ec3095d 02fbeaf5fb9e2ae1 d055afbaed583bf5 7f57bcdd1b96428b
pedro_sancho+partnerships=True+all_pass_action=redeal_next_dealer
    154e7ff38ce344af 9cb430ac299bb7ac a5655a53bc5766d8 e2b554a4fc49d855
"""
_LINES = _PINS.split()
PINNED: dict[str, tuple[str, ...]] = {
    _LINES[i]: tuple(_LINES[i + 1 : i + 1 + len(SEEDS)]) for i in range(0, len(_LINES), 1 + len(SEEDS))
}


@pytest.mark.parametrize("name", RULESET_CASES)
def test_seeded_games_are_the_same_as_pinned(name: str) -> None:
    assert tuple(fingerprint(name, seed) for seed in SEEDS) == PINNED[name]


if __name__ == "__main__":
    for ruleset in RULESETS:
        print(f"{ruleset}\n    {' '.join(fingerprint(ruleset, s) for s in SEEDS)}")
