"""The game in progress outlives the window: kept after every step, offered at the next start,
resumed at the same decision, and a kill at any moment loses nothing.

The property test plays seeded games through the session, "kills" them after a random number
of the player's actions (the session is dropped; only the file written after that step is
left), resumes from the file and plays on: every event is the one an uninterrupted game had.
A real game process is also killed with SIGKILL mid-game and started again.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

from app_driver import press, started_app
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import RecordingSpeaker
from table_driver import Seat

from sudden_death.engine.match import Match
from sudden_death.storage.game_file import FILE_NAME, load_game, save_game
from sudden_death.ui.computer_game import ComputerGame
from sudden_death.ui.session import Session
from sudden_death.ui.words.phrases import Names


def choose(session: Session) -> object:
    """The player's next action: a fixed pick among the legal ones, by how many came before
    (so a resumed game chooses exactly as an uninterrupted one)."""
    assert isinstance(session.match, ComputerGame)
    legal = session.match.legal_actions()
    return legal[(len(session.match.actions) * 7 + 3) % len(legal)]


def play_on(session: Session, limit: int | None = None) -> list[object]:
    """Actions until the game is over (or `limit` of them in all); returns the events."""
    events: list[object] = []
    match = session.match
    assert isinstance(match, ComputerGame)
    while not match.is_over and (limit is None or len(match.actions) < limit):
        session.submit([choose(session)])  # type: ignore[list-item]
        steps = match.drain()
        assert [step.refusal for step in steps] == [None] * len(steps)
        played = [event for step in steps for event in step.events]
        session.note(played)  # as App.after does: noted, then told
        session.narrator.lines(played)
        events += played
    return events


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), kill_after=st.integers(0, 60),
       computer=st.sampled_from(["random", "coach"]))
def test_a_game_killed_after_any_step_resumes_to_exactly_the_same_events(
        tmp_path_factory, seed: int, kill_after: int, computer: str) -> None:
    folder = tmp_path_factory.mktemp("save")
    whole = Session(seed, Names("Hawks", "Bears"))
    expected = started(whole, computer) + play_on(whole)

    first = Session(seed, Names("Hawks", "Bears"))
    before = started(first, computer) + play_on(first, kill_after)
    saved = first.saved()
    if saved is None:  # the game was over before the kill: nothing to keep
        assert before == expected
        return
    assert save_game(folder, saved) is None
    del first  # the kill: only the file is left

    again = Session(None, Names("Anyone", "Else"))
    loaded = load_game(folder)
    assert loaded == saved
    resumed = again.resume(loaded)
    assert resumed == before  # the replay rebuilt the same game...
    assert again.names == Names("Hawks", "Bears")
    assert again.last_hands == whole_last_hands_at(seed, computer, len(saved.actions))
    after = play_on(again)
    assert before + after == expected  # ...and it goes on as if never stopped


def started(session: Session, computer: str) -> list[object]:
    """A new match, its first events told as App.new_match tells them."""
    events = session.new_match(Names("Hawks", "Bears"), computer)
    session.narrator.lines(events)
    return list(events)


def whole_last_hands_at(seed: int, computer: str, actions: int) -> dict:
    session = Session(seed, Names("Hawks", "Bears"))
    started(session, computer)
    play_on(session, actions)
    return session.last_hands


def test_the_title_screen_offers_the_saved_game_and_enter_goes_back_to_it(
        tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=4)
    press(app, "return")  # Start a game
    app.handle_text("Hawks")
    press(app, "return")
    app.handle_text("Bears")
    press(app, "return", "return", "return")  # the names, heads, and offense
    press(app, "s")
    where = speaker.spoken[-1].text
    assert (tmp_path / FILE_NAME).is_file()
    before = json.loads((tmp_path / FILE_NAME).read_text())["snapshot"]

    speaker = RecordingSpeaker()  # a new start, as after a crash
    app = started_app(tmp_path, speaker, seed=9)
    title = [m.text for m in speaker.spoken]
    assert any(text.startswith("Main menu: Resume your game: Hawks 0, Bears 0; Hawks ball")
               for text in title), title
    press(app, "return")
    spoken = [m.text for m in speaker.spoken]
    assert "Back to your game." in spoken and where in spoken
    assert app.match is not None and app.match.state == Match.from_json(before).state


def test_starting_a_new_game_asks_before_the_saved_one_is_lost(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "down", "return")  # Start a game (below Resume... there is none yet)
    app.handle_text("Hawks")
    press(app, "return", "return", "return")
    assert (tmp_path / FILE_NAME).is_file()
    app = started_app(tmp_path, speaker)
    press(app, "down", "return")  # Start a game, below Resume
    assert speaker.spoken[-1].text.startswith("Start a new game? The game in progress will "
                                              "be lost.")
    press(app, "escape")  # No: it is kept
    assert (tmp_path / FILE_NAME).is_file()
    press(app, "return", "down", "return")  # Start a game again; Yes, start a new one
    assert not (tmp_path / FILE_NAME).exists()
    assert app.top.help_key == "naming"


def test_a_damaged_save_is_named_and_set_aside_never_deleted(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("{not a save")
    speaker = RecordingSpeaker()
    started_app(tmp_path, speaker)
    said = [m.text for m in speaker.spoken]
    assert any(text.startswith("The saved game could not be read, so it cannot go on. It is "
                               "kept as game.json.damaged-") for text in said), said
    aside = list(tmp_path.glob(FILE_NAME + ".damaged-*"))
    assert len(aside) == 1 and aside[0].read_text() == "{not a save"
    assert not (tmp_path / FILE_NAME).exists()
    assert not any("Resume your game" in text for text in said)


def test_a_save_of_another_version_is_named_and_set_aside(tmp_path: Path) -> None:
    session = Session(3, Names("Hawks", "Bears"))
    session.new_match(Names("Hawks", "Bears"))
    play_on(session, 5)
    saved = session.saved()
    assert saved is not None
    data = json.loads(json.dumps(saved.__dict__))
    data["actions"] = data["actions"][:-1]  # another version's rules would replay otherwise
    (tmp_path / FILE_NAME).write_text(json.dumps({"format": 1, **data}))
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "return")  # Resume your game: the replay is not the saved game
    said = [m.text for m in speaker.spoken]
    assert any("The saved game could not be read" in text for text in said), said[-5:]
    assert len(list(tmp_path.glob(FILE_NAME + ".damaged-*"))) == 1
    assert app.top.help_key == "welcome"


def test_a_game_process_killed_mid_game_comes_back_to_the_same_decision(
        tmp_path: Path) -> None:
    keys = ["return", "type Hawks", "return", "return", "return", "return"]
    with Seat(tmp_path / "cfg", "--seed", "6") as game:
        game.send(*keys, "s")
        where = game.said_starting("Score: ")
        game.proc.send_signal(signal.SIGKILL)
        game.proc.wait(10)
    with Seat(tmp_path / "cfg", "--seed", "6") as again:
        resume = again.said_starting("Main menu: Resume your game: ")
        assert "Hawks 0, Bears 0" in resume
        again.send("return")
        again.until_said("Back to your game.")
        again.until_said(where)
        again.send("escape", "end", "return", "down", "return")  # Quit, Yes
        assert again.finish() == 0
    assert (tmp_path / "cfg" / FILE_NAME).is_file()  # quitting keeps it
