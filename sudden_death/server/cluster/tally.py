"""The limits' counts beyond this process: the seam where a cluster shares them (issue 62).

A limit counts two kinds of thing per key (a client's address, a name tried): events in a
sliding window (new lines, wrong codes or passwords) and gauges (lines open now). `limits.py`
keeps this process's own counts in memory, as it always has, and asks a `Tally` what the
other processes of a cluster count for the same key, so a client meets the same limit
whichever process it reaches. On a process alone that is nothing (`NoTally`); in a cluster,
Valkey (valkey_tally.py). A tally never raises into the limits and never blocks them long: an
engine away is the other processes' counts unknown (each process then holds its own), not a
refusal.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["NoTally", "Tally"]


class Tally(Protocol):
    """The other processes' counts, and this one's told to them. `kind` names the count
    ("arrive", "fail", "name", "lines"); `key`, what it is counted for."""

    def add(self, kind: str, key: str) -> None:
        """This process counted an event for `key` now (told to the others soon)."""

    def take_back(self, kind: str, key: str) -> None:
        """The latest event this process counted for `key` is given back."""

    def gauge(self, kind: str, key: str, count: int) -> None:
        """This process's count for `key` is `count` now."""

    async def ages(self, kind: str, key: str, window_s: float) -> list[float]:
        """How long ago (seconds) each of the other processes' events for `key` within the
        last `window_s` happened."""

    async def elsewhere(self, kind: str, key: str) -> int:
        """The other live processes' gauges for `key`, summed."""


class NoTally:
    """A process alone: nothing counted elsewhere."""

    def add(self, kind: str, key: str) -> None:
        pass

    def take_back(self, kind: str, key: str) -> None:
        pass

    def gauge(self, kind: str, key: str, count: int) -> None:
        pass

    async def ages(self, kind: str, key: str, window_s: float) -> list[float]:
        return []

    async def elsewhere(self, kind: str, key: str) -> int:
        return 0
