"""``pedro play``: one human against computer players in the terminal.

The human's input is read through an injectable ``ask(prompt) -> str``
function, so a test can drive a whole game with scripted answers; nothing
sleeps. Every typed answer is parsed and checked with the engine's own
``why_illegal`` before it is applied, so a bad answer only costs a message
and the prompt again. The game is saved as a ``pedro-record/1`` file when it
ends and when the player leaves (``quit``, end of input, Ctrl-C) or an internal error
stops it; ``--resume`` rebuilds such an unfinished game from its record and plays it on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import cast

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from pedro import i18n, terminal
from pedro.analysis import ChoiceEstimator
from pedro.cards import SUIT_NAMES, CardError, cards_of, format_cards, mask_of, parse_card
from pedro.display import sort_hand, status_word, suit_name
from pedro.engine.actions import (
    FOLD,
    PASS,
    PROTECT,
    ActionError,
    Verb,
    arg_of,
    bid_action,
    cards_action,
    make,
    parse_action_words,
    play_action,
    play_cards,
    play_top,
    trump_action,
    verb_of,
)
from pedro.engine.auction import forced_call
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState, IllegalActionError
from pedro.i18n import N_, _, ngettext
from pedro.players import (
    LEVELS,
    PLAYERS,
    Player,
    UnknownPlayerError,
    check_player,
    choose,
    is_command,
    make_player,
)
from pedro.players.external import BotStartError
from pedro.players.games import Bots
from pedro.records import ReplayError
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.model import ExcessTrumps, Ruleset
from pedro.variants.options import OptionError, make_ruleset, parse_option_args
from pedro.variants.sheet import rule_sheet

#: Reads one line of the human's input after showing ``prompt``; raises EOFError at end of input.
Ask = Callable[[str], str]

USAGE_ERROR = 2
#: Exit status when a bot program cannot be started.
GAME_FAILED = 1
INTERRUPTED = 130
HUMAN = "human"
#: The computer player of every other seat when ``--players`` is not given.
DEFAULT_PLAYER = "basic"
DEFAULT_VARIANT = "cinch"
#: The human's name when ``--name`` is not given (the game then says "You bid", not "You bids").
DEFAULT_NAME = N_("You")
#: Names of the computer players, seat by seat.
COMPUTER_NAMES = ("Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
COMMANDS = ("help", "hint", "last", "rules", "score", "quit")

_SUITS_BY_WORD = {
    **{name: i for i, name in enumerate(SUIT_NAMES)},
    **{name[:-1]: i for i, name in enumerate(SUIT_NAMES)},
    **{name[0]: i for i, name in enumerate(SUIT_NAMES)},
    **{sym: i for i, sym in enumerate("♠♥♦♣")},
    **{sym: i for i, sym in enumerate("♤♡♢♧")},
}
_CARD_VERBS = {"discard": Verb.DISCARD, "keep": Verb.KEEP, "kill": Verb.KILL, "give": Verb.GIVE}


def help_text(rules: Ruleset) -> str:
    """How to answer, with only the calls, cards and moves of ``rules`` (no jokers in Cinch)."""
    specials = _special_calls(rules)
    bold = ", ".join(f"[b]{c}[/]" for c in specials)
    calls = "; " + _("special calls {calls}", calls=bold) if specials else ""
    jokers = (
        "; " + _("jokers {jokers}", jokers=" ".join(f"[b]{j}[/]" for j in rules.jokers))
        if rules.jokers
        else ""
    )
    rows = [
        (_("bids:"), _("[b]8[/] or [b]bid 8[/], [b]pass[/]") + calls),
        (_("trumps:"), _("[b]h[/], [b]hearts[/] or [b]♥[/] (also s, d, c)")),
        (_("cards:"), _("rank then suit: [b]5h[/] [b]5♥[/] [b]10d[/] [b]td[/] [b]AS[/]") + jokers),
        (_("play:"), _("one card ([b]5h[/])")),
    ]
    if rules.excess_trumps == ExcessTrumps.KEEP_AND_BURY:
        rows.append(("", _("several to the first trick: the top card first ([b]ah 7h 8h[/])")))
    fold = " / [b]fold[/]" if rules.fold else ""
    rows.append(
        (_("exchange:"), _("the cards ([b]discard 3c 4d[/] or just [b]3c 4d[/]), or [b]pass[/]") + fold)
    )
    width = max(len(label) for label, _text in rows) + 1
    lines = [_("[b]How to answer[/] (the words are typed in English)")]
    lines += [f"  {label}{' ' * (width - len(label))}{text}" for label, text in rows]
    lines += [
        _("[b]Commands[/] (at any prompt)"),
        "  " + _("[b]help[/] this text · [b]last[/] the last trick · [b]rules[/] the rule sheet"),
        "  "
        + _("[b]score[/] the score sheet · [b]hand[/] the table again · [b]quit[/] save the game and leave"),
        "  " + _("[b]hint[/] the expert's value of each choice (when started with --hints)"),
    ]
    return "\n".join(lines)


def _special_calls(rules: Ruleset) -> list[str]:
    """The calls other than a number and pass that ``rules`` has, as they are typed."""
    calls = []
    if rules.bid_28_56:
        calls.append("28-56")
    if rules.double_max_bid:
        calls.append(f"{rules.max_bid}-double")
    if rules.protect:
        calls.append("protect")
    return calls


class InputError(ValueError):
    """The human's answer could not be read or is not allowed; the message says why."""


class _Quit(Exception):
    """The human asked to leave."""


def run(
    console: Console,
    variant: str | None,
    option_args: Sequence[str] | None,
    *,
    players: str | None,
    seed: int | None,
    save: Path | None,
    name: str | None,
    hints: bool = False,
    ask: Ask | None = None,
    resume: Path | None = None,
    lang: str | None = None,
) -> int:
    """Play one game in the terminal; returns the exit status (0 when finished or left with ``quit``).

    With ``resume`` the game is the unfinished one of that record, played on
    from where it stopped with the same variant, options, seats and players.
    ``lang`` is the game's language (``--lang``); without it, the environment's (``LANG``...).
    """
    try:
        i18n.use(i18n.check_language(lang) if lang is not None else i18n.language_from_env())
    except i18n.LanguageError as error:
        console.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False, soft_wrap=True)
        return USAGE_ERROR
    try:
        if save is not None:
            check_save_path(save)
        if resume is not None:
            given = [
                flag
                for flag, value in (("--variant", variant), ("--option", option_args), ("--name", name))
                if value
            ]
            if given:
                raise ValueError(
                    "--resume plays on the recorded game with its own variant, options and names; "
                    f"leave out {', '.join(given)}"
                )
            game = resumed_game(console, resume, players=players, seed=seed, save=save, hints=hints, ask=ask)
        else:
            rules = make_ruleset(variant or DEFAULT_VARIANT, parse_option_args(option_args or ()))
            kinds = seat_players(players, rules.players)
            check_name(name or _(DEFAULT_NAME))
            game = TerminalGame(
                console,
                rules,
                kinds,
                seed=seed,
                save=save,
                name=name or _(DEFAULT_NAME),
                hints=hints,
                ask=ask,
            )
    except (UnknownVariantError, OptionError, UnknownPlayerError, ReplayError, ValueError) as error:
        said = error.translated() if isinstance(error, OptionError) else str(error)
        console.print(f"[bold red]{_('error:')}[/] {escape(said)}", highlight=False, soft_wrap=True)
        return USAGE_ERROR
    return game.run()


def resumed_game(
    console: Console,
    path: Path,
    *,
    players: str | None = None,
    seed: int | None = None,
    save: Path | None = None,
    hints: bool = False,
    ask: Ask | None = None,
) -> TerminalGame:
    """The unfinished game of the record at ``path``, ready to play on; ValueError or ReplayError if not.

    The seats' players are read from the record's names (``Bo (basic)``; the
    human's name alone) unless ``players`` gives them; the hands after the
    recorded ones are dealt from ``seed``; the game is saved to ``save``, by
    default over ``path``.
    """
    from pedro.records import resume

    if path.suffix.lower() == ".jsonl" and path.is_file():
        lines = [
            line for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()
        ]
        if len(lines) > 1:
            raise ValueError(
                f"{path} holds {len(lines)} game records (one per line); --resume takes one game's record, "
                "a .json file as pedro play saves it"
            )
    seed = seed if seed is not None else random.randrange(1_000_000)
    result = resume(path, seed)
    if result.finished:
        raise ValueError(f"the game in {path} is over; nothing to resume (see it with: pedro replay {path})")
    n = result.rules.players
    split = [split_record_name(text) for text in result.names]
    names = [shown for shown, _ in split]
    if players:
        kinds = seat_players(players, n)
    else:
        kinds = [kind if kind is not None else HUMAN for _, kind in split]
        if kinds.count(HUMAN) != 1:
            recorded = ", ".join(repr(text) for text in result.names)
            raise ValueError(
                f"{path} does not say which seat was yours and which computer players sat at the others "
                f"(names {recorded}; pedro play writes them as 'Bo (basic)'); give them with --players, "
                f"e.g. --players {','.join([HUMAN] + [DEFAULT_PLAYER] * (n - 1))}"
            )
    return TerminalGame(
        console, result.rules, kinds, seed=seed, save=save or path, hints=hints, ask=ask,
        state=result.state, names=names, resumed_from=path,
    )  # fmt: skip


def seat_players(players: str | None, n: int) -> list[str]:
    """Player kinds per seat: n-1 computer players (the human in seat 0), or n with one ``human``."""
    if not players:
        return [HUMAN] + [DEFAULT_PLAYER] * (n - 1)
    # a bot program's command keeps its case; a built-in player's name does not need it
    parts = [p.strip() for p in players.split(",") if p.strip()]
    names = [p if is_command(p) else p.lower() for p in parts]
    if len(names) == 1 and HUMAN not in names:  # one player (or level) for every other seat
        names *= n - 1
    if len(names) == n - 1 and HUMAN not in names:
        names = [HUMAN, *names]
    if len(names) != n or names.count(HUMAN) != 1:
        raise ValueError(
            f"--players needs {n - 1} computer players for seats 1..{n - 1} "
            f"(e.g. {','.join(['basic'] * (n - 1))}), "
            f"or {n} names with 'human' at your seat; got {players!r}; players are: {', '.join(PLAYERS)}; "
            f"levels: {', '.join(level.name for level in LEVELS)}"
        )
    for kind in names:
        if kind != HUMAN:
            check_player(kind)
    return names


def record_name(name: str, kind: str) -> str:
    """A seat's name in the record: ``Bo (basic)`` for a computer player, the human's name alone.

    The record's ``names`` are free text; writing each computer player's kind
    there says who played, and lets ``--resume`` seat the same players again.
    """
    return name if kind == HUMAN else f"{name} ({kind})"


def split_record_name(text: str) -> tuple[str, str | None]:
    """``("Bo", "basic")`` from ``Bo (basic)``; ``(text, None)`` when no player is named in it."""
    name, sep, rest = text.partition(" (")
    if not sep or not rest.endswith(")"):
        return text, None
    kind = rest[:-1]
    try:
        check_player(kind)
    except UnknownPlayerError:
        return text, None
    return name, kind


def check_name(name: str) -> None:
    """Refuse a human's name that the record would read as a computer player's (``Al (basic)``)."""
    if not name.strip():
        raise ValueError("--name must not be empty")
    if split_record_name(name)[1] is not None:
        raise ValueError(
            f"--name {name!r} would read as a computer player in the game record; "
            "leave out the player in parentheses"
        )


def default_save_path(rules: Ruleset, now: datetime | None = None, folder: Path | None = None) -> Path:
    """``pedro-<variant>-<timestamp>.json`` in ``folder`` (the current one), not overwriting a file."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = folder if folder is not None else Path()
    path = base / f"pedro-{rules.id}-{stamp}.json"
    k = 2
    while path.exists():
        path = base / f"pedro-{rules.id}-{stamp}-{k}.json"
        k += 1
    return path


def games_folder() -> Path:
    """Where a game goes when it cannot be saved where asked: ``games`` in pedro's user data folder."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("pedro", appauthor=False)) / "games"


def check_save_path(path: Path) -> None:
    """Raise ValueError saying why the game record could not be written to ``path``, before the game."""
    if path.is_dir():
        raise ValueError(f"--save {path} is a folder; give a file name, e.g. {path / 'game.json'}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"--save {path}: folder {folder} does not exist")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise ValueError(f"--save {path}: cannot write there: {error.strerror or error}") from None
    if not existed:
        path.unlink(missing_ok=True)  # only tried: the record is written when the game stops


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
        name: str = DEFAULT_NAME,
        hints: bool = False,
        ask: Ask | None = None,
        state: GameState | None = None,
        names: Sequence[str] | None = None,
        resumed_from: Path | None = None,
        pause: bool | None = None,
    ) -> None:
        """A new game of ``rules``, or with ``state`` (and its seats' ``names``) one to play on.

        ``pause``: wait for Enter after each hand's result, so it does not scroll away
        (by default when a person types at a terminal).
        """
        self.console = console
        self.rules = rules
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state = state if state is not None else GameState(rules, seed=self.seed)
        self.resumed_from = resumed_from
        self.kinds = list(kinds)
        self.human = self.kinds.index(HUMAN)
        self.names = list(names) if names is not None else _seat_names(kinds, name)
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

    def say(self, *objects: object, soft_wrap: bool = False) -> None:
        """Print without rich's number highlighting, which would recolour the ranks of cards."""
        self.console.print(*objects, highlight=False, soft_wrap=soft_wrap)

    def _console_ask(self, prompt: str) -> str:
        return self.console.input(prompt)

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        try:
            return self._run()
        finally:
            self.bots.close()

    def _run(self) -> int:
        try:
            self.bots.begin(self.state, self.names)
        except BotStartError as error:
            self.say("[bold red]" + _("error:") + f"[/] {escape(str(error))}", soft_wrap=True)
            return GAME_FAILED
        try:
            self._intro()
            while not self.state.is_over:
                seat = self.state.current_player
                if seat == self.human:
                    action = self.ask_human()
                else:
                    action = choose(self.players[seat], self.state)
                    self._tell_bot_faults(seat)
                self.apply(seat, action)
        except _Quit:
            self.say(_("You leave the game."))
            self.save()
            return 0
        except EOFError:
            self.say("\n" + _("End of input: the game stops here."))
            self.save()
            return 0
        except KeyboardInterrupt:
            self.say("\n" + _("Interrupted: the game stops here."))
            self.save()
            return INTERRUPTED
        except Exception as error:  # a bug must not cost the game: save it, then say what happened
            detail = f"{escape(type(error).__name__)}: {escape(str(error))}"
            self.say(
                "\n[bold red]"
                + _("error:")
                + "[/] "
                + _("internal error: {detail} (please report it); the game stops here.", detail=detail),
                soft_wrap=True,
            )
            self.save()
            return GAME_FAILED
        self._game_over()
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
            self.say(f"[yellow]{said}[/]", soft_wrap=True)
        self._faults_told[seat] = len(bot.messages)

    def record_names(self) -> list[str]:
        """The seats' names as the record has them, each computer player's kind after its name."""
        return [record_name(name, kind) for name, kind in zip(self.names, self.kinds, strict=True)]

    def _intro(self) -> None:
        rules = self.rules
        seats = ", ".join(
            escape(self.names[s]) + ("" if s == self.human else f" [dim]({escape(self.kinds[s])})[/]")
            for s in range(rules.players)
        )
        seed = (
            _("new deals from seed {seed}", seed=self.seed)
            if self.resumed_from
            else _("seed {seed}", seed=self.seed)
        )
        facts = " · ".join(
            [seed, _("game to {target}", target=rules.target), _("seats clockwise: {seats}", seats=seats)]
        )
        self.say(f"[bold]{escape(rules.name)}[/] ({rules.id}) · {facts}")
        if self.resumed_from is not None:
            state = self.state
            done = len(state.results)
            parts = [ngettext("after {n} hand", "after {n} hands", done)] if done else []
            if state.actions:
                parts.append(
                    ngettext(
                        "{n} decision into hand {hand}", "{n} decisions into hand {hand}", len(state.actions),
                        hand=state.hand_index + 1,
                    )
                )  # fmt: skip
            where = ", ".join(parts) or _("at its start")
            self.say(
                _(
                    "Resuming the game of {path}, {where}; score {score}.",
                    path=escape(str(self.resumed_from)),
                    where=where,
                    score=terminal.score_line(state.observation(self.human), rules, self.names),
                ),
                soft_wrap=True,
            )
        if rules.partnerships:
            sides = " vs ".join(
                escape(terminal.side_name(rules, s, self.names)) for s in range(rules.num_sides)
            )
            self.say(_("Partners sit opposite: {sides}.", sides=sides))
        self.say(_("Type [bold]help[/] at any prompt for how to answer, [bold]quit[/] to save and leave."))
        self._announce_deal()

    def _announce_deal(self) -> None:
        dealer = self.state.dealer
        hand = "[bold]" + _("Hand {n}", n=self.state.hand_index + 1) + "[/]"
        deals = self._says(dealer, N_("{who} deals."), N_("You deal."))
        self.say(f"\n{hand}: {deals}")

    def _game_over(self) -> None:
        winner = self.state.winner
        obs = self.state.observation(self.human)
        self.say(terminal.score_table(obs, self.rules, self.names))
        if winner is None:
            return
        who = terminal.side_name(self.rules, winner, self.names)
        mine = self.rules.side_of(self.human) == winner
        style = "bold green" if mine else "bold red"
        said = (
            _("{side} win the game!", side=escape(who))
            if mine or " & " in who
            else _("{name} wins the game!", name=escape(who))
        )
        if who == _(DEFAULT_NAME):
            said = _("You win the game!")
        self.say(f"[{style}]{said}[/]")

    # ------------------------------------------------------------------ applying and telling

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
            said = _("{reason}; legal: {legal}", reason=i18n.translate(error.reason), legal=error.legal)
            reason = terminal.text_markup(said, terminal.tables_of(self.rules, before))
            self.say(
                "[red]"
                + _("{name} tried an illegal move ({reason})", name=escape(self.names[seat]), reason=reason)
                + "[/]"
            )
            action = state.legal_actions()[0]
            state.apply(action)
        self.bots.tell(seat, action, state)
        self._tell_action(seat, action, before)
        after = state.observation(self.human)
        if state.hand_index == hand_index and not state.is_over:
            self._tell_changes(before, after, named=verb_of(action) == Verb.TRUMP)
            if len(after.tricks) > tricks and after.trump is not None:
                trick = after.tricks[-1]
                tt = self.rules.tables(after.trump)
                self.say("  " + terminal.won_markup(trick.plays, trick.winner, self.rules, self.names, tt))
            return
        # the hand ended (and maybe the game): its last trick, then the summary
        result = state.results[hand_index] if hand_index < len(state.results) else None
        if result is not None and result.tricks and result.trump is not None:
            last = result.tricks[-1]
            plays = [(s, play_cards(a)) for s, a in last.plays]
            tt = self.rules.tables(result.trump)
            self.say("  " + terminal.won_markup(plays, last.winner, self.rules, self.names, tt))
        if hand_index < len(after.history):
            self.say(terminal.hand_summary(after.history[hand_index], scores, self.rules, self.names))
        if not state.is_over:
            if self.pause:
                self._wait_for_next_hand()
            self._announce_deal()

    def _wait_for_next_hand(self) -> None:
        """Hold the hand's result on the screen until the human moves on (commands work here too)."""
        while True:
            word = self.ask(_("Press Enter for the next hand (or score, quit)") + "> ").strip().lower()
            if word in ("quit", "exit"):
                raise _Quit
            if word == "score":
                self.say(terminal.score_table(self.state.observation(self.human), self.rules, self.names))
            elif word == "last":
                self._show_last()
            else:
                return

    def _is_you(self, seat: int) -> bool:
        return seat == self.human and self.names[seat] == _(DEFAULT_NAME)

    def _says(self, seat: int, third: str, second: str, **fields: object) -> str:
        """``Bo bids 8`` / ``You bid 8``: the sentence ``third`` (with ``{who}``) or, for the
        default-named human, ``second``; both marked with ``N_`` and translated here."""
        if self._is_you(seat):
            return _(second, **fields) if fields else _(second)
        return _(third, who=escape(self.names[seat]), **fields)

    def _tell_action(self, seat: int, action: int, before: Observation) -> None:
        rules = self.rules
        verb = verb_of(action)
        tt = terminal.tables_of(rules, before)
        cards = cards_of(arg_of(action)) if verb in _CARD_VERBS.values() else []
        if before.phase == Phase.AUCTION:
            if verb == Verb.PASS:
                text = self._says(seat, N_("{who} passes"), N_("You pass"))
            elif verb == Verb.PROTECT:
                text = self._says(
                    seat,
                    N_("{who} protects (a bid of {bid})"),
                    N_("You protect (a bid of {bid})"),
                    bid=rules.min_bid,
                )
            else:
                call = terminal.call_markup(action, rules)
                text = self._says(seat, N_("{who} bids {call}"), N_("You bid {call}"), call=call)
                calls = (*before.calls, (seat, action))
                if forced_call(rules, calls, before.dealer) == len(calls) - 1:
                    text += " " + _("(forced: everyone else passed)")
        elif verb == Verb.TRUMP:
            suit = terminal.suit_markup(arg_of(action) & 3)
            text = self._says(
                seat, N_("{who} names {suit} as trumps"), N_("You name {suit} as trumps"), suit=suit
            )
        elif verb == Verb.PLAY:
            played = play_cards(action)
            card = terminal.card_markup(played[0], tt)
            text = self._says(seat, N_("{who} plays {card}"), N_("You play {card}"), card=card)
            if len(played) > 1:
                text += ", " + _("burying {cards}", cards=terminal.cards_markup(played[1:], tt))
        elif verb == Verb.FOLD:
            text = self._says(seat, N_("{who} folds"), N_("You fold"))
        elif verb == Verb.PASS:
            text = self._says(seat, N_("{who} passes"), N_("You pass"))
        elif seat == self.human:
            word = {Verb.DISCARD: (N_("{who} discards {cards}"), N_("You discard {cards}")),
                    Verb.KEEP: (N_("{who} keeps {cards}"), N_("You keep {cards}")),
                    Verb.KILL: (N_("{who} kills {cards}"), N_("You kill {cards}")),
                    Verb.GIVE: (N_("{who} gives {cards}"), N_("You give {cards}"))}[verb]  # fmt: skip
            text = self._says(seat, *word, cards=terminal.cards_markup(sort_hand(cards, tt), tt))
        else:
            text = self._hidden_exchange(seat, verb, len(cards))
        self.say(text)

    def _hidden_exchange(self, seat: int, verb: Verb, count: int) -> str:
        """A computer's exchange move, without naming cards the rules keep face down."""
        if verb == Verb.KEEP:
            what = ngettext("{n} card", "{n} cards", count)
            return self._says(seat, N_("{who} takes {what}"), N_("You take {what}"), what=what)
        if verb == Verb.GIVE:
            partner = escape(self.names[(seat + 2) % self.rules.players])
            what = ngettext("{n} trump", "{n} trumps", count)
            return self._says(
                seat, N_("{who} gives {what} to {partner}"), N_("You give {what} to {partner}"),
                what=what, partner=partner,
            )  # fmt: skip
        if verb == Verb.KILL:
            what = ngettext("{n} trump", "{n} trumps", count)
            return self._says(seat, N_("{who} kills {what}"), N_("You kill {what}"), what=what)
        what = ngettext("{n} card", "{n} cards", count)
        return self._says(seat, N_("{who} discards {what}"), N_("You discard {what}"), what=what)

    def _tell_changes(self, before: Observation, after: Observation, *, named: bool = False) -> None:
        """What the engine did by itself in public: contract, trumps, face-up cards, seats dropping out."""
        rules = self.rules
        tt = terminal.tables_of(rules, after)
        if before.bidder is None and after.bidder is not None:
            call = next(a for s, a in reversed(after.calls) if s == after.bidder and a != PASS)
            won = self._says(
                after.bidder,
                N_("{who} wins the bidding with {call}."),
                N_("You win the bidding with {call}."),
                call=terminal.call_markup(call, rules),
            )
            self.say(f"[bold]{won}[/]")
        elif before.trump is None and after.trump is not None and not named:
            self.say(_("Trumps: {suit}", suit=terminal.suit_markup(after.trump)))
        for s in range(rules.players):
            new = set(after.face_up[s]) - set(before.face_up[s])
            if new:
                shown = terminal.cards_markup(sort_hand(sorted(new), tt), tt)
                self.say("  " + _("{name}: face up {cards}", name=escape(self.names[s]), cards=shown))
            status = Status(after.statuses[s])
            if status != before.statuses[s] and status != Status.ACTIVE:
                word = status_word(status)
                shown_cards = (
                    terminal.cards_markup(sort_hand(after.shown[s], tt), tt) if after.shown[s] else ""
                )
                said = self._says(s, N_("{who} is {status}"), N_("You are {status}"), status=word)
                self.say(f"  [yellow]{said}[/]" + (f": {shown_cards}" if shown_cards else ""))
        if before.phase != Phase.PLAY and after.phase == Phase.PLAY and after.seat == self.human:
            exchanged = terminal.exchange_markup(after, rules, self.names)
            if exchanged:
                self.say(_("The exchange: {exchange}.", exchange=exchanged))
            sizes = ", ".join(f"{escape(self.names[s])} {after.hand_sizes[s]}" for s in range(rules.players))
            self.say(_("Play begins (cards in hand: {sizes}).", sizes=sizes))
            self.say(_("Your hand: {cards}", cards=terminal.hand_markup(after.hand, tt)))

    # ------------------------------------------------------------------ the human's turn

    def ask_human(self) -> int:
        """Show the table and ask until the human gives a legal answer; commands are answered on the way."""
        obs = self.state.observation(self.human)
        self.say(terminal.table_panel(obs, self.rules, self.names))
        self._show_choices(obs)
        prompt = _(_PROMPTS.get(Phase(obs.phase), N_("Your choice"))) + "> "
        while True:
            text = self.ask(prompt).strip()
            word = text.lower()
            if word in ("help", "?"):
                self.say(help_text(self.rules))
                self._show_choices(obs)
            elif word in ("hint", "hints"):
                self._show_hint(obs)
            elif word == "last":
                self._show_last()
            elif word == "rules":
                self.say(Markdown(rule_sheet(self.rules)))
            elif word == "score":
                self.say(terminal.score_table(obs, self.rules, self.names))
            elif word in ("quit", "exit"):
                raise _Quit
            elif word in ("hand", "table", "look"):
                self.say(terminal.table_panel(obs, self.rules, self.names))
                self._show_choices(obs)
            else:
                try:
                    return self.read_action(text)
                except InputError as error:
                    self.say(
                        f"[red]✗[/] {terminal.text_markup(str(error), terminal.tables_of(self.rules, obs))}"
                    )
                    self.say("  [dim]" + _("type help for how to answer; the choices are above") + "[/]")

    def _show_choices(self, obs: Observation) -> None:
        self.say("[dim]" + _("choices:") + f"[/] {terminal.choices_markup(obs, self.rules)}")

    def _show_hint(self, obs: Observation) -> None:
        if self.hints is None:
            self.say(_("Hints are off: start the game with [b]pedro play --hints[/] to have them."))
            return
        estimates = self.hints.estimates(obs)
        if estimates is None:
            self.say(_("No hint for this kind of decision."))
            return
        if not estimates.values:
            self.say(_("No hint: {why}.", why=i18n.translate(estimates.note())))
            return
        unit = (
            _("points your side takes this hand") if estimates.unit == "points" else _("change of your score")
        )
        self.say("[dim]" + _("expert's estimate ({unit}):", unit=unit) + "[/]")
        tt = terminal.tables_of(self.rules, obs)
        for action, value in estimates.ranked()[:10]:
            shown = f"{value:+.2f}" if estimates.unit == "score" else f"{value:.2f}"
            self.say(f"  {terminal.action_markup(action, self.rules, tt)}  {shown}")
        if len(estimates.values) > 10:
            self.say("  [dim]" + ngettext("… {n} more", "… {n} more", len(estimates.values) - 10) + "[/]")
        if not estimates.complete:
            self.say(f"  [yellow]{escape(i18n.translate(estimates.note()))}[/]")

    def _show_last(self) -> None:
        state = self.state
        obs = state.observation(self.human)
        plays: terminal.Plays | None = None
        winner, trump = -1, obs.trump
        if obs.tricks:
            plays, winner = obs.tricks[-1].plays, obs.tricks[-1].winner
        else:
            for result in reversed(state.results):
                if result.tricks and result.trump is not None:
                    last = result.tricks[-1]
                    plays = [(s, play_cards(a)) for s, a in last.plays]
                    winner, trump = last.winner, result.trump
                    break
        if plays is None or trump is None:
            self.say(_("No trick has been played yet."))
            return
        tt = self.rules.tables(trump)
        self.say(
            _("Last trick: {trick}", trick=terminal.won_markup(plays, winner, self.rules, self.names, tt))
        )

    def read_action(self, text: str) -> int:
        """The action the human's ``text`` stands for, if it is legal now; else InputError saying why."""
        state = self.state
        action = parse_answer(text, state)
        if (
            state.phase == Phase.AUCTION
            and verb_of(action) == Verb.BID
            and arg_of(action) > state.rules.max_bid
        ):
            raise InputError(
                _("not allowed: {reason}", reason=_("bids go up to {max}", max=state.rules.max_bid))
            )
        reason = state.why_illegal(action)
        if reason is not None:
            raise InputError(_("not allowed: {reason}", reason=i18n.translate(reason)))
        return action

    # ------------------------------------------------------------------ saving

    def save(self) -> Path | None:
        """Write the game record (once); print where it went.

        A game is never lost for want of a place: when the file asked for cannot
        be written (its folder was removed during the game, the disk is full...),
        the record goes to pedro's user data folder instead, and that is said.
        """
        if self.saved is not None:
            return self.saved
        from pedro.records import record_from_game, write_record

        record = record_from_game(self.state, self.record_names())
        path = self.save_path or default_save_path(self.rules)
        try:
            write_record(record, path)
        except OSError as error:
            self.say(
                "[red]"
                + _(
                    "The game could not be saved to {path}: {reason}.",
                    path=escape(str(path)),
                    reason=escape(error.strerror or str(error)),
                )
                + "[/]",
                soft_wrap=True,
            )
            try:
                folder = games_folder()
                folder.mkdir(parents=True, exist_ok=True)
                path = default_save_path(self.rules, folder=folder)
                write_record(record, path)
            except OSError as second:
                self.say(
                    "[red]"
                    + _(
                        "Nor in {folder}: {reason}; the game is lost.",
                        folder=escape(str(games_folder())),
                        reason=escape(second.strerror or str(second)),
                    )
                    + "[/]",
                    soft_wrap=True,
                )
                return None
            self.say("[yellow]" + _("Saved it in pedro's data folder instead.") + "[/]")
        self.saved = path
        self.say(
            _("Game saved to [bold]{path}[/] (replay it with: {command})", path=escape(str(path)),
              command="pedro replay " + escape(str(path))),
            soft_wrap=True,
        )  # fmt: skip
        if not self.state.is_over:
            self.say(
                _(
                    "Resume it with: {command}",
                    command="[bold]pedro play --resume " + escape(_shell_word(str(path))) + "[/]",
                ),
                soft_wrap=True,
            )
        return path


def _shell_word(text: str) -> str:
    """``text`` quoted for a shell when it needs it (a path with spaces)."""
    import shlex

    return shlex.quote(text)


_PROMPTS = {
    Phase.AUCTION: N_("Your bid"),
    Phase.TRUMP: N_("Trumps"),
    Phase.EXCHANGE: N_("Your choice"),
    Phase.PLAY: N_("Your card"),
}


def _seat_names(kinds: Sequence[str], human_name: str) -> list[str]:
    pool = [n for n in COMPUTER_NAMES if n.lower() != human_name.lower()]
    names = []
    k = 0
    for kind in kinds:
        if kind == HUMAN:
            names.append(human_name)
        else:
            names.append(pool[k % len(pool)])
            k += 1
    return names


# --------------------------------------------------------------------------- reading answers


def parse_answer(text: str, state: GameState) -> int:
    """Read the human's answer in the current phase into an action (not yet checked for legality)."""
    words = text.replace(",", " ").split()
    if not words:
        raise InputError(_("type your choice (or help)"))
    phase = state.phase
    rules = state.rules
    first = words[0].lower()
    try:
        if phase == Phase.AUCTION:
            return _parse_call(words, rules)
        if phase == Phase.TRUMP:
            return _parse_trump(words)
        if phase == Phase.EXCHANGE:
            return _parse_exchange(words, state.legal(), rules)
        if phase == Phase.PLAY:
            if first == "play":
                words = words[1:]
            return _parse_play(words, state)
    except (ActionError, CardError) as error:
        raise InputError(str(error)) from None
    if phase == Phase.GAME_OVER:
        raise InputError(_("the game is over"))
    return parse_action_words(text, rules.max_bid)


def _parse_call(words: list[str], rules: Ruleset) -> int:
    if words[0].lower() == "bid":
        words = words[1:]
    if len(words) != 1:
        raise InputError(_("a call is one word: a number such as 8, or pass"))
    word = words[0].lower()
    max_bid = rules.max_bid
    specials = _special_calls(rules)
    others = " (" + _("or {calls}", calls=" / ".join(specials)) + ")" if specials else ""
    if word in ("pass", "p", _("pass").lower()):
        return PASS
    if word.isdigit():
        return bid_action(int(word))
    if word == "protect" and rules.protect:
        return PROTECT
    if word == "28-56" and rules.bid_28_56:
        return make(Verb.BID_28_56)
    if rules.double_max_bid and (word == "double" or word.endswith("-double")):
        if word != "double" and word != f"{max_bid}-double":
            raise InputError(_("the double call here is {call}", call=str(max_bid) + "-double"))
        return make(Verb.BID_DOUBLE)
    if word in ("protect", "28-56", "double") or word.endswith("-double"):
        raise InputError(
            _(
                "{variant} has no {call} call: bid a number (e.g. 8 or bid 8) or pass",
                variant=rules.name,
                call=word,
            )
            + others
        )
    raise InputError(
        _("{word} is not a call: bid a number (e.g. 8 or bid 8) or pass", word=repr(words[0])) + others
    )


def _parse_trump(words: list[str]) -> int:
    if words[0].lower() in ("trump", "trumps") and len(words) > 1:
        words = words[1:]
    word = " ".join(words).lower()
    suit = _SUITS_BY_WORD.get(word)
    if suit is None:
        suit = next((s for s in range(4) if suit_name(s).lower() == word), None)
    if suit is None:
        raise InputError(
            _(
                "{word} is not a suit: name trumps as s, h, d, c (or ♠ ♥ ♦ ♣, or {suits})",
                word=repr(" ".join(words)),
                suits=", ".join(suit_name(s) for s in range(4)),
            )
        )
    return trump_action(suit)


def _parse_exchange(words: list[str], legal: tuple[int, ...] | CardChoice, rules: Ruleset) -> int:
    first = words[0].lower()
    if len(words) == 1 and first in ("pass", "p", "none", _("pass").lower()):
        return PASS
    if len(words) == 1 and first == "fold":
        return FOLD
    verb = _CARD_VERBS.get(first) or next(
        (v for v in _CARD_VERBS.values() if terminal.verb_word(v).lower() == first), None
    )
    if verb is not None:
        words = words[1:]
    else:
        verb = _expected_verb(legal)
    if not words:
        offers = [a for a in legal if verb_of(a) == verb] if isinstance(legal, tuple) else []
        if len(offers) == 1:
            return offers[0]
        raise InputError(
            _(
                "name the cards to {verb}, e.g. {example}",
                verb=terminal.verb_word(verb),
                example=verb.name.lower() + " 3c 4d",
            )
        )
    cards = _read_cards(words, rules)
    if len(set(cards)) != len(cards):
        raise InputError(_("a card is named twice"))
    return cards_action(verb, mask_of(cards))


def _read_cards(words: list[str], rules: Ruleset) -> list[int]:
    """The cards typed, each one of the pack of ``rules``; else InputError naming only that pack's cards."""
    cards = []
    for word in words:
        try:
            card = parse_card(word)
        except CardError:
            card = -1
        if card not in rules.deck:
            jokers = (
                _("jokers are {jokers}", jokers=", ".join(rules.jokers))
                if rules.jokers
                else _("{variant} has no jokers", variant=rules.name)
            )
            raise InputError(
                _(
                    "{word} is not a card: rank must be one of A K Q J 10 9 8 7 6 5 4 3 2 (or T), "
                    "suit one of S H D C (or ♠ ♥ ♦ ♣)",
                    word=repr(word),
                )
                + "; "
                + jokers
            )
        cards.append(card)
    return cards


def _expected_verb(legal: tuple[int, ...] | CardChoice) -> Verb:
    if isinstance(legal, CardChoice):
        return legal.verb
    for action in legal:
        verb = verb_of(action)
        if verb in _CARD_VERBS.values():
            return verb
    raise InputError(_("no cards are asked for now: answer with one of the choices shown"))


def _parse_play(words: list[str], state: GameState) -> int:
    if not words:
        raise InputError(_("name the card to play, e.g. 5h"))
    cards = _read_cards(words, state.rules)
    if len(set(cards)) != len(cards):
        raise InputError(_("a card is named twice"))
    action = play_action(cards)
    legal = state.legal()
    if len(cards) == 1 and isinstance(legal, tuple) and action not in legal:
        # on a multi-card first trick, a top card with only one legal stack is enough
        stacks = [a for a in legal if play_top(a) == cards[0] and len(play_cards(a)) > 1]
        if len(stacks) == 1:
            return stacks[0]
        if stacks:
            size = len(play_cards(stacks[0]))
            example = play_cards(stacks[0])
            raise InputError(
                _(
                    "play {size} cards to this trick: the top card first, then {bury} to bury, "
                    "e.g. {example} (typed {typed})",
                    size=size,
                    bury=size - 1,
                    example=format_cards(example),
                    typed=" ".join(_plain(c) for c in example),
                )
            )
    return action


def _plain(c: int) -> str:
    from pedro.cards import format_card

    return format_card(c).lower()
