"""The Pedro family as an OpenSpiel game: ``pyspiel.load_game("python_pedro", {...})``.

Importing this module registers ``python_pedro``. Parameters:

* ``variant`` (default ``cinch``): an id of ``pedro.variants.catalog``;
* ``options``: house rules as ``name=value`` pairs separated by ``,`` or ``;``
  (``"min_bid=6,dealer_forced_bid=6"``; ``name:value`` also works, which fits
  OpenSpiel's ``python_pedro(options=min_bid:6;dealer_forced_bid:6)`` string form);
* ``hands`` (default 1): the game ends after that many hands, or earlier at the
  engine's game end; ``0`` plays the game to its end, stopping after
  ``MAX_HANDS`` hands at the latest (OpenSpiel needs a bounded length);
* ``dealer`` (default -1): the first dealer's seat; ``-1`` makes it a chance step.

The state is a ``pedro.envs.chance.Table``: the deal is chance steps (one card
of the pack each), decisions are ids of ``pedro.envs.actions.ActionSpace``
(card sets one card at a time, then ``DONE``). See ``docs/openspiel.md``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pedro.cards import NUM_CARDS, cards_of, format_card, format_cards
from pedro.envs.actions import ActionSpace
from pedro.envs.chance import CHANCE, TERMINAL, Table, observation_text
from pedro.envs.encoding import ObservationEncoder
from pedro.envs.resample import resample
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset, parse_option_args

#: pyspiel ships no type information: it is imported as a plain module object
pyspiel: Any = importlib.import_module("pyspiel")

GAME_NAME = "python_pedro"
#: the hand limit of ``hands=0`` (play to the end): no game of the catalog comes near it
MAX_HANDS = 100
DEFAULTS: dict[str, str | int] = {"variant": "cinch", "options": "", "hands": 1, "dealer": -1}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Pedro family trick-taking card games (pedro)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # two partnerships' score changes do not cancel (both sides can gain in a hand)
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=7,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def parse_options(text: str) -> dict[str, object]:
    """``"min_bid=6,dealer_forced_bid=6"`` (or ``;`` and ``:``) as typed option values."""
    pairs = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    pairs = [p if "=" in p else p.replace(":", "=", 1) for p in pairs]
    return dict(parse_option_args(pairs))


def game_rules(params: Mapping[str, Any]) -> tuple[Ruleset, int, int | None]:
    """The ruleset, hand limit and fixed first dealer (or None) of a parameter dict."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter {', '.join(unknown)}; parameters: {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    try:
        rules = make_ruleset(str(p["variant"]), parse_options(str(p["options"])))
    except OptionError as exc:
        raise ValueError(f"python_pedro options={p['options']!r}: {exc}") from None
    hands = int(p["hands"])
    if not 0 <= hands <= MAX_HANDS:
        raise ValueError(f"hands must be 0 (play to the end) or 1 to {MAX_HANDS}, got {hands}")
    dealer = int(p["dealer"])
    if not -1 <= dealer < rules.players:
        raise ValueError(f"dealer must be -1 (chance) or a seat from 0 to {rules.players - 1}, got {dealer}")
    return rules, hands or MAX_HANDS, None if dealer < 0 else dealer


def hand_bounds(rules: Ruleset) -> tuple[int, int]:
    """The lowest and highest score change of one side in one hand."""
    top = rules.max_bid
    space = ActionSpace(rules)
    made = [rules.total_points, space.max_bid_value]
    lost = [space.max_bid_value]
    if rules.bid_28_56:
        made.append(4 * top)
        lost.append(2 * top)
    if rules.double_max_bid or rules.slam:
        made.append(2 * top)
        lost.append(2 * top)
    # difference scoring gives the defenders the set value plus their points
    return -max(lost), max(max(made), max(lost) + rules.total_points)


def max_decisions_per_hand(rules: Ruleset) -> int:
    """A bound on the ids players choose in one hand (the test suite checks random games stay below)."""
    n = rules.players
    space = ActionSpace(rules)
    auction = n * (space.max_bid_value - space.min_bid_value + 4)
    deck = len(rules.deck)
    exchange = 3 * deck + 6 * n  # each card picked in a few card-set decisions, each closed by DONE
    play = deck + n  # a first-trick stack is its cards and DONE
    return auction + 1 + exchange + play


class PedroGame(pyspiel.Game):  # type: ignore[misc]
    """``python_pedro``: one game instance per parameter set (players and ids depend on the variant)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules, self.hand_limit, self.dealer = game_rules(params)
        low, high = hand_bounds(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=ActionSpace(self.rules).size,
            max_chance_outcomes=NUM_CARDS,
            num_players=self.rules.players,
            min_utility=float(low * self.hand_limit),
            max_utility=float(high * self.hand_limit),
            utility_sum=None,
            max_game_length=max_decisions_per_hand(self.rules) * self.hand_limit,
        )
        super().__init__(_GAME_TYPE, info, {**DEFAULTS, **params})

    def new_initial_state(self) -> PedroState:
        return PedroState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> PedroObserver:
        return PedroObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def new_table(self) -> Table:
        return Table(self.rules, self.hand_limit, self.dealer)


class PedroState(pyspiel.State):  # type: ignore[misc]
    """A ``python_pedro`` state: a ``Table`` behind OpenSpiel's state API."""

    def __init__(self, game: PedroGame, table: Table | None = None) -> None:
        super().__init__(game)
        self.table = table if table is not None else game.new_table()
        #: while set, ``current_player`` replays recorded players (``_with_history``)
        self._replay: list[int] | None = None

    def current_player(self) -> int:
        if self._replay is not None:
            return self._replay[-1]
        player = self.table.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.table.current_player():
            return []
        return list(self.table.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._replay is not None:
            self._replay.pop()
            return
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if self.table.choosing_dealer:
                return f"first dealer {action}"
            kind = self.table.shuffle.kind if self.table.shuffle is not None else "pack"
            return f"{kind} card {format_card(action)}" if 0 <= action < NUM_CARDS else f"outcome {action}"
        return self.table.space.describe(action)

    def is_terminal(self) -> bool:
        return self.table.over

    def returns(self) -> list[float]:
        return self.table.returns()

    def rewards(self) -> list[float]:
        return list(self.table.rewards)

    def __str__(self) -> str:
        """The whole state (every hand): for debugging, not for a player."""
        t = self.table
        if t.engine is None:
            return f"dealing hand 1: {len(t.shuffle.order) if t.shuffle else 0} cards drawn"
        e = t.engine
        hands = " / ".join(format_cards(cards_of(h)) for h in e.hands)
        over = " (over)" if t.over else ""
        return (
            f"hand {e.hand_index + 1} dealer {e.dealer} phase {e.phase.name.lower()}{over} "
            f"turn {t.current_player()} scores {e.scores} hands {hands} selection {t.selection}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> PedroState:
        """A state ``player_id`` cannot tell from this one, hidden cards dealt again (see resample)."""
        seed = int(probability_sampler() * 2**53)
        table, _stats = resample(self.table, int(player_id), random.Random(seed))
        return self._with_history(table)

    def _with_history(self, table: Table) -> PedroState:
        """A new state holding ``table`` whose OpenSpiel history is ``table.steps``."""
        game = self.get_game()
        state = PedroState(game, table)
        state._replay = [player for player, _ in reversed(table.steps)]
        for _player, action in table.steps:
            state.apply_action(action)
        state._replay = None
        return state


class PedroObserver:
    """OpenSpiel's python observer: strings and the ``ObservationEncoder`` vector of one seat.

    ``perfect_recall=True`` gives the information state: the string is the
    seat's whole recall (``Table.recall``); the tensor is the encoder's vector,
    which is *not* perfect-recall (see docs/openspiel.md for what it leaves out).
    """

    def __init__(
        self, game: PedroGame, iig_obs_type: pyspiel.IIGObservationType, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"python_pedro observers take no parameters; got {dict(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "python_pedro observes one seat with its private and public information only "
                "(IIGObservationType(perfect_recall=...) with the default private_info and public_info)"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoder = ObservationEncoder(game.rules)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {s.name: self.tensor[s.indices()] for s in self.encoder.slices}

    def set_from(self, state: PedroState, player: int) -> None:
        table = state.table
        obs = table.observation(player)
        if obs is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.encoder.encode(obs, table.selection_of(player))

    def string_from(self, state: PedroState, player: int) -> str:
        if self.perfect_recall:
            return state.table.recall(player)
        return observation_text(state.table, player)


pyspiel.register_game(_GAME_TYPE, PedroGame)
