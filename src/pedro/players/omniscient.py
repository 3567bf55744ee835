"""``omniscient``: sees every card and plays the solver's best move — the ceiling, not a fair player.

Bids, trumps and the exchange are ``heuristic``'s, so that against
``heuristic`` and ``expert`` only the card play differs. In the card play it
reads the whole game state (``act_on_state``) and plays one of the exact
solver's best actions: the bidder's side maximizes its points, the other
side minimizes them (in individual games every non-bidder plays against the
bidder, as the solver searches them). Among equally good plays it takes
``heuristic``'s choice when that is one of them, else the lowest action.
Given only an observation (``act``) it cannot see the cards and plays as
``heuristic``.
"""

from __future__ import annotations

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.heuristic import HeuristicPlayer
from pedro.solver import solve


class OmniscientPlayer(HeuristicPlayer):
    """Plays the solver's best card with every hand in view; decides the rest as ``heuristic``."""

    name = "omniscient"

    def act_on_state(self, state: GameState, seat: int) -> int:
        """The action for ``seat``, whose turn it is, seeing the whole ``state``."""
        if state.current_player != seat:
            raise ValueError(f"it is seat {state.current_player}'s turn, not seat {seat}'s")
        obs = state.observation(seat)
        if state.phase != Phase.PLAY:
            return self.act(obs)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best = sorted(solve(state.play_position()).best)
        if len(best) == 1:
            return best[0]
        preferred = self.act(obs)
        return preferred if preferred in best else best[0]
