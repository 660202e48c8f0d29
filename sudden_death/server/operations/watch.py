"""What the connection handler tells whoever watches the server from outside: a seat's message
heard and handled, a table's kept changes told, a refusal sent. The seam between the service
and its metrics (metrics.py, with `--metrics-from`), so the service never imports the metrics
library and a server without metrics pays a few empty calls a message, nothing more.

It never changes what happens: a watcher only counts and times.
"""

from __future__ import annotations

from typing import Protocol

from ..tables import Outgoing


class Watch(Protocol):
    def heard(self, code: str) -> float:
        """A seat's message reached table `code`, before it is handled: a token (when) that
        `handled` is given back."""
        ...

    def handled(self, code: str, heard: float, moved: bool) -> None:
        """That message handled: `moved` when it moved the game (a commit held, or a step
        played, whose update is then on its way: at once, or once the store has kept it)."""
        ...

    def told(self, code: str, out: Outgoing) -> None:
        """Table `code`'s kept changes, about to be told to its seats and spectators."""
        ...

    def refused(self, code: str) -> None:
        """A refusal (protocol `refused`, its `code`) sent to a line."""
        ...


class Unwatched:
    """No one watches (no `--metrics-from`): every call does nothing."""

    def heard(self, code: str) -> float:
        return 0.0

    def handled(self, code: str, heard: float, moved: bool) -> None:
        return None

    def told(self, code: str, out: Outgoing) -> None:
        return None

    def refused(self, code: str) -> None:
        return None
