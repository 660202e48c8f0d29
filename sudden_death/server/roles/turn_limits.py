"""Turn limits on the seats role's side: what the turn clock (turn_clock.py) calls when a
seat's turn nears its end or runs out. The seat that owes the step hears the warning; a turn
run out is said to both seats and the seat's last cards are played again, as a step.

It never arms the clock itself (a step told does: table_steps.py) and never greets or waits
for a seat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ...engine.state import TEAMS, Team
from ...wire import protocol as p
from ...wire.values import action_to_wire
from ..tables import Outgoing
from .seat_book import SeatBook
from .stand_in import last_cards, stand_in_moves
from .table_steps import TableSteps

LOG = logging.getLogger("sudden_death.server")


@dataclass(eq=False)  # by identity: it and its record (the Seats) hold each other
class TurnLimits:
    """The turn clock's calls for the tables in `book`, played through `steps`."""

    book: SeatBook
    steps: TableSteps

    def warning(self, code: str, team: Team) -> None:
        book = self.book
        table, connection = book.tables.get(code), book.connections.get((code, team))
        if table is not None and connection is not None:
            book.postman.send(connection, p.TimeWarning(
                p.TURN_WARNING_S, book.turn_clock.extensions_left(table, team)))

    def time_up(self, code: str, team: Team, step: int) -> None:
        """A turn ran out: both seats hear whose, and its last cards are played again."""
        table = self.book.tables.get(code)
        if table is None or table.over or table.step != step or team in table.held:
            return
        LOG.info("table %s: the %s seat's turn ran out at step %d", code, team.name.lower(),
                 step)
        out: Outgoing = [(each, p.TimeUp(table.seats[team].name)) for each in TEAMS]
        out += table.act(team, step, [action_to_wire(last_cards(table, team))])
        was_over = table.over
        self.steps.commit(table, out + stand_in_moves(table))
        if table.over and not was_over:
            self.book.rate(table)
