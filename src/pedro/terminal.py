"""Terminal pictures shared by ``pedro play`` and the environments' text view.

Coloured cards, the table, tricks, hand results and scores.

Everything here is drawn from one seat's ``Observation`` (plus the public
hand results), never from the game state, so the terminal game cannot show
the human a card the rules keep hidden. Functions return rich markup
strings or renderables and print nothing, so they are easy to test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pedro.cards import JOKER_NAMES, SUIT_SYMBOLS, cards_of, parse_card, pretty_card
from pedro.display import DEALER_ROBS, RED_SUITS, breakdown, sort_hand, status_word, suit_name, took_text
from pedro.engine.actions import Verb, arg_of, play_cards, play_top, verb_of
from pedro.engine.auction import forced_call
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation, SeenHand
from pedro.engine.phases import Phase, Status
from pedro.i18n import N_, _, ngettext, pgettext, translate
from pedro.variants.model import LowRule, Ruleset
from pedro.variants.tables import TrumpTables

#: One played card per seat: (seat, cards with the top card first).
Plays = Sequence[tuple[int, Sequence[int]]]


# --------------------------------------------------------------------------- cards


def styled(style: str, text: str) -> str:
    """``text`` (markup already) in a rich ``style``."""
    return f"[{style}]{text}[/]"


def card_markup(c: int, trump: TrumpTables | None = None) -> str:
    """A card with its suit symbol, red for ♥♦, magenta for jokers; trumps in bold."""
    text = pretty_card(c)
    bold = trump is not None and bool(trump.trump_mask >> c & 1)
    if c in JOKER_NAMES:
        style = "bold magenta"
    elif c // 13 in RED_SUITS:
        style = "bold red" if bold else "red"
    else:
        style = "bold" if bold else ""
    return f"[{style}]{text}[/]" if style else text


def cards_markup(cards: Sequence[int], trump: TrumpTables | None = None) -> str:
    return " ".join(card_markup(c, trump) for c in cards) if cards else "—"


#: A card as the engine and the records write it (``5H``, ``TD``, ``JK``), as a whole word.
_CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK|BJ|SJ)\b")


def text_markup(text: str, trump: TrumpTables | None = None) -> str:
    """Plain text (an engine's message, a rule) as markup, its ``5H``-style cards shown as ``5♥``.

    The engine and the records name cards by letters; the terminal game shows
    them with suit symbols everywhere, its messages included.
    """
    out: list[str] = []
    last = 0
    for match in _CARD_WORD.finditer(text):
        out.append(escape(text[last : match.start()]))
        out.append(card_markup(parse_card(match.group()), trump))
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def suit_markup(suit: int) -> str:
    """``♥ hearts`` in the suit's colour."""
    text = f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"
    return f"[red]{text}[/]" if suit in RED_SUITS else text


def hand_markup(cards: Sequence[int], trump: TrumpTables | None = None) -> str:
    """A sorted hand, with a bar between the trumps and the rest once trumps are named."""
    ordered = sort_hand(cards, trump)
    if trump is None:
        return cards_markup(ordered)
    trumps = [c for c in ordered if trump.trump_mask >> c & 1]
    rest = [c for c in ordered if not trump.trump_mask >> c & 1]
    if trumps and rest:
        return f"{cards_markup(trumps, trump)}  │  {cards_markup(rest, trump)}"
    return cards_markup(trumps or rest, trump)


def tables_of(rules: Ruleset, obs: Observation) -> TrumpTables | None:
    return rules.tables(obs.trump) if obs.trump is not None else None


# --------------------------------------------------------------------------- seats and sides


def side_name(rules: Ruleset, side: int, names: Sequence[str]) -> str:
    """``You & Cy`` for a partnership, the player's name otherwise."""
    return " & ".join(names[s] for s in rules.sides()[side])


def call_markup(action: int, rules: Ruleset) -> str:
    """A call as said at the table: ``pass``, ``8``, ``28-56``, ``83-double``, ``protect``."""
    verb = verb_of(action)
    if verb == Verb.PASS:
        return styled("dim", _("pass"))
    if verb == Verb.BID:
        return f"[bold]{arg_of(action)}[/]"
    if verb == Verb.BID_28_56:
        return "[bold]28-56[/]"
    if verb == Verb.BID_DOUBLE:
        return styled("bold", f"{rules.max_bid}-" + _("double"))
    if verb == Verb.PROTECT:
        return styled("bold", _("protect")) + f" ({rules.min_bid})"
    return verb.name.lower()


def exchange_markup(obs: Observation, rules: Ruleset, names: Sequence[str], kept: int | None = None) -> str:
    """The exchange in public counts, seat by seat from the dealer's left: ``Bo discarded 6, drew 4``.

    Said when the card play begins, so the table can count trumps: a count is
    public, which cards went face down is not. ``kept``: how many cards a dealer
    who robs the pack kept of it (``display.dealer_kept``); without it his rob is not told.
    """
    n = rules.players
    parts = []
    for i in range(1, n + 1):
        s = (obs.dealer + i) % n
        robs = s == obs.dealer and rules.fill in DEALER_ROBS
        out, got = obs.discarded[s], (kept or 0) if robs else obs.drawn[s]
        if not out and not got:
            continue
        if s == obs.seat and names[s] == _("You"):  # "You discarded 6": other languages conjugate it
            said = {
                "laid aside": pgettext("you", "laid aside {n}", n=out),
                "discarded": pgettext("you", "discarded {n}", n=out),
                "robbed": pgettext("you", "robbed the pack and kept {n}", n=got),
                "drew": pgettext("you", "drew {n}", n=got),
            }
        else:
            said = {
                "laid aside": _("laid aside {n}", n=out),
                "discarded": _("discarded {n}", n=out),
                "robbed": _("robbed the pack and kept {n}", n=got),
                "drew": _("drew {n}", n=got),
            }
        words = []
        if out:
            words.append(said["laid aside"] if robs else said["discarded"])
        if got:
            words.append(said["robbed"] if robs else said["drew"])
        parts.append(f"{escape(names[s])} {', '.join(words)}")
    return " · ".join(parts)


def contract_markup(obs: Observation, rules: Ruleset, names: Sequence[str]) -> str:
    if obs.bidder is None:
        return styled("dim", _("bidding"))
    call = next((a for s, a in reversed(obs.calls) if s == obs.bidder and verb_of(a) != Verb.PASS), None)
    bid = call_markup(call, rules) if call is not None else str(obs.bid)
    if forced_call(rules, obs.calls, obs.dealer) is not None:
        bid += " " + styled("dim", "(" + _("forced") + ")")
    trump = suit_markup(obs.trump) if obs.trump is not None else styled("dim", _("not named yet"))
    return _("{name} bid {bid} · trumps {trump}", name=escape(names[obs.bidder]), bid=bid, trump=trump)


# --------------------------------------------------------------------------- tricks


def trick_markup(plays: Plays, names: Sequence[str], trump: TrumpTables | None) -> str:
    """``Bo 5♥ · Cy 2♥ (burying 3♥ 4♥)``."""
    parts = []
    for seat, cards in plays:
        text = f"{escape(names[seat])} {card_markup(cards[0], trump)}"
        if len(cards) > 1:
            text += " " + styled(
                "dim", "(" + _("burying {cards}", cards=cards_markup(list(cards[1:]), trump)) + ")"
            )
        parts.append(text)
    return " · ".join(parts) if parts else styled("dim", _("no cards yet"))


def trick_points(plays: Plays, rules: Ruleset, trump: TrumpTables) -> int:
    """Points the trick's cards carry to its winner (a Low scored by its holder is left out)."""
    holder_low = rules.low_rule != LowRule.CAPTURER
    return sum(
        trump.points[c] for _, cards in plays for c in cards if not (holder_low and trump.roles[c] == "2")
    )


def won_markup(plays: Plays, winner: int, rules: Ruleset, names: Sequence[str], trump: TrumpTables) -> str:
    """``Bo wins the trick (6 points): ...``."""
    pts = trick_points(plays, rules, trump)
    worth = " (" + ngettext("{n} point", "{n} points", pts) + ")" if pts else ""
    who = names[winner]
    said = (
        _("You win the trick")
        if who == _("You")
        else _("{name} wins the trick", name=styled("bold", escape(who)))
    )
    return f"{said}{worth}: {trick_markup(plays, names, trump)}"


# --------------------------------------------------------------------------- the table


def table_panel(obs: Observation, rules: Ruleset, names: Sequence[str]) -> Panel:
    """Everything one seat can see, as a panel: seats, bids, contract, trick, score and hand."""
    tt = tables_of(rules, obs)
    lines: list[RenderableType] = [_seats_table(obs, rules, names, tt), ""]
    rows = [(_("contract"), contract_markup(obs, rules, names))]
    if obs.trick is not None:
        rows.append((_("trick"), trick_markup(obs.trick.plays, names, tt)))
    if obs.wash:
        rows.append((_("wash"), _("{n} discarded cards gathered face down (the stock ran dry)", n=obs.wash)))
    rows.append((_("score"), score_line(obs, rules, names)))
    rows.append((_("your hand"), hand_markup(obs.hand, tt)))
    width = max(len(label) for label, _text in rows) + 1
    lines += [f"[dim]{escape(label)}[/]{' ' * (width - len(label))}{text}" for label, text in rows]
    title = f"[bold]{escape(rules.name)}[/] · " + _("hand {n}", n=obs.hand_index + 1)
    if obs.phase == Phase.PLAY:
        title += " · " + _("trick {n}", n=len(obs.tricks) + 1)
    return Panel(Group(*lines), title=title, title_align="left", expand=False)


def _seats_table(obs: Observation, rules: Ruleset, names: Sequence[str], tt: TrumpTables | None) -> Table:
    """A row a seat, from the observer's round: its calls, cards, status and face-up cards."""
    n = len(names)
    seats = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
    counts = any(obs.discarded) or any(obs.drawn)
    columns = (
        _("player"),
        _("side"),
        _("bid"),
        _("cards"),
        *((_("laid aside"), _("drew")) if counts else ()),
    )
    for column in (*columns, _("status"), _("face up")):
        seats.add_column(column)
    calls = _calls_by_seat(obs, rules)
    for i in range(n):
        s = (obs.seat + i) % n
        side = side_name(rules, rules.side_of(s), names) if rules.partnerships else ""
        bid = " ".join(calls.get(s, []))
        status = status_word(Status(obs.statuses[s]))
        shown = list(obs.face_up[s]) + list(obs.shown[s])
        moved = (str(obs.discarded[s]), str(obs.drawn[s])) if counts else ()
        seats.add_row(
            _seat_label(obs, names, s), escape(side), bid, str(obs.hand_sizes[s]), *moved,
            f"[yellow]{status}[/]" if status else "", cards_markup(sort_hand(shown, tt), tt) if shown else "",
        )  # fmt: skip
    return seats


def _calls_by_seat(obs: Observation, rules: Ruleset) -> dict[int, list[str]]:
    """Each seat's calls of this hand, in order, the dealer's forced bid marked."""
    forced = forced_call(rules, obs.calls, obs.dealer)
    calls: dict[int, list[str]] = {}
    for i, (seat, action) in enumerate(obs.calls):
        calls.setdefault(seat, []).append(
            call_markup(action, rules) + (" " + styled("dim", "(" + _("forced") + ")") if i == forced else "")
        )
    return calls


def _seat_label(obs: Observation, names: Sequence[str], s: int) -> str:
    """The seat's name, whether it deals or won the bidding, and ▶ when it is to act."""
    tags = []
    if s == obs.dealer:
        tags.append(_("dealer"))
    if s == obs.bidder:
        tags.append(_("bidder"))
    label = escape(names[s]) + (f" [dim]({', '.join(tags)})[/]" if tags else "")
    if s == obs.current_player and obs.phase != Phase.GAME_OVER:
        label = "▶ " + label
    return label


def score_line(obs: Observation, rules: Ruleset, names: Sequence[str]) -> str:
    """``You & Cy 12 · Bo & Di 20 (to 62)``."""
    parts = [
        f"{escape(side_name(rules, side, names))} [bold]{score}[/]" for side, score in enumerate(obs.scores)
    ]
    return " · ".join(parts) + " " + styled("dim", "(" + _("game to {target}", target=rules.target) + ")")


def score_table(obs: Observation, rules: Ruleset, names: Sequence[str]) -> Table:
    """Every hand so far: who bid what, points taken and the running score."""
    table = Table(title=_("Score (game to {target})", target=rules.target), title_justify="left")
    table.add_column(_("hand"), justify="right")
    table.add_column(_("bid"))
    sides = range(rules.num_sides)
    for side in sides:
        table.add_column(escape(side_name(rules, side, names)), justify="right")
    for k, hand in enumerate(obs.history):
        table.add_row(str(k + 1), _hand_bid(hand, rules, names), *(_cell(hand, side) for side in sides))
    table.add_row("", styled("bold", _("total")), *(f"[bold]{s}[/]" for s in obs.scores))
    return table


def _hand_bid(hand: SeenHand, rules: Ruleset, names: Sequence[str]) -> str:
    if hand.bidder is None:
        return styled("dim", _("all passed"))
    trump = f" {suit_markup(hand.trump)}" if hand.trump is not None else ""
    call = hand.call or str(hand.bid)
    result = _("made") if hand.made else styled("red", _("set"))
    return f"{escape(names[hand.bidder])} {call}{trump} {result}"


def _cell(hand: SeenHand, side: int) -> str:
    return (
        f"{hand.score[side]} " + styled("dim", "(" + ngettext("{n} pt", "{n} pts", hand.points[side]) + ")")
        if hand.bidder is not None
        else str(hand.score[side])
    )


def hand_summary(hand: SeenHand, before: Sequence[int], rules: Ruleset, names: Sequence[str]) -> Group:
    """A finished hand: the contract, made or set, points and the score change of each side."""
    if hand.bidder is None:
        title = _("All passed: the hand is thrown in")
    else:
        bidder_side = rules.side_of(hand.bidder)
        verdict = styled("green", _("made it")) if hand.made else styled("red", _("went set"))
        trump = suit_markup(hand.trump) if hand.trump is not None else "?"
        call = hand.call or str(hand.bid)
        title = _(
            "{name} bid {call} in {trump} and {verdict} ({points})",
            name=escape(names[hand.bidder]),
            call=call,
            trump=trump,
            verdict=verdict,
            points=ngettext("{n} point", "{n} points", hand.points[bidder_side]),
        )
    table = Table()
    table.add_column(_("side"))
    took = breakdown(rules, hand)
    tt = rules.tables(hand.trump) if hand.trump is not None else None
    if hand.bidder is not None:
        table.add_column(_("took"))
    table.add_column(_("points"), justify="right")
    table.add_column(_("change"), justify="right")
    table.add_column(_("score"), justify="right")
    for side in range(rules.num_sides):
        change = hand.score[side] - before[side]
        style = "green" if change > 0 else "red" if change < 0 else "dim"
        cells = [escape(side_name(rules, side, names))]
        if hand.bidder is not None:
            cells.append(" · ".join(took_text(t, lambda c: card_markup(c, tt)) for t in took[side]) or "—")
        cells += [
            str(hand.points[side]) if hand.bidder is not None else "",
            f"[{style}]{change:+d}[/]",
            f"[bold]{hand.score[side]}[/]",
        ]
        table.add_row(*cells)
    return Group(f"[bold]{title}[/]", table)


# --------------------------------------------------------------------------- legal choices


def ranges(values: Sequence[int]) -> str:
    """``7–10 12 14`` from sorted values."""
    out: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}–{values[j]}")
        i = j + 1
    return " ".join(out)


def choices_markup(obs: Observation, rules: Ruleset, *, limit: int = 12) -> str:
    """The legal choices of the seat to act, written the way they can be typed."""
    legal = obs.legal
    if legal is None:
        return ""
    tt = tables_of(rules, obs)
    if isinstance(legal, CardChoice):
        return _card_choice_markup(legal, tt, limit)
    if obs.phase == Phase.AUCTION:
        bids = sorted(arg_of(a) for a in legal if verb_of(a) == Verb.BID)
        parts = [_("pass")] if any(verb_of(a) == Verb.PASS for a in legal) else []
        if bids:
            parts.append(_("bid {bids}", bids=ranges(bids)))
        parts += [call_markup(a, rules) for a in legal if verb_of(a) not in (Verb.PASS, Verb.BID)]
        return " · ".join(parts)
    if obs.phase == Phase.TRUMP:
        return " · ".join(suit_markup(arg_of(a) & 3) for a in legal)
    if obs.phase == Phase.PLAY:
        return _plays_markup(legal, tt, limit)
    return " · ".join(_action_markup(a, tt) for a in legal)


def action_markup(action: int, rules: Ruleset, tt: TrumpTables | None) -> str:
    """Any action as the table would say it: a call, a trump suit, cards played or laid aside."""
    verb = verb_of(action)
    if verb == Verb.PLAY:
        return cards_markup(play_cards(action), tt)
    if verb == Verb.TRUMP:
        return suit_markup(arg_of(action) & 3)
    if verb in (Verb.PASS, Verb.BID, Verb.BID_28_56, Verb.BID_DOUBLE, Verb.PROTECT):
        return call_markup(action, rules)
    return _action_markup(action, tt)


def _action_markup(action: int, tt: TrumpTables | None) -> str:
    verb = verb_of(action)
    word = verb_word(verb)
    cards = cards_of(arg_of(action)) if verb in (Verb.DISCARD, Verb.KEEP, Verb.KILL, Verb.GIVE) else []
    return f"{word} {cards_markup(sort_hand(cards, tt), tt)}" if cards else word


#: The exchange's verbs as a player types them (the typed words stay English in every language).
_VERB_WORDS = {
    Verb.PASS: N_("pass"),
    Verb.FOLD: N_("fold"),
    Verb.DISCARD: N_("discard"),
    Verb.KEEP: N_("keep"),
    Verb.KILL: N_("kill"),
    Verb.GIVE: N_("give"),
}


def verb_word(verb: Verb) -> str:
    """A verb of the exchange as the table says it: ``discard``, ``hylkää``, ``kasta``."""
    word = _VERB_WORDS.get(verb)
    return _(word) if word is not None else verb.name.lower()


def _card_choice_markup(choice: CardChoice, tt: TrumpTables | None, limit: int) -> str:
    alternatives = " · ".join(_action_markup(a, tt) for a in choice.alternatives)
    if choice.upper_bound() <= limit:
        options = [_action_markup(a, tt) for a in choice]
        return " · ".join(options)
    sizes = ranges(sorted(choice.sizes))
    text = ngettext(
        "{verb} {sizes} card from: {cards}",
        "{verb} {sizes} cards from: {cards}",
        1 if choice.sizes == (1,) else 2,
        verb=verb_word(choice.verb),
        sizes=sizes,
        cards=cards_markup(sort_hand(cards_of(choice.pool), tt), tt),
    )
    text += "\n  " + _("rule: {rule}", rule=text_markup(translate(choice.rule), tt))
    return text + ("\n  " + _("or: {choices}", choices=alternatives) if alternatives else "")


def _plays_markup(legal: Sequence[int], tt: TrumpTables | None, limit: int) -> str:
    tops = sort_hand(sorted({play_top(a) for a in legal}), tt)
    if all(len(play_cards(a)) == 1 for a in legal):
        return cards_markup(tops, tt)
    if len(legal) <= limit:
        return " · ".join(cards_markup(play_cards(a), tt) for a in legal)
    size = len(play_cards(legal[0]))
    example = cards_markup(play_cards(legal[0]), tt)
    return (
        _(
            "{size} cards to this trick, the top card first, then {bury} to bury under it",
            size=size,
            bury=size - 1,
        )
        + "\n  "
        + _("top card one of: {cards}", cards=cards_markup(tops, tt))
        + "\n  "
        + _("e.g. {example}", example=example)
    )


def plural(n: int, word: str) -> str:
    """``1 game``, ``3 games``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def seed_range(first: int, n: int) -> str:
    """``seed 4`` for one game or deal, ``seeds 4–6`` for several."""
    return f"seed {first}" if n == 1 else f"seeds {first}–{first + n - 1}"


def progress_bar(console: Console) -> Progress:
    """The bar long runs (simulate, tournament) show while they play; it vanishes when done."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
