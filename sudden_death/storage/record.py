"""Your record: every finished game, kept in an SQLite file in the player's data folder.

SQLite because a record is many small rows read in several orders (newest first, per
opponent), and because its transactions make a game either wholly kept or not at all, even
when the process is killed mid-write (a test kills a writer at random moments). Each game
keeps its figures (the score, how it ended, the player's longest play, each drive's plays,
yards and end), the story told after the final score, and its events step by step, from
which the play-by-play is told again in the player's language of the day.

A file that is not a record is renamed aside and a new one begun, and the player is told;
a record from a newer version of the game is left as it is, and not written to.
"""

from __future__ import annotations

import contextlib
import csv
import json
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ..engine import events as ev
from ..engine.errors import SnapshotError
from ..engine.event_codec import events_from_list, events_to_list
from ..engine.state import GameEnd, Team
from ..engine.summary import GameSummary, summarize
from .folders import data_folder

FILE_NAME = "record.sqlite3"
SCHEMA = 1  # PRAGMA user_version
LOG = logging.getLogger("sudden_death.record")
BUSY_TIMEOUT_S = 2.0  # another window of the game writing at the same moment

_TABLES = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    played_at TEXT NOT NULL,
    opponent TEXT NOT NULL,
    home TEXT NOT NULL,
    away TEXT NOT NULL,
    you INTEGER NOT NULL,
    your_score INTEGER NOT NULL,
    their_score INTEGER NOT NULL,
    ended TEXT NOT NULL,
    longest INTEGER NOT NULL,
    drive_count INTEGER NOT NULL,
    story TEXT NOT NULL,
    steps TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS drives (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    yours INTEGER NOT NULL,
    plays INTEGER NOT NULL,
    yards INTEGER NOT NULL,
    points INTEGER NOT NULL,
    ending TEXT,
    PRIMARY KEY (game, number)
);
"""


class Opponent(str, Enum):
    """Who the game was against; the value is what the file keeps."""

    COMPUTER = "computer"  # the rules' computer, choosing at random
    COACH = "coach"
    FRIEND = "friend"  # at a table


class Result(str, Enum):
    WIN = "win"
    LOSS = "loss"
    TIE = "tie"


class RecordError(Exception):
    """The record cannot be read or written; the text says why, in the log's words."""


@dataclass(frozen=True)
class DriveRow:
    number: int
    yours: bool
    plays: int
    yards: int
    points: int
    ending: str | None  # a DriveEnd value; None: conceded before it ended


@dataclass(frozen=True)
class PastGame:
    id: int
    played_at: str  # ISO 8601, local time with its offset
    opponent: Opponent
    home: str
    away: str
    you: Team
    your_score: int
    their_score: int
    ended: str  # a GameEnd value
    longest: int  # the player's longest gain, in yards (0: none)
    story: str
    drives: tuple[DriveRow, ...]
    # A conceded game's winner (read from its last step): the score alone cannot say it, as
    # a team may concede level or ahead. None for a game played to its end.
    conceded_to: Team | None = None

    @property
    def mine(self) -> str:
        return self.home if self.you is Team.HOME else self.away

    @property
    def theirs(self) -> str:
        return self.away if self.you is Team.HOME else self.home

    @property
    def result(self) -> Result:
        if self.conceded_to is not None:  # a concession is the conceder's loss, whatever the score
            return Result.WIN if self.conceded_to is self.you else Result.LOSS
        if self.your_score == self.their_score:
            return Result.TIE
        return Result.WIN if self.your_score > self.their_score else Result.LOSS


@dataclass(frozen=True)
class Standing:
    """The record against one opponent: the kind and the team it played as."""

    opponent: Opponent
    team: str
    wins: int
    losses: int
    ties: int
    streak: Result  # the newest game's result...
    streak_length: int  # ...and how many games in a row ended so
    biggest_win: PastGame | None
    longest: int  # the player's longest gain against them (0: none)


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


class Record:
    """The record in `folder` (--config), or the player's data folder. Each call opens the
    file, does one thing in one transaction and closes it: a game's worth of rows takes about
    a millisecond, and nothing stays open for a crash to catch."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.notice: str | None = None  # the file was set aside: said once by the caller

    @property
    def path(self) -> Path:
        return data_folder(self.folder) / FILE_NAME

    @contextlib.contextmanager
    def _open(self) -> Iterator[sqlite3.Connection]:
        try:
            path = self.path
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = self._checked(path)
        except (OSError, RuntimeError) as error:
            raise RecordError(str(error)) from None
        try:
            yield connection
        except sqlite3.Error as error:
            raise RecordError(str(error)) from None
        finally:
            connection.close()

    def _exists(self) -> bool:
        try:
            return self.path.is_file()
        except (OSError, RuntimeError):
            return False

    def _checked(self, path: Path) -> sqlite3.Connection:
        """The file opened and its schema made; a file that is not a record set aside first."""
        try:
            connection = _connect(path)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA:
                connection.close()
                raise RecordError(f"{path.name} is from a newer version (schema {version})")
            if version < SCHEMA:  # a new file: its tables, all in one transaction
                connection.execute("BEGIN IMMEDIATE")
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {SCHEMA}")
                connection.execute("COMMIT")
            connection.execute("SELECT count(*) FROM games").fetchone()
            return connection
        except sqlite3.DatabaseError as error:  # not a database, or a damaged one
            with contextlib.suppress(sqlite3.Error, UnboundLocalError):
                connection.close()
            aside = path.with_name(f"{FILE_NAME}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            path.replace(aside)
            for suffix in ("-journal", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    path.with_name(path.name + suffix).unlink()
            LOG.warning("%s did not read as a record (%s); set aside as %s",
                        path, error, aside.name)
            self.notice = aside.name
            return self._checked(path)

    # -- writing ------------------------------------------------------------------------------

    def add(self, played_at: str, opponent: Opponent, home: str, away: str, you: Team,
            steps: Sequence[Sequence[ev.Event]], story: str) -> int:
        """Keep a finished game: its events step by step (as the game told them), and the
        story it told. Returns its id. Raises RecordError; nothing half-kept stays."""
        summary = summarize(event for step in steps for event in step)
        if summary.outcome is None:
            raise RecordError("the game has not ended")
        scores = summary.outcome.scores
        longest = summary.longest(you)
        encoded = json.dumps([events_to_list(step) for step in steps], separators=(",", ":"))
        with self._open() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                cursor = db.execute(
                    "INSERT INTO games (played_at, opponent, home, away, you, your_score, "
                    "their_score, ended, longest, drive_count, story, steps) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (played_at, opponent.value, home, away, int(you), scores[you],
                     scores[you.other], summary.outcome.end.value,
                     longest.yards if longest is not None else 0, len(summary.drives), story,
                     encoded))
                game = cursor.lastrowid
                db.executemany(
                    "INSERT INTO drives VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(game, drive.drive, drive.offense is you, drive.plays, drive.yards,
                      drive.points, drive.end.value if drive.end is not None else None)
                     for drive in summary.drives])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        assert game is not None
        return game

    # -- reading ------------------------------------------------------------------------------

    def games(self) -> list[PastGame]:
        """Every game kept, newest first; [] when there is no record yet."""
        if not self._exists():
            return []
        with self._open() as db:
            rows = db.execute(
                "SELECT id, played_at, opponent, home, away, you, your_score, their_score, "
                "ended, longest, story, CASE WHEN ended = ? THEN steps END FROM games "
                "ORDER BY id DESC", (GameEnd.CONCEDED.value,)).fetchall()
            drives: dict[int, list[DriveRow]] = {}
            for game, *values in db.execute(
                    "SELECT game, number, yours, plays, yards, points, ending FROM drives "
                    "ORDER BY game, number"):
                number, yours, plays, yards, points, ending = values
                drives.setdefault(game, []).append(
                    DriveRow(number, bool(yours), plays, yards, points, ending))
        return [_past_game(row, drives.get(row[0], [])) for row in rows]

    def steps(self, game: int) -> list[list[ev.Event]]:
        """A kept game's events, step by step. Raises RecordError when this version cannot
        read them (a game kept by another version's rules)."""
        if not self._exists():
            raise RecordError("there is no record yet")
        with self._open() as db:
            row = db.execute("SELECT steps FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise RecordError(f"no game {game}")
        try:
            return [events_from_list(step) for step in json.loads(row[0])]
        except (ValueError, TypeError, SnapshotError) as error:
            raise RecordError(f"game {game}'s plays do not read: {error}") from None

    def summary(self, game: int) -> GameSummary:
        return summarize(event for step in self.steps(game) for event in step)

    def export_csv(self, target: Path) -> int:
        """Write every game to `target` as CSV (one row a game, newest first); returns how
        many. Raises RecordError."""
        games = self.games()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("w", encoding="utf-8-sig", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(CSV_COLUMNS)
                for game in games:
                    writer.writerow([_cell(value) for value in _csv_row(game)])
        except OSError as error:
            raise RecordError(str(error)) from None
        return len(games)


CSV_COLUMNS = ("played_at", "opponent", "your_team", "their_team", "your_score",
               "their_score", "result", "ended", "your_longest_play", "drives", "story")


def _csv_row(game: PastGame) -> list[Any]:
    drives = "; ".join(
        f"{drive.number}: {game.mine if drive.yours else game.theirs}, {drive.plays} plays, "
        f"{drive.yards} yards, {drive.ending or 'conceded'}" for drive in game.drives)
    return [game.played_at, game.opponent.value, game.mine, game.theirs, game.your_score,
            game.their_score, game.result.value, game.ended, game.longest, drives, game.story]


def _cell(value: Any) -> Any:
    """A team name typed by a friend could start like a spreadsheet formula ("=HYPERLINK"):
    such text is kept as text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _past_game(row: Sequence[Any], drives: list[DriveRow]) -> PastGame:
    game, played_at, opponent, home, away, you, yours, theirs, ended, longest, story, \
        steps = row
    try:
        kind = Opponent(opponent)
    except ValueError:
        kind = Opponent.COMPUTER
    return PastGame(game, played_at, kind, home, away, Team(you), yours, theirs, ended,
                    longest, story, tuple(drives), _conceded_to(steps))


def _conceded_to(steps: str | None) -> Team | None:
    """The winner of a conceded game, from its last step's GameOver (its steps, as kept);
    None when the game was not conceded or its steps do not read (then its score decides)."""
    if steps is None:
        return None
    try:
        last = events_from_list(json.loads(steps)[-1])
    except (ValueError, TypeError, IndexError, SnapshotError):
        LOG.warning("a conceded game's last step does not read; its score decides its result")
        return None
    outcomes = [event.outcome for event in last if isinstance(event, ev.GameOver)]
    return outcomes[-1].winner if outcomes else None


def standings(games: Sequence[PastGame]) -> list[Standing]:
    """The record against each opponent (kind and team), the most recently played first."""
    groups: dict[tuple[Opponent, str], list[PastGame]] = {}
    for game in games:  # newest first, so each group is too
        groups.setdefault((game.opponent, game.theirs), []).append(game)
    out: list[Standing] = []
    for (opponent, team), played in groups.items():
        results = [game.result for game in played]
        streak = 0
        while streak < len(results) and results[streak] is results[0]:
            streak += 1
        wins = [game for game in played if game.result is Result.WIN]
        biggest = max(reversed(wins), key=lambda g: g.your_score - g.their_score, default=None)
        out.append(Standing(opponent, team, results.count(Result.WIN),
                            results.count(Result.LOSS), results.count(Result.TIE),
                            results[0], streak, biggest,
                            max(game.longest for game in played)))
    return out
