"""Your record: every finished game kept in a real SQLite file, its figures the engine's own,
its standings, its export, and a file that survives a writer killed mid-write.

The figures are checked against the events counted here by hand (not through
`engine.summary`), and against the final state of the seeded match itself.
"""

from __future__ import annotations

import contextlib
import csv
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from app_driver import press, started_app
from game_script import plan_game
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import RecordingSpeaker
from table_driver import Seat

from sudden_death.engine import events as ev
from sudden_death.engine.actions import Concede
from sudden_death.engine.match import Match
from sudden_death.engine.state import GameEnd, Outcome, Team
from sudden_death.engine.summary import summarize
from sudden_death.storage.record import (
    FILE_NAME,
    Opponent,
    PastGame,
    Record,
    RecordError,
    Result,
    standings,
)
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.record import past_game_words
from sudden_death.ui.words.story import story_words, told_story
from sudden_death.ui.words.verbosity import Telling

WHEN = "2026-12-01T21:40:00+00:00"


def whole_game(seed: int, computer: str = "random") -> tuple[Match, list[list[ev.Event]]]:
    """A seeded game against the computer, the player choosing at random, step by step."""
    match = Match.against_computer(seed, computer=computer)
    rng = random.Random(seed)
    steps = [match.advance()]
    while not match.is_over:
        played, refused = match.play([rng.choice(match.legal_actions())])
        assert refused is None
        steps.append(played)
    return match, steps


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_the_record_keeps_the_engines_figures(tmp_path_factory, seed: int) -> None:
    match, steps = whole_game(seed)
    record = Record(tmp_path_factory.mktemp("record"))
    record.add(WHEN, Opponent.COMPUTER, "Hawks", "Bears", Team.HOME, steps, "story")
    (game,) = record.games()
    outcome = match.state.outcome
    assert outcome is not None
    assert (game.your_score, game.their_score) == outcome.scores
    assert game.result is (Result.TIE if outcome.winner is None else
                           Result.WIN if outcome.winner is Team.HOME else Result.LOSS)
    # Each drive's plays, yards, points and end, counted from the events here.
    drives: list[list[object]] = []
    longest = 0
    for event in (event for step in steps for event in step):
        if isinstance(event, ev.DriveStarted):
            drives.append([event.drive, event.offense is Team.HOME, 0, 0, 0, None])
        elif isinstance(event, ev.PlayResolved):
            drives[-1][2] += 1  # type: ignore[operator]
            drives[-1][3] += event.yards  # type: ignore[operator]
            if event.offense is Team.HOME:
                longest = max(longest, event.yards)
        elif isinstance(event, ev.ScoreChanged) and (event.team is Team.HOME) == drives[-1][1]:
            drives[-1][4] += event.points  # type: ignore[operator]
        elif isinstance(event, ev.DriveEnded):
            drives[-1][5] = event.reason.value
    assert [[d.number, d.yours, d.plays, d.yards, d.points, d.ending] for d in game.drives] \
        == drives
    assert game.longest == longest
    # The points of the drives are the score (a safety's go to the defense, off its drive).
    safety = sum(isinstance(e, ev.Safety) for step in steps for e in step)
    assert sum(d.points for d in game.drives) + 2 * safety == sum(outcome.scores)
    assert record.steps(game.id) == steps  # the play-by-play reads back event for event


def test_standings_count_each_opponent_its_streak_biggest_win_and_longest_play() -> None:
    def game(number: int, opponent: Opponent, theirs: str, mine: int, other: int,
             longest: int) -> PastGame:
        return PastGame(number, WHEN, opponent, "Hawks", theirs, Team.HOME, mine, other,
                        "both_drives", longest, "", ())

    newest_first = [game(6, Opponent.COACH, "Bears", 7, 3, 12),
                    game(5, Opponent.COACH, "Bears", 14, 0, 38),
                    game(4, Opponent.FRIEND, "Eagles", 0, 0, 5),
                    game(3, Opponent.COACH, "Bears", 0, 7, 9),
                    game(2, Opponent.COACH, "Bears", 21, 0, 4),
                    game(1, Opponent.COMPUTER, "Bears", 3, 7, 0)]
    coach, friend, computer = standings(newest_first)
    assert (coach.opponent, coach.team, coach.wins, coach.losses, coach.ties) == \
        (Opponent.COACH, "Bears", 3, 1, 0)
    assert (coach.streak, coach.streak_length) == (Result.WIN, 2)
    assert coach.biggest_win is not None and coach.biggest_win.id == 2  # 21-0 beats 14-0
    assert coach.longest == 38
    assert (friend.ties, friend.streak, friend.streak_length) == (1, Result.TIE, 1)
    assert (computer.losses, computer.biggest_win, computer.longest) == (1, None, 0)


GROUPS = [(opponent, team) for opponent in Opponent for team in ("Bears", "Eagles")]


@st.composite
def past_games(draw: st.DrawFn) -> list[PastGame]:
    """Games against every opponent group in any order, newest first: wins, losses and ties,
    some of them conceded (level or ahead: a concession is a loss whatever the score)."""
    games: list[PastGame] = []
    for number in range(draw(st.integers(0, 40)), 0, -1):
        opponent, team = draw(st.sampled_from(GROUPS))
        you = draw(st.sampled_from(Team))
        result = draw(st.sampled_from(Result))
        conceded = result is not Result.TIE and draw(st.booleans())
        mine, theirs = draw(st.integers(0, 40)), draw(st.integers(0, 40))
        conceded_to = None
        if conceded:
            conceded_to = you if result is Result.WIN else you.other
        elif result is Result.TIE:
            theirs = mine
        elif (mine > theirs) != (result is Result.WIN) or mine == theirs:
            mine, theirs = (max(mine, theirs) + 1, min(mine, theirs)) if result is Result.WIN \
                else (min(mine, theirs), max(mine, theirs) + 1)
        home, away = ("Hawks", team) if you is Team.HOME else (team, "Hawks")
        games.append(PastGame(number, WHEN, opponent, home, away, you, mine, theirs,
                              "conceded" if conceded else "both_drives", 0, "", (),
                              conceded_to))
        assert games[-1].result is result
    return games


@settings(max_examples=200, deadline=None)
@given(games=past_games())
def test_every_opponent_groups_standing_counts_its_wins_losses_and_ties(
        games: list[PastGame]) -> None:
    """Each group (the computer, the coach, a friend; each team they played as) is counted
    alone, ties as ties, with its newest result's streak."""
    by_group: dict[tuple[Opponent, str], list[Result]] = {}
    for game in games:
        by_group.setdefault((game.opponent, game.theirs), []).append(game.result)
    table = {(s.opponent, s.team): s for s in standings(games)}
    assert table.keys() == by_group.keys()
    for group, results in by_group.items():
        standing = table[group]
        assert (standing.wins, standing.losses, standing.ties) == (
            results.count(Result.WIN), results.count(Result.LOSS), results.count(Result.TIE))
        streak = next((i for i, r in enumerate(results) if r is not results[0]), len(results))
        assert (standing.streak, standing.streak_length) == (results[0], streak)


@pytest.mark.parametrize("opponent", list(Opponent))
def test_a_tie_and_a_concession_are_kept_as_such_against_every_opponent(
        tmp_path: Path, opponent: Opponent) -> None:
    """Through the file: a tie stays a tie and a concession at 0 to 0 is the conceder's loss
    (it was kept as a tie: the result was read from the score alone)."""
    record = Record(tmp_path)
    tie = [[ev.GameOver(Outcome((7, 7), None, GameEnd.BOTH_DRIVES))]]
    record.add(WHEN, opponent, "Hawks", "Bears", Team.HOME, tie, "")
    match = Match.against_computer(3)
    conceded = [match.advance(), match.play([Concede()])[0]]  # the home team concedes at once
    assert match.state.outcome is not None and match.state.outcome.scores == (0, 0)
    record.add(WHEN, opponent, "Hawks", "Bears", Team.HOME, conceded, "")  # you conceded
    record.add(WHEN, opponent, "Bears", "Hawks", Team.AWAY, conceded, "")  # they did
    won, lost, tied = record.games()
    assert (won.result, lost.result, tied.result) == (Result.WIN, Result.LOSS, Result.TIE)
    (standing,) = standings(record.games())
    assert (standing.opponent, standing.wins, standing.losses, standing.ties) == \
        (opponent, 1, 1, 1)
    assert "a loss to" in past_game_words(lost) and "a win against" in past_game_words(won)


def test_a_file_that_is_not_a_record_is_set_aside_and_a_new_one_begun(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"not a database at all" * 50)
    record = Record(tmp_path)
    _, steps = whole_game(3)
    record.add(WHEN, Opponent.COACH, "Hawks", "Bears", Team.HOME, steps, "")
    assert record.notice is not None and record.notice.startswith(FILE_NAME + ".damaged-")
    assert (tmp_path / record.notice).read_bytes().startswith(b"not a database")
    assert len(Record(tmp_path).games()) == 1


def test_a_record_from_a_newer_version_is_left_as_it_is(tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as db:
        db.execute("PRAGMA user_version = 99")
    before = (tmp_path / FILE_NAME).read_bytes()
    _, steps = whole_game(3)
    with pytest.raises(RecordError, match="newer version"):
        Record(tmp_path).add(WHEN, Opponent.COACH, "Hawks", "Bears", Team.HOME, steps, "")
    assert (tmp_path / FILE_NAME).read_bytes() == before
    assert not list(tmp_path.glob("*.damaged-*"))


def test_the_export_is_a_csv_with_a_row_a_game_and_no_formulas(tmp_path: Path) -> None:
    record = Record(tmp_path)
    for seed in range(3):
        _, steps = whole_game(seed)
        record.add(WHEN, Opponent.FRIEND, "Hawks", "=HYPERLINK(\"x\")", Team.HOME, steps,
                   f"story {seed}")
    assert record.export_csv(tmp_path / "out" / "record.csv") == 3
    with (tmp_path / "out" / "record.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["story"] for row in rows] == ["story 2", "story 1", "story 0"]  # newest first
    assert {row["their_team"] for row in rows} == {"'=HYPERLINK(\"x\")"}
    assert all(row["opponent"] == "friend" for row in rows)


WRITER = """
import random, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from test_record import whole_game
from sudden_death.storage.record import Opponent, Record
from sudden_death.engine.actions import Concede
from sudden_death.engine.state import GameEnd, Outcome, Team
record = Record(Path(sys.argv[1]))
games = [whole_game(seed)[1] for seed in range(8)]
n = 0
while True:
    record.add("2026-12-01T00:00:00+00:00", Opponent.COACH, "Hawks", "Bears", Team.HOME,
               games[n % 8], "s" * 2000)
    if n == 0:  # the file and its tables exist: from here on, a kill lands mid-writing
        print("ready", flush=True)
    n += 1
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_the_record_survives_a_writer_killed_in_the_middle_of_writing(tmp_path: Path) -> None:
    rng = random.Random(11)
    for _ in range(6):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path),
                                   str(Path(__file__).parent)],
                                  stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.02, 0.3))
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
        writer.stdout.close()
        with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            counts = db.execute(
                "SELECT g.drive_count, (SELECT count(*) FROM drives d WHERE d.game = g.id) "
                "FROM games g").fetchall()
        assert all(kept == drives for kept, drives in counts)  # no game is half kept
    games = Record(tmp_path).games()
    assert len(games) > 6
    assert all(Record(tmp_path).steps(game.id) for game in games[:3])


# -- in the game --------------------------------------------------------------------------------


def play_out(app, seed: int) -> None:
    """Every decision answered at random through the app, as its screens would, to the end."""
    rng = random.Random(seed)
    while app.match is not None and not app.match.is_over:
        app.act(rng.choice(app.match.legal_actions()))


def test_a_finished_game_tells_its_story_and_is_kept(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=4)
    press(app, "return", "return", "return")  # Start a game: both default names
    play_out(app, 4)
    said = [m.text for m in speaker.spoken]
    final = max(i for i, text in enumerate(said) if text.startswith("Final score"))
    (game,) = Record(tmp_path).games()
    summary = summarize(e for step in Record(tmp_path).steps(game.id) for e in step)
    names = Names("Hawks", "Bears")
    assert game.story == story_words(summary, names)  # the record keeps the whole story...
    turn = told_story(summary, names, Telling())
    assert turn.startswith("The game turned on ")  # ...normal says the play it turned on
    assert turn in said[final + 1:] and game.story not in said  # after the final score
    assert game.opponent is Opponent.COMPUTER and (game.mine, game.theirs) == ("Hawks", "Bears")

    app.start()
    press(app, "end", "up", "up", "up", "up", "up")  # Your record: above Play online,
    # Your rating, Report a problem, Play a friend
    # and Quit
    assert speaker.spoken[-1].text.startswith("Your record")
    press(app, "return")
    heard = speaker.spoken[-1].text
    assert heard.startswith("Your record, 1 game.") and "Against the computer's Bears: " \
        in heard
    press(app, "down", "down")  # the standing, Export, the game
    assert speaker.spoken[-1].text.startswith("December 1" if "-12-01" in game.played_at
                                              else "")
    press(app, "return")
    assert app.top.help_key == "past_game"
    assert game.story in speaker.spoken[-1].text
    press(app, ".")  # the history keys step through the plays
    first_play = speaker.spoken[-1].text
    press(app, "shift+.")
    last = speaker.spoken[-1].text
    assert first_play != last and last.startswith("Final score")
    press(app, "escape", "up")
    press(app, "return")  # Export
    assert speaker.spoken[-1].text == \
        f"1 game exported to {tmp_path / 'sudden-death-record.csv'}."


def test_an_empty_record_says_so(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "end", *["up"] * 5, "return")  # above Play online, Your rating, Report...
    assert speaker.spoken[-1].text == ("Your record. No games yet. Every game you finish is "
                                       "kept here.")
    assert not (tmp_path / FILE_NAME).exists()  # reading made no file


def test_a_real_game_process_keeps_its_game_in_the_record(tmp_path: Path) -> None:
    keys, events = plan_game(4)
    with Seat(tmp_path, "--seed", "4") as game:
        game.send(*keys)
        final = game.said_starting("Final score: ")
        game.send("down", "return")  # Game over: Quit
        assert game.finish() == 0
    (kept,) = Record(tmp_path).games()
    assert [e for step in Record(tmp_path).steps(kept.id) for e in step] == events
    assert kept.opponent is Opponent.COMPUTER
    assert f"Hawks {kept.your_score}, Bears {kept.their_score}" in final
    assert kept.story == story_words(summarize(events), Names("Hawks", "Bears"))
