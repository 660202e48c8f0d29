"""A table's turn limit: each seat that owes a choice has the table's `turn_s` for it, is
warned `TURN_WARNING_S` before the end, may ask for the whole turn again up to
`MAX_EXTENSIONS` times a game, and, when the turn runs out, has its last cards played again.

By default a table has no limit (a player may take as long as they like); a host sets one,
which the players hear when the game begins (WCAG's timing rule: announced, warned, and
extendable). The clock runs only for a seat that is connected and owes the step: a seat
whose line dropped is waited for instead (its seat wait, then the computer: stand_in.py).
A seat that comes back has what was left of its turn (at least the warning's 20 s), not a
new one: dropping the line is no way to stall.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from ...engine.actions import actors
from ...engine.state import TEAMS, Team
from ...wire import protocol as p
from ..tables import Table

Key = tuple[str, Team]  # (table code, seat)


@dataclass
class Turn:
    step: int
    timers: list[asyncio.TimerHandle]
    ends: float  # the loop's time when it runs out


@dataclass
class TurnClock:
    """The running turns of every table, for the service. `warn(code, team)` and
    `expire(code, team, step)` are called when due (on the loop)."""

    warn: Callable[[str, Team], None]
    expire: Callable[[str, Team, int], None]
    turns: dict[Key, Turn] = field(default_factory=dict)
    # What was left of a turn when its seat went away (the step, the seconds left).
    paused: dict[Key, tuple[int, float]] = field(default_factory=dict)

    def arm(self, table: Table, connected: Callable[[Team], bool]) -> None:
        """After anything that may have moved the game: a turn for each connected seat that
        owes this step and has none for it yet; none for any other seat."""
        due = set()
        if table.turn_s and table.full and not table.over:
            due = {team for team in actors(table.game.state)
                   if team not in table.held and team not in table.computer and connected(team)}
        for team in TEAMS:
            key = (table.code, team)
            turn = self.turns.get(key)
            if team not in due:
                if turn is not None and turn.step == table.step and team not in table.held:
                    # Away (or stood in for) with the step still owed: kept for its return.
                    left = turn.ends - asyncio.get_running_loop().time()
                    self.paused[key] = (turn.step, max(0.0, left))
                self.stop(key)
            elif turn is None or turn.step != table.step:
                self.stop(key)
                seconds = float(table.turn_s)
                paused = self.paused.pop(key, None)
                if paused is not None and paused[0] == table.step:
                    seconds = min(seconds, max(paused[1], float(p.TURN_WARNING_S)))
                self._start(table, team, seconds)

    def more_time(self, table: Table, team: Team) -> p.TimeAdded | p.Refused:
        """A seat asks for its whole turn again."""
        key = (table.code, team)
        if key not in self.turns:
            return p.Refused(p.NOT_NOW, "there is no turn limit on a choice of yours now")
        used = table.extended.get(team, 0)
        if used >= p.MAX_EXTENSIONS:
            return p.Refused(p.NOT_NOW, f"more time is given {p.MAX_EXTENSIONS} times a game")
        table.extended[team] = used + 1
        self.stop(key)
        self._start(table, team, float(table.turn_s))
        return p.TimeAdded(table.turn_s, p.MAX_EXTENSIONS - used - 1)

    def extensions_left(self, table: Table, team: Team) -> int:
        return p.MAX_EXTENSIONS - table.extended.get(team, 0)

    def stop(self, key: Key) -> None:
        turn = self.turns.pop(key, None)
        if turn is not None:
            for timer in turn.timers:
                timer.cancel()

    def forget(self, code: str) -> None:
        for key in [key for key in self.turns if key[0] == code]:
            self.stop(key)
        for team in TEAMS:
            self.paused.pop((code, team), None)

    def _start(self, table: Table, team: Team, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        code, step = table.code, table.step
        timers = [loop.call_later(seconds, self._expired, code, team, step)]
        if seconds >= p.TURN_WARNING_S:
            timers.append(loop.call_later(seconds - p.TURN_WARNING_S, self.warn, code, team))
        self.turns[(code, team)] = Turn(step, timers, loop.time() + seconds)

    def _expired(self, code: str, team: Team, step: int) -> None:
        self.turns.pop((code, team), None)
        self.expire(code, team, step)
