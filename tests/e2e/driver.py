"""Playing the browser client the way a person does: by clicking, guided by the page's test hooks.

The page's hooks (docs/server.md, "Hooks for browser tests") say where to click and what the page
shows; the WebSocket messages the page receives (watched through Playwright, never sent by the test)
say what the server allowed, so every click can be checked against the rules:

- ``body[data-turn="true"]``, ``body[data-seq]``, ``body[data-phase]``: whose turn and which state;
- ``[data-card].legal`` for cards that play when clicked, ``[data-action]`` for action buttons,
  ``[data-confirm]`` for the button that sends a chosen set of cards;
- ``[data-error]``: the server's last refusal.

An init script records, every time the page sets ``body[data-seq]`` (i.e. after each render), the
cards the page shows, so a test can check what a page displayed for a given state even when the play
has moved on since.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from pedro import server as server_package
from pedro.players.levels import level_of

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocket

T = TypeVar("T")

#: the English page's texts (static/i18n/en.json)
ENGLISH: dict[str, str] = json.loads(
    (Path(server_package.__file__).parent / "static" / "i18n" / "en.json").read_text(encoding="utf-8")
)

#: seconds to wait for anything the page or the server should do
WAIT = 20.0
#: milliseconds given to a click that must do nothing, before checking that nothing happened
NOTHING_MS = 400
#: where a card is clicked: its corner index, which stays in sight when the hand overlaps like a
#: fan on a narrow screen (the middle of the card may lie under the next one)
CORNER = {"x": 8, "y": 12}
#: a hand result's "Next hand" button, and the seq of the state the page shows with it
NEXT_HAND = '.turn-slot [data-testid="next-hand"]'
NEXT_HAND_SEQ = "s => document.querySelector(s) ? document.body.dataset.seq : null"
#: clicks "Next hand" if the page still shows it (in one call: the hold may end meanwhile)
CLICK_NEXT_HAND = "s => { const b = document.querySelector(s); if (b) b.click(); return !!b; }"

SNAPSHOT_SCRIPT = """
(() => {
  const snaps = (window.__pedroSnaps = []);
  const take = () => {
    const body = document.body;
    if (!body) return;
    const cards = (root) => [...root.querySelectorAll("[data-card]")].map((el) => el.dataset.card);
    const seats = {};
    for (const el of document.querySelectorAll("[data-seat]")) seats[el.dataset.seat] = cards(el);
    snaps.push({ seq: body.dataset.seq, phase: body.dataset.phase, turn: body.dataset.turn,
                 cards: cards(document), seats });
  };
  new MutationObserver(take)
    .observe(document, { subtree: true, attributes: true, attributeFilter: ["data-seq"] });
})();
"""


# ---------------------------------------------------------------------------
# tables through the HTTP API (for the tests that do not test the lobby form)


def computer(player: str = "basic") -> dict[str, str]:
    return {"kind": "computer", "player": player}


HUMAN = {"kind": "human"}


def page_name(seat: dict[str, Any]) -> str:
    """A seat's name as an English page shows it: a computer by its seat (from 1) and its level's name
    (static/text.js computerName), a person by the name, a free seat as "Seat N"."""
    if seat["kind"] == "computer":
        level = level_of(seat["player"] or "")
        label = ENGLISH.get(f"levelName.{level}", level)
        return f"{seat['seat'] + 1} · {label}"
    return str(seat["name"] or f"Seat {seat['seat'] + 1}")


def create_table(
    base_url: str,
    seats: list[dict[str, str]],
    *,
    seat: int | None = 0,
    name: str | None = "Ann",
    options: dict[str, Any] | None = None,
    variant: str = "cinch",
    title: str = "e2e",
) -> dict[str, Any]:
    body = {
        "variant": variant,
        "options": options or {},
        "title": title,
        "listed": True,
        "seats": seats,
        "seat": seat,
        "name": name if seat is not None else None,
    }
    response = httpx.post(f"{base_url}/api/tables", json=body, timeout=10)
    assert response.is_success, response.text
    answer: dict[str, Any] = response.json()
    return answer


def seat_storage(base_url: str, table: str, seat: int, secret: str, name: str) -> dict[str, Any]:
    """A browser context's storage holding a seat's secret, as the client keeps it (``pedro:{table}``)."""
    value = json.dumps({"seat": seat, "secret": secret, "name": name})
    return {
        "cookies": [],
        "origins": [{"origin": base_url, "localStorage": [{"name": f"pedro:{table}", "value": value}]}],
    }


def summary(base_url: str, table: str) -> dict[str, Any]:
    response = httpx.get(f"{base_url}/api/tables/{table}", timeout=10)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


# ---------------------------------------------------------------------------
# reading states


def action_cards(action: str | None) -> list[str]:
    """The cards named by an action in record words: ``play AH KH`` → ``["AH", "KH"]``."""
    return [w for w in (action or "").split()[1:] if len(w) == 2 and not w.isdigit() and "-" not in w]


def trick_cards(trick: dict[str, Any] | None) -> set[str]:
    return {c for play in (trick or {}).get("plays", []) for c in play["cards"]}


def public_cards(game: dict[str, Any]) -> set[str]:
    """Every card a spectator may see in this state: played, laid face up or shown."""
    cards = trick_cards(game.get("trick")) | trick_cards(game.get("last_trick"))
    for trick in game.get("tricks") or []:
        cards |= trick_cards(trick)
    for rows in (game.get("face_up") or [], game.get("shown") or []):
        for row in rows:
            cards.update(row)
    return cards


def prefer_pass(actions: list[str], rng: random.Random) -> str:
    """A cautious player: mostly passes when passing is allowed, otherwise any legal action."""
    if "pass" in actions and rng.random() < 0.7:
        return "pass"
    return rng.choice(actions)


class Player:
    """One browser page at the table, with what its WebSocket carried and what it displayed."""

    def __init__(self, name: str, page: Page, base_url: str) -> None:
        self.name = name
        self.page = page
        self.base_url = base_url
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.page_errors: list[str] = []
        self.console: list[str] = []
        #: the phase of each turn where an unplayable card was clicked (and did nothing)
        self.illegal_clicks: list[str] = []
        #: the card-set decisions this page made by selecting cards and confirming
        self.set_choices: list[dict[str, Any]] = []
        page.add_init_script(SNAPSHOT_SCRIPT)
        page.on("websocket", self._on_websocket)
        page.on("pageerror", lambda exc: self.page_errors.append(getattr(exc, "stack", None) or str(exc)))
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}"))

    def _on_websocket(self, ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def describe(self) -> str:
        """What to look at after a failure: the page's messages both ways and its errors."""
        lines = [f"player {self.name}, url {self.page.url}"]
        lines += [f"page error: {e}" for e in self.page_errors]
        lines += [f"console {c}" for c in self.console]
        lines += [f"sent: {json.dumps(m)}" for m in self.sent]
        lines += [f"received: {json.dumps(m)}" for m in self.received]
        return "\n".join(lines)

    # ---- waiting --------------------------------------------------------------------------------

    def poll(self, check: Callable[[], T | None], what: str, timeout: float = WAIT) -> T:
        """Wait until ``check()`` is truthy (letting Playwright deliver events meanwhile); return it."""
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {timeout:.0f} s for {what}")
            self.page.wait_for_timeout(25)

    def goto(self, path: str) -> None:
        self.page.goto(path)

    def dom_seq(self) -> int:
        value = self.page.evaluate("document.body.dataset.seq")
        return int(value) if value not in (None, "") else -1

    def my_turn(self) -> bool:
        return bool(self.page.evaluate("document.body.dataset.turn === 'true'"))

    def wait_seq(self, seq: int, timeout: float = WAIT) -> None:
        """Wait until the page shows the state ``seq`` or a later one."""
        self.page.wait_for_function(
            "seq => Number(document.body.dataset.seq || -1) >= seq", arg=seq, timeout=timeout * 1000
        )

    def wait_my_turn(self, timeout: float = WAIT) -> int:
        self.page.wait_for_selector('body[data-turn="true"]', state="attached", timeout=timeout * 1000)
        return self.dom_seq()

    @property
    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "state"]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "error"]

    @property
    def acts(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "act"]

    def latest(self) -> dict[str, Any]:
        return self.poll(lambda: self.states[-1] if self.states else None, "a state message")

    def state_at(self, seq: int) -> dict[str, Any]:
        """The last state message with this ``seq`` (the page's WebSocket events may trail its DOM)."""

        def find() -> dict[str, Any] | None:
            return next((s for s in reversed(self.states) if s["seq"] == seq), None)

        return self.poll(find, f"the state message with seq {seq}")

    def snapshots(self) -> list[dict[str, Any]]:
        snaps: list[dict[str, Any]] = self.page.evaluate("window.__pedroSnaps || []")
        return snaps

    def shown_at(self, seq: int) -> list[dict[str, Any]]:
        """What the page displayed each time it drew the state ``seq``."""
        return [s for s in self.snapshots() if s["seq"] == str(seq)]

    def error_text(self) -> str:
        return (self.page.locator("[data-error]").text_content() or "").strip()

    def assert_no_errors(self) -> None:
        assert not self.page_errors, f"{self.name}: uncaught errors in the page: {self.page_errors}"
        console_errors = [c for c in self.console if c.startswith("error:")]
        assert not console_errors, f"{self.name}: errors in the console: {console_errors}"
        assert not self.errors, f"{self.name}: the server refused: {self.errors}"
        assert self.error_text() == "", f"{self.name}: [data-error] shows {self.error_text()!r}"

    # ---- acting -----------------------------------------------------------------------------------

    def take_turn(
        self,
        rng: random.Random,
        *,
        choose: Callable[[list[str], random.Random], str] = prefer_pass,
        try_illegal: bool = False,
        alternatives: float = 0.2,
        check: Callable[[int], None] | None = None,
    ) -> tuple[int, str]:
        """Wait for this page's turn and make one legal move by clicking; return (the new seq, the action).

        ``try_illegal`` first clicks a card that is not ``.legal`` (when there is one) and checks that
        nothing is sent and nothing changes. In a card-set decision, an alternative (such as ``pass``)
        is taken with probability ``alternatives``. ``check(seq)`` runs on the page before the click.
        """
        seq = self.wait_my_turn()
        state = self.state_at(seq)
        legal = state["game"]["legal"]
        assert legal is not None, (
            f"{self.name}: body[data-turn=true] at seq {seq}, but the state has no legal"
        )
        phase = self.page.evaluate("document.body.dataset.phase")
        assert phase == state["game"]["phase"], f"{self.name}: body[data-phase={phase}] at seq {seq}: {state}"
        if check is not None:
            check(seq)
        if try_illegal and legal["kind"] == "list":
            self.click_illegal_card(state, rng)
        before = len(self.acts)
        if legal["kind"] == "list":
            action = self._choose_from_list(legal, rng, choose)
        else:
            action = self._choose_set(legal, rng, alternatives)
        self.poll(lambda: len(self.acts) > before, f"the page to send {action!r}", timeout=10)
        sent = self.acts[before]
        assert sent["seq"] == seq, f"{self.name}: acted on seq {seq}, but the message says {sent}"
        assert _same_action(sent["action"], action), (
            f"{self.name}: clicked for {action!r}, the page sent {sent}"
        )
        self.poll(lambda: self.errors or self.dom_seq() > seq, f"the server to accept {action!r} (seq {seq})")
        assert not self.errors, f"{self.name}: {action!r} at seq {seq} was refused: {self.errors}"
        assert len(self.acts) == before + 1, f"{self.name}: one click sent {self.acts[before:]}"
        return seq + 1, sent["action"]

    def _choose_from_list(
        self, legal: dict[str, Any], rng: random.Random, choose: Callable[[list[str], random.Random], str]
    ) -> str:
        actions = [a["action"] for a in legal["actions"]]
        action = choose(actions, rng)
        card = next((c for c, a in (legal.get("cards") or {}).items() if a == action), None)
        if card is not None:
            self.page.locator(f'[data-card="{card}"].legal').click(position=CORNER)
        else:
            self.page.locator(f'[data-action="{action}"]').click()
        return action

    def _choose_set(self, legal: dict[str, Any], rng: random.Random, alternatives: float) -> str:
        """A card-set decision: select cards until ``[data-confirm]`` is enabled, then press it."""
        others = legal.get("alternatives") or []
        if others and rng.random() < alternatives:
            action: str = rng.choice(others)["action"]
            self.page.locator(f'[data-action="{action}"]').click()
            return action
        pool, required = legal["pool"], set(legal["required"])
        confirm = self.page.locator("[data-confirm]")
        chosen = set(required)
        # the page starts from the required cards; confirm is enabled only for a legal set
        valid = len(required) in legal["sizes"] and (
            not legal.get("sets") or sorted(required) in [sorted(s.split()) for s in legal["sets"]]
        )
        assert confirm.is_enabled() == valid, f"{self.name}: [data-confirm] enabled={not valid} for {legal}"
        self.set_choices.append(legal)
        if legal.get("sets"):
            target = rng.choice(legal["sets"]).split()
            for card in target:
                if card not in required:
                    self._select(card)
                    chosen.add(card)
            assert confirm.is_enabled(), (
                f"{self.name}: chose the legal set {target}, [data-confirm] is disabled"
            )
        else:
            candidates = [c for c in pool if c not in required]
            rng.shuffle(candidates)
            while not confirm.is_enabled():
                assert candidates, (
                    f"{self.name}: selected every card of {pool}, [data-confirm] stays disabled"
                )
                card = candidates.pop()
                self._select(card)
                chosen.add(card)
        confirm.click()
        return " ".join([legal["verb"], *(c for c in pool if c in chosen)])

    def _select(self, card: str) -> None:
        self.page.locator(f'[data-card="{card}"][aria-pressed="false"]').click(position=CORNER)
        self.page.locator(f'[data-card="{card}"][aria-pressed="true"]').wait_for(
            state="attached", timeout=5000
        )

    def click_illegal_card(self, state: dict[str, Any], rng: random.Random) -> bool:
        """Click a card of the hand that is not playable now; check that nothing happens."""
        game = state["game"]
        playable = (game["legal"] or {}).get("cards") or {}
        illegal = [c for c in game["hand"] if c not in playable]
        if not illegal or len(playable) == 1:
            return False  # (a lone playable card is played by the page itself, a moment later)
        card = rng.choice(illegal)
        element = self.page.locator(f'[data-card="{card}"]').first
        classes = element.get_attribute("class") or ""
        assert "legal" not in classes.split(), f"{self.name}: {card} is not playable but has class legal"
        seq, sent, received = state["seq"], len(self.sent), len(self.received)
        element.click(position=CORNER)
        self.page.wait_for_timeout(NOTHING_MS)
        assert self.sent[sent:] == [], f"{self.name}: clicking the unplayable {card} sent {self.sent[sent:]}"
        assert self.received[received:] == [], (
            f"{self.name}: clicking {card} was answered {self.received[received:]}"
        )
        assert self.dom_seq() == seq and self.my_turn(), (
            f"{self.name}: clicking the unplayable {card} changed the page"
        )
        assert self.error_text() == "", f"{self.name}: clicking {card} showed {self.error_text()!r}"
        self.illegal_clicks.append(game["phase"])
        return True

    def play_until(
        self,
        done: Callable[[dict[str, Any]], bool],
        rng: random.Random,
        *,
        limit: float = 120.0,
        next_hand: bool = True,
        **turn: Any,
    ) -> list[tuple[int, str]]:
        """Play every turn of this page until ``done(latest state)``; return the moves made.

        A hand's result holds the table for some seconds; with ``next_hand`` the player moves on at
        once with its "Next hand" button, as a player who has read it does.
        """
        deadline = time.monotonic() + limit
        moves: list[tuple[int, str]] = []
        while True:
            seq = self.dom_seq()
            state = self.state_at(seq) if seq >= 0 else None
            if state is not None and done(state):
                return moves
            assert time.monotonic() < deadline, (
                f"{self.name}: not done after {limit:.0f} s ({len(moves)} moves)"
            )
            if self.my_turn():
                moves.append(self.take_turn(rng, **turn))
            elif next_hand and self._next_hand(done):
                continue
            else:
                self.page.wait_for_function(
                    "seq => document.body.dataset.turn === 'true' || document.body.dataset.seq !== seq",
                    arg=str(seq),
                    timeout=WAIT * 1000,
                )

    def _next_hand(self, done: Callable[[dict[str, Any]], bool]) -> bool:
        """Click a hand result's "Next hand", unless the state shown with it is what ``done`` waits for
        (a test may look at the result); whether it was clicked."""
        seq = self.page.evaluate(NEXT_HAND_SEQ, NEXT_HAND)
        if seq is None or done(self.state_at(int(seq))):
            return False
        return bool(self.page.evaluate(CLICK_NEXT_HAND, NEXT_HAND))


def _same_action(sent: str, expected: str) -> bool:
    """Same verb and the same cards in any order (the page orders a chosen set as it likes)."""
    a, b = sent.split(), expected.split()
    return a[:1] == b[:1] and sorted(a[1:]) == sorted(b[1:])


def overbid(actions: list[str], rng: random.Random) -> str:
    """A ``choose`` for ``play_until``: the highest bid when there is one to make, else any legal action."""
    bids = [a for a in actions if a.startswith("bid ")]
    return max(bids, key=lambda a: int(a.split()[1])) if bids else rng.choice(actions)


def hand_over(hand_index: int = 0) -> Callable[[dict[str, Any]], bool]:
    """A ``done`` for ``play_until``: hand ``hand_index`` is finished (or the game is)."""
    return lambda state: state["game"]["hand_index"] > hand_index or bool(state["finished"])


def game_over(state: dict[str, Any]) -> bool:
    return bool(state["finished"]) or state["game"]["phase"] == "over"
