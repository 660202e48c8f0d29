"""Report a problem, on the app's side: the facts a helper needs gathered from the running
game (the sound in use, the settings, the speech history, the log) into one file
(`storage/report.py`), its path said aloud and shown, and copied to the clipboard where the
window has one.

The loop fills in what only it knows (the log file, the sound's back ends, the clipboard); an
app made for a test keeps the defaults: no log, the speaker's and cues' own names, no
clipboard. Everything runs on the loop's thread, as the clipboard needs.
"""

from __future__ import annotations

import logging
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ... import __version__
from ...audio.protocols import Category, CuePlayer, Speaker
from ...storage.folders import user_folders
from ...storage.report import ReportFacts, report_text, write_report
from ...storage.seat_file import load_seat
from ..aids.comfort import Comfort
from ..screens.base import Host
from ..words.report import report_failed, report_offer, report_written

LOG = logging.getLogger("sudden_death.report")


class ReportingHost(Host, Protocol):
    speaker: Speaker
    cues: CuePlayer
    comfort: Comfort
    config_folder: Path | None


def no_clipboard(text: str) -> bool:
    """Where there is no clipboard: nothing copied, so nothing is said about it."""
    return False


class Reporter:
    """The app's problem reports (one per app, never global)."""

    def __init__(self, app: ReportingHost) -> None:
        self.app = app
        self.log_path: Path | None = None  # set by the loop when the log file is open
        # Set by the loop: True when the text went to the clipboard. It must not block.
        self.copy_text: Callable[[str], bool] = no_clipboard
        # Set by the loop: (what, which) for the speech and sound in use.
        self.sound_facts: Callable[[], list[tuple[str, str]]] = self._own_names
        self.offered = False  # the offer after a fault notice is said once a session

    def _own_names(self) -> list[tuple[str, str]]:
        return [("speech", type(self.app.speaker).__name__),
                ("sound", type(self.app.cues).__name__)]

    def facts(self) -> ReportFacts:
        app = self.app
        settings = app.comfort.settings
        seat = load_seat(app.config_folder)
        try:
            home = str(Path.home())
        except RuntimeError:  # no home folder: nothing to hide of it
            home = ""
        return ReportFacts(
            version=__version__, system=platform.platform(),
            python=sys.version.replace("\n", " "),
            back_ends=[*self.sound_facts(),
                       ("speech engine setting", settings.speech_engine),
                       ("speech output setting", settings.speech_output)],
            settings=settings,
            said=[message.text for message in app.comfort.history.messages],
            log=self.log_path,
            secrets=[settings.table_password, *([seat.token] if seat is not None else [])],
            home=home)

    def report(self) -> None:
        """Write the report and say where (or, plainly, why not)."""
        app = self.app
        try:
            folder = user_folders(app.config_folder).exports
            path = write_report(folder, report_text(self.facts()))
        except (OSError, RuntimeError) as error:
            LOG.warning("the problem report could not be written: %s", error)
            app.cue("menu_error")
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            app.say(report_failed(str(reason)), category=Category.INFO)
            return
        LOG.info("a problem report was written to %s", path)
        copied = self.copy_text(str(path))
        app.say(report_written(path, copied), category=Category.INFO)

    def offer(self) -> str:
        """The sentence after the first fault notice of a session; then nothing."""
        if self.offered:
            return ""
        self.offered = True
        return report_offer()
