"""End-to-end: no English left on any page of a Finnish or a Swedish browser.

Every page is walked in Finnish and in Swedish — the lobby and its new-table form (house rules open,
and refusing two house rules that clash), a practice
table through a whole short game (a call, trumps, a card choice with its rule, a hint, card play,
the hand's end), the replay with its review, and the /review upload page — and each page's
visible text (with its placeholders and accessible names) is scanned for English
(``tests/english_left.py``). Only names and card codes may stay English.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, game_over, overbid, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.english_left import Found, english_lines
from tests.serving import ServerProcess

from pedro import i18n
from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: What may stay English on a Finnish or Swedish page: the players' and tables' names, the computer players'
#: own names (the form lists them by name, as the command line does), the variants' names and the
#: language switch's name of English.
ALLOWED = (
    *sorted((rules.name for rules in VARIANTS.values()), key=len, reverse=True),
    "Ann",
    "English",
    "random",
    "basic",
    "heuristic",
    "expert",
    "omniscient",
    "e2e-kokeilu",
    "pedro",
)

#: A short practice game: cinch to 7, non-trumps may be kept (a card choice with a rule), Ann at seat 0
#: against three computers.
TABLE = {
    "variant": "cinch",
    "options": {"target": 7, "keep_nontrumps": True},
    "title": "e2e-kokeilu",
    "listed": True,
    "seats": [HUMAN, computer(), computer(), computer()],
    "seat": 0,
    "name": "Ann",
    "practice": True,
}

#: Reading a page's visible text, its placeholders and accessible names, every <details> opened.
VISIBLE_TEXT = """() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const lines = [document.body.innerText];
  for (const el of document.querySelectorAll("[placeholder], [aria-label], [title]")) {
    if (el.closest("[hidden]")) continue;
    for (const name of ["placeholder", "aria-label", "title"]) {
      const value = el.getAttribute(name);
      if (value) lines.push(value);
    }
  }
  for (const option of document.querySelectorAll("option, optgroup")) lines.push(option.label || option.text);
  return lines.join("\\n");
}"""


#: Per language: the refusal of a taken seat, and of two house rules that clash (claiming trumps from
#: the discards while Cinch discards face down), each said from its code, the clash in words.
SAID = {
    "fi": {
        "seat_taken": "Paikka 1 on varattu; vapaat paikat: –.",
        "bad_request": "Palvelin ei voinut lukea pyyntöä: extra ei kuulu tähän pyyntöön",
        "clash": (
            "Nämä talon säännöt eivät sovi yhteen: trump_discard_claim=opponents edellyttää, että kortit "
            "hylätään kuvapuoli ylöspäin; sallittu: trump_discard_claim=none, tai lisää discards_face_up=true"
        ),
    },
    "sv": {
        "seat_taken": "Plats 1 är tagen; lediga platser: –.",
        "bad_request": "Servern kunde inte läsa begäran: extra hör inte till den här begäran",
        "clash": (
            "De här husreglerna går inte ihop: trump_discard_claim=opponents kräver att korten kastas med "
            "framsidan upp; tillåtet: trump_discard_claim=none, eller lägg till discards_face_up=true"
        ),
    },
}


def scan(page: Any, where: str, found: dict[str, list[Found]], lang: str) -> None:
    """Record the English lines of the page as it is now."""
    english = english_lines(page.evaluate(VISIBLE_TEXT), lang, ALLOWED)
    if english:
        found.setdefault(where, []).extend(english)


def report(found: dict[str, list[Found]]) -> str:
    return "\n".join(f"{where}: {f.line!r} ({f.why})" for where, lines in found.items() for f in lines)


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.browser
def test_no_page_is_left_in_english(players: Callable[..., Player], server: ServerProcess, lang: str) -> None:
    found: dict[str, list[Found]] = {}
    locale = f"{lang}-FI"
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json=TABLE, timeout=10).json()
    tid = made["table"]

    phone = players("phone", locale=locale, viewport={"width": 375, "height": 800})
    phone.goto("./")
    phone.page.locator(".create-form").wait_for()
    phone.page.locator(f'.table-card[data-table="{tid}"]').wait_for()
    scan(phone.page, "lobby 375", found, lang)
    # a refusal of the server, said from its code: a taken seat
    refusal = phone.page.evaluate(
        """async (tid) => {
          const { api } = await import("./static/net.js");
          try { await api(`api/tables/${tid}/seats`, { method: "POST", body: { seat: 0, name: "Bo" } }); }
          catch (err) { return err.message; }
          return "";
        }""",
        tid,
    )
    assert refusal == SAID[lang]["seat_taken"], refusal
    # a request the server could not read, each problem said by its type
    unread = phone.page.evaluate(
        """async () => {
          const { api } = await import("./static/net.js");
          const seats = [{ kind: "human" }, { kind: "human" }, { kind: "human" }, { kind: "human" }];
          try { await api("api/tables", { method: "POST", body: { variant: "cinch", seats, extra: 1 } }); }
          catch (err) { return err.message; }
          return "";
        }"""
    )
    assert unread == SAID[lang]["bad_request"], unread
    # house rules that clash, refused with the reason in words
    form = phone.page.locator(".create-form")
    phone.page.locator('input[name="player-name"]').fill("Ann")
    form.locator('select[name="variant"]').select_option("cinch")
    form.locator("#opt-trump_discard_claim").select_option("opponents")
    form.locator('button[type="submit"]').click()
    error = form.locator(".form-error")
    error.filter(has_text="trump_discard_claim").wait_for()
    assert error.inner_text() == SAID[lang]["clash"]
    scan(phone.page, "lobby 375, the form refusing a clash", found, lang)

    seen: set[str] = set()
    # a short game may deal Ann no card choice of her own (about one in forty): she sits at another
    for attempt in range(MAX_TABLES):
        if attempt:
            made = httpx.post(f"{server.url}/api/tables", json=TABLE, timeout=10).json()
        storage = seat_storage(server.url, made["table"], 0, made["secret"], "Ann")
        ann = players(f"ann {attempt}", storage=storage, locale=locale)
        play_a_game(ann, made["url"], seen, found, lang)
        assert not ann.page_errors, ann.page_errors
        if "exchange" in seen:
            break
    assert "exchange" in seen, f"no card choice was met at {MAX_TABLES} tables (saw {sorted(seen)})"
    tid, page = made["table"], ann.page

    page.goto(f"replay/{tid}")
    page.locator('[data-testid="review-panel"]').wait_for()
    scan(page, "replay", found, lang)
    page.locator('[data-testid="review-start"]').click()
    page.locator('[data-testid="review"]').wait_for(timeout=120_000)
    scan(page, "replay, review", found, lang)
    entries = page.locator('[data-testid="review-entry"]')
    if entries.count():
        entries.first.click()
        scan(page, "replay, review entry", found, lang)

    page.goto("review")
    page.locator('input[type="file"]').wait_for(state="attached")
    scan(page, "review upload", found, lang)
    assert not ann.page_errors and not phone.page_errors, ann.page_errors + phone.page_errors
    assert not found, f"English on a page in {lang}:\n" + report(found)


#: Tables Ann sits at, at most, to meet a card choice of her own.
MAX_TABLES = 3


def play_a_game(ann: Player, url: str, seen: set[str], found: dict[str, list[Found]], lang: str) -> None:
    """Ann plays a whole game at her table; each phase she meets the first time is scanned."""
    ann.goto(url)
    page = ann.page
    page.wait_for_selector('body[data-turn="true"]', state="attached")
    page.locator('[data-testid="hint"]').click()
    page.locator('[data-testid="hint-values"]').wait_for(timeout=60_000)
    scan(page, "table, hint", found, lang)

    def look(seq: int) -> None:
        kind = page.evaluate("document.body.dataset.phase")
        if kind not in seen:
            seen.add(kind)
            scan(page, f"table, {kind}", found, lang)

    ann.play_until(game_over, random.Random(3), limit=240, choose=overbid, check=look)
    scan(page, "table, game over", found, lang)


def engine_texts() -> list[str]:
    """English texts the server sends as they are: the rule of every card choice met in a hand of
    each variant (and of Cinch with its house rules on card choices), rules inside rules included,
    and every template of the catalogs with its fields filled."""
    texts: set[str] = set()
    rulesets = [make_ruleset(v) for v in VARIANTS] + [
        make_ruleset("cinch", {"keep_nontrumps": True}),
        make_ruleset("pidro", {"excess_trumps": "must_discard_to_6"}),
    ]
    for rules in rulesets:
        for seed in range(3):
            state, rng = GameState(rules, seed=f"texts-{seed}"), random.Random(seed)
            while not state.is_over and state.hand_index < 1:
                legal = state.legal()
                if isinstance(legal, CardChoice):
                    texts.add(legal.rule)
                    state.apply(next(iter(legal)))
                else:
                    state.apply(rng.choice(legal))
    for template in i18n.page_catalog("fi")["templates"]:
        assert isinstance(template, str)
        texts.add(re.sub(r"\{(\w+)\}", "3", template))
    return sorted(texts)


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.browser
def test_the_page_translates_the_servers_texts_as_the_terminal_does(
    players: Callable[..., Player], lang: str
) -> None:
    texts = engine_texts()
    assert len(texts) > 100 and any("; " in t for t in texts)
    page = players("ann", locale=lang).page
    page.goto("review")
    page.locator('input[type="file"]').wait_for(state="attached")
    shown = page.evaluate(
        """async (texts) => {
          const { tServer } = await import("./static/i18n.js");
          return texts.map((text) => tServer(text));
        }""",
        texts,
    )
    with i18n.speaking(lang):
        expected = [i18n.translate(text) for text in texts]
    assert shown == expected
    # and the card choices' rules are translated, not left as they came
    assert sum(a != b for a, b in zip(shown, texts, strict=True)) > len(texts) * 0.9


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
