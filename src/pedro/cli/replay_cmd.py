"""``pedro replay``: check a game record action by action and tell the game in words.

A ``.json`` file holds one ``pedro-record/1`` record; a ``.jsonl`` file one
record per line (as written by ``pedro simulate --record``). Any problem with
the input, from a missing file to the first illegal action, is one message
and exit status 1, never a traceback: records are often edited by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from pedro.cards import SUIT_NAMES, SUIT_SYMBOLS, pretty_card
from pedro.cli.errors import report
from pedro.engine.actions import Verb, action_cards, arg_of, play_cards, verb_of
from pedro.engine.phases import Phase, Status
from pedro.engine.state import HandResult, PlayedTrick
from pedro.records import ReplayError, ReplayResult, ReplayStep, replay, replay_json
from pedro.variants.model import Ruleset
from pedro.variants.options import option_text

#: Exit status for a record that cannot be read or replayed.
REPLAY_FAILED = 1


def run(console: Console, path: Path, as_json: bool, err_console: Console | None = None) -> int:
    """Replay the record(s) in ``path`` and print an account (or JSON); return the exit status.

    Errors go to ``err_console`` (standard error by default) so that ``--json``
    output on standard output stays clean.
    """
    errors = err_console if err_console is not None else Console(stderr=True)
    try:
        for label, source in _sources(Path(path)):
            try:
                result = replay(source)
            except ReplayError as exc:
                _error(errors, f"{label}{exc}")
                return REPLAY_FAILED
            if as_json:
                text = json.dumps(replay_json(result), ensure_ascii=False)
                console.print(text, markup=False, highlight=False, soft_wrap=True)
            else:
                if label:
                    console.print(Rule(f"[bold]{escape(label.rstrip(': '))}[/]"))
                print_account(console, result)
    except ReplayError as exc:
        _error(errors, str(exc))
        return REPLAY_FAILED
    except Exception as exc:  # an engine bug must not look like a bad record, nor print a traceback
        _error(errors, f"internal error while replaying {path}: {type(exc).__name__}: {exc} (please report)")
        return REPLAY_FAILED
    return 0


def _sources(path: Path) -> Iterator[tuple[str, str | Path]]:
    """``(label, record source)`` for each record in the file; labels name the line of a ``.jsonl``."""
    if path.suffix.lower() != ".jsonl":
        yield "", path
        return
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read {path}: {exc}") from None
    found = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = True
        if not line.lstrip().startswith("{"):
            raise ReplayError(f"{path}, line {number}: each line of a .jsonl file must be one JSON record")
        yield f"{path.name}, line {number}: ", line
    if not found:
        raise ReplayError(f"{path} holds no records")


def _error(console: Console, message: str) -> None:
    report(console, message)


# ---------------------------------------------------------------------------
# the account in words


def print_account(console: Console, result: ReplayResult) -> None:
    """A readable account of every hand: dealer, auction, trumps, exchange, tricks, points, score."""
    rules = result.rules
    names = result.names
    sides = rules.sides()
    options = replay_json(result)["options"]
    shown = ", ".join(f"{k}={option_text(v)}" for k, v in options.items())
    console.print(f"[bold]{escape(rules.name)}[/] ({rules.id}){escape(' with ' + shown) if shown else ''}")
    console.print("Sides: " + "; ".join(escape(_side_name(names, side)) for side in sides))
    for k, hand_result in enumerate(result.results):
        _print_hand(console, result, k, hand_result)
    state = result.state
    score = " – ".join(str(s) for s in state.scores)
    if result.winner is not None:
        console.print(
            f"\n[bold green]{escape(_side_name(names, sides[result.winner]))} win[/] "
            f"after {len(result.results)} hands; final score {score}."
        )
    else:
        steps = result.steps[len(result.results)] if len(result.steps) > len(result.results) else []
        done = len(result.results)
        if steps:
            _print_partial_hand(console, result, done, steps)
        partly = f" (hand {done + 1} stopped after {_plural(len(steps), 'action')})" if steps else ""
        console.print(
            f"\n[bold yellow]Unfinished game[/]: the record stops after {_plural(done, 'complete hand')}"
            f"{partly}; score {score}."
        )


def _print_hand(console: Console, result: ReplayResult, k: int, r: HandResult) -> None:
    rules = result.rules
    names = result.names
    steps = result.steps[k] if k < len(result.steps) else []
    console.print(Rule(f"Hand {k + 1}", align="left"))
    console.print(f"Dealer: {escape(names[r.dealer])}")
    _print_auction(console, result, steps)
    if r.bidder is None:
        console.print("Everybody passed: the hand is thrown in and the next dealer deals.")
        return
    bid = r.call if r.call is not None else str(r.bid)
    trump = f"{SUIT_SYMBOLS[r.trump]} {SUIT_NAMES[r.trump]}" if r.trump is not None else "none"
    console.print(f"Contract: {escape(names[r.bidder])} at {escape(bid)}, trumps {trump}")
    _print_exchange(console, result, steps)
    held = [
        f"{escape(names[s])}: {_cards(cards) if cards else '—'}" for s, cards in enumerate(r.hands_at_play)
    ]
    console.print("Hands at the first lead: " + "; ".join(held))
    folded = [names[s] for s, status in enumerate(r.statuses) if status == Status.FOLDED]
    if folded:
        console.print("Folded: " + ", ".join(escape(name) for name in folded))
    _print_tricks(console, names, r)
    sides = rules.sides()
    points = ", ".join(
        f"{escape(_side_name(names, side))} {p}" for side, p in zip(sides, r.points, strict=True)
    )
    outcome = "[green]made[/]" if r.made else "[red]set[/]"
    console.print(f"Points: {points}. The bid of {escape(bid)} is {outcome}.")
    score = ", ".join(
        f"{escape(_side_name(names, side))} {s}" for side, s in zip(sides, r.score, strict=True)
    )
    console.print(f"Score: {score}")


def _print_auction(console: Console, result: ReplayResult, steps: list[ReplayStep]) -> None:
    """The calls of a hand, in one line (none when the record stops before the first)."""
    calls = [s for s in steps if s.phase == Phase.AUCTION]
    if calls:
        words = ", ".join(escape(_call_words(result.names, result.rules, s.seat, s.action)) for s in calls)
        console.print("Auction: " + words)


def _print_exchange(console: Console, result: ReplayResult, steps: list[ReplayStep]) -> None:
    """The exchange decisions of a hand, in one line (none when the rules or the record have none)."""
    exchange = [s for s in steps if s.phase == Phase.EXCHANGE]
    if exchange:
        words = "; ".join(
            escape(_exchange_words(result.names, result.rules, s.seat, s.action)) for s in exchange
        )
        console.print("Exchange: " + words)


def _print_tricks(console: Console, names: list[str], r: HandResult) -> None:
    """A line a trick, saying after the trick who dropped out of the play before it."""
    dropped: set[int] = set()
    for i, trick in enumerate(r.tricks, start=1):
        line = f"  Trick {i}: {_trick_words(names, trick)}"
        playing = {seat for seat, _ in trick.plays}
        gone = [
            s for s, status in enumerate(r.statuses)
            if status in _DROPPED and s not in playing and s not in dropped
        ]  # fmt: skip
        dropped.update(gone)
        if gone:
            line += " (" + ", ".join(f"{escape(names[s])} {_DROPPED[r.statuses[s]]}" for s in gone) + ")"
        console.print(line)


def _print_partial_hand(console: Console, result: ReplayResult, k: int, steps: list[ReplayStep]) -> None:
    """The decisions of the hand the record stops in, phase by phase."""
    names = result.names
    console.print(Rule(f"Hand {k + 1} (unfinished)", align="left"))
    console.print(f"Dealer: {escape(names[result.state.dealer])}")
    _print_auction(console, result, steps)
    for s in steps:
        if s.phase == Phase.TRUMP:
            suit = arg_of(s.action)
            who = escape(_does(names[s.seat], "names"))
            console.print(f"{who} {SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]} trumps")
    _print_exchange(console, result, steps)
    plays = [s for s in steps if s.phase == Phase.PLAY]
    if plays:
        shown = ", ".join(f"{escape(names[s.seat])} {_cards(play_cards(s.action))}" for s in plays)
        console.print(f"Plays so far: {shown}")


#: How the account says that a player dropped out of the card play.
_DROPPED = {Status.COLD: "is cold", Status.UP: "is up", Status.OUT: "is out"}


def _trick_words(names: list[str], trick: PlayedTrick) -> str:
    plays = []
    for seat, action in trick.plays:
        cards = play_cards(action)
        text = f"{escape(names[seat])} {_card(cards[0])}"
        if len(cards) > 1:
            text += f" (burying {_cards(cards[1:])})"
        plays.append(text)
    return ", ".join(plays) + f" → [bold]{escape(names[trick.winner])}[/]"


def _does(who: str, verb: str) -> str:
    """``Bo bids``, but ``You bid``: the human of ``pedro play`` is recorded as You."""
    if who == "You":
        return f"{who} {_SECOND_PERSON.get(verb, verb)}"
    return f"{who} {verb}"


#: Verbs of the account whose second person is not the third without its s.
_SECOND_PERSON = {
    "passes": "pass", "bids": "bid", "calls": "call", "protects": "protect", "names": "name",
    "discards": "discard", "takes": "take", "kills": "kill", "gives": "give", "claims": "claim",
    "folds": "fold",
}  # fmt: skip


def _call_words(names: list[str], rules: Ruleset, seat: int, action: int) -> str:
    verb = verb_of(action)
    who = names[seat]
    if verb == Verb.PASS:
        return _does(who, "passes")
    if verb == Verb.BID:
        return f"{_does(who, 'bids')} {arg_of(action)}"
    if verb == Verb.BID_28_56:
        return f"{_does(who, 'calls')} 28-56"
    if verb == Verb.BID_DOUBLE:
        return f"{_does(who, 'calls')} {rules.max_bid} double"
    if verb == Verb.PROTECT:
        return _does(who, "protects")
    return f"{who} {verb.name.lower()}"


def _exchange_words(names: list[str], rules: Ruleset, seat: int, action: int) -> str:
    """An exchange decision in words; the record's verb names the card choice the rules asked for."""
    verb = verb_of(action)
    who = names[seat]
    cards = _plain_cards(action_cards(action))
    partner = names[(seat + 2) % rules.players] if rules.partnerships else "partner"
    if verb == Verb.PASS:
        return f"{_does(who, 'passes')} (declines)"
    if verb == Verb.FOLD:
        return _does(who, "folds")
    if verb == Verb.DISCARD:
        return f"{_does(who, 'discards')} {cards}"
    if verb == Verb.KEEP:
        return f"{_does(who, 'takes')} {cards}"
    if verb == Verb.KILL:
        return f"{_does(who, 'kills')} {cards} face up"
    if verb == Verb.GIVE:
        folds = " and " + _does(who, "folds").removeprefix(who + " ") if rules.fold else ""
        return f"{_does(who, 'gives')} {cards} to {partner}{folds}"
    if verb == Verb.CLAIM:
        return f"{_does(who, 'claims')} {cards}"
    return f"{who} {verb.name.lower()} {cards}".rstrip()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _side_name(names: list[str], seats: list[int]) -> str:
    return " & ".join(names[s] for s in seats)


def _card(c: int) -> str:
    text = pretty_card(c)
    return f"[red]{text}[/]" if text[-1] in "♥♦" else text


def _cards(cards: list[int]) -> str:
    return " ".join(_card(c) for c in cards)


def _plain_cards(cards: list[int]) -> str:
    return " ".join(pretty_card(c) for c in cards)
