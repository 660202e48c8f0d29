"""Linux: the game's words through speech-dispatcher (the speech server Orca uses), and on the
braille display through BrlAPI when BRLTTY runs.

Both client modules come from the distribution (python3-speechd, python3-brlapi), found at run
time by `system_modules`. speech-dispatcher says when each message begins and ends, so the rule
that a focus move never cuts a result holds exactly.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from types import TracebackType
from typing import Any

from ..language import N_, _, active
from .reader_base import NoScreenReader
from .system_modules import load_system_module

LOG = logging.getLogger(__name__)
CLIENT_NAME = "sudden_death"
# Translators: follows "No screen reader answered: " (lower case, no full stop);
# speech-dispatcher and python3-speechd are names of programs, keep them as they are.
MISSING_SPEECHD = N_("speech-dispatcher's Python client is not installed (the python3-speechd "
                     "package)")
# Translators: said alone, when speech works but braille does not; BrlAPI and python3-brlapi
# are names of programs, keep them as they are.
MISSING_BRLAPI = N_("braille needs BrlAPI's Python module, built for this Python version (the "
                    "python3-brlapi package)")
SLOWEST_WORDS_PER_SECOND = 80 / 60  # the slowest rate a listener would set


def longest_seconds(text: str) -> float:
    """How long `text` could take to say at the slowest rate, plus a second."""
    return len(text.split()) / SLOWEST_WORDS_PER_SECOND + 1.0


class SpeechDispatcher:
    """A connection to speech-dispatcher, and to BrlAPI when it answers."""

    def __init__(self, client: Any, speechd: Any, braille: Braille | None,
                 braille_notice: str | None) -> None:
        self._client = client
        self._speechd = speechd
        self._braille = braille
        self.braille_notice = braille_notice
        self._lock = threading.Lock()
        self._alerts: dict[int, float] = {}  # results not yet said, to when they surely are
        self._language = ""  # the language speech-dispatcher was last told the words are in

    @property
    def name(self) -> str:
        # Translators: the name of Linux's speech server, as in "Speech output: screen reader,
        # speech-dispatcher"; keep it as it is unless your alphabet needs another spelling.
        return _("speech-dispatcher")

    @classmethod
    def connect(cls) -> SpeechDispatcher:
        """Connect (speech-dispatcher starts itself if the system allows it), or
        `NoScreenReader` with the reason."""
        try:
            speechd = load_system_module("speechd")
        except ImportError:
            raise NoScreenReader(_(MISSING_SPEECHD)) from None
        try:
            client = speechd.SSIPClient(CLIENT_NAME)
            client.set_priority(speechd.Priority.MESSAGE)  # queued in order, cut by us
        except Exception as error:  # SSIPCommunicationError, SpawnError, OSError, ...
            LOG.warning("speech-dispatcher does not answer: %s", _reason(error))
            _close_left_sockets(error.__traceback__)
            # Translators: follows "No screen reader answered: ".
            raise NoScreenReader(_("speech-dispatcher does not answer")) from None
        braille, notice = Braille.connect()
        return cls(client, speechd, braille, notice)

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None:
        if interrupt:
            self.cancel()
        self._tell_language()
        if not alert:
            self._client.speak(text)
            return
        state: dict[str, int | bool] = {}  # the message's id, and whether it has ended
        result = self._client.speak(text, callback=self._finished(state),
                                    event_types=self._ends())
        message = _message_id(result)
        with self._lock:
            state["id"] = message
            if not state.get("ended"):
                # speechd may lose the callback of a message that ends before it registers
                # it (its own comment says so): a result is forgotten after its longest
                # plausible time even then, so focus moves are never held back for good.
                self._alerts[message] = time.monotonic() + longest_seconds(text)

    def _tell_language(self) -> None:
        """The player's reader must read the game's words in the game's language (its own
        voice for it): speech-dispatcher takes a two-letter code such as "es"."""
        code = active().code.split("_")[0]
        if code != self._language:
            with contextlib.suppress(Exception):  # an old server may refuse: words still go
                self._client.set_language(code)
            self._language = code

    def braille(self, text: str) -> None:
        if self._braille is not None:
            self._braille.show(text)

    def cancel(self) -> None:
        self._client.cancel()
        with self._lock:
            self._alerts.clear()

    def alert_speaking(self) -> bool:
        now = time.monotonic()
        with self._lock:
            for message in [m for m, deadline in self._alerts.items() if deadline < now]:
                del self._alerts[message]
            return bool(self._alerts)

    def close(self) -> None:
        if self._braille is not None:
            self._braille.close()
        with contextlib.suppress(Exception):  # the server may be gone: closing must not fail
            self._client.close()

    def _ends(self) -> tuple[str, ...]:
        kinds = self._speechd.CallbackType
        return (kinds.END, kinds.CANCEL)

    def _finished(self, state: dict[str, int | bool]) -> Any:
        """A callback that forgets a result once it has been said or cut. speechd calls it on
        its own thread and forbids any command from it, so it only touches the table."""

        def finished(kind: str, **_details: object) -> None:
            del kind
            with self._lock:
                state["ended"] = True
                if "id" in state:
                    self._alerts.pop(int(state["id"]), None)

        return finished


def _close_left_sockets(trace: TracebackType | None) -> None:
    """Close the socket a failed connection left open (speechd's client opens it, then fails
    to connect and lets go of it): closed now, it can't be reported later as unclosed by
    whichever thread the collector runs on."""
    while trace is not None:
        for value in list(trace.tb_frame.f_locals.values()):
            for candidate in (value, *getattr(value, "__dict__", {}).values()):
                if isinstance(candidate, socket.socket):
                    candidate.close()
        trace = trace.tb_next


def _reason(error: BaseException) -> str:
    """An error's first line, in one line: speechd's and BrlAPI's run over several."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def _message_id(result: Any) -> int:
    """The id in speechd's reply to SPEAK: (code, "OK MESSAGE QUEUED", ("12",))."""
    try:
        return int(result[2][0])
    except (TypeError, ValueError, IndexError):
        return -1


class Braille:
    """The latest words on the braille display, through BRLTTY's BrlAPI."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection

    @classmethod
    def connect(cls) -> tuple[Braille | None, str | None]:
        """(braille, None), or (None, why not): braille is welcome, never required."""
        try:
            brlapi = load_system_module("brlapi")
        except ImportError:
            return None, _(MISSING_BRLAPI)
        try:
            connection = brlapi.Connection()
            connection.enterTtyModeWithPath()
        except Exception as error:  # brlapi.ConnectionError: BRLTTY is not running
            LOG.warning("no braille display answers through BRLTTY: %s", _reason(error))
            # Translators: said alone, when speech works but braille does not; BRLTTY is the
            # name of a program.
            return None, _("no braille display answers through BRLTTY")
        return cls(connection), None

    def show(self, text: str) -> None:
        try:
            self._connection.writeText(text)
        except Exception:  # BRLTTY went away mid-game: speech goes on without braille
            self._connection = None

    def close(self) -> None:
        if self._connection is None:
            return
        with contextlib.suppress(Exception):
            self._connection.leaveTtyMode()
            self._connection.closeConnection()
        self._connection = None
