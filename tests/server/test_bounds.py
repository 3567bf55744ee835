"""No request makes a table that cannot be served, and a stored one that cannot be is set aside.

A house rule past its bounds (a target of 10**30) is refused when the table is created, saying the
option and its range. A table stored before the bounds, or any whose game does not rebuild or
cannot be sent, is *broken*: left out of the lobby with a log line, refused to its clients by its
own code, at every start, while the other tables are served on.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.client_helpers import join, recv, running_server, watch

from pedro.server.app import create_app
from pedro.server.settings import Limits, ServerSettings
from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.variants import option_table
from pedro.variants.catalog import VARIANTS
from pedro.variants.option_spec import OptionSpec
from pedro.variants.options import OPTIONS, OptionError, available_options, make_ruleset

HUGE = 10**30
#: what one test client may create: many tables, as the property tests make one per example
MANY = Limits(tables_per_minute=10**6, open_tables_per_client=10**6)


def _row(table_id: str, options: dict[str, Any]) -> TableRow:
    """A listed, unfinished table of four free human seats, as stored."""
    seats = [SeatRow(s, "human") for s in range(4)]
    return TableRow(table_id, table_id, "cinch", options, "seed", True, datetime.now(UTC), seats)


def _serve(url: str) -> TestClient:
    return TestClient(create_app(ServerSettings(database=url, bot_delay=60, start_workers=False)))


@pytest.fixture(params=["refused by the bounds", "rebuilt but not encodable"])
def unbounded(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Either the bounds refuse the stored target, or (as before there were any) it rebuilds and
    then cannot be encoded for a client: both make the table broken."""
    if request.param == "rebuilt but not encodable":
        spec = dataclasses.replace(OPTIONS["target"], maximum=None)
        monkeypatch.setitem(OPTIONS, "target", spec)
    return str(request.param)


def test_a_stored_table_past_the_bounds_is_broken_and_the_rest_are_served(
    tmp_path: Path, unbounded: str, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    store.migrate()
    store.create_table(_row("good", {"target": 21}))
    store.create_table(_row("huge", {"target": HUGE}))  # written straight to the database
    store.close()
    for start in range(2):  # and again after a restart: nothing stored marks it, the check finds it
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="pedro.server"), _serve(url) as client:
            assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["good"], start
            broken = [r for r in caplog.records if "table huge is broken" in r.getMessage()]
            assert len(broken) == 1, [r.getMessage() for r in caplog.records]
            response = client.get("/api/tables/huge")
            assert response.status_code == 410
            assert response.json()["code"] == "table_broken"
            for first in ({"type": "watch"}, {"type": "join", "secret": "x"}):
                with client.websocket_connect("/ws/huge") as ws:
                    ws.send_json(first)
                    error = recv(ws)
                    assert error["type"] == "error" and error["code"] == "table_broken", error
                    with pytest.raises(WebSocketDisconnect):
                        recv(ws)
            # read once: asking again neither replays it nor logs it again
            assert len([r for r in caplog.records if "table huge is broken" in r.getMessage()]) == 1
            # the other table is served: a seat taken, joined, watched
            taken = client.post("/api/tables/good/seats", json={"seat": start, "name": f"P{start}"})
            with client.websocket_connect("/ws/good") as ws:
                assert join(ws, taken.json()["secret"])["type"] == "state"
            with client.websocket_connect("/ws/good") as ws:
                assert watch(ws)["type"] == "state"
        store = Store(url)
        assert store.load_table("huge") is not None, "a broken table is kept as stored, not deleted"
        store.close()


def test_a_target_past_the_bounds_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    """The audit's request: refused 422 naming the option and its range; the lobby stays empty."""
    with running_server(tmp_path) as client:
        body = {"variant": "cinch", "options": {"target": HUGE}, "seats": [{"kind": "human"}] * 4}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422
        assert response.json()["code"] == "bad_options"
        assert "option target; allowed: an integer from 1 to 10000" in response.json()["error"]
        assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tables/{table}/seats", {"seat": 8, "name": "Ann"}, "seat"),
        ("/api/tables/{table}/seats", {"seat": HUGE, "name": "Ann"}, "seat"),
        ("/api/tables", {"variant": "cinch", "seats": [{"kind": "human"}] * 4, "seat": HUGE}, "seat"),
        ("/api/tournaments/x/seats", {"table": 8, "seat": 0, "name": "Ann"}, "table"),
        ("/api/tournaments/x/seats", {"table": 0, "seat": -1, "name": "Ann"}, "seat"),
        (
            "/api/tournaments",
            {"variant": "cinch", "deals": HUGE, "seats": [[{"kind": "human"}] * 4] * 2},
            "deals",
        ),
        (
            "/api/tournaments",
            {"variant": "cinch", "deals": 1, "seats": [[{"kind": "human"}] * 9] * 2},
            "seats.0",
        ),
    ],
)
def test_numbers_in_requests_past_their_range_are_refused_saying_it(
    tmp_path: Path, path: str, body: dict[str, Any], field: str
) -> None:
    with running_server(tmp_path) as client:
        table = client.post("/api/tables", json={"variant": "cinch", "seats": [{"kind": "human"}] * 4}).json()
        response = client.post(path.format(table=table["table"]), json=body)
        assert response.status_code == 422, response.text
        answer = response.json()
        assert answer["code"] == "bad_request"
        assert answer["fields"]["problems"][0]["field"] == field
        assert {"ge", "le", "min_length", "max_length"} & set(answer["fields"]["problems"][0])


def test_an_action_number_past_the_databases_range_is_refused(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        body = {"variant": "cinch", "seats": [{"kind": "human"}] * 4, "seat": 0, "name": "Ann"}
        table = client.post("/api/tables", json=body).json()
        with client.websocket_connect(f"/ws/{table['table']}") as ws:
            join(ws, table["secret"])
            ws.send_json({"type": "act", "action": "pass", "seq": HUGE})
            error = recv(ws)
            assert error["code"] == "bad_message" and "seq" in error["message"], error


# ---------------------------------------------------------------------------- every option's extremes


def _extremes(spec: OptionSpec) -> list[Any]:
    """Values at and past an option's bounds, outside its choices, and of the wrong types."""
    wrong = ["not_a_value", 2.5, [1], {"a": 1}]
    if spec.value_type is bool:
        return [True, False, 2, None, *wrong]
    if spec.value_type is int:
        assert spec.minimum is not None and spec.maximum is not None
        low, high = spec.minimum, spec.maximum
        return [low - 1, low, high, high + 1, HUGE, -HUGE, 2**63, True, None, str(high + 1), *wrong]
    return [*spec.choices, "not_a_choice", 7, True, None, *wrong]


_CASES = [
    (variant, name, value)
    for variant in VARIANTS
    for name in available_options(variant)
    for value in _extremes(OPTIONS[name])
]


def _players(variant: str, options: dict[str, Any]) -> int:
    """How many seats to describe: the rules' players if the options are good, else the variant's."""
    try:
        return make_ruleset(variant, options).players
    except (OptionError, TypeError):
        return VARIANTS[variant].players


def _refusal_names_an_option(answer: dict[str, Any], options: dict[str, Any]) -> None:
    """A refusal says which option was wrong, and for a number past its bounds, the range; a
    combination the rules refuse says what is wrong and what is allowed instead."""
    assert answer["code"] in ("bad_options", "option_clash", "bad_request"), answer
    text = answer["error"]
    if answer["code"] == "option_clash":
        assert answer["fields"]["problem"] and answer["fields"]["allowed"], answer
    else:
        assert any(name in text for name in options), answer
    [(name, value)] = options.items() if len(options) == 1 else [("", None)]
    spec = OPTIONS.get(name)
    if spec is not None and isinstance(value, int) and not isinstance(value, bool) and spec.value_type is int:
        assert spec.minimum is not None and spec.maximum is not None
        if not spec.minimum <= value <= spec.maximum:
            assert f"option {name}; allowed: {spec.allowed_text()}" in text, answer


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_server(tmp_path_factory.mktemp("bounds"), limits=MANY, bot_delay=60) as client:
        yield client


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_option_alone_at_its_extremes_makes_a_servable_table_or_a_clear_refusal(
    roomy: TestClient, variant: str
) -> None:
    """Every option of the variant, one at a time, at each extreme: 201 and a table that is joined
    and whose state is sent, or 422 naming the option (and its range)."""
    served = [_create_and_serve(roomy, variant, {name: value}) for v, name, value in _CASES if v == variant]
    assert any(served) and not all(served)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_options_together_at_their_extremes(roomy: TestClient, data: st.DataObject) -> None:
    """Several options at once: the constraints between them refuse clearly too."""
    variant = data.draw(st.sampled_from(list(VARIANTS)))
    names = data.draw(
        st.lists(st.sampled_from(available_options(variant)), min_size=2, max_size=4, unique=True)
    )
    options = {name: data.draw(st.sampled_from(_extremes(OPTIONS[name]))) for name in names}
    _create_and_serve(roomy, variant, options)


def _create_and_serve(client: TestClient, variant: str, options: dict[str, Any]) -> bool:
    """Create a table with ``options``: True if it was made, joined and its state sent, False if
    it was refused clearly."""
    seats = [{"kind": "human"}] * _players(variant, options)
    body = {"variant": variant, "options": options, "seats": seats, "seat": 0, "name": "Ann"}
    response = client.post("/api/tables", json=body)
    assert response.status_code in (201, 422), (options, response.status_code, response.text)
    if response.status_code == 422:
        _refusal_names_an_option(response.json(), options)
        return False
    table = response.json()
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        state = join(ws, table["secret"])
    assert state["seq"] == 0
    assert client.get(f"/api/tables/{table['table']}").status_code == 200
    return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_tournaments_options_at_their_extremes(roomy: TestClient, data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(list(VARIANTS)))
    names = data.draw(
        st.lists(st.sampled_from(available_options(variant)), min_size=1, max_size=3, unique=True)
    )
    options = {name: data.draw(st.sampled_from(_extremes(OPTIONS[name]))) for name in names}
    table = [{"kind": "human"}] * _players(variant, options)
    body = {"variant": variant, "options": options, "deals": 1, "seats": [table, table]}
    response = roomy.post("/api/tournaments", json=body)
    assert response.status_code in (201, 422), (options, response.status_code, response.text)
    if response.status_code == 422:
        _refusal_names_an_option(response.json(), options)
        return
    tournament = response.json()["tournament"]
    assert roomy.get(f"/api/tournaments/{tournament}").status_code == 200


def test_the_published_bounds_are_the_schemas(roomy: TestClient) -> None:
    """``GET /api/variants`` says each int option's range, as the refusals do: a bid's up to the
    variant's own maximum bid, and one above it is refused."""
    for variant in roomy.get("/api/variants").json()["variants"]:
        rules = VARIANTS[variant["id"]]
        for option in variant["options"]:
            spec = OPTIONS[option["name"]]
            if spec.value_type is not int:
                continue
            high = rules.max_bid if option["name"] in ("min_bid", "dealer_forced_bid") else spec.maximum
            assert (option["minimum"], option["maximum"]) == (spec.minimum, high)
            assert None not in (option["minimum"], option["maximum"])
            if spec.maximum is not None and high is not None and high < spec.maximum:
                with pytest.raises(OptionError):
                    make_ruleset(rules.id, {option["name"]: high + 1})
    published = {v["id"]: v["options"] for v in roomy.get("/api/variants").json()["variants"]}
    assert {o["name"]: o["maximum"] for o in published["cinch"]}["min_bid"] == 14
    assert OPTIONS["target"].maximum == option_table.MAX_TARGET
