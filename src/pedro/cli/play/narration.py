"""What ``pedro play`` tells the human at the table: each move, as seen from the human's seat.

The computer players' exchanges are told without the cards the rules keep face down; the
human's own moves are said in the second person when the human kept the default name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from pedro import i18n, terminal
from pedro.cards import cards_of
from pedro.cli.play.answers import CARD_VERBS
from pedro.cli.play.seats import DEFAULT_NAME
from pedro.display import dealer_kept, sort_hand, status_word
from pedro.engine.actions import PASS, Verb, arg_of, play_cards, verb_of
from pedro.engine.auction import forced_call
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState, IllegalActionError
from pedro.i18n import N_, _, ngettext
from pedro.variants.model import Ruleset


class Say(Protocol):
    """Prints rich markup to the human's terminal."""

    def __call__(self, *objects: object, soft_wrap: bool = False) -> None: ...


class Narrator:
    """Tells the human of one game what happens: the moves, the engine's own steps, the tricks."""

    def __init__(
        self, console: Console, rules: Ruleset, state: GameState, names: list[str], human: int
    ) -> None:
        self.console = console
        self.rules = rules
        self.state = state
        self.names = names
        self.human = human

    def say(self, *objects: object, soft_wrap: bool = False) -> None:
        """Print without rich's number highlighting, which would recolour the ranks of cards."""
        self.console.print(*objects, highlight=False, soft_wrap=soft_wrap)

    def _is_you(self, seat: int) -> bool:
        return seat == self.human and self.names[seat] == _(DEFAULT_NAME)

    def says(self, seat: int, third: str, second: str, **fields: object) -> str:
        """``Bo bids 8`` / ``You bid 8``: the sentence ``third`` (with ``{who}``) or, for the
        default-named human, ``second``; both marked with ``N_`` and translated here."""
        if self._is_you(seat):
            return _(second, **fields) if fields else _(second)
        return _(third, who=escape(self.names[seat]), **fields)

    def intro(self, kinds: list[str], seed: int, resumed_from: Path | None) -> None:
        """The game, its seats and (when resumed) where it stands; then the first deal."""
        rules = self.rules
        seats = ", ".join(
            escape(self.names[s]) + ("" if s == self.human else f" [dim]({escape(kinds[s])})[/]")
            for s in range(rules.players)
        )
        dealt = _("new deals from seed {seed}", seed=seed) if resumed_from else _("seed {seed}", seed=seed)
        facts = " · ".join(
            [dealt, _("game to {target}", target=rules.target), _("seats clockwise: {seats}", seats=seats)]
        )
        self.say(f"[bold]{escape(rules.name)}[/] ({rules.id}) · {facts}")
        if resumed_from is not None:
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
                    path=escape(str(resumed_from)),
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
        self.deal()

    def deal(self) -> None:
        """The hand that begins and who deals it."""
        dealer = self.state.dealer
        hand = "[bold]" + _("Hand {n}", n=self.state.hand_index + 1) + "[/]"
        deals = self.says(dealer, N_("{who} deals."), N_("You deal."))
        self.say(f"\n{hand}: {deals}")

    def game_over(self) -> None:
        """The score sheet and who won."""
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

    def illegal_move(self, seat: int, error: IllegalActionError, before: Observation) -> None:
        """A computer player's bug, said so that the game can go on with a legal move instead."""
        said = _("{reason}; legal: {legal}", reason=i18n.translate(error.reason), legal=error.legal)
        reason = terminal.text_markup(said, terminal.tables_of(self.rules, before))
        self.say(
            "[red]"
            + _("{name} tried an illegal move ({reason})", name=escape(self.names[seat]), reason=reason)
            + "[/]"
        )

    def trick(self, plays: terminal.Plays, winner: int, trump: int) -> None:
        """A trick just won: its cards and who took it."""
        tt = self.rules.tables(trump)
        self.say("  " + terminal.won_markup(plays, winner, self.rules, self.names, tt))

    def hand_end(self, hand_index: int, scores: list[int], after: Observation) -> None:
        """The last trick of the hand that just ended (if it was played), then its summary
        (``scores`` as they were before it, ``after`` what the human sees now)."""
        state = self.state
        result = state.results[hand_index] if hand_index < len(state.results) else None
        if result is not None and result.tricks and result.trump is not None:
            last = result.tricks[-1]
            self.trick([(s, play_cards(a)) for s, a in last.plays], last.winner, result.trump)
        if hand_index < len(after.history):
            self.say(terminal.hand_summary(after.history[hand_index], scores, self.rules, self.names))

    def last_trick(self) -> None:
        """The last trick played, of this hand or the one before (the ``last`` command)."""
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

    def action(self, seat: int, action: int, before: Observation) -> None:
        """A move just made, as the human could see it from ``before``."""
        rules = self.rules
        verb = verb_of(action)
        tt = terminal.tables_of(rules, before)
        cards = cards_of(arg_of(action)) if verb in CARD_VERBS.values() else []
        if before.phase == Phase.AUCTION:
            if verb == Verb.PASS:
                text = self.says(seat, N_("{who} passes"), N_("You pass"))
            elif verb == Verb.PROTECT:
                text = self.says(
                    seat,
                    N_("{who} protects (a bid of {bid})"),
                    N_("You protect (a bid of {bid})"),
                    bid=rules.min_bid,
                )
            else:
                call = terminal.call_markup(action, rules)
                text = self.says(seat, N_("{who} bids {call}"), N_("You bid {call}"), call=call)
                calls = (*before.calls, (seat, action))
                if forced_call(rules, calls, before.dealer) == len(calls) - 1:
                    text += " " + _("(forced: everyone else passed)")
        elif verb == Verb.TRUMP:
            suit = terminal.suit_markup(arg_of(action) & 3)
            text = self.says(
                seat, N_("{who} names {suit} as trumps"), N_("You name {suit} as trumps"), suit=suit
            )
        elif verb == Verb.PLAY:
            played = play_cards(action)
            card = terminal.card_markup(played[0], tt)
            text = self.says(seat, N_("{who} plays {card}"), N_("You play {card}"), card=card)
            if len(played) > 1:
                text += ", " + _("burying {cards}", cards=terminal.cards_markup(played[1:], tt))
        elif verb == Verb.FOLD:
            text = self.says(seat, N_("{who} folds"), N_("You fold"))
        elif verb == Verb.PASS:
            text = self.says(seat, N_("{who} passes"), N_("You pass"))
        elif seat == self.human:
            word = {Verb.DISCARD: (N_("{who} discards {cards}"), N_("You discard {cards}")),
                    Verb.KEEP: (N_("{who} keeps {cards}"), N_("You keep {cards}")),
                    Verb.KILL: (N_("{who} kills {cards}"), N_("You kill {cards}")),
                    Verb.GIVE: (N_("{who} gives {cards}"), N_("You give {cards}"))}[verb]  # fmt: skip
            text = self.says(seat, *word, cards=terminal.cards_markup(sort_hand(cards, tt), tt))
        else:
            text = self._hidden_exchange(seat, verb, len(cards))
        self.say(text)

    def _hidden_exchange(self, seat: int, verb: Verb, count: int) -> str:
        """A computer's exchange move, without naming cards the rules keep face down."""
        if verb == Verb.KEEP:
            what = ngettext("{n} card", "{n} cards", count)
            return self.says(seat, N_("{who} takes {what}"), N_("You take {what}"), what=what)
        if verb == Verb.GIVE:
            partner = escape(self.names[(seat + 2) % self.rules.players])
            what = ngettext("{n} trump", "{n} trumps", count)
            return self.says(
                seat, N_("{who} gives {what} to {partner}"), N_("You give {what} to {partner}"),
                what=what, partner=partner,
            )  # fmt: skip
        if verb == Verb.KILL:
            what = ngettext("{n} trump", "{n} trumps", count)
            return self.says(seat, N_("{who} kills {what}"), N_("You kill {what}"), what=what)
        what = ngettext("{n} card", "{n} cards", count)
        return self.says(seat, N_("{who} discards {what}"), N_("You discard {what}"), what=what)

    def changes(self, before: Observation, after: Observation, *, named: bool = False) -> None:
        """What the engine did by itself in public: contract, trumps, face-up cards, seats dropping out."""
        rules = self.rules
        tt = terminal.tables_of(rules, after)
        if before.bidder is None and after.bidder is not None:
            call = next(a for s, a in reversed(after.calls) if s == after.bidder and a != PASS)
            won = self.says(
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
                said = self.says(s, N_("{who} is {status}"), N_("You are {status}"), status=word)
                self.say(f"  [yellow]{said}[/]" + (f": {shown_cards}" if shown_cards else ""))
        if before.phase != Phase.PLAY and after.phase == Phase.PLAY and after.seat == self.human:
            exchanged = terminal.exchange_markup(after, rules, self.names, dealer_kept(self.state))
            if exchanged:
                self.say(_("The exchange: {exchange}.", exchange=exchanged))
            sizes = ", ".join(f"{escape(self.names[s])} {after.hand_sizes[s]}" for s in range(rules.players))
            self.say(_("Play begins (cards in hand: {sizes}).", sizes=sizes))
            self.say(_("Your hand: {cards}", cards=terminal.hand_markup(after.hand, tt)))
