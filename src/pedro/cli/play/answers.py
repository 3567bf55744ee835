"""Reading the human's typed answers in ``pedro play``: calls, trumps, cards and moves, in words.

Each answer is read into an action and checked with the engine's own ``why_illegal``
before it is applied, so a bad answer only costs a message (an :class:`InputError`).
"""

from __future__ import annotations

from pedro import i18n, terminal
from pedro.cards import SUIT_NAMES, CardError, format_card, format_cards, mask_of, parse_card
from pedro.display import suit_name
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
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.i18n import _
from pedro.variants.model import ExcessTrumps, Ruleset

_SUITS_BY_WORD = {
    **{name: i for i, name in enumerate(SUIT_NAMES)},
    **{name[:-1]: i for i, name in enumerate(SUIT_NAMES)},
    **{name[0]: i for i, name in enumerate(SUIT_NAMES)},
    **{sym: i for i, sym in enumerate("♠♥♦♣")},
    **{sym: i for i, sym in enumerate("♤♡♢♧")},
}
#: The exchange moves that name cards, by the word typed for them.
CARD_VERBS = {"discard": Verb.DISCARD, "keep": Verb.KEEP, "kill": Verb.KILL, "give": Verb.GIVE}


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


def read_action(text: str, state: GameState) -> int:
    """The action the human's ``text`` stands for, if it is legal now; else InputError saying why."""
    action = parse_answer(text, state)
    if state.phase == Phase.AUCTION and verb_of(action) == Verb.BID and arg_of(action) > state.rules.max_bid:
        raise InputError(_("not allowed: {reason}", reason=_("bids go up to {max}", max=state.rules.max_bid)))
    reason = state.why_illegal(action)
    if reason is not None:
        raise InputError(_("not allowed: {reason}", reason=i18n.translate(reason)))
    return action


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
    verb = CARD_VERBS.get(first) or next(
        (v for v in CARD_VERBS.values() if terminal.verb_word(v).lower() == first), None
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
        if verb in CARD_VERBS.values():
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
    return format_card(c).lower()
