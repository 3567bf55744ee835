"""Your-turn alerts: the tab's title and icon, a sound, a notification while the tab is hidden.

The browser's notifications and the tab's visibility are stood in for by an init script (a
headless browser shows neither), which records what the page asked of them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, seat_storage
from tests.serving import ServerProcess

#: A Notification that records what it was asked to show, answering ``window.__answer`` when
#: permission is asked; ``window.__hidden`` is the tab's visibility.
STAND_INS = """
window.__notes = [];
window.__asked = 0;
window.__answer = "granted";
window.__hidden = false;
class Note {
  constructor(title, options) { window.__notes.push({ title, ...options }); }
  close() {}
}
Note.permission = "default";
Note.requestPermission = async () => {
  window.__asked += 1;
  Note.permission = window.__answer;
  return Note.permission;
};
window.Notification = Note;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
"""

ALERTS_JS = Path(__file__).resolve().parents[2] / "src" / "pedro" / "server" / "static" / "alerts.js"


def icon(player: Player) -> str:
    return str(player.page.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')"))


def seated(players: Callable[..., Player], server: ServerProcess, answer: str) -> Player:
    made = create_table(server.url, [HUMAN, computer(), computer(), computer()], title="Alerts")
    ann = players("ann", storage=seat_storage(server.url, made["table"], 0, made["secret"], "Ann"))
    ann.page.add_init_script(STAND_INS.replace('"granted"', json.dumps(answer)))
    ann.goto(made["url"])
    return ann


@pytest.mark.browser
def test_the_title_icon_sound_and_a_hidden_tabs_notification_say_it_is_your_turn(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    ann = seated(players, server, "granted")
    page = ann.page
    ann.wait_my_turn()
    assert page.title().startswith("● Your turn — Alerts")
    assert icon(ann) == "static/icons/icon-turn.svg"
    # nothing rings before it is switched on, and permission is not asked before
    assert page.evaluate("document.body.dataset.chimes") is None
    assert page.evaluate("window.__asked") == 0

    page.get_by_test_id("turn-sound").check()
    page.get_by_test_id("turn-notify").check()
    page.wait_for_function("window.__asked === 1")
    assert page.get_by_test_id("turn-notify").is_checked()
    prefs = json.loads(page.evaluate("localStorage.getItem('pedro-prefs')"))
    assert prefs["turnSound"] is True and prefs["turnNotify"] is True
    chimes = int(page.evaluate("document.body.dataset.chimes"))  # the switch plays it once

    # the player moves to another tab; the computers play; her turn comes back
    page.evaluate("window.__hidden = true")
    rng = random.Random(1)
    ann.take_turn(rng)
    ann.page.wait_for_function("n => Number(document.body.dataset.chimes) > n", arg=chimes)
    ann.wait_my_turn()
    notes = page.evaluate("window.__notes")
    assert notes and notes[-1]["title"] == "Your turn at Pedro" and "Alerts" in notes[-1]["body"], notes

    # while the tab is shown, a turn rings but shows no notification
    page.evaluate("window.__hidden = false")
    shown = len(notes)
    ann.take_turn(rng)
    ann.wait_my_turn()
    assert len(page.evaluate("window.__notes")) == shown

    # remembered in this browser
    page.reload()
    ann.wait_my_turn()
    assert page.get_by_test_id("turn-sound").is_checked() and page.get_by_test_id("turn-notify").is_checked()
    ann.assert_no_errors()


@pytest.mark.browser
def test_a_refused_permission_leaves_notifications_off_and_says_why(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    ann = seated(players, server, "denied")
    page = ann.page
    ann.wait_my_turn()
    page.get_by_test_id("turn-notify").click()  # it springs back: check() would refuse that
    page.get_by_test_id("notify-why").filter(has_text="blocks notifications").wait_for()
    assert not page.get_by_test_id("turn-notify").is_checked()
    assert json.loads(page.evaluate("localStorage.getItem('pedro-prefs')")).get("turnNotify") is False


def test_the_icons_the_alerts_swap_between_are_served_files() -> None:
    source = ALERTS_JS.read_text(encoding="utf-8")
    static = ALERTS_JS.parent
    for name in ("icon.svg", "icon-turn.svg", "icon-192.png"):
        assert f'"static/icons/{name}"' in source
        assert (static / "icons" / name).is_file()
