"""Players' names on a table server: sign up with a name and a password, sign in again with a
renewable token, and no CAPTCHA or e-mail (a player who cannot see signs up by ear).

One SQLite file (`accounts.sqlite3` in `--data DIR`, or in memory without one), beside the
tables' file: an account is its name as typed, the name folded as an ear compares it (no case,
accents or spaces: `wire/names.py`; its key, which tokens and ratings name), the name's two
skeletons (look-alikes written as their prototypes: no two accounts share one, so "Аnna"
with a Cyrillic А cannot sign up beside "Anna"), the password's argon2id hash with
argon2-cffi's default cost (slow to guess on purpose), and the argon2id hashes of its sign-in
tokens (cheap: a token has 144 random bits). The password and the tokens themselves are kept
nowhere. Every call here hashes, so the service makes them on a thread, never on its event
loop (the slow ones on its own bounded threads: hashing.py).
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ...wire import protocol as p
from ...wire.names import folded, skeletons, spaced
from ..tables import seal_token, token_opens
from .seam import AccountError, SignedIn

FILE_NAME = "accounts.sqlite3"
TOKENS_KEPT = 5  # sign-in tokens an account keeps (a laptop, a desktop...): the oldest goes
MIN_PASSWORD = 6


def checked_name(name: str) -> str:
    """A player's name as it will be said: 1 to 24 printable characters, runs of spaces made
    one; control characters, direction marks and invisible joiners refused with the reason."""
    name = spaced(name)
    if not name or len(name) > p.MAX_NAME:
        raise AccountError(p.BAD_NAME, p.NAME_LENGTH)
    if not name.isprintable():  # Unicode's Other and Separator: controls, direction marks...
        raise AccountError(p.BAD_NAME, p.NAME_UNREADABLE)
    if not all(skeletons(name)):  # nothing left once invisible characters are dropped
        raise AccountError(p.BAD_NAME, p.NAME_SILENT)
    return name


def checked_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= p.MAX_PASSWORD or not password.isprintable():
        raise AccountError(p.WEAK_PASSWORD, f"a password has {MIN_PASSWORD} to "
                                            f"{p.MAX_PASSWORD} printable characters")
    return password


class AccountRows(Protocol):
    """What a store of accounts does with its rows, each call one transaction of its own: the
    SQLite file's (`Accounts`, below) and PostgreSQL's (postgres_accounts.py). The rules around
    them (a name's checks, the slow hash before any write, the one refusal for every wrong
    try, a token spent once) are `signed_up` and `signed_in`, written once for both."""

    def taken(self, key: str, written: str, plain: str) -> bool:
        """Whether an account is folded as `key`, or has the skeleton `written` or `plain`."""
        ...

    def oldest(self, column: str, value: str) -> tuple[str, str, str] | None:
        """The oldest account whose `column` (folded, skeleton or skeleton_folded) is `value`:
        its key, its name as typed and its password's hash."""
        ...

    def tokens(self, key: str) -> list[str]:
        """The sealed sign-in tokens the account `key` keeps (none for no account)."""
        ...

    def add(self, key: str, name: str, locked: str, written: str, plain: str) -> bool:
        """A new account, its password hashed (`locked`); False, and nothing written, when
        one that `taken` finds was made meanwhile (the check and the write one transaction)."""
        ...

    def spend(self, key: str, sealed: str) -> bool:
        """Delete the kept token `sealed`: True only for the one call whose delete took it."""
        ...

    def rehash(self, key: str, locked: str) -> None:
        """Keep `locked` as the account's password hash instead (a cost raised since)."""
        ...

    def keep_token(self, key: str, sealed: str) -> None:
        """Keep `sealed` for the account, and drop its oldest beyond TOKENS_KEPT."""
        ...


def account_of(rows: AccountRows, name: str) -> tuple[str, str, str] | None:
    """The account `name` signs in to (its key, its name as typed, its password's hash):
    the one folded as `name` is, else the oldest that looks like it."""
    written, plain = skeletons(name)
    for column, value in (("folded", folded(name)), ("skeleton_folded", plain),
                          ("skeleton", written)):
        row = rows.oldest(column, value)
        if row is not None:
            return row
    return None


def signed_up(rows: AccountRows, hasher: PasswordHasher, name: str, password: str) -> SignedIn:
    """A new account, or AccountError: a name refused, taken (folded, or a look-alike), or a
    weak password."""
    name, password = checked_name(name), checked_password(password)
    key, (written, plain) = folded(name), skeletons(name)
    if rows.taken(key, written, plain):  # a taken name costs no hash
        raise _taken()
    if not rows.add(key, name, hasher.hash(password), written, plain):  # signed up meanwhile
        raise _taken()
    return SignedIn(name, _new_token(rows, key))


def signed_in(rows: AccountRows, hasher: PasswordHasher, name: str, password: str = "",
              token: str = "") -> SignedIn:
    """Signed in with the password, or with a token (which is then renewed: the old one
    stops working). A name with no account, a wrong password and a wrong token are the
    same refusal, so a guesser learns nothing from which it was."""
    row = account_of(rows, name)
    kept = rows.tokens("" if row is None else row[0]) if token else []
    if row is None:  # as slow as a real try of the same kind
        if token:
            seal_token(token)
        else:
            hasher.hash(password)
        raise _wrong()
    key, typed, locked = row
    if token:
        opened = next((sealed for sealed in kept if token_opens(sealed, token)), None)
        # Spent once: the row's delete is the check, so of two lines sending one token at
        # once (both found it above), only the one whose delete took it signs in.
        if opened is None or not rows.spend(key, opened):
            raise _wrong()
        return SignedIn(typed, _new_token(rows, key))
    try:
        hasher.verify(locked, password)
    except (VerificationError, InvalidHashError):
        raise _wrong() from None
    if hasher.check_needs_rehash(locked):  # a cost raised since it was kept
        rows.rehash(key, hasher.hash(password))
    return SignedIn(typed, _new_token(rows, key))


def _new_token(rows: AccountRows, key: str) -> str:
    token = secrets.token_urlsafe(18)  # 144 bits
    rows.keep_token(key, seal_token(token))
    return token


class Accounts:
    """The accounts of one server in one SQLite file (`AccountRows`). Safe to call from
    worker threads (one lock around the file's connection); each call is one transaction."""

    def __init__(self, folder: Path | None = None) -> None:
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        where = ":memory:" if folder is None else str(folder / FILE_NAME)
        self.db = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
        self.lock = threading.Lock()
        self._hasher = PasswordHasher()
        with self.lock:
            # A rollback journal, not WAL: names change rarely, and the file stays one file
            # (no -wal and -shm beside it) that a backup copies as it is.
            self.db.execute("CREATE TABLE IF NOT EXISTS accounts (folded TEXT PRIMARY KEY, "
                            "name TEXT NOT NULL, password TEXT NOT NULL, "
                            "created REAL NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS tokens (folded TEXT NOT NULL, "
                            "sealed TEXT NOT NULL, made REAL NOT NULL)")
            self._add_skeletons()

    def _add_skeletons(self) -> None:
        """A file from before look-alike names were refused (issue 59) gets each name's two
        skeletons, computed from the name as typed (cheap); its keys (`folded`) stay, so its
        tokens and ratings go on working. Not unique in the file: two look-alike accounts made
        before then both stay, and each still signs in by its own name."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(accounts)")}
        with self.db:
            for column in ("skeleton", "skeleton_folded"):
                if column not in columns:
                    self.db.execute(f"ALTER TABLE accounts ADD COLUMN {column} TEXT NOT NULL "
                                    "DEFAULT ''")
                self.db.execute(f"CREATE INDEX IF NOT EXISTS accounts_{column} ON accounts "
                                f"({column})")
            for key, name in self.db.execute("SELECT folded, name FROM accounts WHERE "
                                             "skeleton = '' OR skeleton_folded = ''").fetchall():
                self.db.execute("UPDATE accounts SET skeleton = ?, skeleton_folded = ? "
                                "WHERE folded = ?", (*skeletons(name), key))

    def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account, or AccountError: a name refused, taken (folded), or a weak password."""
        return signed_up(self, self._hasher, name, password)

    def sign_in(self, name: str, password: str = "", token: str = "") -> SignedIn:
        """Signed in with the password, or with a token (`signed_in`)."""
        return signed_in(self, self._hasher, name, password, token)

    def name_of(self, name: str) -> str | None:
        """The account's name as typed at sign-up, or None: no account has it."""
        row = account_of(self, name)
        return None if row is None else row[1]

    # -- AccountRows: the file's rows --------------------------------------------------------

    def _taken(self, key: str, written: str, plain: str) -> bool:
        return self.db.execute("SELECT 1 FROM accounts WHERE folded = ? OR skeleton = ? OR "
                               "skeleton_folded = ?", (key, written, plain)).fetchone() is not None

    def taken(self, key: str, written: str, plain: str) -> bool:
        with self.lock:
            return self._taken(key, written, plain)

    def oldest(self, column: str, value: str) -> tuple[str, str, str] | None:
        with self.lock:
            row = self.db.execute("SELECT folded, name, password FROM accounts WHERE "
                                  f"{column} = ? ORDER BY created LIMIT 1", (value,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def tokens(self, key: str) -> list[str]:
        with self.lock:
            return [str(sealed) for (sealed,) in self.db.execute(
                "SELECT sealed FROM tokens WHERE folded = ?", (key,))]

    def add(self, key: str, name: str, locked: str, written: str, plain: str) -> bool:
        with self.lock:
            try:
                with self.db:
                    if self._taken(key, written, plain):
                        return False
                    self.db.execute("INSERT INTO accounts (folded, name, password, created, "
                                    "skeleton, skeleton_folded) VALUES (?, ?, ?, ?, ?, ?)",
                                    (key, name, locked, time.time(), written, plain))
            except sqlite3.IntegrityError:
                return False
        return True

    def spend(self, key: str, sealed: str) -> bool:
        with self.lock, self.db:
            return self.db.execute("DELETE FROM tokens WHERE folded = ? AND sealed = ?",
                                   (key, sealed)).rowcount == 1

    def rehash(self, key: str, locked: str) -> None:
        with self.lock, self.db:
            self.db.execute("UPDATE accounts SET password = ? WHERE folded = ?", (locked, key))

    def keep_token(self, key: str, sealed: str) -> None:
        with self.lock, self.db:
            self.db.execute("INSERT INTO tokens (folded, sealed, made) VALUES (?, ?, ?)",
                            (key, sealed, time.time()))
            self.db.execute("DELETE FROM tokens WHERE folded = ? AND rowid NOT IN (SELECT "
                            "rowid FROM tokens WHERE folded = ? ORDER BY made DESC LIMIT ?)",
                            (key, key, TOKENS_KEPT))

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def __enter__(self) -> Accounts:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _taken() -> AccountError:
    return AccountError(p.NAME_TAKEN, "another player has that name, or one that looks or "
                                      "sounds like it")


def _wrong() -> AccountError:
    return AccountError(p.BAD_SIGN_IN, "that name and password (or sign-in token) do not match")
