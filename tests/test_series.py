"""A series against the computer: its rule alone (hypothesis), then whole series played
through the app, its score said after each game, kept between games and windows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_driver import press, started_app
from hypothesis import given
from hypothesis import strategies as st
from recording import RecordingSpeaker

from sudden_death.engine.series import LENGTHS, Series
from sudden_death.engine.state import Team
from sudden_death.storage.game_file import FILE_NAME as GAME_FILE
from sudden_death.storage.record import Record
from sudden_death.storage.series_file import FILE_NAME, load_series, save_series
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.series import series_score_words

RESULTS = st.lists(st.sampled_from([Team.HOME, Team.AWAY, None]), max_size=40)


def played(best_of: int, replay: bool, results: list[Team | None]) -> Series:
    """The series after `results`, stopping where it is over."""
    series = Series(best_of, replay, "Hawks", "Bears", "random")
    for winner in results:
        if series.over:
            break
        series = series.after(winner)
    return series


@given(best_of=st.sampled_from(LENGTHS), replay=st.booleans(), results=RESULTS)
def test_a_series_ends_exactly_when_it_is_decided_or_played_out(
        best_of: int, replay: bool, results: list[Team | None]) -> None:
    series = played(best_of, replay, results)
    home, away = series.wins(Team.HOME), series.wins(Team.AWAY)
    assert series.played <= best_of
    assert home + away + series.ties == len(series.results)
    if series.winner is not None:
        loser = series.winner.other
        assert series.wins(series.winner) > series.wins(loser) + series.left
        # ...and it was not decided a game earlier.
        before = Series(best_of, replay, "Hawks", "Bears", "random", series.results[:-1])
        assert not before.over
    if replay:
        assert series.played == home + away  # a tie is played again, never counted
    if series.over and series.winner is None:
        assert home == away and series.left == 0
    if not series.over:  # nobody has clinched it yet, and a game is left
        assert series.left > 0
        assert all(series.wins(team) <= series.wins(team.other) + series.left
                   for team in Team)


def test_the_series_rules_by_hand() -> None:
    assert played(3, False, [Team.HOME, Team.HOME]).winner is Team.HOME
    assert played(3, False, [Team.HOME, Team.AWAY]).over is False
    level = played(3, False, [Team.HOME, None, Team.AWAY])
    assert level.over and level.winner is None
    again = played(3, True, [Team.HOME, None, None])
    assert not again.over and again.left == 2 and again.next_game == 4
    assert played(7, False, [Team.AWAY] * 4).winner is Team.AWAY
    with pytest.raises(ValueError):
        played(3, False, [Team.HOME, Team.HOME]).after(Team.AWAY)


def test_the_series_score_in_words() -> None:
    names = Names("Hawks", "Bears")
    assert series_score_words(played(5, False, [Team.HOME, Team.AWAY, Team.HOME]), names) == \
        "The Hawks lead the series 2 games to 1."
    assert series_score_words(played(3, False, [Team.AWAY]), names) == \
        "The Bears lead the series 1 game to 0."
    assert series_score_words(played(3, False, [Team.AWAY, Team.AWAY]), names) == \
        "The Bears win the series 2 games to 0!"
    assert series_score_words(played(3, True, [None]), names) == \
        "A tied game does not count: it is played again. The series is level at 0 games each."
    assert series_score_words(played(3, False, [Team.HOME, None, Team.AWAY]), names) == \
        "The series ends level, 1 game each."


def test_a_series_file_round_trips_and_a_bad_one_is_set_aside(tmp_path: Path) -> None:
    series = played(5, True, [Team.HOME, None, Team.AWAY])
    assert save_series(tmp_path, series) is None
    assert load_series(tmp_path) == series
    (tmp_path / FILE_NAME).write_text('{"format": 1, "best_of": 4}')
    assert load_series(tmp_path) is None
    assert (tmp_path / (FILE_NAME + ".damaged")).is_file()


# -- through the app --------------------------------------------------------------------------


def finish_game(app, rng: random.Random) -> None:
    while app.match is not None and not app.match.is_over:
        app.act(rng.choice(app.match.legal_actions()))


def begin_series(app, length_steps: int = 0, replay: bool = False) -> None:
    """Title: Play a series; its choice; both default team names."""
    press(app, "end", *["up"] * 6, "return")  # Play a series, above Your record
    if replay:
        press(app, "up", "space", "down")
    press(app, *["down"] * length_steps, "return")
    press(app, "return", "return")  # the names


def test_a_best_of_three_is_played_to_its_end_and_each_game_is_scored(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=21)
    begin_series(app)
    rng = random.Random(5)
    games = 0
    said: list[str] = []
    while True:
        finish_game(app, rng)
        games += 1
        said = [m.text for m in speaker.spoken]
        series = app.keeper.series
        assert series is not None and len(series.results) == games
        assert series_score_words(series, app.names) in said
        if series.over:
            break
        assert app.top.menu.describe().startswith("Next game of the series")
        assert (tmp_path / FILE_NAME).is_file()  # kept between games
        press(app, "return")
        assert f"Game {games + 1} of the series." in [m.text for m in speaker.spoken]
    assert games in (2, 3) or series.winner is None
    assert not (tmp_path / FILE_NAME).exists()  # a finished series is not offered again
    assert len(Record(tmp_path).games()) == games  # each game is in the record
    assert app.top.menu.describe().startswith("Play again")


def test_a_series_left_between_games_is_offered_and_goes_on(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=3)
    begin_series(app, length_steps=1, replay=True)  # best of 5, ties replayed
    finish_game(app, random.Random(1))
    kept = load_series(tmp_path)
    assert kept is not None and kept.best_of == 5 and kept.replay_ties
    home, away = kept.wins(Team.HOME), kept.wins(Team.AWAY)

    speaker = RecordingSpeaker()  # a new start, as after closing the window
    app = started_app(tmp_path, speaker, seed=8)
    title = [m.text for m in speaker.spoken]
    assert any(f"Resume your series: Hawks {home}, Bears {away}, best of 5" in text
               for text in title), title
    press(app, "return")
    assert any(text.startswith("Back to your series.") for text in
               [m.text for m in speaker.spoken])
    assert app.match is not None and not app.match.is_over
    assert app.keeper.series == kept and app.names.away == "Bears"


def test_a_game_of_a_series_resumed_after_a_crash_still_counts_for_it(tmp_path: Path) -> None:
    app = started_app(tmp_path, RecordingSpeaker(), seed=6)
    begin_series(app)
    press(app, "return")  # heads: a step, so the game in progress is kept
    assert (tmp_path / GAME_FILE).is_file() and (tmp_path / FILE_NAME).is_file()

    app = started_app(tmp_path, RecordingSpeaker(), seed=2)  # the crash, and a new start
    press(app, "return")  # Resume your game (the game, not the series, comes first)
    finish_game(app, random.Random(4))
    series = app.keeper.series
    assert series is not None and len(series.results) == 1


def test_starting_a_single_game_asks_before_the_series_is_lost(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    begin_series(app)
    finish_game(app, random.Random(2))
    app = started_app(tmp_path, speaker)
    press(app, "down", "return")  # Start a game, below Resume your series
    assert speaker.spoken[-1].text.startswith("Start a new game? The series in progress "
                                              "will be lost.")
    press(app, "down", "return")  # Yes
    assert not (tmp_path / FILE_NAME).exists()
    assert app.top.help_key == "naming"
