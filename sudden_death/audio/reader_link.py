"""The player's screen reader, reached on a thread of its own.

A screen reader is an outside service: speech-dispatcher can accept a connection and then never
answer (one whose audio failed does exactly that), and speechd's client then waits forever
inside its constructor or a request. So the game never calls a reader on its own loop. The
loop puts each request on a queue and asks `poll` what happened; the link's thread connects,
then sends the requests in order. A connection that takes longer than `connect_seconds`, or a
request longer than `call_seconds`, is a reader gone quiet: the link says so once and is let go
(its thread may stay blocked; it is a daemon and holds nothing the game needs).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .reader_base import NoScreenReader, ScreenReader

LOG = logging.getLogger(__name__)

CONNECT_SECONDS = 5.0  # speech-dispatcher may have to start itself first: about a second
CALL_SECONDS = 2.0  # one request takes milliseconds; this long is a reader gone quiet

ReaderFinder = Callable[[], ScreenReader]


class LinkState(Enum):
    CONNECTING = "connecting"
    READY = "ready"
    FAILED = "failed"  # it said no, or a request failed: `reason` says why
    SILENT = "silent"  # it stopped answering: let go
    CLOSED = "closed"


@dataclass(frozen=True)
class LinkNews:
    """What `poll` reports, once each: the reader connected (`reader`), or it is gone."""

    state: LinkState
    reason: str = ""
    reader: ScreenReader | None = None


_CLOSE = object()


class ReaderLink:
    """One screen reader connection on its own daemon thread; every method returns at once."""

    def __init__(self, find_reader: ReaderFinder, connect_seconds: float = CONNECT_SECONDS,
                 call_seconds: float = CALL_SECONDS) -> None:
        self._find = find_reader
        self._connect_seconds = connect_seconds
        self._call_seconds = call_seconds
        self._requests: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._state = LinkState.CONNECTING
        self._reason = ""
        self._reader: ScreenReader | None = None
        self._busy_since: float | None = time.monotonic()  # connecting counts as busy
        self._outstanding = 0  # requests queued and not yet sent (taken off the queue or not)
        self._pending_alerts = 0  # results queued and not yet handed to the reader
        self._cut = False  # silenced or cut since the last result was queued
        self._told = False  # whether `poll` has reported the latest state
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._run, name="screen reader", daemon=True)
        self._thread.start()

    # -- the loop's side ----------------------------------------------------------------------

    @property
    def state(self) -> LinkState:
        with self._lock:
            return self._state

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None:
        with self._lock:
            if alert:
                self._pending_alerts += 1
                self._cut = False
            elif interrupt:
                self._cut = True  # whatever the reader still says is being cut
        self._put(("speak", text, interrupt, alert))

    def braille(self, text: str) -> None:
        self._put(("braille", text))

    def cancel(self) -> None:
        with self._lock:
            self._pending_alerts, self._cut = 0, True
        self._put(("cancel",))

    def alert_speaking(self) -> bool:
        """A result is being said, or waits to be: a focus move must not cut it."""
        with self._lock:
            reader, pending, cut = self._reader, self._pending_alerts, self._cut
        if pending:
            return True
        if reader is None or cut:  # cut since the last result: nothing of it is being said
            return False
        try:
            return reader.alert_speaking()  # a table kept by its own callbacks: never blocks
        except Exception:
            return False

    def poll(self) -> LinkNews | None:
        """What changed since the last call, if anything: connected, refused, or gone quiet
        (a request, or the connection, outlasted its time)."""
        with self._lock:
            busy = self._busy_since
            limit = (self._connect_seconds if self._state is LinkState.CONNECTING
                     else self._call_seconds)
            if (self._state in (LinkState.CONNECTING, LinkState.READY) and busy is not None
                    and time.monotonic() - busy > limit):
                self._state, self._told = LinkState.SILENT, False
                self._reader = None
            if self._told or self._state is LinkState.CONNECTING:
                return None
            self._told = True
            return LinkNews(self._state, self._reason, self._reader)

    def close(self, drain_seconds: float = 0.0) -> None:
        """Let go: the thread sends what is queued, then closes the reader. `drain_seconds`
        waits that long at most for it (the game's last words, at exit); a reader that does
        not answer is left to its thread."""
        self._requests.put(_CLOSE)
        if drain_seconds > 0 and self.state is LinkState.READY:
            self._thread.join(drain_seconds)
        with self._lock:
            self._state, self._told = LinkState.CLOSED, True

    def wait_idle(self, timeout: float) -> bool:
        """For tests and tools: wait until the queue is empty and nothing is being sent (or
        the link has ended); True if it got there in `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                done = self._state not in (LinkState.CONNECTING, LinkState.READY) or (
                    self._busy_since is None and self._outstanding == 0)
            if done:
                return True
            self._idle.wait(0.01)
            self._idle.clear()
        return False

    def _put(self, request: object) -> None:
        with self._lock:
            if self._state not in (LinkState.CONNECTING, LinkState.READY):
                return
            # Counted before the thread can take it: an empty queue alone would say "idle"
            # between the thread's get() and its send.
            self._outstanding += 1
            self._requests.put(request)

    # -- the link's thread --------------------------------------------------------------------

    def _run(self) -> None:
        try:
            reader = self._find()
        except NoScreenReader as why:
            self._end(LinkState.FAILED, str(why))
            return
        except Exception as error:  # a client library failing in a way nobody foresaw
            LOG.warning("the screen reader could not be reached: %r", error)
            self._end(LinkState.FAILED, "")
            return
        with self._lock:
            if self._state is not LinkState.CONNECTING:  # given up on, or closed, meanwhile
                keep = False
            else:
                keep = True
                self._reader, self._state, self._told = reader, LinkState.READY, False
                self._busy_since = None
        if not keep:
            _close_quietly(reader)
            return
        self._serve(reader)

    def _serve(self, reader: ScreenReader) -> None:
        while True:
            self._idle.set()
            request = self._requests.get()
            if request is _CLOSE:
                _close_quietly(reader)
                return
            assert isinstance(request, tuple)
            with self._lock:
                if self._state is not LinkState.READY:  # given up on: send nothing more
                    break
                self._busy_since = time.monotonic()
            try:
                self._send(reader, request)
            except Exception as error:  # the reader went away mid-game
                LOG.warning("the screen reader stopped answering: %r", error)
                self._end(LinkState.FAILED, "")
                _close_quietly(reader)
                return
            finally:
                with self._lock:
                    self._busy_since = None
                    self._outstanding -= 1
                    if request[0] == "speak" and request[3]:
                        self._pending_alerts = max(0, self._pending_alerts - 1)
        _close_quietly(reader)

    @staticmethod
    def _send(reader: ScreenReader, request: tuple[object, ...]) -> None:
        kind = request[0]
        if kind == "speak":
            text, interrupt, alert = request[1], request[2], request[3]
            assert isinstance(text, str)
            reader.speak(text, interrupt=bool(interrupt), alert=bool(alert))
        elif kind == "braille":
            assert isinstance(request[1], str)
            reader.braille(request[1])
        else:
            reader.cancel()

    def _end(self, state: LinkState, reason: str) -> None:
        with self._lock:
            if self._state in (LinkState.CONNECTING, LinkState.READY):
                self._state, self._reason, self._told = state, reason, False
                self._reader = None
            self._busy_since = None
            self._pending_alerts = 0
        self._idle.set()


def _close_quietly(reader: ScreenReader) -> None:
    try:
        reader.close()
    except Exception as error:  # closing must never fail the game
        LOG.warning("closing the screen reader failed: %r", error)
