"""Rule sheets are generated from the Ruleset fields, and the `variants` / `rules` commands."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from markdown_it import MarkdownIt
from rich.console import Console
from tests.english_left import english_lines
from tests.test_properties import OPTION_SETS

from pedro.cli.rules_cmd import USAGE_ERROR, first_sentence, show_options, show_rules, show_variants
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import EndRule, OutOfTrumps
from pedro.variants.options import OPTIONS, make_ruleset
from pedro.variants.sheet import points_text, rule_sheet, trump_order_text
from pedro.variants.sheet.words import BLOCK_START, wrap

SECTIONS = [
    "## Players",
    "## The pack",
    "## Trumps",
    "## Card points",
    "## The deal",
    "## Bidding",
    "## Naming trumps",
    "## Before play: discarding and filling",
    "## Play",
    "## Counting the points",
    "## Scoring",
    "## Winning the game",
]


def _flat(text: str) -> str:
    """The sheet with line wrapping undone, so phrases can be searched across lines."""
    return " ".join(text.split())


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_sheet_has_every_section_and_the_key_numbers(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    sheet = rule_sheet(rules)
    flat = _flat(sheet)
    assert sheet.startswith(f"# {rules.name} (`{variant_id}`)")
    positions = [sheet.index(f"\n{section}\n") for section in SECTIONS]
    assert positions == sorted(positions)
    assert trump_order_text(rules) in sheet
    assert f"There are {rules.total_points} points in each hand" in flat
    assert str(rules.target) in flat
    assert f"Bids run from {rules.min_bid} to {rules.max_bid}" in flat
    assert f"{rules.hand_size} cards to each player" in flat
    assert _flat(rules.summary) in flat
    for alias in rules.aliases:
        assert alias in flat
    assert "No house rules" in flat


def test_trump_order_text_has_role_names() -> None:
    assert trump_order_text(VARIANTS["cinch"]) == "A K Q J 10 9 8 7 6 5 L5(left pedro) 4 3 2"
    assert trump_order_text(VARIANTS["piedro_jokers"]) == (
        "A K Q J OJ(off-jack) BJ(big joker) SJ(small joker) 10 9 8 7 6 5 L5(left pedro) 4 3 2"
    )
    assert trump_order_text(VARIANTS["dom_pedro"]).endswith("4 3 2 JK(joker)")
    assert trump_order_text(VARIANTS["petro_russian"]).startswith("5 L5(left pedro) A K")


def test_points_text() -> None:
    assert points_text(VARIANTS["cinch"]) == (
        "A (High) 1, J (Jack) 1, 10 (Game) 1, 5 (Pedro) 5, L5 (Left pedro) 5, 2 (Low) 1"
    )
    assert "K (King) 30" in points_text(VARIANTS["king_pedro"])
    assert "JK (Snoozer) 15" in points_text(VARIANTS["dom_pedro"])


def test_sheet_follows_the_fields_not_the_variant_name() -> None:
    custom = replace(
        VARIANTS["cinch"],
        id="test_game",
        name="Test Game",
        aliases=(),
        summary="A made-up game.",
        target=99,
        end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
        trump_order=("2", "3", "A"),
        points=(("2", 7),),
        out_of_trumps=OutOfTrumps.UP,
    )
    flat = _flat(rule_sheet(custom))
    assert flat.startswith("# Test Game (`test_game`)")
    assert "- 2 3 A" in flat
    assert "2 (Low) 7" in flat and "There are 7 points in each hand" in flat
    assert "first side to reach 99 points" in flat
    assert "I'm up" in flat
    assert "bidder-goes-out" not in flat and "left pedro" not in flat


def test_sheet_changes_with_options() -> None:
    plain = _flat(rule_sheet(VARIANTS["sixty_three"]))
    joker = _flat(rule_sheet(make_ruleset("sixty_three", {"joker": True})))
    assert "JK(joker)" in joker and "JK(joker)" not in plain
    assert "3 (Three) 15" in plain and "3 (Three)" not in joker
    assert "JK (Snoozer) 15" in joker
    assert "House rules in force: `joker=true`" in joker
    assert "A standard pack of 52 cards plus one joker (JK): 53 cards" in joker

    cinch = _flat(rule_sheet(VARIANTS["cinch"]))
    fifty_one = _flat(rule_sheet(make_ruleset("cinch", {"target": 51})))
    assert "bidder-goes-out hand" in cinch and "bidder-goes-out" not in fifty_one
    assert "The first side to reach 51 points or more wins" in fifty_one

    petro = _flat(rule_sheet(make_ruleset("petro_russian", {"fives_rank": "standard"})))
    assert "- A K Q J 10 9 8 7 6 5 L5(left pedro) 4 3 2" in petro
    assert "fives are the highest trumps" not in petro


@pytest.mark.parametrize(
    ("variant_id", "options", "phrase"),
    [
        ("cinch", {"slam": True}, "A bid of 14 is a slam: it scores 28"),
        ("cinch", {"bid_28_56": True}, "'28-56'"),
        ("cinch", {"first_lead_trump": True}, "must lead a trump if he has one"),
        ("cinch", {"plain_lead": "must_follow"}, "must follow suit and may not trump instead"),
        ("cinch", {"scoring": "difference"}, "Scores never go below zero"),
        ("cinch", {"discards_face_up": True}, "claimed by an opponent of the player who discarded it"),
        ("cinch", {"dealer_robs_discards": True}, "take trumps from the other players' discards"),
        ("cinch", {"keep_nontrumps": True}, "may instead keep some non-trumps"),
        ("cinch", {"preset": "cinch_min6_forced7"}, "he must bid at least 7 (a bid of 6 is open"),
        ("cinch", {"low_rule": "dealt"}, "to whom it was first dealt"),
        ("cinch", {"excess_trumps": "must_discard_to_6"}, "must discard trumps until he has 6"),
        ("nicaragua", {"play_hand_size": 6}, "but at least 1 card"),
        ("pidro", {"cold_cards_face": "down"}, "remaining cards face down"),
        ("king_pedro_canadian", {"made_scores": "bid"}, "scores the amount of its bid"),
        ("king_pedro_canadian", {"fold_mandatory": False}, "no trump may fold"),
        ("pedro_sancho", {"players": 6}, "(this sheet is for 6)"),
        ("pedro_sancho", {"deal_all_out": True}, "deals the whole pack one card at a time"),
        ("pedro_sancho", {"discard_and_fill": True}, "discards all his non-trumps"),
        ("pedro_sancho", {"defenders_score_when_set": False}, "nobody else scores"),
        ("pedro_sancho", {"all_pass_action": "redeal_next_dealer"}, "the cards are thrown in"),
        ("piedro_jokers", {"protect_may_equal": True}, "protect over an existing bid of 9"),
        ("pitch_fives", {"relative_high_low": True}, "classic Pitch way"),
        ("petro_russian", {"plain_honours_score": True}, "There are 26 points"),
        ("eighty_three", {"nine_card_deal": True}, "Extra trumps are passed before the stock is dealt"),
        ("sixty_three", {"nine_card_deal": True}, "discards the cheapest of them face up (the two"),
        ("king_pedro", {"lose_at": None}, "A side wins only at the end of a hand"),
    ],
)
def test_sheet_describes_option(variant_id: str, options: dict[str, object], phrase: str) -> None:
    with_option = _flat(rule_sheet(make_ruleset(variant_id, options)))
    without = _flat(rule_sheet(VARIANTS[variant_id]))
    assert phrase in with_option
    if variant_id != "king_pedro":
        assert phrase not in without
    else:
        assert "-100 or lower" in without and "-100 or lower" not in with_option


def test_sheet_variant_specific_rules_come_from_fields() -> None:
    sheets = {v: _flat(rule_sheet(r)) for v, r in VARIANTS.items()}
    assert "goes cold" in sheets["pidro"]
    assert "I'm up" in sheets["king_pedro"]
    assert "out for the rest of the hand" in sheets["piedro_jokers"]
    assert "must fold" in sheets["king_pedro_canadian"]
    assert "in the order High, Low, Jack, Game, Pedro, Sancho" in sheets["pedro_sancho"]
    assert "High, Low, Jack, Game, Three, Pedro, Sancho, Snoozer" in sheets["dom_pedro"]
    assert "'83 double'" in sheets["eighty_three"]
    assert "first takes the kitty into his hand, and only then names" in sheets["eighty_three"]
    assert "names the trump suit first, without looking at the kitty" in sheets["king_pedro"]
    assert "before the second deal" in sheets["sixty_three"]
    assert "'protect'" in sheets["piedro_jokers"]
    assert "bidding the same as the highest bid" in sheets["pitch_fives"]
    assert "take the contract over" in sheets["pidro"]
    assert "below the usual minimum" in sheets["nicaragua"]
    assert "-100 or lower" in sheets["king_pedro"]
    assert "passes the extra ones to his partner" in sheets["sixty_three"]
    assert (
        "Non-trumps are discarded face down; any trump that is discarded is shown face up"
        in (sheets["sixty_three"])
    )
    assert "All discards are placed face up" in sheets["petro_russian"]
    assert "won by the player who led it" in sheets["king_pedro"]
    assert "each playing for himself" in sheets["petro_russian"]
    assert "partners sit opposite" in sheets["cinch"]


# ---------------------------------------------------------------------------
# commands


def _console() -> Console:
    return Console(record=True, width=200, color_system=None)


def test_show_variants_lists_every_variant() -> None:
    console = _console()
    assert show_variants(console) == 0
    text = console.export_text()
    for rules in VARIANTS.values():
        assert rules.id in text and rules.name in text
        assert first_sentence(rules.summary)[:30] in text
    assert "4–7 alone" in text and "4 (2×2)" in text
    assert "262" in text and "83" in text


def test_show_variants_is_readable_at_80_columns() -> None:
    console = Console(record=True, width=80, color_system=None)
    assert show_variants(console) == 0
    text = console.export_text()
    lines = text.splitlines()
    assert "…" not in text  # no word is cut short
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) <= 60  # the wide table took 127 lines here, a word or two a line
    flat = " ".join(text.split())
    for rules in VARIANTS.values():
        assert rules.id in flat and rules.name in flat
        assert " ".join(first_sentence(rules.summary).split()) in flat
        assert f"game to {rules.target}" in flat


def test_show_rules_prints_the_sheet() -> None:
    console = _console()
    assert show_rules(console, "sixty_three", ["joker=true"]) == 0
    text = _flat(console.export_text())
    assert "Sixty-Three" in text and "JK(joker)" in text and "joker=true" in text


def test_show_rules_plain_text() -> None:
    console = _console()
    assert show_rules(console, "cinch", [], markdown=False) == 0
    assert console.export_text() == rule_sheet(VARIANTS["cinch"])


@pytest.mark.parametrize(
    ("variant_id", "args", "fragment"),
    [
        ("nope", [], "valid variants: cinch"),
        ("cinch", ["joker=true"], "does not apply to cinch"),
        ("cinch", ["slam"], "NAME=VALUE"),
        ("cinch", ["min_bid=x"], "an integer from 1 to 83"),
        ("pedro_sancho", ["scoring=difference"], "scoring=standard"),
    ],
)
def test_show_rules_reports_errors_without_traceback(variant_id: str, args: list[str], fragment: str) -> None:
    console = _console()
    assert show_rules(console, variant_id, args) == USAGE_ERROR
    text = _flat(console.export_text())
    assert text.startswith("error:")
    assert fragment in text
    assert "Traceback" not in text


def test_show_options() -> None:
    console = _console()
    assert show_options(console, "piedro_jokers") == 0
    text = console.export_text()
    assert "off_jack_rank" in text and "protect_may_equal" in text and "joker " not in text
    assert show_options(console, "nope") == USAGE_ERROR


#: Each language's words for the table's title and headings.
OPTION_HEADINGS = {
    "fi": ("Talon säännöt: Cinch (cinch)", "sääntö", "sallittu", "oletus", "vaikutus"),
    "sv": ("Husregler: Cinch (cinch)", "regel", "tillåtet", "standard", "verkan"),
}


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_show_options_speaks_the_language_and_keeps_the_option_syntax(lang: str) -> None:
    """``--list-options --lang fi``: headings, allowed values in words and effects translated, no
    English left; the names and values a user types stay as they are typed."""
    console = Console(record=True, width=400)
    assert show_options(console, "cinch", lang=lang) == 0
    text = console.export_text()
    assert all(word in text for word in OPTION_HEADINGS[lang]), text[:600]
    typed = ("all_pass_action", "dealer_forced, redeal_next_dealer", "dealer_forced_bid", "null", "true")
    assert all(syntax in text for syntax in typed), text[:600]
    for rules in VARIANTS.values():
        console = Console(record=True, width=400)
        assert show_options(console, rules.id, lang=lang) == 0
        # the variants' names stay English, and the options' names are syntax ("partnerships")
        names = sorted([*(r.name for r in VARIANTS.values()), *OPTIONS], key=len, reverse=True)
        assert english_lines(console.export_text(), lang, names) == [], rules.id


def test_show_options_follows_the_environment_and_refuses_an_unknown_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "sv_FI.UTF-8")
    console = Console(record=True, width=400)
    assert show_options(console, "pidro") == 0
    assert "Husregler: Pidro (pidro)" in console.export_text()
    assert show_options(console, "pidro", lang="en") == 0
    assert "Options for Pidro (pidro)" in console.export_text()
    assert show_options(console, "pidro", lang="de") == USAGE_ERROR
    assert "no language 'de'" in console.export_text()


def test_wrapping_never_starts_a_list_or_heading() -> None:
    """Wrapped before "1. No other card scores", a sheet showed a list item numbered 1; the only
    lists are the trump orders, written as such, and the only headings the sections."""
    markdown = MarkdownIt()
    rulesets = list(VARIANTS.values()) + [make_ruleset(v, o) for v, o in OPTION_SETS]
    for rules in rulesets:
        sheet = rule_sheet(rules)
        lines = sheet.splitlines()
        for token in markdown.parse(sheet):
            assert token.type not in ("ordered_list_open", "blockquote_open"), (rules.id, token.map)
            if token.type in ("bullet_list_open", "heading_open") and token.map is not None:
                start = lines[token.map[0]]
                # written as such: a trump order's "- " line or a section's "#", after a blank line
                before = lines[token.map[0] - 1] if token.map[0] else ""
                assert start.startswith(("- ", "#")) and before == "", (rules.id, start)


def test_a_line_that_would_start_a_list_is_joined_to_the_one_before() -> None:
    text = "word " * 17 + "2 (Low) 1. No other card scores. " + "more words here " * 8
    wrapped = wrap(text)
    assert " ".join(wrapped.split()) == " ".join(text.split()), "no word lost or moved out of order"
    for line in wrapped.splitlines()[1:]:
        assert not BLOCK_START.match(line), line


def test_on_a_narrow_terminal_no_option_name_or_value_is_cut() -> None:
    """An 80-column terminal: each option is a block of wrapped lines, not a table whose columns
    cut the values a user must type (``cinch_min6_fo…``); every name and value is there whole."""
    for rules in VARIANTS.values():
        narrow = Console(record=True, width=80)
        assert show_options(narrow, rules.id, lang="en") == 0
        text = narrow.export_text()
        assert "…" not in text, rules.id
        wide = Console(record=True, width=400)
        assert show_options(wide, rules.id, lang="en") == 0
        table = wide.export_text()
        typed = set(re.findall(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b", table))
        assert typed and all(re.search(rf"\b{word}\b", text) for word in typed), rules.id
        assert "┃" in table and "┃" not in text  # a table only where it fits


def test_the_narrow_options_list_has_no_trailing_spaces() -> None:
    """Copied or piped, the list's lines end where their words do, not at the terminal's edge."""
    for width in (40, 80):
        narrow = Console(record=True, width=width)
        assert show_options(narrow, "cinch", lang="en") == 0
        lines = narrow.export_text().splitlines()
        assert [line for line in lines if line != line.rstrip()] == [], width
        assert "  allowed: one of single_round," in "\n".join(lines)  # still indented
        assert all(len(line) <= width for line in lines)
