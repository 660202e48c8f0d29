"""Players' names on a table server: sign up with a name and a password, sign in again with a
renewable token, and no CAPTCHA or e-mail (a player who cannot see signs up by ear).

One SQLite file (`accounts.sqlite3` in `--data DIR`, or in memory without one), beside the
tables' file: an account is its name as typed, the name folded as an ear compares it (no case,
accents or spaces: `wire/names.py`), the password's argon2id hash with argon2-cffi's default
cost (slow to guess on purpose), and the argon2id hashes of its sign-in tokens (cheap: a token
has 144 random bits). The password and the tokens themselves are kept nowhere. Every call
here hashes, so the service makes them on a thread, never on its event loop.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..wire import protocol as p
from ..wire.names import folded, spaced
from .tables import seal_token, token_opens

FILE_NAME = "accounts.sqlite3"
TOKENS_KEPT = 5  # sign-in tokens an account keeps (a laptop, a desktop...): the oldest goes
MIN_PASSWORD = 6


class AccountError(ValueError):
    """A sign-up or sign-in refused: `code` is a protocol refusal code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(frozen=True)
class SignedIn:
    name: str  # as the player typed it at sign-up
    token: str  # a new sign-in token, to keep instead of the password


def checked_name(name: str) -> str:
    """A player's name as it will be said: 1 to 24 printable characters, runs of spaces made
    one; control characters, direction marks and invisible joiners refused with the reason."""
    name = spaced(name)
    if not name or len(name) > p.MAX_NAME:
        raise AccountError(p.BAD_NAME, f"a name has 1 to {p.MAX_NAME} characters")
    if not name.isprintable():  # Unicode's Other and Separator: controls, direction marks...
        raise AccountError(p.BAD_NAME, "a name has only letters, digits, marks and spaces "
                                       "that can be read aloud")
    if not folded(name):
        raise AccountError(p.BAD_NAME, "a name needs a letter or a digit")
    return name


def checked_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= p.MAX_PASSWORD or not password.isprintable():
        raise AccountError(p.WEAK_PASSWORD, f"a password has {MIN_PASSWORD} to "
                                            f"{p.MAX_PASSWORD} printable characters")
    return password


class Accounts:
    """The accounts of one server. Safe to call from worker threads (one lock around the
    file's connection); each call is one transaction."""

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

    def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account, or AccountError: a name refused, taken (folded), or a weak password."""
        name, password = checked_name(name), checked_password(password)
        key = folded(name)
        locked = self._hasher.hash(password)  # before the lock: the slow part
        with self.lock:
            try:
                with self.db:
                    self.db.execute("INSERT INTO accounts (folded, name, password, created) "
                                    "VALUES (?, ?, ?, ?)", (key, name, locked, time.time()))
            except sqlite3.IntegrityError:
                raise AccountError(p.NAME_TAKEN, "another player has that name") from None
        return SignedIn(name, self._new_token(key))

    def sign_in(self, name: str, password: str = "", token: str = "") -> SignedIn:
        """Signed in with the password, or with a token (which is then renewed: the old one
        stops working). A name with no account, a wrong password and a wrong token are the
        same refusal, so a guesser learns nothing from which it was."""
        key = folded(name)
        with self.lock:
            row = self.db.execute("SELECT name, password FROM accounts WHERE folded = ?",
                                  (key,)).fetchone()
            kept = [sealed for (sealed,) in self.db.execute(
                "SELECT sealed FROM tokens WHERE folded = ?", (key,))] if token else []
        if row is None:  # as slow as a real try of the same kind
            if token:
                seal_token(token)
            else:
                self._hasher.hash(password)
            raise _wrong()
        typed, locked = row
        if token:
            opened = next((sealed for sealed in kept if token_opens(sealed, token)), None)
            if opened is None:
                raise _wrong()
            # Spent once: the row's delete is the check, so of two lines sending one token at
            # once (both found it above), only the one whose delete took it signs in.
            with self.lock, self.db:
                spent = self.db.execute("DELETE FROM tokens WHERE folded = ? AND sealed = ?",
                                        (key, opened)).rowcount
            if spent != 1:
                raise _wrong()
            return SignedIn(typed, self._new_token(key))
        try:
            self._hasher.verify(locked, password)
        except (VerificationError, InvalidHashError):
            raise _wrong() from None
        if self._hasher.check_needs_rehash(locked):  # a cost raised since it was kept
            with self.lock, self.db:
                self.db.execute("UPDATE accounts SET password = ? WHERE folded = ?",
                                (self._hasher.hash(password), key))
        return SignedIn(typed, self._new_token(key))

    def name_of(self, name: str) -> str | None:
        """The account's name as typed at sign-up, or None: no account has it."""
        with self.lock:
            row = self.db.execute("SELECT name FROM accounts WHERE folded = ?",
                                  (folded(name),)).fetchone()
        return None if row is None else str(row[0])

    def _new_token(self, key: str) -> str:
        token = secrets.token_urlsafe(18)  # 144 bits
        sealed = seal_token(token)
        with self.lock, self.db:
            self.db.execute("INSERT INTO tokens (folded, sealed, made) VALUES (?, ?, ?)",
                            (key, sealed, time.time()))
            self.db.execute("DELETE FROM tokens WHERE folded = ? AND rowid NOT IN (SELECT "
                            "rowid FROM tokens WHERE folded = ? ORDER BY made DESC LIMIT ?)",
                            (key, key, TOKENS_KEPT))
        return token

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def __enter__(self) -> Accounts:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _wrong() -> AccountError:
    return AccountError(p.BAD_SIGN_IN, "that name and password (or sign-in token) do not match")
