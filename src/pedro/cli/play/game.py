"""The game loop of ``pedro play``: the computer players' turns and the human's, until the end.

The human's input is read through an injectable ``ask(prompt) -> str``
function, so a test can drive a whole game with scripted answers; nothing
sleeps. The game is saved when it ends and when the player leaves (``quit``,
end of input, Ctrl-C) or an internal error stops it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from pedro import i18n, terminal
from pedro.analysis import ChoiceEstimator
from pedro.cli.play.answers import InputError, help_text, read_action
from pedro.cli.play.narration import Narrator
from pedro.cli.play.saving import save_game
from pedro.cli.play.seats import DEFAULT_NAME, HUMAN, record_name, seat_names
from pedro.engine.actions import Verb, verb_of
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState, IllegalActionError
from pedro.i18n import N_, _, ngettext
from pedro.players import Player, choose, make_player
from pedro.players.external import BotStartError
from pedro.players.games import Bots
from pedro.variants.model import Ruleset
from pedro.variants.sheet import rule_sheet

#: Reads one line of the human's input after showing ``prompt``; raises EOFError at end of input.
Ask = Callable[[str], str]

#: Exit status when a bot program cannot be started or an internal error stops the game.
GAME_FAILED = 1
INTERRUPTED = 130

_PROMPTS = {
    Phase.AUCTION: N_("Your bid"),
    Phase.TRUMP: N_("Trumps"),
    Phase.EXCHANGE: N_("Your choice"),
    Phase.PLAY: N_("Your card"),
}


class _Quit(Exception):
    """The human asked to leave."""


class TerminalGame:
    """One game: the state, the computer players, the human's seat, and the saving."""

    def __init__(
        self,
        console: Console,
        rules: Ruleset,
        kinds: Sequence[str],
        *,
        seed: int | None = None,
        save: Path | None = None,
        name: str | None = None,
        hints: bool = False,
        ask: Ask | None = None,
        state: GameState | None = None,
        names: Sequence[str] | None = None,
        resumed_from: Path | None = None,
        pause: bool | None = None,
    ) -> None:
        """A new game of ``rules``, or with ``state`` (and its seats' ``names``) one to play on.

        ``pause``: wait for Enter after each hand's result, so it does not scroll away
        (by default when a person types at a terminal). Without ``name`` the human is
        recorded as ``You`` and shown as "you" in the game's language: a record's names do
        not depend on the language it was played in.
        """
        self.console = console
        self.rules = rules
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state = state if state is not None else GameState(rules, seed=self.seed)
        self.resumed_from = resumed_from
        self.kinds = list(kinds)
        self.human = self.kinds.index(HUMAN)
        #: the names the record (and a bot program) gets, the same in every language
        self.recorded_names = list(names) if names is not None else seat_names(kinds, name or DEFAULT_NAME)
        #: the names shown: the default-named human is "you" in the game's language
        self.names = [
            _(DEFAULT_NAME) if seat == self.human and text == DEFAULT_NAME else text
            for seat, text in enumerate(self.recorded_names)
        ]
        self.players: dict[int, Player] = {}
        for seat, kind in enumerate(kinds):
            if kind == HUMAN:
                continue
            player_seed = self.seed * 16 + seat
            # the basic player is given the ruleset so that house-rule options are known to it
            self.players[seat] = make_player(kind, player_seed)
        self.bots = Bots(self.players)
        self._faults_told: dict[int, int] = {}
        # the hints are the expert's, seeded apart from every seat's player
        self.hints: ChoiceEstimator | None = (
            cast(ChoiceEstimator, make_player("expert", f"hints:{self.seed}")) if hints else None
        )
        self.save_path = save
        self.saved: Path | None = None
        self.ask: Ask = ask if ask is not None else self._console_ask
        self.pause = pause if pause is not None else ask is None and console.is_terminal
        self.tell = Narrator(console, rules, self.state, self.names, self.human)

    def _console_ask(self, prompt: str) -> str:
        return self.console.input(prompt)

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        try:
            return self._run()
        finally:
            self.bots.close()

    def _run(self) -> int:
        say = self.tell.say
        try:
            self.bots.begin(self.state, self.recorded_names)
        except BotStartError as error:
            say("[bold red]" + _("error:") + f"[/] {escape(str(error))}", soft_wrap=True)
            return GAME_FAILED
        try:
            self.tell.intro(self.kinds, self.seed, self.resumed_from)
            while not self.state.is_over:
                seat = self.state.current_player
                if seat == self.human:
                    action = self.ask_human()
                else:
                    action = choose(self.players[seat], self.state)
                    self._tell_bot_faults(seat)
                self.apply(seat, action)
        except _Quit:
            say(_("You leave the game."))
            self.save()
            return 0
        except EOFError:
            say("\n" + _("End of input: the game stops here."))
            self.save()
            return 0
        except KeyboardInterrupt:
            say("\n" + _("Interrupted: the game stops here."))
            self.save()
            return INTERRUPTED
        except Exception as error:  # a bug must not cost the game: save it, then say what happened
            detail = f"{escape(type(error).__name__)}: {escape(str(error))}"
            say(
                "\n[bold red]"
                + _("error:")
                + "[/] "
                + _("internal error: {detail} (please report it); the game stops here.", detail=detail),
                soft_wrap=True,
            )
            self.save()
            return GAME_FAILED
        self.tell.game_over()
        self.bots.finish(self.state)
        self.save()
        return 0

    def _tell_bot_faults(self, seat: int) -> None:
        """Say why a bot program's decision was made by the fallback player, as it happens."""
        bot = self.bots.bots.get(seat)
        if bot is None:
            return
        told = self._faults_told.get(seat, 0)
        for message in bot.messages[told:]:
            said = _("{name}'s bot: {message}", name=escape(self.names[seat]), message=escape(message))
            self.tell.say(f"[yellow]{said}[/]", soft_wrap=True)
        self._faults_told[seat] = len(bot.messages)

    def record_names(self) -> list[str]:
        """The seats' names as the record has them, each computer player's kind after its name."""
        return [record_name(name, kind) for name, kind in zip(self.recorded_names, self.kinds, strict=True)]

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: int) -> None:
        """Apply ``seat``'s action and tell the table what everyone could see happen."""
        state = self.state
        before = state.observation(self.human)
        hand_index = state.hand_index
        tricks = len(before.tricks)
        scores = list(state.scores)
        try:
            state.apply(action)
        except IllegalActionError as error:  # a computer player's bug: say so, keep the game going
            self.tell.illegal_move(seat, error, before)
            action = state.legal_actions()[0]
            state.apply(action)
        self.bots.tell(seat, action, state)
        self.tell.action(seat, action, before)
        after = state.observation(self.human)
        if state.hand_index == hand_index and not state.is_over:
            self.tell.changes(before, after, named=verb_of(action) == Verb.TRUMP)
            if len(after.tricks) > tricks and after.trump is not None:
                trick = after.tricks[-1]
                self.tell.trick(trick.plays, trick.winner, after.trump)
            return
        # the hand ended (and maybe the game): its last trick, then the summary
        self.tell.hand_end(hand_index, scores, after)
        if not state.is_over:
            if self.pause:
                self._wait_for_next_hand()
            self.tell.deal()

    def _wait_for_next_hand(self) -> None:
        """Hold the hand's result on the screen until the human moves on (commands work here too)."""
        while True:
            word = self.ask(_("Press Enter for the next hand (or score, quit)") + "> ").strip().lower()
            if word in ("quit", "exit"):
                raise _Quit
            if word == "score":
                self.tell.say(
                    terminal.score_table(self.state.observation(self.human), self.rules, self.names)
                )
            elif word == "last":
                self.tell.last_trick()
            else:
                return

    # ------------------------------------------------------------------ the human's turn

    def ask_human(self) -> int:
        """Show the table and ask until the human gives a legal answer; commands are answered on the way."""
        obs = self.state.observation(self.human)
        self.tell.say(terminal.table_panel(obs, self.rules, self.names))
        self._show_choices(obs)
        prompt = _(_PROMPTS.get(Phase(obs.phase), N_("Your choice"))) + "> "
        while True:
            text = self.ask(prompt).strip()
            word = text.lower()
            if word in ("help", "?"):
                self.tell.say(help_text(self.rules))
                self._show_choices(obs)
            elif word in ("hint", "hints"):
                self._show_hint(obs)
            elif word == "last":
                self.tell.last_trick()
            elif word == "rules":
                self.tell.say(Markdown(rule_sheet(self.rules)))
            elif word == "score":
                self.tell.say(terminal.score_table(obs, self.rules, self.names))
            elif word in ("quit", "exit"):
                raise _Quit
            elif word in ("hand", "table", "look"):
                self.tell.say(terminal.table_panel(obs, self.rules, self.names))
                self._show_choices(obs)
            else:
                try:
                    return read_action(text, self.state)
                except InputError as error:
                    self.tell.say(
                        f"[red]✗[/] {terminal.text_markup(str(error), terminal.tables_of(self.rules, obs))}"
                    )
                    self.tell.say("  [dim]" + _("type help for how to answer; the choices are above") + "[/]")

    def _show_choices(self, obs: Observation) -> None:
        self.tell.say("[dim]" + _("choices:") + f"[/] {terminal.choices_markup(obs, self.rules)}")

    def _show_hint(self, obs: Observation) -> None:
        if self.hints is None:
            self.tell.say(_("Hints are off: start the game with [b]pedro play --hints[/] to have them."))
            return
        estimates = self.hints.estimates(obs)
        if estimates is None:
            self.tell.say(_("No hint for this kind of decision."))
            return
        if not estimates.values:
            self.tell.say(_("No hint: {why}.", why=i18n.translate(estimates.note())))
            return
        unit = (
            _("points your side takes this hand") if estimates.unit == "points" else _("change of your score")
        )
        self.tell.say("[dim]" + _("expert's estimate ({unit}):", unit=unit) + "[/]")
        tt = terminal.tables_of(self.rules, obs)
        for action, value in estimates.ranked()[:10]:
            shown = f"{value:+.2f}" if estimates.unit == "score" else f"{value:.2f}"
            self.tell.say(f"  {terminal.action_markup(action, self.rules, tt)}  {shown}")
        if len(estimates.values) > 10:
            self.tell.say(
                "  [dim]" + ngettext("… {n} more", "… {n} more", len(estimates.values) - 10) + "[/]"
            )
        if not estimates.complete:
            self.tell.say(f"  [yellow]{escape(i18n.translate(estimates.note()))}[/]")

    # ------------------------------------------------------------------ saving

    def save(self) -> Path | None:
        """Write the game record (once); print where it went (see ``saving.save_game``)."""
        if self.saved is None:
            self.saved = save_game(self.state, self.record_names(), self.save_path, self.tell.say)
        return self.saved
