"""Quick pairing: the quick games' tables waiting for a player, and which one a newcomer joins
(the nearest rating first, the longest waiting among equals).

It owns only the waiting list and the tables held for a player who is joining now. It reads a
table (its host's team name, whether it still waits) through the `table` callable and never
seats anyone: a quick game becomes a plain `host` or `join`, which the seats role greets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from ...wire import protocol as p
from ...wire.names import same_name, spaced
from ..tables import HOST_SEAT, Table

SETTLE_S = 2.0  # a quick player waits at most this long for a quick table being hosted


@dataclass
class QuickPairing:
    table: Callable[[str], Table | None]
    # Quick games' tables waiting for a player, oldest first: code to the host's rating; and
    # those a player is joining now (put back in `quick` if the join fails).
    quick: dict[str, float] = field(default_factory=dict)
    paired: dict[str, float] = field(default_factory=dict)
    hosting: int = 0  # quick tables being hosted now (between `pair` and `hosted`)
    _hosted: asyncio.Event | None = None

    async def settled(self, patience_s: float = SETTLE_S) -> None:
        """Once no quick table is being hosted here (or after `patience_s`): a quick player
        who comes while one is (its table's code being claimed in a database; a player sent
        by another process the moment this one hosted) is paired with it, not hosted too.
        Call just before `pair`, with no wait between."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + patience_s
        while self.hosting and (left := ends - loop.time()) > 0:
            if self._hosted is None:
                self._hosted = asyncio.Event()
            try:
                await asyncio.wait_for(self._hosted.wait(), left)
            except asyncio.TimeoutError:
                return

    def hosted(self) -> None:
        """A quick table `pair` asked to host is hosted (and `waits`), or failed to be."""
        self.hosting = max(0, self.hosting - 1)
        if self._hosted is not None:
            self._hosted.set()
            self._hosted = None

    def pair(self, message: p.Quick, rating: float) -> p.Host | p.Join:
        """A quick game as a plain greeting: a join of the waiting table whose player's rating
        is nearest `rating` (the one waiting longest among equals; never a table of the same
        team name), or a host of a new one, which then waits (`waits`; say `hosted` once it
        is hosted or has failed)."""
        for code in [code for code in self.quick if not self._waiting(code)]:
            del self.quick[code]  # filled, ended or forgotten since
        names = [spaced(message.name), spaced(message.other)]
        waiting = []  # (rating apart, age, code, the name this player joins it as)
        for order, (code, kept) in enumerate(self.quick.items()):
            table = self.table(code)
            assert table is not None
            theirs = table.seats[HOST_SEAT].name
            fits = [name for name in names if name and not same_name(theirs, name)]
            if fits:
                waiting.append((abs(kept - rating), order, code, fits[0]))
        if not waiting:  # a new quick table, in the lobby like any public one, with a turn
            # limit: two strangers, and neither may keep the other waiting for ever.
            self.hosting += 1  # until `hosted`
            return p.Host(message.version, message.name, public=True, turn_s=p.QUICK_TURN_S)
        _apart, _age, code, name = min(waiting)
        self.paired[code] = self.quick.pop(code)  # held for this player while it joins
        return p.Join(message.version, code, name)

    def waiting(self) -> list[tuple[str, float]]:
        """The quick tables still waiting, the longest first, each with its player's rating:
        what this process shares with the others of a cluster (valkey_quick.py)."""
        return [(code, rating) for code, rating in self.quick.items() if self._waiting(code)]

    def _waiting(self, code: str) -> bool:
        table = self.table(code)
        return table is not None and not table.full and not table.over

    def failed(self, code: str, rating: float) -> None:
        """The join of a paired table failed: the table waits again, as it was."""
        self.quick[code] = self.paired.pop(code, rating)

    def waits(self, code: str, rating: float) -> None:
        """A new quick table waits for the next quick player."""
        self.quick[code] = rating

    def seated(self, code: str) -> None:
        """The table held for a joining player is no longer held."""
        self.paired.pop(code, None)
