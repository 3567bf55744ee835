"""A PettingZoo AEC environment for every variant: ``env(variant="cinch")``.

Agents ``player_0 .. player_{n-1}`` are the seats. An agent's observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` (see
``pedro.envs.encoding`` and ``pedro.envs.actions``); a card-set decision takes
several steps of the same agent (one card each, then ``DONE``). Rewards come
at the end of each hand: every agent gets its side's score change for that
hand, and with ``game_reward`` also +1 / -1 when the game ends.

Nothing is encoded in ``step``: ``observe`` builds the vector when asked, and
``action_mask(agent)`` gives the mask alone, for policies that need no vector.

>>> e = env("cinch", hands=1)
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> int(e.action_space(agent).n), e.observation_space(agent)["observation"].shape
(73, (1197,))
>>> e.step(int(e.action_mask(agent).nonzero()[0][0]))
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

# pettingzoo ships no type information
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from pedro.engine.state import GameState
from pedro.envs.actions import ActionSpace, Decision
from pedro.envs.encoding import ObservationEncoder
from pedro.variants.options import make_ruleset, parse_option_args

ObsDict = dict[str, npt.NDArray[Any]]
Options = Mapping[str, object] | Iterable[str] | None


def env(
    variant: str = "cinch",
    options: Options = None,
    render_mode: str | None = None,
    hands: int | None = 1,
    game_reward: bool = False,
) -> AECEnv[str, ObsDict, int]:
    """The environment wrapped in PettingZoo's order check (``reset`` before ``step``...)."""
    raw = raw_env(variant, options, render_mode, hands, game_reward)
    return wrappers.OrderEnforcingWrapper(raw)


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # (an untyped base; PettingZoo's class name)
    """One game of a variant as an AEC environment (see the module docstring and docs/environments.md).

    ``options``: house rules as a dict (``{"min_bid": 6}``) or ``NAME=VALUE``
    strings. ``hands``: 1 ends the episode after one hand (termination),
    ``k`` cuts the game after ``k`` hands (truncation, unless the game ended
    first), ``None`` plays the game to its end. ``game_reward``: +1 to the
    winning side and -1 to every other side when the game ends.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "pedro_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "cinch",
        options: Options = None,
        render_mode: str | None = None,
        hands: int | None = 1,
        game_reward: bool = False,
    ) -> None:
        super().__init__()
        if options is not None and not isinstance(options, Mapping):
            options = parse_option_args(options)
        self.rules = make_ruleset(variant, options)  # ValueError naming what is allowed
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; render modes: ansi (or None)")
        if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int) or hands < 1):
            raise ValueError(
                f"hands must be a whole number of at least 1, or None for the whole game: {hands!r}"
            )
        self.render_mode = render_mode
        self.hands = hands
        self.game_reward = game_reward
        self.space = ActionSpace(self.rules)
        self.encoder = ObservationEncoder(self.rules)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.game: GameState | None = None
        self._decision: Decision | None = None
        self._results_seen = 0

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` fixes every deal (None: a random game). ``options`` is unused."""
        self.game = GameState(self.rules, seed=seed)
        self._decision = None
        self._results_seen = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def _state(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _acting(self, agent: str) -> bool:
        game = self._state()
        return (
            not game.is_over
            and agent == self.agent_selection
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        )

    def decision(self) -> Decision:
        """The pending decision of the acting agent (built on first use, shared by mask and step)."""
        if self._decision is None:
            self._decision = Decision(self.space, self._state().legal())
        return self._decision

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """``agent``'s legal ids as an int8 mask, without encoding an observation (zeros if not its turn)."""
        if not self._acting(agent):
            return np.zeros(self.space.size, dtype=np.int8)
        return self.decision().mask()

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s vector and mask, encoded now (from its seat's Observation only)."""
        game = self._state()
        acting = self._acting(agent)
        selection = self.decision().selection if acting else ()
        vector = self.encoder.encode(game.observation(self._seat[agent]), selection)
        return {"observation": vector, "action_mask": self.action_mask(agent)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose episode has ended")
        game = self._state()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            engine_action = self.decision().choose(int(action))
        except ValueError as exc:
            raise ValueError(f"{agent}: {exc}") from None
        if engine_action is not None:
            self._decision = None
            game.apply(engine_action)
            self._after_action(game)
        self._accumulate_rewards()

    def _after_action(self, game: GameState) -> None:
        side_of = self.rules.side_of
        for result in game.results[self._results_seen :]:
            for a in self.agents:
                self.rewards[a] += float(result.change[side_of(self._seat[a])])
        finished = len(game.results)
        hand_over = finished > self._results_seen
        self._results_seen = finished
        if game.is_over:
            if self.game_reward and game.winner is not None:
                for a in self.agents:
                    self.rewards[a] += 1.0 if side_of(self._seat[a]) == game.winner else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif hand_over and self.hands is not None and finished >= self.hands:
            if self.hands == 1:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]

    # ------------------------------------------------------------------ display

    def render(self) -> str | None:
        """The table as the acting agent sees it, as plain text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; use render_mode='ansi'")
            return None
        return self.table_text(self.agent_selection)

    def table_text(self, agent: str) -> str:
        """What ``agent`` sees: the seats, calls, contract, trick, score, its hand and its choices."""
        from rich.console import Console

        from pedro.terminal import table_panel

        game = self._state()
        seat = self._seat[agent]
        obs = game.observation(seat)
        names = ["you" if s == seat else f"player_{s}" for s in range(self.rules.players)]
        console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
        console.print(table_panel(obs, self.rules, names))
        lines = [f"{agent} (seat {seat}) sees:", console.export_text(styles=False).rstrip()]
        if self._acting(agent):
            decision = self.decision()
            chosen = " ".join(self.space.describe(c) for c in decision.selection)
            if chosen:
                lines.append(f"chosen so far: {chosen}")
            legal = ", ".join(f"{i} {self.space.describe(i)}" for i in decision.legal_ids())
            lines.append(f"legal: {legal}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: the environment holds no files, windows or processes."""
        self.game = None
        self._decision = None
