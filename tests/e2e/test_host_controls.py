"""The host's box at the table: only the browser that created the table shows it, and the server
refuses its controls to anyone else; what the host changes reaches every page."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.e2e.driver import Player, computer, create_table, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

BOX = '[data-testid="host-box"]'


def host_storage(base_url: str, made: dict[str, str], name: str) -> dict[str, object]:
    """The creator's browser: its seat's secret and the host secret, as the create form keeps them."""
    storage = seat_storage(base_url, made["table"], 0, made["secret"], name)
    origin = storage["origins"][0]
    origin["localStorage"].append({"name": f"pedro-host:{made['table']}", "value": made["host"]})
    return storage


@pytest.mark.browser
def test_the_host_changes_a_seat_and_closes_the_table_and_a_guest_cannot(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    made = create_table(server.url, [{"kind": "human"}, {"kind": "human"}, computer(), computer()])
    table = made["table"]
    ann = players("ann", storage=host_storage(server.url, made, "Ann"))
    ann.goto(f"t/{table}")
    box = ann.page.locator(BOX)
    box.wait_for()
    # a guest who watches sees no host box, and the server refuses the guest's try with the seat's
    # secret as if it were the host's
    bo = players("bo")
    bo.goto(f"t/{table}?watch")
    bo.page.wait_for_selector('body[data-started="false"]', state="attached")
    assert bo.page.locator(BOX).count() == 0
    refusal = bo.page.evaluate(
        """async ([table, secret]) => {
          const response = await fetch(`api/tables/${table}/host/close`, {
            method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ host: secret }) });
          return [response.status, (await response.json()).code];
        }""",
        [table, made["secret"]],
    )
    assert refusal == [403, "not_host"]
    # the host gives the free seat to a club-level computer: play begins, on both pages
    box.locator('[data-testid="host-seat"][data-seat="1"]').select_option("club")
    for player in (ann, bo):
        player.page.wait_for_selector('body[data-started="true"]', state="attached")
    assert "Club player" in bo.page.locator('[data-seat="1"]').inner_text()
    # closing asks first; once closed, both pages say so and nobody is offered a move
    ann.page.once("dialog", lambda dialog: dialog.accept())
    box.locator('[data-testid="host-close"]').click()
    for player in (ann, bo):
        player.page.locator('[data-testid="closed"]').filter(has_text="The host closed this table").wait_for()
    assert ann.page.locator(BOX).count() == 0
    assert ann.page.locator(".turn-slot button").count() == 0
    assert ann.latest()["table"]["closed"] is True
    ann.assert_no_errors()
    assert not bo.page_errors  # the console has the 403 of the guest's try, as it should


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
