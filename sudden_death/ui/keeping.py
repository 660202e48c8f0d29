"""What outlives the window, on the app's side: the game in progress kept after every step
(game_file.py), and each finished game told as a story and kept in the record (record.py).

Both are written only by a game that keeps games (the loop's, or a test's with a folder of its
own); a failure is said once, and the game goes on.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Protocol

from ..audio.protocols import Category
from ..engine.computers import COACH
from ..engine.errors import SnapshotError
from ..engine.match import Match
from ..engine.summary import summarize
from ..folders import user_folders
from ..game_file import DamagedSave, forget_game, load_game, save_game, set_aside
from ..language import _
from ..net.remote_match import RemoteMatch
from ..record import Opponent, Record, RecordError
from .aids.record_screen import RecordScreen
from .screens.base import Host
from .session import Session
from .words.line import Line
from .words.phrases import Names
from .words.situation import damaged_save_words, saved_game_words
from .words.story import story_words, told_story
from .words.verbosity import Telling

LOG = logging.getLogger("sudden_death.record")


class KeepingHost(Host, Protocol):
    session: Session
    config_folder: Path | None
    keeps_games: bool

    @property
    def telling(self) -> Telling: ...

    def tell_notice(self, notice: str, cue: bool = True, again: bool = False) -> None: ...


class Keeper:
    def __init__(self, app: KeepingHost) -> None:
        self.app = app

    @property
    def record(self) -> Record:
        return Record(self.app.config_folder)

    # -- the game in progress ------------------------------------------------------------------

    def in_progress(self) -> str:
        """The saved game against the computer, in words for the title screen ("Hawks 7,
        Bears 3; Bears ball, 3rd and 4 at your 30"); "" when there is none. A damaged save
        is set aside and said."""
        app = self.app
        if not app.keeps_games:
            return ""
        try:
            saved = load_game(app.config_folder)
            if saved is None:
                return ""
            state = Match.from_json(saved.snapshot).state
        except DamagedSave as aside:
            app.tell_notice(damaged_save_words(str(aside)))
            return ""
        except SnapshotError as error:
            app.tell_notice(damaged_save_words(str(set_aside(app.config_folder, str(error)))))
            return ""
        return saved_game_words(state, Names(saved.home, saved.away))

    def keep(self) -> None:
        """After every step against the computer: the game as it stands, kept (or, over,
        forgotten). A save that fails is said once; the game goes on."""
        app = self.app
        if not isinstance(app.session.match, Match) or not app.keeps_games:
            return
        saved = app.session.saved()
        if saved is None:
            forget_game(app.config_folder)
            return
        if save_game(app.config_folder, saved) is not None:
            app.tell_notice(_("The game in progress could not be saved; it goes on, but "
                              "closing the game would lose it."))

    # -- the record ---------------------------------------------------------------------------

    def finished(self) -> list[Line]:
        """The game just ended: its story to say after the final score, and the game kept in
        the record."""
        session = self.app.session
        names = session.names
        summary = summarize(event for step in session.steps for event in step)
        told = told_story(summary, names, self.app.telling)
        self._keep_finished(story_words(summary, names))
        return [Line(told, category=Category.RESULT)] if told else []

    def _keep_finished(self, story: str) -> None:
        app = self.app
        session = app.session
        if not app.keeps_games or session.match is None:
            return
        if isinstance(session.match, RemoteMatch):
            opponent = Opponent.FRIEND
        else:
            opponent = Opponent.COACH if session.match_computer == COACH else Opponent.COMPUTER
        record = self.record
        try:
            record.add(datetime.now().astimezone().isoformat(timespec="seconds"), opponent,
                       session.names.home, session.names.away, session.names.you,
                       session.steps, story)
        except RecordError as error:
            LOG.warning("the finished game could not be kept in the record: %s", error)
            app.tell_notice(_("This game could not be kept in your record."))
            return
        if record.notice is not None:
            app.tell_notice(_("Your record did not read and was put aside as {name}; a new "
                              "one begins with this game.").format(name=record.notice))

    def open_record(self) -> None:
        app = self.app
        try:
            exports = user_folders(app.config_folder).exports
        except RuntimeError:  # no home folder: the data folder's answer is no better
            exports = Path.cwd()
        record = self.record
        screen = RecordScreen(app, record, exports)
        if record.notice is not None:
            app.tell_notice(_("Your record did not read and was put aside as {name}; a new "
                              "one begins.").format(name=record.notice))
        app.push(screen)
