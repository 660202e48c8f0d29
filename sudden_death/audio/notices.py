"""Fault reasons the player must be told about, each recorded once, from any thread, and the
rule for what a reason may say: the game's own words, never a library's (those go to the log).
"""

from __future__ import annotations

import logging
import threading

LOG = logging.getLogger("sudden_death.audio")
LONGEST_REASON = 120  # characters: a reason longer than this is not a clause to say


class PlainFault(RuntimeError):
    """A failure described in the game's own words (translated): fit to say to the player."""


def said_reason(error: BaseException, what: str) -> str:
    """The reason a notice may give for `error`: its own words when they are the game's
    (`PlainFault`); "" for anything else, whose text (a library's, in English, often a path
    or an internal name) is logged with `what` failed instead."""
    text = str(error).strip()
    if isinstance(error, PlainFault) and text and len(text) <= LONGEST_REASON:
        return text
    LOG.warning("%s: %s", what, text or type(error).__name__)
    return ""


class NoticeBoard:
    """A de-duplicated, thread-safe list of reasons; the front end shows each one once."""

    def __init__(self) -> None:
        self.items: list[str] = []  # every reason so far, in order (AudioSystem.notices)
        self._taken = 0
        self._lock = threading.Lock()

    def add(self, reason: str) -> bool:
        """Record a reason unless it is already known; True if it was new."""
        with self._lock:
            if reason in self.items:
                return False
            self.items.append(reason)
            return True

    def take_new(self) -> list[str]:
        """The reasons recorded since the last call, so a caller can show each exactly once."""
        with self._lock:
            new = self.items[self._taken :]
            self._taken = len(self.items)
            return new
