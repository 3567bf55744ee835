"""The translations: every player-facing text has a Finnish and a Swedish translation, and the
terminal game speaks the language asked for (``--lang``, else the environment)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po
from rich.console import Console
from typer.testing import CliRunner

from pedro import i18n
from pedro.cli import play_cmd
from pedro.cli.main import app
from pedro.engine.actions import bid_action
from pedro.engine.state import GameState
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset
from pedro.variants.sheet import rule_sheet

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "pedro"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


#: A marked text as the catalogs key it: its context ("" for none) and its (singular) English.
Key = tuple[str, str]


def source_messages() -> set[Key]:
    """Every text the source marks for translation, as ``pybabel extract -F babel.cfg`` finds it."""
    found: set[Key] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS
    ):
        found.add((context or "", message if isinstance(message, str) else message[0]))
    return found


def catalog_of(lang: str) -> Catalog:
    with (PACKAGE / "locale" / lang / "LC_MESSAGES" / "pedro.po").open("rb") as po:
        return read_po(po, locale=lang)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def marked() -> set[Key]:
    messages = source_messages()
    assert len(messages) > 200  # the terminal game, the engine's explanations, the statuses ...
    return messages


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_text_has_a_translation_and_the_catalog_no_stale_one(
    lang: str, marked: set[Key]
) -> None:
    translated = {
        (m.context or "", m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog_of(lang) if m.id
    }
    missing = sorted(marked - set(translated))
    empty = sorted(
        k for k, m in translated.items() if not all(m.string if isinstance(m.string, tuple) else [m.string])
    )
    fuzzy = sorted(k for k, m in translated.items() if m.fuzzy)
    stale = sorted(set(translated) - marked)
    assert not missing, f"no {lang} translation (run pybabel update, see docs/translations.md): {missing}"
    assert not empty, f"empty {lang} translations: {empty}"
    assert not fuzzy, f"fuzzy {lang} translations, check them: {fuzzy}"
    assert not stale, f"{lang} translations of texts the source no longer has: {stale}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_fill_the_same_fields_as_the_english(lang: str) -> None:
    wrong = []
    for m in catalog_of(lang):
        if not m.id:
            continue
        english = m.id if isinstance(m.id, str) else m.id[1]
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            if fields(text) != fields(english):
                wrong.append((english, text))
    assert not wrong


def test_the_catalogs_load_and_translate_with_plurals() -> None:
    with i18n.speaking("fi"):
        assert i18n._("spades") == "pata"
        assert i18n.ngettext("{n} point", "{n} points", 1) == "1 piste"
        assert i18n.ngettext("{n} point", "{n} points", 5) == "5 pistettä"
        assert i18n._("bids go up to {max}", max=14) == "suurin tarjous on 14"
    with i18n.speaking("sv"):
        assert i18n._("hearts") == "hjärter"
        assert i18n._("Your bid") == "Ditt bud"
    assert i18n._("hearts") == "hearts"  # outside, English again


@pytest.mark.parametrize(
    ("code", "lang"), [("fi", "fi"), ("FI", "fi"), ("fi_FI.UTF-8", "fi"), ("sv-FI", "sv"), ("en_GB", "en")]
)
def test_language_codes_are_read_as_the_language(code: str, lang: str) -> None:
    assert i18n.check_language(code) == lang


def test_an_unknown_language_is_refused_naming_the_ones_there_are() -> None:
    with pytest.raises(
        i18n.LanguageError, match=r"no language 'de'.*en \(English\), fi \(suomi\), sv \(svenska\)"
    ):
        i18n.check_language("de")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LC_ALL": "sv_FI.UTF-8", "LANG": "fi_FI.UTF-8"}, "sv"),
        ({"LANGUAGE": "de:sv", "LANG": "fi_FI.UTF-8"}, "sv"),
        ({"LANGUAGE": "de", "LANG": "fi_FI.UTF-8"}, "fi"),
        ({"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_chooses_the_language_as_gettext_does(environ: dict[str, str], lang: str) -> None:
    assert i18n.language_from_env(environ) == lang


def test_the_engine_explains_in_english_and_the_interface_translates_it() -> None:
    """The engine's texts reach bots and the server (contracts): English whatever the language;
    ``translate`` shows them to a person."""
    state = GameState(make_ruleset("pidro"), seed=3)
    too_high = bid_action(15)
    with i18n.speaking("fi"):
        reason = state.why_illegal(too_high)
        assert reason == "bids go up to 14"
        assert i18n.translate(reason) == "suurin tarjous on 14"
    with i18n.speaking("sv"):
        assert i18n.translate(reason) == "buden går upp till 14"
    assert i18n.translate(reason) == reason


@pytest.mark.parametrize(
    ("english", "lang", "said"),
    [
        # a rule inside a rule: both parts translated
        (
            "discard all non-trumps and 2 trumps: non-scoring trumps only, where possible",
            "fi",
            "hylkää kaikki muut kuin valtit ja 2 valttia: "
            "vain valtteja, joissa ei ole pisteitä, jos mahdollista",
        ),
        (
            "discard every non-trump; trumps may be thrown away too",
            "sv",
            "kasta alla icke-trumf; trumf får också kastas",
        ),
        ("5H 6H not in hand", "sv", "5H 6H finns inte på hand"),
        ("no such text in any catalog", "fi", "no such text in any catalog"),
    ],
)
def test_translate_reads_the_fields_back_out_of_an_english_text(english: str, lang: str, said: str) -> None:
    with i18n.speaking(lang):
        assert i18n.translate(english) == said


def test_a_card_choice_sent_to_a_bot_stays_english_in_a_finnish_game() -> None:
    from pedro.observation_json import observation_json

    state = GameState(make_ruleset("cinch"), seed=11)
    with i18n.speaking("fi"):
        while state.phase.name != "EXCHANGE" or not hasattr(state.legal(), "rule"):
            if state.is_over:
                pytest.skip("no card choice in this deal")
            state.apply(state.legal_actions()[0])
        legal = observation_json(state.observation(state.current_player), private=True)["legal"]
    assert legal["kind"] == "cards"
    assert legal["rule"] == state.legal().rule  # type: ignore[union-attr]
    assert i18n.translate(legal["rule"]) == legal["rule"]  # English outside a language
    with i18n.speaking("fi"):
        assert i18n.translate(legal["rule"]) != legal["rule"]


def _play(lang: str | None, answers: list[str], tmp_path: Path, variant: str = "pidro") -> str:
    """Run ``pedro play`` with scripted answers (then end of input); the printed text."""
    console = Console(record=True, width=120, force_terminal=False, color_system=None)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not answers:
            raise EOFError
        return answers.pop(0)

    code = play_cmd.run(
        console,
        variant,
        None,
        players=None,
        seed=4,
        save=tmp_path / "game.json",
        name=None,
        ask=ask,
        lang=lang,
    )
    assert code == 0
    return console.export_text() + "\n".join(prompts)


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "fi",
            [
                "Tarjouksesi>",
                "'xyz' ei ole tarjous: tarjoa luku",
                "ei sallittu: suurin tarjous on 14",
                "kätesi",
                "Syöte loppui: peli päättyy tähän.",
                "Peli tallennettu",
            ],
        ),
        (
            "sv",
            [
                "Ditt bud>",
                "'xyz' är inget bud: bjud ett tal",
                "inte tillåtet: buden går upp till 14",
                "din hand",
                "Indata tog slut: spelet slutar här.",
                "Spelet sparat i",
            ],
        ),
    ],
)
def test_the_terminal_game_prompts_and_refuses_in_the_language_asked_for(
    lang: str, said: list[str], tmp_path: Path
) -> None:
    text = _plain(_play(lang, ["xyz", "bid 99"], tmp_path))
    for words in said:
        assert words in text
    assert "Your bid" not in text
    assert "is not a call" not in text


def test_a_finnish_player_may_answer_with_the_finnish_words(tmp_path: Path) -> None:
    text = _plain(_play("fi", ["passi"], tmp_path))
    assert "Passaat" in text or "Sinä" in text  # the human passed (or, as dealer, was told why not)


def test_the_game_speaks_the_environments_language_without_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "sv_FI.UTF-8")
    text = _plain(_play(None, ["xyz"], tmp_path))
    assert "Ditt bud>" in text
    assert "'xyz' är inget bud" in text


def test_the_record_stays_english_in_a_finnish_game(tmp_path: Path) -> None:
    _play("fi", ["pass"], tmp_path)
    record = (tmp_path / "game.json").read_text(encoding="utf-8")
    assert '"pass"' in record or "pass" in record
    assert "passi" not in record
    assert "tarjo" not in record


def test_pedro_play_with_an_unknown_language_says_which_there_are() -> None:
    result = CliRunner().invoke(app, ["play", "--lang", "de"])
    assert result.exit_code == 2
    assert "no language 'de'" in result.output
    assert "fi (suomi)" in result.output and "sv (svenska)" in result.output
    assert "Traceback" not in result.output


def test_pedro_rules_prints_the_sheet_in_swedish() -> None:
    result = CliRunner().invoke(app, ["rules", "pidro", "--lang", "sv", "--plain"])
    assert result.exit_code == 0, result.output
    text = _plain(result.output)
    for words in ("## Budgivning", "## Given", "## Att räkna poängen", "fel pidro", "Lågå", "blir kall"):
        assert words in text, words
    assert "## Bidding" not in text
    assert "Det finländska parspelet från Österbotten" in text  # the variant's summary, translated too


def test_pedro_rules_follows_the_environment_and_refuses_an_unknown_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    result = CliRunner().invoke(app, ["rules", "cinch", "--plain"])
    assert result.exit_code == 0
    assert "## Tarjoaminen" in result.output
    refused = CliRunner().invoke(app, ["rules", "cinch", "--lang", "xx"])
    assert refused.exit_code == 2
    assert "no language 'xx'" in refused.output and "sv (svenska)" in refused.output


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_sentence_of_every_sheet_is_translated(lang: str, variant: str) -> None:
    """No paragraph of a variant's sheet is left as the English one (only the title and the trump
    order, which are names and card codes)."""
    rules = make_ruleset(variant)
    english = rule_sheet(rules).split("\n\n")
    with i18n.speaking(lang):
        translated = rule_sheet(rules).split("\n\n")
    assert len(translated) == len(english)
    same = [e for e, t in zip(english[1:], translated[1:], strict=True) if e == t and not e.startswith("- ")]
    assert not same, same


def test_the_in_game_rules_command_shows_the_sheet_in_the_games_language(tmp_path: Path) -> None:
    text = _plain(_play("fi", ["rules"], tmp_path))
    assert "Tarjoaminen" in text and "Valtin valitseminen" in text
    assert "Naming trumps" not in text


def test_the_exchange_is_told_in_the_second_person_to_a_finnish_player() -> None:
    from pedro import terminal
    from pedro.cli.play.seats import DEFAULT_NAME

    state = GameState(make_ruleset("cinch"), seed=2)
    while state.phase.name != "PLAY":
        state.apply(state.legal_actions()[0])
    with i18n.speaking("fi"):
        names = [i18n._(DEFAULT_NAME), "Bo", "Cy", "Di"]
        said = terminal.exchange_markup(state.observation(0), state.rules, names)
    assert "Sinä hylkäsit" in said and "Bo hylkäsi" in said, said


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_every_reason_a_hint_leaves_choices_unvalued_is_translated(lang: str) -> None:
    """Each note ``Estimates.note()`` can make, with each reason, is translated whole: no English left."""
    from pedro.players import exchange_values, expert
    from pedro.players.estimates import POINTS, Estimates

    reasons = [
        expert.NO_CONTRACT, expert.UNPLAYED_SUIT, expert.NO_WORLD,
        exchange_values.TOO_MANY, exchange_values.NOT_FIRST_DEAL,
    ]  # fmt: skip
    for why in reasons:
        for est in (Estimates(POINTS, {}, 3, why), Estimates(POINTS, {1: 0.5, 2: 1.5}, 7, why)):
            english = est.note()
            with i18n.speaking(lang):
                shown = i18n.translate(english)
            assert shown != english and why not in shown and "valued" not in shown, shown
            assert re.findall(r"\d+", shown) == re.findall(r"\d+", english)
    with i18n.speaking(lang):
        assert i18n.translate(Estimates(POINTS, {}, 2).note()) != "no choice valued"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fi", "virhe: min_bid=15 on suurempi kuin suurin tarjous 14; sallittu: min_bid 1..14"),
        ("sv", "fel: min_bid=15 är högre än det högsta budet 14; tillåtet: min_bid 1..14"),
        ("en", "error: min_bid=15 is above the maximum bid 14; allowed: min_bid 1..14"),
    ],
)
def test_house_rules_that_clash_are_refused_in_the_players_language(lang: str, said: str) -> None:
    for command in (["play", "--variant", "cinch"], ["rules", "cinch"]):
        result = CliRunner().invoke(app, [*command, "--lang", lang, "--option", "min_bid=15"])
        assert result.exit_code == 2, result.output
        assert _plain(result.output).strip() == said


def test_a_clash_naming_a_rule_in_words_is_translated_whole_in_the_terminal() -> None:
    options = ["--option", "players=5", "--option", "partnerships=true"]
    result = CliRunner().invoke(app, ["play", "--variant", "dom_pedro", "--lang", "sv", *options])
    assert result.exit_code == 2
    assert _plain(result.output).strip() == (
        "fel: parspel kräver exakt 4 spelare, men players=5; "
        "tillåtet: partnerships=true med players=4, eller partnerships=false"
    )


#: Options refused for a name, a value, a form or a preset: (variant, options) or command-line words.
REFUSED_OPTIONS: list[tuple[str, dict[str, object]] | list[str]] = [
    ("cinch", {"nosuch": 1}),
    ("cinch", {"deal_all_out": True}),
    ("cinch", {"min_bid": "zz"}),
    ("cinch", {"dealer_forced_bid": "x"}),
    ("cinch", {"discards_face": "sideways"}),
    ("cinch", {"slam": "maybe"}),
    ("piedro_jokers", {"off_jack_rank": 99}),
    ("cinch", {"preset": "cinch_min6_forced6", "min_bid": 7}),
    ["nosuch=1"],
    ["min_bid"],
    ["min_bid=6", "min_bid=7"],
]


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("case", REFUSED_OPTIONS, ids=str)
def test_every_refused_option_is_said_whole_in_the_players_language(
    case: tuple[str, dict[str, object]] | list[str], lang: str
) -> None:
    from pedro.variants.options import OptionError, parse_option_args

    with pytest.raises(OptionError) as refused:
        if isinstance(case, list):
            parse_option_args(case)
        else:
            make_ruleset(*case)
    english = str(refused.value)
    with i18n.speaking(lang):
        said = refused.value.translated()
        # the page reads the English back as translate does, and says the same
        assert i18n.translate(english) == said
    words = {w for w in re.findall(r"[\w=.<>']+", said) if not re.search(r"[_=\d<>']", w)}
    english_words = {
        "option",
        "options",
        "allowed",
        "valid",
        "invalid",
        "value",
        "integer",
        "one",
        "or",
        "for",
    }
    assert said != english and not words & english_words, said
    assert sorted(re.findall(r"\d+", said)) == sorted(re.findall(r"\d+", english))
