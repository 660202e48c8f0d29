"""The stores seam: what a table server keeps past its own process (tables with their steps and
seats, accounts, sign-in tokens, ratings and rated games), as two typing Protocols, so the
embedded SQLite files (store.py, accounts.py with ratings.py) and a database server
(PostgreSQL: postgres_tables.py for the tables) can each stand behind the service unchanged. A
store keeps and finds; it never decides anything about a game (the rules and the seats are
tables.py's and the service's), never sends a message, never holds a plaintext password or seat
token, and never deletes a record it cannot read (it names it in the log and skips it). A table
store's `save` has either finished its write when it returns None (the embedded store: well
under a millisecond, so on the loop) or returns an awaitable that completes once the write is
durable (a database server's); the seats role waits for it through keeping.py's Keeper before
it tells any seat, so no seat hears anything its store could lose in a crash of the process.
The table store's other calls are alike: each returns its answer (the embedded store, at once,
with no task made) or an awaitable of it (postgres_tables.py's, whose answers come over a
connection), and the seats role awaits only what is awaitable, so neither store makes the other
slower and no call blocks the event loop. The account store's calls are synchronous, made on
threads. Both Protocols are checked by tests/test_contract_stores.py, which any new
implementation must pass unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..tables import Table

T = TypeVar("T")


class StoreError(Exception):
    """A store that is not its own files could not keep or read (a database server away,
    refusing or failing): raised `from` the driver's own error, so the seats role and
    keeping.py count it as a storage failure without importing any database's driver."""


class TakenOver(StoreError):
    """A fenced save refused: the table's claim is no longer the saving process's (another
    took the table over while this one was stalled past its lease, or it was let go). Final
    for this process, never retried as an outage: it drops the table and closes its lines
    to try again, so they reach the process that now plays it (seats.Seats.taken_over)."""

    def __init__(self, code: str, owner: str, holder: str | None) -> None:
        super().__init__(f"table {code} is no longer {owner!r}'s to save: "
                         + (f"{holder!r} holds it" if holder is not None else "nobody holds it"))
        self.code = code


async def answered(value: T | Awaitable[T]) -> T:
    """A store call's answer, awaited when the store gave an awaitable of it."""
    if isinstance(value, Awaitable):
        return await value
    return value


# What the account store's calls give back and raise: the seam's own values, so the
# roles read them without importing a store (accounts.py and ratings.py use them too).

class AccountError(ValueError):
    """A sign-up or sign-in refused: `code` is a protocol refusal code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(frozen=True)
class SignedIn:
    name: str  # as the player typed it at sign-up
    token: str  # a new sign-in token, to keep instead of the password


START = (1500.0, 350.0, 0.06)  # Glicko-2's own start: rating, deviation, volatility


@dataclass(frozen=True)
class Rating:
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class Result:
    opponent: str  # the other player's name, as typed
    score: float  # 1 a win, 0.5 a tie, 0 a loss


@dataclass(frozen=True)
class Standing:
    """What "Your rating" says: the rating, the rank among rated players ("12th of 40"),
    the last results (newest first) and the players just above and below (None at an end)."""

    name: str
    rating: int
    rank: int
    of: int
    recent: tuple[Result, ...]
    above: str | None
    below: str | None


class TableStore(Protocol):
    """Tables, each a header (seats, flags, held choices, counters) and its games' steps."""

    def save(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        """Keep `table` as it is now, in one transaction: its header, and the steps of its
        current game (`table.games`) not yet kept, appended in order; steps already kept are
        not written again. Fenced with `owner` (a server's name, as in `claim`): written only
        while `owner` holds the table's claim, checked in the same transaction, so no save
        commits after a take-over of it has (PostgreSQL: the header's holder, under its row
        lock); else TakenOver, and nothing of it written (None: no
        fence, for tools and tests that hold no claim). When it returns None, or the
        awaitable it returns completes, the whole table is durable past a kill of this
        process (SIGKILL included); when either raises (sqlite3.Error, OSError, StoreError:
        keeping.STORE_ERRORS) nothing of this save is kept and the table as last saved
        stands, and the next save writes whatever is not yet kept. A table's awaitables are
        awaited one at a time, in the order the saves were made (keeping.Keeper does), so
        two saves of one table never interleave."""
        ...

    def defer(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        """Keep `table` as it is now, as `save` would, but when it suits the store: a change
        no seat depends on being kept (a held choice, which the seat's game sends again if
        the server loses it: docs/protocol.md), so a database server's store writes it with
        another save's transaction, or on its own after a second or so, and a save of the
        table made before then replaces it (the header is written whole). A kill of the
        process may lose it; `close` writes it. Made only when none of the table's saves is
        still being awaited (keeping.Keeper sees to it). None: written already (the
        embedded store, as `save`); an awaitable: completes once written or replaced, and
        never raises (a write that fails is the table's next save's to make)."""
        ...

    def open_tables(self) -> list[Table] | Awaitable[list[Table]]:
        """Every table not over, each rebuilt from its header and its current game's steps in
        order (a rematch's game never shows an earlier game's steps). A table that does not
        rebuild is named in the log and skipped, never deleted."""
        ...

    def ended(self, code: str) -> Table | Awaitable[Table | None] | None:
        """The table with `code` if it is over (left, or its game ended), else None: for a
        seat that comes back to hear how it ended."""
        ...

    def table(self, code: str) -> Table | Awaitable[Table | None] | None:
        """The table with `code` if it is still being played, rebuilt as `open_tables` does:
        for a server taking over a table whose holder was lost."""
        ...

    def claim(self, code: str, owner: str) -> bool | Awaitable[bool]:
        """Whether `owner` (a server, named the same across its restarts) now holds the table
        `code`: True when no one held it or `owner` already did, False when another owner
        holds it. Durable when it returns: two processes, each with its own store on the same
        data, never both get True for one code until the holder releases it."""
        ...

    def take_over(self, code: str, owner: str, lost: str) -> bool | Awaitable[bool]:
        """Whether `owner` now holds `code` in place of `lost`, a server known to be gone (its
        lease in the cluster ran out): True when `lost` held it (or `owner` already did),
        False when another holds it or nobody does. Durable when it returns; of two owners
        taking over one table at once, one gets True."""
        ...

    def release(self, code: str, owner: str) -> Awaitable[None] | None:
        """`owner` lets go of `code`, durably when it returns None or its awaitable completes;
        another owner's claim stands."""
        ...

    def close(self) -> Awaitable[None] | None:
        """Close the store's files or connections (done when it returns None, or once its
        awaitable completes); every completed save is already durable."""
        ...


class AccountStore(Protocol):
    """Players' accounts, sign-in tokens and ratings. Each call may hash on purpose (argon2id,
    tens of milliseconds): the service makes them on threads, never on its event loop, so an
    implementation must be safe to call from several threads."""

    def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account with a new sign-in token, both durable when it returns; AccountError
        when the name is refused or taken (folded, or a look-alike) or the password weak."""
        ...

    def sign_in(self, name: str, password: str = "", token: str = "") -> SignedIn:
        """Signed in with the password or with a token; a new token is returned and, with a
        token, the old one is spent (durably, before it returns: of two calls with one token,
        one succeeds). AccountError: the same refusal for every wrong name, password or token."""
        ...

    def name_of(self, name: str) -> str | None:
        """The account's name as typed at sign-up, or None: no account has it."""
        ...

    def rating(self, key: str) -> Rating:
        """The account's rating (`key`: its folded name); Glicko-2's start before any game."""
        ...

    def record(self, first: str, second: str, score: float) -> tuple[Rating, Rating]:
        """A finished game between two accounts (`score` is the first's): both ratings and the
        game kept in one transaction, durable when it returns; the new ratings returned."""
        ...

    def standing(self, key: str) -> Standing | None:
        """The account's place among rated players, its recent results newest first; None
        before its first rated game."""
        ...

    def close(self) -> None:
        """Close the store; every completed call is already durable."""
        ...
