"""Fault reasons the player must be told about, each recorded once, from any thread."""

from __future__ import annotations

import threading


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
