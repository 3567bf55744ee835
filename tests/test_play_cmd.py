"""``pedro play``: whole games driven by scripted input, refused answers, commands, and saving."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from tests.helpers import played_record
from typer.testing import CliRunner

from pedro import i18n, terminal
from pedro.cards import format_card, parse_card, parse_cards
from pedro.cli import play_cmd
from pedro.cli.main import app
from pedro.cli.play.answers import InputError, help_text, parse_answer
from pedro.cli.play.game import GAME_FAILED, INTERRUPTED, TerminalGame
from pedro.cli.play.saving import default_save_path
from pedro.cli.play.seats import seat_players
from pedro.cli.play_cmd import resumed_game
from pedro.display import sort_hand
from pedro.engine.actions import (
    PASS,
    Verb,
    action_words,
    bid_action,
    cards_action,
    play_action,
    play_cards,
    play_top,
    trump_action,
    verb_of,
)
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import choose
from pedro.players.basic import BasicPlayer
from pedro.records import read_record, replay, write_record
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players


def first_legal_text(game: TerminalGame) -> str:
    """The first legal action, written as a person would type it (``bid 7``, ``discard 3C``, ``play 5H``)."""
    legal = game.state.legal()
    action = legal[0] if isinstance(legal, tuple) else next(iter(legal))
    return action_words(action, game.rules.max_bid)


class Script:
    """Answers prompts: the scripted lines (text, or functions of the game), then the first legal choice."""

    def __init__(self, *lines: str | Callable[[TerminalGame], str]) -> None:
        self.lines = list(lines)
        self.game: TerminalGame | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert self.game is not None
        self.prompts.append(prompt)
        if self.lines:
            line = self.lines.pop(0)
            return line if isinstance(line, str) else line(self.game)
        return first_legal_text(self.game)


def new_game(
    tmp_path: Path, script: Script, variant: str = "cinch", seed: int = 1, **options: object
) -> tuple[TerminalGame, Console]:
    console = Console(record=True, width=110, force_terminal=False, color_system=None)
    rules = make_ruleset(variant, options)
    game = TerminalGame(
        console, rules, seat_players(None, rules.players), seed=seed, save=tmp_path / "game.json", ask=script
    )
    script.game = game
    return game, console


def test_a_whole_game_with_scripted_input_finishes_and_saves_a_record(tmp_path: Path) -> None:
    script = Script()
    game, console = new_game(tmp_path, script, target=21)
    assert game.run() == 0
    assert game.state.is_over
    text = console.export_text()
    assert "wins the trick" in text or "win the trick" in text
    assert "the game!" in text
    assert f"Game saved to {tmp_path / 'game.json'}" in text
    result = replay(read_record(tmp_path / "game.json"))
    assert result.finished
    assert result.names == game.record_names()


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("king_pedro_canadian", {"target": 60}),
        ("eighty_three", {"target": 80}),
        ("nicaragua", {"target": 15}),
        ("pidro", {"target": 15}),
        ("petro_russian", {"target": 15}),
    ],
)
def test_exchange_and_play_answers_typed_as_text_work_in_other_variants(
    tmp_path: Path, variant: str, options: dict[str, object]
) -> None:
    script = Script()
    game, _ = new_game(tmp_path, script, variant, seed=2, **options)
    assert game.run() == 0
    assert game.state.is_over
    assert replay(read_record(tmp_path / "game.json")).finished


def _text(card: int) -> str:
    return format_card(card).lower()


def test_refused_answers_explain_and_prompt_again_without_changing_the_game(tmp_path: Path) -> None:
    script = Script("xyz", "bid", "bid 99", "9x", "")
    game, console = new_game(tmp_path, script, seed=5)
    histories: list[int] = []

    def before_each(prompt: str) -> str:
        histories.append(len(game.state.actions))
        return Script.__call__(script, prompt)

    game.ask = before_each
    game.ask_human()  # one decision
    text = console.export_text()
    assert "'xyz' is not a call" in text
    assert "a call is one word" in text
    assert "bids go up to 14" in text
    assert "'9x' is not a call" in text
    assert "type your choice" in text
    assert len(set(histories)) == 1  # nothing was applied while the answers were refused
    assert "Traceback" not in text


def test_illegal_and_unknown_cards_in_play_are_refused_with_the_reason(tmp_path: Path) -> None:
    asked: dict[str, bool] = {}

    def answer(prompt: str) -> str:
        state = game.state
        if state.phase == Phase.PLAY and not asked.get("done"):
            legal = state.legal()
            assert isinstance(legal, tuple)
            hand = state.observation(game.human).hand
            tops = {play_top(a) for a in legal}
            if any(c not in tops for c in hand) and all(len(play_cards(a)) == 1 for a in legal):
                step = len(asked)
                asked[str(step)] = True
                if step == 0:
                    return "1x"
                if step == 1:
                    missing = next(c for c in range(52) if c not in hand)
                    return _text(missing)
                if step == 2:
                    return _text(next(c for c in hand if c not in tops))
                asked["done"] = True
        return first_legal_text(game)

    console = Console(record=True, width=110, color_system=None)
    rules = make_ruleset("cinch", {"target": 21})
    game = TerminalGame(console, rules, seat_players(None, 4), seed=7, save=tmp_path / "g.json", ask=answer)
    assert game.run() == 0
    assert asked.get("done"), "the script never met a turn with an illegal card"
    text = console.export_text()
    assert "'1x' is not a card" in text
    assert "not in hand" in text
    assert "not allowed: must" in text  # "must follow suit or trump" / "must play a trump ..."


#: A card named the records' way (5H, TD, JK) in a line shown to the player.
RECORD_CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK|BJ|SJ)\b")


def test_errors_name_cards_with_the_suit_symbols_the_game_shows(tmp_path: Path) -> None:
    said: list[str] = []

    def answer(game: TerminalGame) -> str:
        # Nicaragua: a discard of a card not held lists the cards that may be chosen;
        # in the play, a card not held; then leave
        state = game.state
        hand = state.observation(game.human).hand
        stranger = _text(next(c for c in range(52) if c not in hand))
        step = f"{state.phase}:{len(said)}"
        if state.phase == Phase.EXCHANGE and len(said) == 0:
            said.append(step)
            return "discard " + stranger
        if state.phase == Phase.PLAY and len(said) == 1:
            said.append(step)
            return stranger
        if len(said) == 2:
            return "quit"
        return first_legal_text(game)

    script = Script(*[answer] * 40)
    game, console = new_game(tmp_path, script, "nicaragua", seed=4)
    assert game.run() == 0
    assert len(said) == 2
    errors = [line for line in console.export_text().splitlines() if "✗" in line]
    assert any("only these cards may be chosen: " in line for line in errors), errors
    assert any("not in hand" in line for line in errors), errors
    for line in errors:
        assert not RECORD_CARD.search(line), line
        assert re.search("[♠♥♦♣]", line), line


def test_commands_answer_at_any_prompt(tmp_path: Path) -> None:
    script = Script("help", "score", "last", "rules", "hand", "quit")
    game, console = new_game(tmp_path, script, seed=3)
    assert game.run() == 0
    text = console.export_text()
    assert "How to answer" in text
    assert "Score (game to 62)" in text
    assert "No trick has been played yet." in text
    assert "Card points" in text  # a heading of the rule sheet
    assert "You leave the game." in text
    assert (tmp_path / "game.json").exists()
    record = read_record(tmp_path / "game.json")
    assert record["variant"] == "cinch"
    assert record["names"] == ["You", "Bo (basic)", "Cy (basic)", "Di (basic)"]


def test_score_sheet_says_1_pt_not_1_pts() -> None:
    state = GameState(VARIANTS["cinch"], seed=0)
    players = [BasicPlayer(s) for s in range(4)]
    while not any(1 in r.points for r in state.results if r.bidder is not None):
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    console = Console(record=True, width=100, color_system=None)
    console.print(terminal.score_table(state.observation(0), state.rules, ["You", "Bo", "Cy", "Di"]))
    text = console.export_text()
    assert "(1 pt)" in text and "(1 pts)" not in text


def test_last_shows_the_previous_trick(tmp_path: Path) -> None:
    script = Script()
    game, console = new_game(tmp_path, script, seed=3)
    while not game.state.observation(0).tricks and not game.state.is_over:
        seat = game.state.current_player
        action = (
            game.ask_human() if seat == game.human else game.players[seat].act(game.state.observation(seat))
        )
        game.apply(seat, action)
    script.lines = ["last", "quit"]
    assert game.run() == 0
    assert "Last trick:" in console.export_text()


def test_end_of_input_and_ctrl_c_save_the_game(tmp_path: Path) -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    for ask, code in ((eof, 0), (interrupt, INTERRUPTED)):
        path = tmp_path / f"{code}.json"
        console = Console(record=True, width=100)
        game = TerminalGame(console, VARIANTS["cinch"], seat_players(None, 4), seed=2, save=path, ask=ask)
        assert game.run() == code
        assert path.exists()
        assert "Game saved to" in console.export_text()


def test_cli_play_with_typed_input_saves_on_quit(tmp_path: Path) -> None:
    path = tmp_path / "cli.json"
    result = CliRunner().invoke(
        app, ["play", "--seed", "4", "--save", str(path)], input="garbage\nhelp\nscore\nlast\nrules\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "How to answer" in result.output
    assert "Game saved to" in result.output
    assert path.exists()
    assert read_record(path)["format"] == "pedro-record/1"


def test_cli_play_default_save_path_and_end_of_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["play", "--variant", "pitch_fives", "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    saved = list(tmp_path.glob("pedro-pitch_fives-*.json"))
    assert len(saved) == 1
    assert "End of input" in result.output


def test_cli_play_rejects_bad_players_and_variants() -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["play", "--players", "basic,basic"], input="quit\n")
    assert bad.exit_code == 2
    assert "--players needs 3 computer players" in bad.output
    unknown = runner.invoke(app, ["play", "--players", "basic,wizard,basic"], input="quit\n")
    assert unknown.exit_code == 2 and "unknown player 'wizard'" in unknown.output
    variant = runner.invoke(app, ["play", "--variant", "bridge"], input="quit\n")
    assert variant.exit_code == 2 and "unknown variant" in variant.output


def test_the_computer_players_are_said_in_help_opening_lines_and_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["play", "--seed", "4", "--save", str(path), "--players", "expert:20,heuristic,random"]
    result = CliRunner().invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    opening = " ".join(result.output.split("Partners sit opposite")[0].split())
    assert "seats clockwise: You, Bo (expert:20), Cy (heuristic), Di (random)" in opening
    assert read_record(path)["names"] == ["You", "Bo (expert:20)", "Cy (heuristic)", "Di (random)"]
    default = CliRunner().invoke(app, ["play", "--seed", "4", "--save", str(path)], input="quit\n")
    assert "You, Bo (basic), Cy (basic), Di (basic)" in " ".join(default.output.split())
    help_text = " ".join(CliRunner().invoke(app, ["play", "--help"]).output.replace("│", " ").split())
    assert "(default: basic in each)" in help_text
    refused = CliRunner().invoke(app, ["play", "--name", "Al (basic)"], input="quit\n")
    assert refused.exit_code == 2 and "would read as a computer player" in refused.output


@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path: Path, where: str) -> None:
    path = tmp_path / "no" / "such" / "x.json" if where == "missing folder" else tmp_path
    result = CliRunner().invoke(app, ["play", "--seed", "4", "--save", str(path)], input="pass\n" * 50)
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert said.startswith("error: --save") and ("does not exist" in said or "is a folder" in said)
    assert "Your bid>" not in said and "Hand 1" not in said  # refused before a card was dealt
    assert list(tmp_path.rglob("*.json")) == []


def test_a_game_that_cannot_be_saved_where_asked_goes_to_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "games"
    folder.mkdir()
    script = Script()
    console = Console(record=True, width=200, color_system=None)
    rules = make_ruleset("cinch", {"target": 21})
    game = TerminalGame(console, rules, seat_players(None, 4), seed=1, save=folder / "g.json", ask=script)
    script.game = game
    folder.rmdir()  # gone while the game was played
    assert game.run() == 0
    assert game.state.is_over
    text = console.export_text()
    assert f"The game could not be saved to {folder / 'g.json'}" in text
    saved = list((tmp_path / "data").rglob("pedro-cinch-*.json"))
    assert len(saved) == 1 and f"Game saved to {saved[0]}" in text
    assert replay(read_record(saved[0])).finished


def test_seat_players_puts_the_human_where_asked() -> None:
    assert seat_players(None, 4) == ["human", "basic", "basic", "basic"]
    assert seat_players("random,basic,random", 4) == ["human", "random", "basic", "random"]
    assert seat_players("basic,human,basic,basic", 4) == ["basic", "human", "basic", "basic"]
    with pytest.raises(ValueError, match="'human'"):
        seat_players("human,human,basic,basic", 4)


def test_human_in_another_seat_plays_a_whole_game(tmp_path: Path) -> None:
    console = Console(record=True, width=100)
    script = Script()
    game = TerminalGame(
        console, make_ruleset("cinch", {"target": 15}), seat_players("basic,basic,human,basic", 4),
        seed=8, save=tmp_path / "g.json", name="Ann", ask=script,
    )  # fmt: skip
    script.game = game
    assert game.human == 2 and game.names[2] == "Ann"
    assert game.run() == 0
    assert read_record(tmp_path / "g.json")["names"][2] == "Ann"


def test_default_save_path_does_not_overwrite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import datetime

    monkeypatch.chdir(tmp_path)
    now = datetime(2024, 5, 6, 7, 8, 9)
    first = default_save_path(VARIANTS["cinch"], now)
    assert str(first) == "pedro-cinch-20240506-070809.json"
    first.write_text("{}")
    assert str(default_save_path(VARIANTS["cinch"], now)) == "pedro-cinch-20240506-070809-2.json"


# --------------------------------------------------------------------------- reading answers


def _advance_to(state: GameState, phase: Phase) -> GameState:
    """Let basic players act until the current decision is in ``phase``."""
    players = [BasicPlayer(s) for s in range(state.players)]
    while state.phase != phase:
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    return state


def test_calls_are_read_in_every_spelling() -> None:
    state = GameState(VARIANTS["cinch"], seed=1)
    assert parse_answer("8", state) == bid_action(8)
    assert parse_answer("bid 8", state) == bid_action(8)
    assert parse_answer("pass", state) == PASS
    with pytest.raises(InputError):
        parse_answer("eight", state)
    with_call = GameState(make_ruleset("cinch", {"bid_28_56": True}), seed=1)
    assert verb_of(parse_answer("28-56", with_call)) == Verb.BID_28_56
    eighty_three = GameState(VARIANTS["eighty_three"], seed=1)
    assert verb_of(parse_answer("83-double", eighty_three)) == Verb.BID_DOUBLE
    assert verb_of(parse_answer("double", eighty_three)) == Verb.BID_DOUBLE
    assert verb_of(parse_answer("protect", GameState(VARIANTS["piedro_jokers"], seed=1))) == Verb.PROTECT


def test_help_and_errors_name_only_the_variants_own_calls_and_cards() -> None:
    def shown(rules_id: str, **options: object) -> str:
        console = Console(record=True, width=120, color_system=None)
        console.print(help_text(make_ruleset(rules_id, options)))
        return console.export_text()

    cinch = shown("cinch")
    for absent in ("28-56", "83-double", "protect", "JK", "BJ", "SJ", "fold"):
        assert absent not in cinch, absent
    assert "bid 8" in cinch and "the top card first" in cinch
    assert "28-56" in shown("cinch", bid_28_56=True)
    eighty_three = shown("eighty_three")
    assert "83-double" in eighty_three and "jokers JK" in eighty_three and "BJ" not in eighty_three
    piedro = shown("piedro_jokers")
    assert "protect" in piedro and "jokers BJ SJ" in piedro and "83-double" not in piedro
    assert "fold" in shown("king_pedro_canadian", fold_mandatory=False)
    assert "the top card first" not in shown("pidro")

    state = GameState(VARIANTS["cinch"], seed=1)
    for call in ("protect", "28-56", "83-double", "double"):
        with pytest.raises(InputError, match=f"Cinch has no {call} call") as refused:
            parse_answer(call, state)
        assert "28-56" not in str(refused.value).replace(f"no {call} call", "")
    with pytest.raises(InputError) as not_a_call:
        parse_answer("eight", state)
    assert "protect" not in str(not_a_call.value) and "28-56" not in str(not_a_call.value)
    in_play = _advance_to(GameState(VARIANTS["cinch"], seed=1), Phase.PLAY)
    for word in ("zz", "jk"):
        with pytest.raises(InputError, match=f"'{word}' is not a card") as refused:
            parse_answer(word, in_play)
        message = str(refused.value)
        assert "Cinch has no jokers" in message
        assert all(joker not in message for joker in ("JK", "BJ", "SJ")), message
    jokers = _advance_to(GameState(VARIANTS["piedro_jokers"], seed=1), Phase.PLAY)
    with pytest.raises(InputError, match="jokers are BJ, SJ"):
        parse_answer("zz", jokers)


def test_trumps_are_read_as_letters_words_and_symbols() -> None:
    state = _advance_to(GameState(VARIANTS["cinch"], seed=1), Phase.TRUMP)
    for text in ("h", "H", "hearts", "heart", "♥", "trump h", "trumps ♥"):
        assert parse_answer(text, state) == trump_action(1), text
    with pytest.raises(InputError, match="not a suit"):
        parse_answer("x", state)


def test_cards_are_read_in_every_spelling() -> None:
    state = _advance_to(GameState(VARIANTS["cinch"], seed=1), Phase.PLAY)
    for text in ("5h", "5♥", "play 5H", "5H"):
        assert parse_answer(text, state) == play_action([parse_card("5h")]), text
    assert parse_answer("10d", state) == parse_answer("td", state) == play_action([parse_card("TD")])
    assert parse_answer("AS", state) == play_action([parse_card("as")])
    assert play_cards(parse_answer("ah 7h 8h", state)) == parse_cards("ah 7h 8h")


def test_card_set_answers_take_the_verb_of_the_choice() -> None:
    state = _advance_to(GameState(VARIANTS["king_pedro"], seed=3), Phase.EXCHANGE)
    legal = state.legal()
    assert isinstance(legal, CardChoice)
    cards = parse_cards("3c 4d")
    mask = (1 << cards[0]) | (1 << cards[1])
    assert parse_answer("3c 4d", state) == cards_action(legal.verb, mask)
    assert parse_answer("discard 3c, 4d", state) == cards_action(Verb.DISCARD, mask)
    assert parse_answer("pass", state) == PASS
    with pytest.raises(InputError, match="twice"):
        parse_answer("3c 3c", state)


def test_single_top_card_stands_for_the_only_legal_stack(tmp_path: Path) -> None:
    # find a first trick where the human must play a stack (cinch dealer with more than six trumps)
    for seed in range(300):
        state = GameState(VARIANTS["cinch"], seed=seed)
        players = [BasicPlayer(s) for s in range(4)]
        while state.phase != Phase.PLAY:
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat)))
        while not state.observation(0).tricks and state.phase == Phase.PLAY:
            legal = state.legal()
            assert isinstance(legal, tuple)
            stacks = [a for a in legal if len(play_cards(a)) > 1]
            if stacks:
                top = play_top(stacks[0])
                same = [a for a in legal if play_top(a) == top]
                typed = _text(top)
                if len(same) == 1:
                    assert parse_answer(typed, state) == same[0]
                else:
                    with pytest.raises(InputError, match="cards to this trick"):
                        parse_answer(typed, state)
                assert parse_answer(" ".join(_text(c) for c in play_cards(stacks[0])), state) == stacks[0]
                return
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat)))
    pytest.fail("no stack play found")


# --------------------------------------------------------------------------- rendering


def test_hand_is_sorted_trumps_first_then_suits_in_alternating_colours() -> None:
    tt = VARIANTS["cinch"].tables(1)  # hearts
    hand = parse_cards("2s 5d ah 3c kd 5h 9h qs")
    assert sort_hand(hand, tt) == parse_cards("ah 9h 5h 5d qs 2s 3c kd")
    assert sort_hand(hand) == parse_cards("qs 2s ah 9h 5h 3c kd 5d")


def test_cards_are_coloured_by_suit() -> None:
    assert terminal.card_markup(parse_card("5h")) == "[red]5♥[/]"
    assert terminal.card_markup(parse_card("10d")) == "[red]10♦[/]"
    assert terminal.card_markup(parse_card("as")) == "A♠"
    tt = VARIANTS["cinch"].tables(0)
    assert terminal.card_markup(parse_card("as"), tt) == "[bold]A♠[/]"


def test_big_card_choices_show_the_rule_not_every_set() -> None:
    state = _advance_to(GameState(VARIANTS["nicaragua"], seed=1), Phase.EXCHANGE)
    obs = state.observation(state.current_player)
    assert isinstance(obs.legal, CardChoice) and obs.legal.upper_bound() > 12
    text = terminal.choices_markup(obs, state.rules)
    assert "rule:" in text and obs.legal.rule in text


def test_hint_is_off_unless_asked_for(tmp_path: Path) -> None:
    script = Script("hint", "quit")
    game, console = new_game(tmp_path, script, seed=3)
    assert game.run() == 0
    assert "start the game with pedro play --hints" in console.export_text()


def test_hints_value_calls_and_card_plays_with_the_experts_estimates(tmp_path: Path) -> None:
    console = Console(record=True, width=110, force_terminal=False, color_system=None)
    script = Script()
    game = TerminalGame(
        console, make_ruleset("cinch", {}), seat_players(None, 4), seed=3, save=tmp_path / "g.json",
        hints=True, ask=script,
    )  # fmt: skip
    script.game = game
    script.lines = ["hint"]  # at the first call
    while game.state.phase != Phase.PLAY or game.state.current_player != game.human:
        seat = game.state.current_player
        action = game.ask_human() if seat == game.human else choose(game.players[seat], game.state)
        game.apply(seat, action)
    text = console.export_text()
    assert "expert's estimate (change of your score)" in text
    script.lines = ["hint", "quit"]
    assert game.run() == 0
    text = console.export_text()
    assert "expert's estimate (points your side takes this hand)" in text
    # every legal play is listed with a value (up to ten)
    legal = game.state.legal()
    shown = text.rsplit("points your side takes this hand", 1)[1]
    values = [line for line in shown.splitlines() if re.fullmatch(r"  \S.* \d+\.\d\d", line)]
    assert len(values) == min(len(legal), 10)


# --------------------------------------------------------------------------- resuming


def _quit_after(decisions: int) -> Script:
    """A script that answers the first legal choice ``decisions`` times, then quits."""
    return Script(*[first_legal_text] * decisions, "quit")


def test_a_quit_game_resumes_with_the_same_seats_players_and_options(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    console = Console(record=True, width=200, color_system=None)
    rules = make_ruleset("cinch", {"target": 21, "min_bid": 6})
    script = _quit_after(9)
    game = TerminalGame(
        console, rules, seat_players("heuristic,basic,random", 4), seed=6, save=path, ask=script
    )
    script.game = game
    assert game.run() == 0
    text = console.export_text()
    assert f"Resume it with: pedro play --resume {path}" in text
    before = read_record(path)
    assert not replay(before).finished and before["hands"][-1]["actions"]

    resumed = Console(record=True, width=200, color_system=None)
    answers = Script()
    game2 = play_cmd.resumed_game(resumed, path, seed=3, ask=answers)
    answers.game = game2
    assert game2.kinds == ["human", "heuristic", "basic", "random"]
    assert game2.names == ["You", "Bo", "Cy", "Di"]
    assert game2.run() == 0
    out = resumed.export_text()
    assert f"Resuming the game of {path}" in out and "new deals from seed 3" in out
    assert "Resume it with" not in out  # played to the end this time
    after = read_record(path)  # saved over the resumed file
    result = replay(after)
    assert result.finished
    assert after["options"] == before["options"] == {"target": 21, "min_bid": 6}
    assert after["names"] == before["names"] == ["You", "Bo (heuristic)", "Cy (basic)", "Di (random)"]
    assert after["first_dealer"] == before["first_dealer"]
    # the recorded part of the game is kept as it was, and play went on from there
    stopped = before["hands"][-1]
    assert after["hands"][: len(before["hands"]) - 1] == before["hands"][:-1]
    goes_on = after["hands"][len(before["hands"]) - 1]
    assert goes_on["deal"] == stopped["deal"] and goes_on["stock"] == stopped["stock"]
    assert goes_on["actions"][: len(stopped["actions"])] == stopped["actions"]
    assert len(goes_on["actions"]) > len(stopped["actions"])


def test_ctrl_c_then_resume_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(record=True, width=200, color_system=None)
    game = TerminalGame(console, VARIANTS["pidro"], seat_players(None, 4), seed=2, save=path, ask=interrupt)
    assert game.run() == INTERRUPTED
    assert f"pedro play --resume {path}" in console.export_text()
    result = CliRunner().invoke(app, ["play", "--resume", str(path), "--seed", "1"], input="quit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Pidro (pidro)" in said and "Resuming the game of" in said
    assert "Bo (basic), Cy (basic), Di (basic)" in said
    assert not replay(read_record(path)).finished


def test_a_crash_saves_the_game_so_that_it_can_be_resumed(tmp_path: Path) -> None:
    path = tmp_path / "crash.json"
    script = _quit_after(4)
    console = Console(record=True, width=200, color_system=None)
    game = TerminalGame(console, VARIANTS["cinch"], seat_players(None, 4), seed=5, save=path, ask=script)
    script.game = game
    seat = 1
    calls = {"n": 0}
    real_act = game.players[seat].act

    def act(obs: object) -> int:
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("a bug in a player")
        return real_act(obs)  # type: ignore[arg-type]

    game.players[seat].act = act  # type: ignore[method-assign]
    assert game.run() == GAME_FAILED
    text = " ".join(console.export_text().split())
    assert "internal error: RuntimeError: a bug in a player" in text
    assert f"Resume it with: pedro play --resume {path}" in text
    assert CliRunner().invoke(app, ["play", "--resume", str(path)], input="quit\n").exit_code == 0


def _finished(tmp_path: Path) -> Path:
    script = Script()
    game, _ = new_game(tmp_path, script, target=11)
    game.run()
    return tmp_path / "game.json"


@pytest.mark.parametrize(
    ("make", "extra", "expected", "status"),
    [
        (lambda p: p / "missing.json", [], "no such file", 1),
        (lambda p: p, [], "is a folder, not a record file", 1),
        (lambda p: (p / "x.json").write_text("{oops") and p / "x.json", [], "not valid JSON at line 1", 1),
        (_finished, [], "is over; nothing to resume", 2),
        (
            lambda p: (p / "s.jsonl").write_text("{}\n{}\n") and p / "s.jsonl",
            [],
            "holds 2 game records",
            2,
        ),
        (
            lambda p: (
                write_record(played_record(names=["Ann", "Bo", "Cy", "Di"]), p / "r.json") or p / "r.json"
            ),
            [],
            "does not say which seat was yours",
            2,
        ),
        (lambda p: p / "any.json", ["--variant", "pidro"], "leave out --variant", 2),
    ],
)
def test_resume_refuses_bad_files_in_one_line(
    tmp_path: Path, make: Callable[[Path], Path], extra: list[str], expected: str, status: int
) -> None:
    """A file that is no readable record is bad data (1); a record that cannot be resumed, bad usage (2)."""
    path = make(tmp_path)
    result = CliRunner().invoke(app, ["play", "--resume", str(path), *extra], input="quit\n")
    assert result.exit_code == status, result.output
    said = " ".join(result.output.split())
    assert said.startswith("error:") and expected in said, said
    assert "Traceback" not in result.output and "Your bid" not in said
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_record_without_players_resumes_with_players_given(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_record(played_record(hands=1, names=["Ann", "Bo", "Cy", "Di"]), path)
    args = ["play", "--resume", str(path), "--players", "basic,human,basic,basic"]
    result = CliRunner().invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert read_record(path)["names"] == ["Ann (basic)", "Bo", "Cy (basic)", "Di (basic)"]


def test_a_hand_result_shows_who_took_each_point_and_the_exchange_counts(tmp_path: Path) -> None:
    """The table's score-sheet breakdown (High, Low, Jack, Game, each Pedro) and 'discarded 6, drew 4'."""
    script = Script()
    game, console = new_game(tmp_path, script, seed=2, target=11)
    assert game.run() == 0
    text = console.export_text()
    first = game.state.results[0]
    assert first.bidder is not None
    took = [t for side in first.taken for t in side]
    assert took and "took" in text
    names = {"A": "High", "2": "Low", "J": "Jack", "T": "Game", "5": "Pedro", "L5": "Left pedro"}
    for role, _ in took:
        assert names[role] in text
    # the counts of the first hand's exchange, said as play begins
    line = next(line for line in text.splitlines() if line.startswith("The exchange:"))
    for seat in range(4):
        assert game.names[seat] in line
    assert "robbed the pack and kept" in text or "drew" in line


def test_the_result_stays_until_enter_when_pausing(tmp_path: Path) -> None:
    script = Script()
    game, console = new_game(tmp_path, script, seed=2, target=31)
    game.pause = True
    shown_at_pause: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Press Enter for the next hand"):
            shown_at_pause.append(console.export_text(clear=False))
        return script(prompt)

    game.ask = answer
    assert game.run() == 0
    assert len(game.state.results) > 1
    assert len(shown_at_pause) == len(game.state.results) - 1
    # the hand's result is the last thing on the screen: the next hand is announced after the pause
    first = shown_at_pause[0]
    assert "took" in first and "Hand 1:" in first and "Hand 2:" not in first


def test_quit_at_the_pause_saves_and_leaves(tmp_path: Path) -> None:
    script = Script()
    game, console = new_game(tmp_path, script, seed=2, target=31)
    game.pause = True
    script.lines = []

    def answer(prompt: str) -> str:
        script.prompts.append(prompt)
        if prompt.startswith("Press Enter"):
            return "quit"
        return first_legal_text(game)

    game.ask = answer
    assert game.run() == 0
    assert len(game.state.results) == 1 and not game.state.is_over
    assert "You leave the game." in console.export_text()


def test_a_forced_dealer_bid_is_marked_forced(tmp_path: Path) -> None:
    """Everyone passes to the dealer, who must bid: the game says so, and the table marks it."""
    game, console = new_game(tmp_path, Script())
    state = game.state
    while state.phase == Phase.AUCTION:
        game.apply(state.current_player, PASS if PASS in state.legal_actions() else state.legal_actions()[0])
    assert [a for _, a in state.observation(0).calls[:3]] == [PASS] * 3
    assert "(forced: everyone else passed)" in console.export_text()
    panel = Console(record=True, width=120, color_system=None)
    panel.print(terminal.table_panel(state.observation(0), state.rules, game.names))
    assert "(forced)" in panel.export_text()


def test_a_hints_note_on_unvalued_choices_is_in_the_players_language(tmp_path: Path) -> None:
    """The expert cannot value an exchange once the hand has changed; a Finnish player reads why in
    Finnish, the reason inside the note included (the note itself is English for bots and records)."""
    console = Console(record=True, width=300, force_terminal=False, color_system=None)
    script = Script()
    with i18n.speaking("fi"):
        game = TerminalGame(
            console, make_ruleset("cinch", {}), seat_players(None, 4), seed=3, save=tmp_path / "g.json",
            hints=True, ask=script,
        )  # fmt: skip
        script.game = game
        while not (game.state.phase == Phase.EXCHANGE and game.state.current_player == game.human):
            seat = game.state.current_player
            action = game.ask_human() if seat == game.human else choose(game.players[seat], game.state)
            game.apply(seat, action)
        assert game.hints is not None
        est = game.hints.estimates(game.state.observation(game.human))
        assert est is not None and not est.values
        assert est.note().startswith("no choice valued: the hand is")
        script.lines = ["hint", "quit"]
        assert game.run() == 0
    text = console.export_text()
    assert "Ei vihjettä: yhtäkään vaihtoehtoa ei arvioitu: kädessä eivät ole enää ne kortit" in text
    assert "simulation" not in text and "no choice valued" not in text


def test_the_record_names_the_human_in_no_language_and_the_screen_in_the_players(tmp_path: Path) -> None:
    """Played in Finnish, the human is "Sinä" on the screen but "You" in the record (and in a
    resumed game, "Sinä" again); an explicit --name is kept as given."""
    path = tmp_path / "fi.json"
    result = CliRunner().invoke(
        app, ["play", "--lang", "fi", "--seed", "4", "--save", str(path)], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Sinä" in result.output
    names = read_record(path)["names"]
    assert names[0] == "You" and not any("Sinä" in name for name in names)
    with i18n.speaking("fi"):
        resumed = resumed_game(Console(record=True), path, ask=Script("quit"))
    assert resumed.names[0] == "Sinä" and resumed.record_names()[0] == "You"
    named = tmp_path / "named.json"
    result = CliRunner().invoke(
        app, ["play", "--lang", "fi", "--name", "Ann", "--save", str(named)], input="quit\n"
    )
    assert result.exit_code == 0 and read_record(named)["names"][0] == "Ann"


@pytest.mark.parametrize("variant", ["pidro", "cinch", "nicaragua", "piedro_jokers"])
def test_the_dealers_rob_counts_the_cards_kept_once_chosen(variant: str) -> None:
    """The rob is told with the cards the dealer kept of the pack (in Pidro he takes the whole
    pack up, so his drawn count is its size), and not while he is still choosing."""
    from pedro.display import dealer_kept

    rules = make_ruleset(variant)
    names = ["Ann", "Bo", "Cy", "Di"]
    checked = 0
    for seed in range(6):
        state = GameState(rules, seed=seed)
        players = [BasicPlayer(seat) for seat in range(rules.players)]
        dealer = state.dealer
        own_left = None  # the dealer's own cards when he chooses what to keep of the pack
        while state.phase != Phase.PLAY:
            assert dealer_kept(state) is None
            legal = state.legal()
            if state.current_player == dealer and isinstance(legal, CardChoice) and legal.verb == Verb.KEEP:
                choosing = state.observation(0)
                if own_left is None:
                    own_left = choosing.hand_sizes[dealer] - choosing.drawn[dealer]
                with i18n.speaking("fi"):
                    said = terminal.exchange_markup(choosing, rules, names, dealer_kept(state))
                assert "ryösti" not in said and "robbed" not in said
            state.apply(choose(players[state.current_player], state))
        obs = state.observation(0)
        kept = dealer_kept(state)
        assert kept is not None and 0 <= kept <= obs.hand_sizes[dealer]
        if own_left is not None:  # his hand is his own cards left and those he kept of the pack
            assert obs.hand_sizes[dealer] == own_left + kept
            checked += 1
        said = terminal.exchange_markup(obs, rules, names, kept)
        assert f"robbed the pack and kept {kept}" in said
        with i18n.speaking("fi"):
            assert f"ryösti pakan ja piti {kept}" in terminal.exchange_markup(obs, rules, names, kept)
    assert checked
