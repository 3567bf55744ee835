#!/usr/bin/env python3
"""A small bot for pedro's bot protocol: plain Python, nothing but the standard library.

Run it as a player:

    pedro simulate --variant cinch --players "cmd:python examples/bots/simple_bot.py",basic --games 5

It reads one JSON message per line on standard input and answers each
``request`` with one line, ``{"id": ..., "action": "..."}``, on standard
output (the protocol: docs/bots.md). Debugging output goes to standard
error: pedro keeps its last lines and shows them when the bot fails.

It plays legal moves with a little sense: it bids only with a strong trump
suit, names its longest suit, keeps high cards and trumps, throws away low
cards, leads its best trump, and follows with its lowest legal card.
"""

from __future__ import annotations

import json
import sys

RANKS = "23456789TJQKA"
#: The other suit of the same colour: its five is a trump too (the left pedro) in most variants.
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
JOKERS = ("JK", "BJ", "SJ")
#: Card-set verbs where the bot wants to part with its worst cards; for the others it takes its best.
PART_WITH = ("discard", "kill")


def rank_value(card: str) -> int:
    """2 is 0 ... A is 12; jokers rank above everything."""
    return 13 if card in JOKERS else RANKS.index(card[0])


def card_value(card: str, trumps: list[str]) -> int:
    """How much the bot wants to hold a card: any trump over any other card, then by rank."""
    if card in trumps:
        return 100 + (len(trumps) - trumps.index(card))  # ``trumps`` lists the strongest first
    return rank_value(card)


def suit_strength(hand: list[str], suit: str) -> tuple[int, int]:
    """(trumps held, high trumps held) if ``suit`` were trumps: its cards, the left five and jokers."""
    cards = [c for c in hand if c[-1] == suit or c == "5" + SAME_COLOUR[suit] or c in JOKERS]
    high = sum(1 for c in cards if c[0] in "AKJ2" or c[0] == "5" or c in JOKERS)
    return len(cards), high


def bid(hand: list[str], legal: list[str]) -> str:
    """The lowest bid with at least four trumps, three of them high (A K J 2 5); else pass."""
    bids = [a for a in legal if a.startswith("bid ") and a.split()[1].isdigit()]
    best = max(suit_strength(hand, s) for s in "SHDC")
    if "pass" in legal and not (best[0] >= 4 and best[1] >= 3):
        return "pass"
    if bids:
        return min(bids, key=lambda a: int(a.split()[1]))
    return legal[0]  # a special call (28-56, a double, protect) when nothing else is allowed


def name_trump(hand: list[str], legal: list[str]) -> str:
    return max(legal, key=lambda a: suit_strength(hand, a.split()[1]))


def cards_of(action: str) -> list[str]:
    return action.split()[1:]


def choose_listed(legal: list[str], trumps: list[str]) -> str:
    """An exchange decision with every choice listed: keep the best cards, part with the worst."""
    sets = [a for a in legal if len(a.split()) > 1]
    if not sets:
        return legal[0]  # only pass / fold

    def worth(action: str) -> int:
        total = sum(card_value(c, trumps) for c in cards_of(action))
        return -total if action.split()[0] in PART_WITH else total

    return max(sets, key=worth)


def choose_by_rule(choice: dict, trumps: list[str]) -> str:
    """A card choice with too many sets to list: build one from its rule (pool, sizes, required cards)."""
    verb = choice["verb"]
    required = list(choice["required"])
    free = [c for c in choice["pool"] if c not in required]
    part_with = verb in PART_WITH
    free.sort(key=lambda c: card_value(c, trumps), reverse=not part_with)
    sizes = choice["sizes"]
    if not sizes:
        return choice["alternatives"][0]["action"]
    if part_with:
        # discard the cards that are not trumps, as far as the allowed sizes let it
        wanted = len(required) + sum(1 for c in free if c not in trumps)
        size = min(sizes, key=lambda k: (abs(k - wanted), k))
    else:
        size = max(sizes)
    chosen = required + free[: size - len(required)]
    return verb + " " + " ".join(chosen)


def play(obs: dict, legal: list[str], trumps: list[str]) -> str:
    """Lead the best trump (else the highest card); when following, play the lowest legal card."""
    leading = obs["trick"] is None or not obs["trick"]["plays"]

    def top_card(action: str) -> int:
        return card_value(cards_of(action)[0], trumps)

    if leading:
        return max(legal, key=top_card)
    return min(legal, key=top_card)


def decide(request: dict) -> str:
    obs = request["observation"]
    legal = request["legal"]
    hand = obs["hand"]
    trumps = obs["trumps"]  # the trump cards, strongest first, once trumps are named
    if legal is None:
        return choose_by_rule(request["choice"], trumps)
    if len(legal) == 1:
        return legal[0]
    phase = obs["phase"]
    if phase == "auction":
        return bid(hand, legal)
    if phase == "trump":
        return name_trump(hand, legal)
    if phase == "play":
        return play(obs, legal, trumps)
    return choose_listed(legal, trumps)


def main() -> None:
    seat = None
    for line in sys.stdin:  # the loop ends when pedro closes the input: then the bot exits
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            seat = message["seat"]
            print(f"simple_bot: seat {seat} in {message['variant']}", file=sys.stderr)
        elif kind == "request":
            answer = {"id": message["id"], "action": decide(message)}
            print(json.dumps(answer), flush=True)
        elif kind == "error":
            print(f"simple_bot: pedro says: {message['reason']}", file=sys.stderr)
        # "update", "hand_over" and "game_over" are for bots that follow the game; this one does not


if __name__ == "__main__":
    main()
