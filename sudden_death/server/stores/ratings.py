"""Players' ratings on a table server: every finished game between two signed-in players, rated
with Glicko-2 and kept beside the accounts.

The `glicko2` package is Glickman's published algorithm in pure Python: nothing compiled, so
the packaged game's own server (`sudden-death --serve`, PyInstaller) carries it as it is, where
openskill's wheels are mypyc-compiled. Both players are rated from their ratings before the
game, each against the other, so a rating never depends on who hosted (a property test checks
it). A conceded game is a loss; a game left before its end is not rated.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from glicko2 import Player

from .accounts import Accounts
from .seam import START, AccountStore, Rating, Result, SignedIn, Standing

RECENT = 10  # results "Your rating" reads back


def rated(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game; `score` is the first player's (1, 0.5 or 0)."""
    return _after(first, second, score), _after(second, first, 1.0 - score)


def _after(mine: Rating, theirs: Rating, score: float) -> Rating:
    player = Player(mine.rating, mine.deviation, mine.volatility)
    player.update_player([theirs.rating], [theirs.deviation], [score])
    return Rating(player.getRating(), player.getRd(), player.vol)


class Ladder:
    """Ratings and rated games, in the accounts' own file (one transaction per game)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        with accounts.lock:
            accounts.db.execute("CREATE TABLE IF NOT EXISTS ratings (folded TEXT PRIMARY KEY, "
                                "rating REAL NOT NULL, deviation REAL NOT NULL, "
                                "volatility REAL NOT NULL)")
            accounts.db.execute("CREATE TABLE IF NOT EXISTS games (played REAL NOT NULL, "
                                "first TEXT NOT NULL, second TEXT NOT NULL, "
                                "score REAL NOT NULL)")

    def rating(self, key: str) -> Rating:
        with self.accounts.lock:
            row = self.accounts.db.execute("SELECT rating, deviation, volatility FROM ratings "
                                           "WHERE folded = ?", (key,)).fetchone()
        return Rating(*START) if row is None else Rating(*row)

    def record(self, first: str, second: str, score: float) -> tuple[Rating, Rating]:
        """A finished game between the accounts `first` and `second` (folded names); `score`
        is the first's. Returns both new ratings."""
        before = self.rating(first), self.rating(second)
        after = rated(*before, score)
        with self.accounts.lock, self.accounts.db as db:
            for key, new in zip((first, second), after, strict=True):
                db.execute("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?)",
                           (key, new.rating, new.deviation, new.volatility))
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?)",
                       (time.time(), first, second, score))
        return after

    def standing(self, key: str) -> Standing | None:
        """The account's place on the ladder; None when it has played no rated game."""
        with self.accounts.lock:
            db = self.accounts.db
            ladder = db.execute("SELECT r.folded, a.name, r.rating FROM ratings r JOIN "
                                "accounts a USING (folded) ORDER BY r.rating DESC, "
                                "r.folded").fetchall()
            if not placed(key, ladder):
                return None
            games = db.execute("SELECT first, second, score FROM games WHERE first = ? OR "
                               "second = ? ORDER BY rowid DESC LIMIT ?",
                               (key, key, RECENT)).fetchall()
        return standing_of(key, ladder, games)


def placed(key: str, ladder: Sequence[tuple[str, str, float]]) -> bool:
    """Whether the account `key` is on `ladder` (key, name, rating rows): it has been rated."""
    return any(kept == key for kept, _name, _rating in ladder)


def standing_of(key: str, ladder: Sequence[tuple[str, str, float]],
                games: Sequence[tuple[str, str, float]]) -> Standing:
    """The account's Standing from the whole ladder (key, name, rating; highest first, ties by
    key) and its last RECENT games (first, second, first's score; newest first): the same
    for every store, whatever its queries."""
    places = [kept for kept, _name, _rating in ladder]
    names = {kept: name for kept, name, _rating in ladder}
    place = places.index(key)
    recent = tuple(Result(names.get(second if first == key else first, "?"),
                          score if first == key else 1.0 - score)
                   for first, second, score in games)
    return Standing(names[key], round(ladder[place][2]), place + 1, len(places),
                    recent, names[places[place - 1]] if place > 0 else None,
                    names[places[place + 1]] if place + 1 < len(places) else None)


class RatedAccounts:
    """The embedded `stores.AccountStore`: the accounts and their ladder in one SQLite file
    (in `folder`, or in memory without one), each call one transaction of theirs."""

    def __init__(self, folder: Path | None = None, accounts: Accounts | None = None) -> None:
        """The file in `folder` (in memory without one), or `accounts` already open."""
        self.accounts = Accounts(folder) if accounts is None else accounts
        self.ladder = Ladder(self.accounts)

    def sign_up(self, name: str, password: str) -> SignedIn:
        return self.accounts.sign_up(name, password)

    def sign_in(self, name: str, password: str = "", token: str = "") -> SignedIn:
        return self.accounts.sign_in(name, password, token)

    def name_of(self, name: str) -> str | None:
        return self.accounts.name_of(name)

    def rating(self, key: str) -> Rating:
        return self.ladder.rating(key)

    def record(self, first: str, second: str, score: float) -> tuple[Rating, Rating]:
        return self.ladder.record(first, second, score)

    def standing(self, key: str) -> Standing | None:
        return self.ladder.standing(key)

    def close(self) -> None:
        self.accounts.close()


if TYPE_CHECKING:  # mypy checks that this store is one the seam accepts
    _ACCOUNTS: type[AccountStore] = RatedAccounts
