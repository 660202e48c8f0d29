"""What the seats role holds, in one record its parts share: the calls it was handed, its
settings, the open tables and their lines, the timers that wait for a seat, the tables that
ended lately. `Seats` (seats.py) is this record with its parts built on it: greeting.py,
seat_life.py, table_steps.py, turn_limits.py and claims.py each read and change what they
need of it here, so no part holds a copy that could go stale (the service and the tests
set `limits`, `shared`, `tally` and `stand_in_after_s` after it is made).

No behaviour lives here: the record and the greeting's prepared secrets (`Prepared`). It
never imports a part.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection

from ...engine.state import Team
from ..cluster.tally import NoTally, Tally
from ..lines.limits import Addresses, Limits
from ..lines.postman import Postman
from ..stores.keeping import Keeper
from ..stores.seam import TableStore
from ..tables import Outgoing, Seat, Table
from .hashing import Hashing
from .turn_clock import TurnClock


@dataclass
class SeatBook:
    """Every open table, and who is connected to which seat. `seed`: table n's dice come from
    seed + n (tests and replays); None: from the system's entropy. `store`: where tables are
    kept, so they outlive the process."""

    postman: Postman
    limits: Limits
    addresses: Addresses  # wrong codes, tokens and passwords, per address
    hashing: Hashing  # tables' passwords hashed on the accounts' bounded lane
    tell_watchers: Callable[[str, Outgoing], None]
    lobby_changed: Callable[[], None]
    rate: Callable[[Table], None]
    forget_watchers: Callable[[str, int], None]  # a table gone: (code, close code or 0)
    seed: int | None = None
    store: TableStore | None = None
    owner: str = ""  # this server's name in the store's claims, the same across its restarts
    tables: dict[str, Table] = field(default_factory=dict)
    connections: dict[tuple[str, Team], ServerConnection] = field(default_factory=dict)
    waits: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # A dropped seat's player is stood in for by the computer after this long (at most half
    # the table's seat wait), so the one who stayed goes on playing (server/roles/stand_in.py).
    stand_in_after_s: float = 30.0
    stand_ins: dict[tuple[str, Team], asyncio.TimerHandle] = field(default_factory=dict)
    # How long each seat has been away during a step (the step, the seconds), so a player who
    # drops and comes back again and again cannot put off the computer's stand-in for ever.
    away_spent: dict[tuple[str, Team], tuple[int, float]] = field(default_factory=dict)
    closing: set[asyncio.Future[None]] = field(default_factory=set)  # stale lines closing
    # The last ENDED_KEPT tables that ended, oldest first: a seat away at the end still
    # hears how, from a server with no store (the one a game serves at home) as from the file.
    ended: OrderedDict[str, Table] = field(default_factory=OrderedDict)
    opened: int = 0
    clock: Callable[[], float] = time.time  # wall-clock: a seat's drop time outlives the process
    turn_clock: TurnClock = field(init=False)  # tables' turn limits (turn_clock.py)
    hosted_from: dict[str, set[str]] = field(default_factory=dict)  # address: tables it opened
    # The other processes' tables waiting per address, in a cluster (`waiting_from` is what
    # this one tells them): none alone.
    tally: Tally = field(default_factory=NoTally)
    claiming: set[str] = field(default_factory=set)  # new codes whose claims are awaited
    moved: set[str] = field(default_factory=set)  # tables dropped here, taken over elsewhere
    adopting: dict[str, asyncio.Future[bool]] = field(default_factory=dict)  # taken over now
    draining: bool = False  # a clean stop in a cluster: no new table, none taken over
    # In a cluster (--valkey): a table the store has open but this process does not hold is
    # another process's, or being handed over between two (a restart racing a take-over), so
    # a seat resuming it is asked to try again, never told it is unknown.
    shared: bool = False

    keeper: Keeper = field(init=False)  # every change kept before a seat hears of it


@dataclass
class Prepared:
    """What a greeting needed hashed, made off the loop (`Seats.password_work`): a
    host's or a guest's new seat with its token sealed, a host's password locked, whether a
    join's password opened its table, and the seats a resume's token opens (None: not
    looked at yet)."""

    seat: Seat | None = None
    lock: str = ""
    unlocked: bool = True
    resumed: list[Team] | None = None


def opened_by(seats: dict[Team, Seat], token: str) -> list[Team]:
    """The seats `token` opens (a hash each: off the loop when it can be)."""
    return [team for team, seat in seats.items() if seat.opens(token)]
