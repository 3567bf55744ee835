"""Whole games between computer players, shared by ``simulate`` and ``tournament``.

Each seat's player is seeded from the game's seed and the seat, so any game
can be replayed alone from its seed. Bot programs (``cmd:`` players) are
started at the start of each game, told every action they may see, and
closed at its end, whatever the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pedro.engine.deal import DealError
from pedro.engine.state import GameState, IllegalActionError
from pedro.players import Player, choose, make_player
from pedro.players.external import BotStartError, ExternalPlayer
from pedro.variants.model import Ruleset


class GameFailure(Exception):
    """A game could not go on: a player chose an illegal action or the engine refused a deal."""


class Bots:
    """The bot programs among a game's players: what the table tells them, and their faults.

    With no ``cmd:`` player at the table every method does nothing, so games
    between built-in players pay nothing for it.
    """

    def __init__(self, players: Mapping[int, Player]) -> None:
        self.bots = {seat: p for seat, p in players.items() if isinstance(p, ExternalPlayer)}

    def begin(self, state: GameState, names: Sequence[str]) -> None:
        """Start every bot and say hello (``BotStartError`` if one cannot start; the others are closed)."""
        try:
            for seat, bot in self.bots.items():
                bot.begin(state.observation(seat), names)
        except BotStartError:
            self.close()
            raise

    def tell(self, seat: int, action: int, state: GameState) -> None:
        """``seat`` did ``action``: each bot hears of it as its seat may see it."""
        for s, bot in self.bots.items():
            bot.observe(seat, action, state.observation(s))

    def finish(self, state: GameState) -> None:
        """The game is over or stopped: tell each bot the result, and close it."""
        for s, bot in self.bots.items():
            bot.finish(state.observation(s))

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()

    def faults(self) -> dict[int, dict[str, int]]:
        """Per seat with a bot, how many decisions the fallback made, by why."""
        return {seat: dict(bot.faults) for seat, bot in self.bots.items()}

    def messages(self) -> list[str]:
        """What went wrong with each bot, in order (the first messages of each)."""
        return [m for bot in self.bots.values() for m in bot.messages]


@dataclass(frozen=True)
class GameRun:
    """A game played, and per seat, the decisions a bot left to the fallback player, by why."""

    state: GameState
    faults: dict[int, dict[str, int]]
    messages: list[str]


def play_game(rules: Ruleset, names: Sequence[str], game_seed: int, max_hands: int) -> GameState:
    """One game, stopped unfinished once ``max_hands`` hands have been played."""
    return run_game(rules, names, game_seed, max_hands).state


def run_game(rules: Ruleset, names: Sequence[str], game_seed: int, max_hands: int) -> GameRun:
    """``play_game``, also telling what the bot programs at the table did wrong."""
    state = GameState(rules, seed=game_seed)
    seats: list[Player] = [make_player(name, game_seed * 16 + s) for s, name in enumerate(names)]
    bots = Bots(dict(enumerate(seats)))
    try:
        bots.begin(state, names)
        while not state.is_over and len(state.results) < max_hands:
            seat = state.current_player
            action = choose(seats[seat], state)
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise GameFailure(
                    f"game with seed {game_seed}, hand {state.hand_index + 1}: player {names[seat]!r} "
                    f"(seat {seat}) chose an illegal action: {exc}"
                ) from None
            except DealError as exc:
                raise GameFailure(f"game with seed {game_seed}: {exc}") from None
            bots.tell(seat, action, state)
        bots.finish(state)
    except BotStartError as exc:
        raise GameFailure(f"game with seed {game_seed}: {exc}") from None
    finally:
        bots.close()
    return GameRun(state, bots.faults(), bots.messages())
