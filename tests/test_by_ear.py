"""What a player who only listens trips over (issue "Found by ear"): each defect as the words a
player hears, at each verbosity. The games are played through the app with the keys a
player presses; what is asserted is what was said."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import press, started_app
from game_script import plan_game, spoken_lines
from recording import RecordingCues, RecordingSpeaker

from sudden_death.audio.protocols import Category
from sudden_death.engine import events as ev
from sudden_death.engine.actions import held_hand
from sudden_death.engine.cards import card_name
from sudden_death.engine.computers import COACH
from sudden_death.storage.settings import Settings, save_settings
from sudden_death.ui.aids.how_to_play import RulesScreen
from sudden_death.ui.aids.settings_screen import SETTING_KEYS, SettingsScreen
from sudden_death.ui.app import App
from sudden_death.ui.screens.decisions import FinalCallScreen, GameOverScreen
from sudden_death.ui.screens.hands import SelectionScreen, SubstitutionScreen
from sudden_death.ui.words.matchups import conversion_words, needed_now
from sudden_death.ui.words.rules import rules_sections

VERBOSITIES = ("short", "normal", "detailed")


def game_app(tmp_path: Path, verbosity: str, seed: int = 1) -> tuple[App, RecordingSpeaker]:
    save_settings(Settings().preset(verbosity), tmp_path)
    speaker = RecordingSpeaker()
    return started_app(tmp_path, speaker, seed=seed), speaker


def play(app: App, keys: list[str]) -> None:
    """Key lines as the --keys scripts write them: key names, or "type TEXT"."""
    for key in keys:
        if key.startswith("type "):
            app.handle_text(key[5:])
        else:
            press(app, key)


def texts(speaker: RecordingSpeaker) -> list[str]:
    return [m.text for m in speaker.spoken]


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_a_sides_first_down_is_a_fresh_pick_that_names_its_cards(tmp_path: Path,
                                                                  verbosity: str) -> None:
    """Short used to open drive 2 with "Your cards." (the words for last down's cards) and
    then count "0 of 2 players" on Enter."""
    app, speaker = game_app(tmp_path, verbosity)
    keys, _events = plan_game(1)
    fresh: list[str] = []
    for key in keys:
        before = len(speaker.spoken)
        play(app, [key])
        fresh += [t for t in texts(speaker)[before:] if t.startswith("A fresh pick for")]
        if isinstance(app.top, SelectionScreen) and app.top.role.value == "defense" \
                and app.top.again is None:
            break
    assert any(t.startswith("A fresh pick for defense") for t in fresh), fresh
    assert "Nose Tackle" in fresh[-1] and "Stack the Box" in fresh[-1]  # its cards, named
    press(app, "return")
    assert texts(speaker)[-1] == "Not yet: pick 2 more players and 3 more calls."
    assert not any("0 of 2" in t for t in texts(speaker))


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_r_repeats_what_happened_w_says_the_focus_and_l_the_last_play(
        tmp_path: Path, verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    keys, _events = plan_game(1)
    first_play = len(keys)
    for index, key in enumerate(keys):
        play(app, [key])
        if app.session.last_play is not None:
            first_play = index
            break
    assert first_play < len(keys)
    announcement = app.panel.last_announcement
    assert announcement  # the new down (or the drive), not the focus of the next decision
    press(app, "r")
    assert texts(speaker)[-1] == announcement
    assert ", 1 of " not in texts(speaker)[-1]
    press(app, "w")
    assert texts(speaker)[-1] == app.active_menu().describe_group()
    press(app, "l")
    full = texts(speaker)[-1]
    assert full.startswith("Final calls: ") and "Band" in full and "roll" in full
    assert speaker.spoken[-1].category is Category.REPEAT  # not kept twice in the history


def test_l_before_any_play_says_so() -> None:
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.start()
    press(app, "l")
    assert texts(speaker)[-1] == "No play yet."


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_two_teams_cannot_share_a_name(tmp_path: Path, verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    play(app, ["return", "type Hawks", "return", "type  hawks ", "return"])
    assert texts(speaker)[-1] == "Hawks is your team's name. Type another for the computer's team."
    play(app, ["return"])  # the default, Bears, is another name
    assert app.names.theirs == "Bears" and app.match is not None
    app2, speaker2 = game_app(tmp_path / "again", verbosity)
    play(app2, ["return", "type Bears", "return"])
    # The computer's default is then the other one, and its prompt says so.
    assert "Leave it empty for Hawks." in texts(speaker2)[-1]
    play(app2, ["return"])
    assert app2.names.theirs == "Hawks" and app2.match is not None


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_coach_is_explained_the_first_time_and_in_how_to_play(tmp_path: Path,
                                                                   verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    app.computer_choice = COACH
    play(app, ["return", "return", "return"])
    said = texts(speaker)
    assert "The Bears are coached today: their coach knows the card tables and picks what " \
           "they favour, where the rules' computer picks at random." in said
    app.play_again()
    assert "The Bears are coached today." in texts(speaker)
    final = next(text for title, text in rules_sections() if title == "The final call")
    assert "the coach" in final and "at random" in final


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_quit_after_the_game_asks_nothing_more(tmp_path: Path, verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    keys, _events = plan_game(1)
    play(app, keys)
    assert isinstance(app.top, GameOverScreen)
    press(app, "down", "return")
    assert not app.running and texts(speaker)[-1] == "Goodbye."
    assert not any(t.startswith("Quit Sudden Death?") for t in texts(speaker)[-3:])


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_last_section_of_how_to_play_is_an_edge_not_a_reread(tmp_path: Path,
                                                                  verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    play(app, ["down", "down", "return"])
    assert isinstance(app.top, RulesScreen)
    press(app, "end")
    last = texts(speaker)[-1]
    press(app, "down")
    count = len(rules_sections())
    assert texts(speaker)[-1] == f"{rules_sections()[-1][0]}, {count} of {count}"
    assert len(texts(speaker)[-1]) < len(last) and app.comfort.cues.played[-1] == "menu_edge"


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_settings_open_again_where_they_were_left(tmp_path: Path, verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    press(app, "o", "down", "down", "down", "escape", "o")
    assert isinstance(app.top, SettingsScreen)
    entries = len(SETTING_KEYS) + 4  # and Keys, Report a problem, Reset, Done
    where = "" if verbosity == "short" else f", 4 of {entries}"  # short names no places
    assert texts(speaker)[-1].endswith(f"Speech volume: 100 percent{where}")


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_final_call_on_third_and_fourth_down_says_the_chance_of_making_it(
        tmp_path: Path, verbosity: str) -> None:
    """On 4th and 6 the player used to hear average gains, never the chance of the 6 yards."""
    app, speaker = game_app(tmp_path, verbosity, seed=2)
    keys, _events = plan_game(2, punt_on_fourth=False)
    heard: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
    for key in keys:
        play(app, [key])
        top = app.top
        if isinstance(top, FinalCallScreen) and app.match is not None:
            down = app.match.state.down
            assert down is not None
            prompt = next(m.text for m in reversed(speaker.spoken)
                          if m.category is Category.DECISION)
            heard[down.number].append(prompt)
            role, mine, theirs = app.match.role_of(app.names.you), *(
                held_hand(app.match.state, team) for team in (app.names.you,
                                                             app.names.you.other))
            needed = needed_now(app.match.state)
            if down.number >= 3:
                assert needed is not None and role is not None and mine and theirs
                assert prompt.endswith(conversion_words(role, mine, theirs, needed))
                assert "o make the" in prompt and "percent" in prompt
            else:
                assert needed is None and "to make the" not in prompt
    assert heard[3], "no third down reached a final call"


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_sound_glossary_plays_every_cue_with_its_name(tmp_path: Path,
                                                           verbosity: str) -> None:
    from sudden_death.audio.protocols import CUE_NAMES
    from sudden_death.ui.aids.sound_glossary import CUE_MEANINGS, SoundGlossaryScreen

    assert set(CUE_MEANINGS) == set(CUE_NAMES)  # a new cue must be named here too
    app, speaker = game_app(tmp_path, verbosity)
    cues = app.comfort.cues
    play(app, ["down", "down", "down", "return"])  # Start, Guided, How to play, Sounds
    assert isinstance(app.top, SoundGlossaryScreen)
    assert texts(speaker)[-1].startswith(f"Sounds of the game, {len(CUE_MEANINGS)} of them.")
    heard = [(cues.played[-1], texts(speaker)[-1])]
    for _ in range(len(CUE_MEANINGS) - 1):
        press(app, "down")
        heard.append((cues.played[-1], texts(speaker)[-1]))
    assert [cue for cue, _words in heard[1:]] == list(CUE_MEANINGS)[1:]  # each sound itself
    assert heard[-1][1].startswith("Waiting: your friend at a table is still choosing")
    press(app, "down")
    assert cues.played[-1] == "menu_edge"
    press(app, "home")
    assert cues.played[-1] == "coin"
    assert texts(speaker)[-1].startswith("Coin toss: the coin spins")
    press(app, "escape")
    assert texts(speaker)[-1].startswith("Back. Main menu: Sounds of the game")


def test_the_lesson_teaches_a_whole_drive_each_thing_once_and_pauses_on_one_key(
        tmp_path: Path) -> None:
    from sudden_death.ui.aids.lesson import lesson_end, tip

    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=1)
    keys, _events = plan_game(1)
    play(app, ["down", "return"])  # Guided first drive, with the default names
    assert app.match is not None and app.comfort.guide.active
    paused_at = None
    for index, key in enumerate(keys[4:]):  # from the coin toss on, as the plan plays it
        play(app, [key])
        if index == 12 and paused_at is None:
            press(app, "g")
            paused_at = len(speaker.spoken)
            assert texts(speaker)[-1] == "Lesson paused. The game goes on; G resumes it."
            assert not app.comfort.guide.active and app.comfort.telling.brief is False
            press(app, "g")
            assert texts(speaker)[-1] == "Lesson resumed."
    said = texts(speaker)
    tips = {key: tip(key, app.keys) for key in ("coin", "side", "selection", "substitution",
                                                 "final", "result", "explorer", "snap", "kick")}
    for key, words in tips.items():
        assert said.count(words) == 1, key
    assert said.count(lesson_end(app.keys)) == 1
    end = said.index(lesson_end(app.keys))
    assert said.index(tips["snap"]) < said.index(tips["kick"]) < end  # the drive's 4th down
    assert not app.comfort.guide.started and not app.comfort.guide.active
    press(app, "g")
    assert texts(speaker)[-1].startswith("There is no lesson in this game.")


# -- what short verbosity leaves out, and where Escape puts the focus (bugs that once survived
# the whole suite when planted: the tests must fail for each) ---------------------------------


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_escape_from_the_bring_in_list_returns_to_the_card_being_replaced(
        tmp_path: Path, verbosity: str) -> None:
    app, speaker = game_app(tmp_path, verbosity)
    play(app, ["return", "type Jets", "return", "return", "return", "return",
               "1", "2", "1", "2", "3", "return"])
    screen = app.top
    assert isinstance(screen, SubstitutionScreen)
    press(app, "down", "down", "return")  # Replace Scatback, the second card held
    assert texts(speaker)[-1].startswith("Bring in a player for Scatback:")
    press(app, "escape")
    focus = "Scatback" if verbosity == "short" else "Replace Scatback, 3 of 6"
    assert texts(speaker)[-1] == f"Back. Keep or replace: {focus}"
    item = screen.menu.item
    assert item is not None and item.label == "Replace Scatback"


def test_short_verbosity_leaves_the_cards_out_of_later_downs_and_explains_once_a_game(
        tmp_path: Path) -> None:
    app, speaker = game_app(tmp_path, "short")
    keys, _events = plan_game(1)
    prompts: list[tuple[int, str]] = []  # (drive, the card screen's question)
    screens: list[SelectionScreen] = []  # each card screen, once
    for key in keys:
        before = len(speaker.spoken)
        play(app, [key])
        if isinstance(app.top, SelectionScreen) and app.match is not None:
            drive = app.match.state.drive
            prompts += [(drive, m.text) for m in speaker.spoken[before:]
                        if m.category is Category.DECISION]
            if app.top not in screens:
                screens.append(app.top)
    first, *later = prompts
    assert first[1].startswith("A fresh pick for offense: 2 players and 3 calls.")
    assert "Space checks a card" in first[1]  # explained the first time in the game
    fresh = [text for drive, text in later if text.startswith("A fresh pick")]
    again = [text for drive, text in later if not text.startswith("A fresh pick")]
    assert fresh == [next(t for d, t in later if d == 2)]  # drive 2's first down
    assert "Space checks a card" not in fresh[0]  # not explained again in drive 2
    # Later downs open on the focus ("Players: Power Back, checked"): no question, and no
    # card list read back.
    assert len(screens) > len(fresh) + 2 and not again


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_the_last_card_checked_says_the_hand_is_full_in_a_word_at_short(
        tmp_path: Path, verbosity: str) -> None:
    """Short verbosity: the check that fills the last list says "Full." (the list's name was
    just heard with the focus); the others say which list and what Enter does."""
    app, speaker = game_app(tmp_path, verbosity)
    play(app, ["return", "type Jets", "return", "return", "return", "return"])
    assert isinstance(app.top, SelectionScreen)
    press(app, "space", "down", "space")  # two players: the calls list opens
    assert texts(speaker)[-1].startswith("Players full. Calls:" if verbosity == "short"
                                         else "Checked, players full. Calls:")
    press(app, "space", "down", "space", "down", "space")  # three calls: the hand is full
    last = texts(speaker)[-1]
    if verbosity == "short":
        assert last == "Full."
    else:
        assert last == "Checked, calls full. Enter confirms."
    press(app, "up", "space")  # one call off: the list says how far it has got again
    assert texts(speaker)[-1] == ("Unchecked, 1 to go" if verbosity == "short"
                                  else "Unchecked, 2 picked, 1 to go")


def test_short_verbosity_names_the_card_you_brought_in_as_it_is_heard(tmp_path: Path) -> None:
    """Issue 71: at short verbosity the player who brought Slot Receiver in heard "In. Bears
    keep.": the narrator's test passed, but nothing the player heard named the card. Played
    through the real program's transcript, the words after Enter on the card must name it."""
    keys, events = plan_game(1, swap_first=True)
    swap = next(e.offense_swap for e in events  # the player has the ball first: theirs
                if isinstance(e, ev.HandsRevealed) and e.step == 2)
    assert swap is not None and swap.into is not None
    save_settings(Settings().preset("short"), tmp_path / "cfg")
    lines = spoken_lines(1, keys, "en", tmp_path / "cfg")
    offered = next(i for i, line in enumerate(lines) if line.startswith("Bring in a player"))
    assert lines[offered].endswith(card_name(swap.into))  # the focus: the card about to go in
    assert lines[offered + 1].startswith(f"{card_name(swap.into)} in. "), lines[offered:]
