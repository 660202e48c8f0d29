"""What outlives the window, on the app's side: the game in progress kept after every step
(game_file.py), the series it belongs to (series.py), and each finished game told as a story
and kept in the record (record.py).

All are written only by a game that keeps games (the loop's, or a test's with a folder of its
own); a failure is said once, and the game goes on.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Protocol

from ...audio.protocols import Category
from ...engine.errors import SnapshotError
from ...engine.match import Match
from ...engine.series import Series
from ...engine.state import Team
from ...engine.summary import summarize
from ...language import _
from ...storage.folders import user_folders
from ...storage.game_file import DamagedSave, forget_game, load_game, save_game, set_aside
from ...storage.record import Record, RecordError
from ...storage.series_file import forget_series, load_series, save_series
from ..aids.comfort import Comfort
from ..aids.record_screen import RecordScreen
from ..screens.base import ConfirmScreen, Host, Screen
from ..screens.series_setup import SeriesScreen
from ..screens.welcome import NamingScreen
from ..session import Session
from ..words.line import Line
from ..words.phrases import Names
from ..words.series import series_score_words, series_title_words
from ..words.situation import damaged_save_words, saved_game_words, situation_words
from ..words.story import story_words, told_story
from ..words.verbosity import Telling

LOG = logging.getLogger("sudden_death.record")


class KeepingHost(Host, Protocol):
    session: Session
    comfort: Comfort
    config_folder: Path | None
    keeps_games: bool
    names: Names

    def show(self, screen: Screen, interrupt: bool = True, speak: bool = True) -> None: ...

    def new_match(self, interrupt: bool = True) -> None: ...

    @property
    def telling(self) -> Telling: ...

    def tell_notice(self, notice: str, cue: bool = True, again: bool = False) -> None: ...

    def show_decision(self, interrupt: bool = True) -> None: ...


class Keeper:
    """The app's keeper of saves, the series and the record (one per app, never global)."""

    def __init__(self, app: KeepingHost) -> None:
        self.app = app
        self.series: Series | None = None  # the series the games belong to, while it lasts
        self.series_choice: tuple[int, bool] | None = None  # chosen; the names come next

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
        match = app.session.match
        if match is None or not match.keeps_here or not app.keeps_games:
            return
        saved = app.session.saved()
        if saved is None:
            forget_game(app.config_folder)
            return
        if save_game(app.config_folder, saved) is not None:
            app.tell_notice(_("The game in progress could not be saved; it goes on, but "
                              "closing the game would lose it."))

    def start_naming(self) -> None:
        """Start a game: name the teams, once the player agrees to lose what is kept."""
        app = self.app
        self.series_choice = None
        if app.session.saved() is None:
            question = ""
            if self.in_progress():
                question = _("Start a new game? The game in progress will be lost.")
            elif self.waiting_series() is not None:
                question = _("Start a new game? The series in progress will be lost.")
            if question:
                app.push(ConfirmScreen(app, question, self._start_over,
                                       yes=_("Yes, start a new one")))
                return
        app.show(NamingScreen(app))

    def _start_over(self) -> None:
        self.forget_all()
        self.app.show(NamingScreen(self.app))

    def resume_game(self) -> None:
        """Back to the saved game, at the decision it was left at."""
        app = self.app
        try:
            saved = load_game(app.config_folder)
            if saved is None:
                raise DamagedSave("")
            app.session.resume(saved)
        except DamagedSave:
            app.cue("menu_error")
            app.say(_("There is no game to go back to."))
            app.start()
            return
        except SnapshotError as error:
            app.tell_notice(damaged_save_words(str(set_aside(app.config_folder, str(error)))))
            app.start()
            return
        app.names = app.session.names
        self.load_series_of_game()
        app.comfort.history.opponent = None
        app.say(_("Back to your game."), category=Category.DECISION)
        assert app.session.match is not None
        app.say(situation_words(app.session.match.state, app.names), interrupt=False,
                category=Category.INFO)
        app.show_decision(interrupt=False)

    # -- a series ---------------------------------------------------------------------------

    @property
    def in_series(self) -> bool:
        """Whether the next game is one of a series still being played (at a table: the
        table's series, once this game is counted)."""
        match = self.app.session.match
        if match is not None and not match.keeps_here:
            table = self._table_series()
            return table is not None and not table.over
        return self.series is not None and not self.series.over

    def _table_series(self) -> Series | None:
        """A table's series with this game counted in, once it is over."""
        match = self.app.session.match
        series = None if match is None else match.table_series
        if match is None or series is None:
            return None  # single games, or the friend has left: the series is over
        outcome = match.state.outcome
        if outcome is None:
            return series
        return series.after(outcome.winner)

    def waiting_series(self) -> Series | None:
        """A kept series with no game in progress, to go on with from the title screen."""
        if not self.app.keeps_games:
            return self.series if self.in_series else None
        series = load_series(self.app.config_folder)
        return series if series is not None and not series.over else None

    def series_words(self) -> str:
        series = self.waiting_series()
        return series_title_words(series) if series is not None else ""

    def begin_series(self, home: str, away: str, computer: str) -> None:
        """The names are chosen: the series chosen before them begins."""
        assert self.series_choice is not None
        best_of, replay = self.series_choice
        self.series_choice = None
        self.series = Series(best_of, replay, home, away, computer)
        self._keep_series()

    def resume_series(self) -> Series | None:
        self.series = self.waiting_series()
        return self.series

    def load_series_of_game(self) -> None:
        """A game in progress resumed: the series it is a game of, if any, goes on with it."""
        if self.app.keeps_games:
            self.series = load_series(self.app.config_folder)

    def drop_series(self) -> None:
        self.series, self.series_choice = None, None
        if self.app.keeps_games:
            forget_series(self.app.config_folder)

    # The title screen's series choices, as the app hands them on.

    def open_series(self) -> None:
        """Play a series: its choices; first a question when a game or a series in
        progress would be lost."""
        if self.in_progress() or self.waiting_series() is not None:
            self.app.push(ConfirmScreen(
                self.app, _("Start a series? The game or series in progress will be lost."),
                self._series_over_again, yes=_("Yes, start a series")))
            return
        self.app.show(SeriesScreen(self.app))

    def _series_over_again(self) -> None:
        self.forget_all()
        self.app.show(SeriesScreen(self.app))

    def forget_all(self) -> None:
        """A new game or series was chosen over the kept ones."""
        forget_game(self.app.config_folder)
        self.drop_series()

    def start_series(self, best_of: int, replay_ties: bool) -> None:
        self.series_choice = (best_of, replay_ties)
        self.app.show(NamingScreen(self.app))

    def go_on_with_series(self) -> None:
        """Resume your series: its next game, with its teams."""
        series = self.resume_series()
        if series is None:
            self.app.cue("menu_error")
            self.app.say(_("There is no series to go back to."))
            self.app.start()
            return
        self.app.names = Names(series.home, series.away)
        self.app.say(_("Back to your series. {score}").format(
            score=series_score_words(series, self.app.names)), category=Category.DECISION)
        self.app.new_match(interrupt=False)

    def _keep_series(self) -> None:
        app, series = self.app, self.series
        if not app.keeps_games or series is None:
            return
        if series.over:
            forget_series(app.config_folder)
        elif save_series(app.config_folder, series) is not None:
            app.tell_notice(_("The series could not be saved; it goes on, but closing the "
                              "game would lose it."))

    def _series_after(self, winner: Team | None) -> list[Line]:
        """A game of the series ended: the series' score, said after the game's words."""
        table = self._table_series()
        if table is not None:  # the server counts it; here it is only said
            return [Line(series_score_words(table, self.app.session.names),
                         category=Category.RESULT)]
        series = self.series
        match = self.app.session.match
        if series is None or series.over or match is None or not match.keeps_here:
            return []
        self.series = series.after(winner)
        self._keep_series()
        return [Line(series_score_words(self.series, self.app.session.names),
                     category=Category.RESULT)]

    # -- the record ---------------------------------------------------------------------------

    def finished(self) -> list[Line]:
        """The game just ended: its story to say after the final score, and the game kept in
        the record."""
        session = self.app.session
        names = session.names
        if names.watching:
            return []  # a spectator's game is not theirs: no story, never in their record
        summary = summarize(event for step in session.steps for event in step)
        told = told_story(summary, names, self.app.telling)
        self._keep_finished(story_words(summary, names))
        lines = [Line(told, category=Category.RESULT)] if told else []
        if summary.outcome is not None:
            lines += self._series_after(summary.outcome.winner)
        return lines

    def _keep_finished(self, story: str) -> None:
        app = self.app
        session = app.session
        if not app.keeps_games or session.match is None:
            return
        opponent = session.match.opponent
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
