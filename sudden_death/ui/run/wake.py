"""How other threads reach the game's loop: they wake it, or hand it a call to make.

Why: pygame must be called from one thread (its calls from the speech worker have crashed the
process), and a loop that turns every 2 ms to look for news costs 5-7 % of a core at an idle
table. So the threads that have news (the table's link, the `--keys -` reader) `set` the Wake,
and the speech worker `post`s a line's sounds (cue, dice, sweep, field tone, rumble) to it
instead of playing them; the loop `wait`s on it until its own next due time and makes the
posted calls itself, on its own thread.
"""

from __future__ import annotations

import queue
import threading
import traceback
from collections.abc import Callable


class Wake:
    """A flag any thread may raise and a queue of calls for the loop's thread."""

    def __init__(self) -> None:
        self._flag = threading.Event()
        self._calls: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def set(self) -> None:
        """There is news: the loop's wait ends now (or its next wait does not start)."""
        self._flag.set()

    def post(self, call: Callable[[], None]) -> None:
        """Have the loop make `call` on its own thread, soon, in the order posted."""
        self._calls.put(call)
        self._flag.set()

    def is_set(self) -> bool:
        return self._flag.is_set()

    def wait(self, timeout: float) -> bool:
        """Sleep until woken or `timeout` seconds pass; True if woken. The flag stays up until
        the loop's next turn begins (`run_posted`)."""
        return self._flag.wait(max(0.0, timeout))

    def run_posted(self) -> int:
        """A turn of the loop begins: the flag is lowered (whatever raised it is looked at in
        this turn, and news that comes later raises it again, so the next wait ends at once),
        then every call posted so far is made on the caller's thread, the loop's; returns how
        many. One that fails is printed, never raised: a line's sounds must not end the game."""
        self._flag.clear()
        made = 0
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                return made
            made += 1
            try:
                call()
            except Exception:
                traceback.print_exc()
