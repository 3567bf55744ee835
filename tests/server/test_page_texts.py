"""``GET /api/texts/{lang}`` gives the page the gettext catalog's translations of the texts the
server sends in English, and every refusal of the HTTP API has a code the page can translate."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import create_table, running_server

from pedro import i18n
from pedro import server as server_package
from pedro.server.http.errors import MESSAGES
from pedro.variants.options import OPTIONS

CLIENT_TEXTS = json.loads((Path(server_package.__file__).parent / "static/i18n/en.json").read_text("utf-8"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as c:
        yield c


def test_the_catalog_of_a_language_has_the_servers_texts_and_templates(client: TestClient) -> None:
    answer = client.get("/api/texts/fi")
    assert answer.status_code == 200
    body = answer.json()
    texts, templates = body["texts"], body["templates"]
    assert body["language"] == "fi"
    # a house rule's description, a card choice's rule template, a hint's note
    assert texts[OPTIONS["min_bid"].description] == "pienin tavallinen tarjous"
    assert "discard all non-trumps and {over} trumps: {rule}" in templates
    assert texts["no choice valued"] == "yhtäkään vaihtoehtoa ei arvioitu"
    # the order translate tries them in, and only texts that have a translation
    assert templates == [t for _pattern, t in i18n._templates("fi") if t in texts]
    assert all("{" in t and t in texts for t in templates)
    assert client.get("/api/texts/en").json() == {"language": "en", "texts": {}, "templates": []}


def test_a_language_without_a_catalog_is_refused_with_its_code(client: TestClient) -> None:
    answer = client.get("/api/texts/de")
    assert answer.status_code == 404
    assert answer.json()["code"] == "no_language" and answer.json()["fields"]["lang"] == "de"


def test_every_refusal_code_has_a_text_in_the_page(client: TestClient) -> None:
    missing = [code for code in MESSAGES if f"httpError.{code}" not in CLIENT_TEXTS]
    assert not missing, missing


def test_a_refusal_gives_its_code_and_fields_beside_the_english(client: TestClient) -> None:
    table = create_table(client)
    taken = client.post(f"/api/tables/{table['table']}/seats", json={"seat": 0, "name": "Bo"})
    assert taken.status_code == 409
    assert taken.json() == {
        "error": "seat 0 is taken; free seats: [1, 2, 3]",
        "code": "seat_taken",
        "fields": {"seat": 0, "free": [1, 2, 3]},
    }
    unknown = client.post("/api/tables", json={"variant": "skat", "seats": [{"kind": "human"}] * 4})
    assert unknown.json()["code"] == "unknown_variant" and unknown.json()["fields"]["variant"] == "skat"


def test_house_rules_that_clash_are_refused_by_their_two_parts(client: TestClient) -> None:
    seats = [{"kind": "human"}] * 4
    clash = client.post("/api/tables", json={"variant": "cinch", "options": {"min_bid": 15}, "seats": seats})
    assert clash.status_code == 422
    assert clash.json() == {
        "error": "min_bid=15 is above the maximum bid 14; allowed: min_bid 1..14",
        "code": "option_clash",
        "fields": {"problem": "min_bid=15 is above the maximum bid 14", "allowed": "min_bid 1..14"},
    }
    # the page translates each part with the gettext catalog, whole: both are texts of its templates
    templates = client.get("/api/texts/fi").json()["templates"]
    assert "min_bid={min_bid} is above the maximum bid {max_bid}" in templates
    value = client.post("/api/tables", json={"variant": "cinch", "options": {"min_bid": 20}, "seats": seats})
    assert value.json()["code"] == "option_clash"
    # past the schema's range the value itself is refused, saying the range
    past = client.post("/api/tables", json={"variant": "cinch", "options": {"min_bid": 99}, "seats": seats})
    assert past.status_code == 422 and past.json()["code"] == "bad_options"
    assert "min_bid; allowed: an integer from 1 to 83" in past.json()["error"]
    unknown = client.post("/api/tables", json={"variant": "cinch", "options": {"minbid": 6}, "seats": seats})
    assert unknown.json()["code"] == "bad_options" and "unknown option 'minbid'" in unknown.json()["error"]
    # a tournament's house rules are refused the same way
    computers = [{"kind": "computer", "level": "beginner"}] * 4
    body = {"variant": "cinch", "deals": 2, "seats": [computers, computers], "options": {"min_bid": 15}}
    tournament = client.post("/api/tournaments", json=body)
    assert tournament.status_code == 422 and tournament.json()["code"] == "option_clash"
    assert tournament.json()["fields"] == clash.json()["fields"]


#: The class of the server's refusals, and the function that builds a refusal's body from one.
REFUSALS = {"HttpError"}
BODY_BUILDERS = {"body"}


def _codeless_refusals(source: str) -> list[int]:
    """The lines of ``source`` that refuse a request without a code: a refusal made from an English
    text alone (``HttpError(400, "...")``), or an answer's body with an ``error`` and no ``code``."""
    found = []
    tree = ast.parse(source)
    builders = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in BODY_BUILDERS
        for node in ast.walk(fn)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS:
            coded = any(k.arg == "code" for k in node.keywords) or len(node.args) >= 3
            if not coded:
                found.append(node.lineno)
        if isinstance(node, ast.Dict) and id(node) not in builders:
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if "error" in keys and "code" not in keys:
                found.append(node.lineno)
    return found


def test_every_refusal_of_the_server_has_a_code() -> None:
    server = Path(server_package.__file__).parent
    sources = sorted(server.rglob("*.py"))
    assert len(sources) > 20
    found = {
        str(p.relative_to(server)): lines
        for p in sources
        if (lines := _codeless_refusals(p.read_text("utf-8")))
    }
    assert not found, f"refusals without a code (server/http/errors.py): {found}"
    # the checker itself sees one
    assert _codeless_refusals('raise HttpError(400, "no")\nx = JSONResponse({"error": "no"})') == [1, 2]


def test_every_review_and_hint_code_has_a_text_in_the_page() -> None:
    from pedro.server.reviews import hints as practice
    from pedro.server.reviews import routes as reviews

    missing = [c for c in reviews.MESSAGES if f"review.error.{c}" not in CLIENT_TEXTS]
    missing += [c for c in practice.MESSAGES if f"practice.error.{c}" not in CLIENT_TEXTS]
    assert not missing, missing


def test_a_request_the_server_cannot_read_says_each_problem_by_its_type(client: TestClient) -> None:
    seats = [{"kind": "human"}] * 4
    body = {"variant": "cinch", "seats": seats, "title": "x" * 500, "extra": 1}
    bad = client.post("/api/tables", json=body)
    assert bad.status_code == 422
    body = bad.json()
    assert body["code"] == "bad_request" and body["error"] == body["fields"]["why"]
    problems = {p["field"]: p for p in body["fields"]["problems"]}
    assert problems["extra"]["type"] == "extra_forbidden"
    assert problems["title"]["type"] == "text_too_long" and problems["title"]["limit"] > 0
    # every type the page is sent has its text; the unknown ones fall back to validation.other
    assert all(f"validation.{p['type']}" in CLIENT_TEXTS for p in problems.values())
    assert "validation.invalid" in CLIENT_TEXTS
    profile = client.post("/api/tables", json={"variant": "cinch", "seats": seats, "profile": "abc"})
    assert profile.json() == {
        "error": "a profile takes a seat: give the seat too",
        "code": "profile_needs_seat",
        "fields": {},
    }


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_a_failed_reviews_reason_is_a_text_the_page_translates(client: TestClient, lang: str) -> None:
    from pedro.server.finished.workers import WORKER_STOPPED
    from pedro.server.reviews.routes import NO_DATABASE

    texts = client.get(f"/api/texts/{lang}").json()["texts"]
    for why in (WORKER_STOPPED, NO_DATABASE):
        assert texts.get(why, why) != why, why
