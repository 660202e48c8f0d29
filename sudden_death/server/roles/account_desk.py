"""Accounts and ratings as the server serves them: sign-ups, sign-ins, a player's standing,
and the rating of a game that ended.

It owns the slow hashes' lanes (hashing.py: passwords and tables' passwords on one, sign-in
tokens on another), the tries counted per address and per name (sign_ins.py), and the games
being rated on a thread. What lasts (accounts, tokens, ratings, rated games) is in the
accounts store (`stores.AccountStore`: `ratings.RatedAccounts`, SQLite, today); this role
never touches a table's
seats or a line: it answers with messages, and the service sends them.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass, field
from functools import partial

from ...engine.state import TEAMS, Team
from ...wire import protocol as p
from ...wire.names import skeletons
from ..cluster.tally import Tally
from ..lines.limits import Addresses, Limits
from ..stores.keeping import STORE_ERRORS
from ..stores.seam import START, AccountError, AccountStore
from ..tables import Table
from .hashing import Hashing, HashRefused
from .sign_ins import SignIns

LOG = logging.getLogger("sudden_death.server")


@dataclass
class AccountDesk:
    store: AccountStore  # accounts, tokens, ratings and rated games (stores.py)
    limits: Limits
    account_tries: Addresses = field(init=False)  # sign-ups and sign-ins, per address
    name_tries: Addresses = field(init=False)  # strangers' password tries, per name
    sign_ins: SignIns = field(init=False)  # who may try a name's password now
    hashing: Hashing = field(init=False)  # passwords' slow hashes, bounded (hashing.py)
    token_checks: Hashing = field(init=False)  # sign-in tokens' hashes, bounded alike
    rating: set[asyncio.Future[object]] = field(default_factory=set)  # games being rated

    def __post_init__(self) -> None:
        self.account_tries = Addresses(self.limits, kind="account")
        self.name_tries = Addresses(self.limits, kind="name")
        self.sign_ins = SignIns(self.account_tries, self.name_tries)
        self.hashing = Hashing(self.limits)
        self.token_checks = Hashing(self.limits, what="sign-in tokens")

    def close(self) -> None:
        self.store.close()
        self.hashing.close()
        self.token_checks.close()

    def share(self, tally: Tally) -> None:
        """Its tries counted across a cluster's processes too (valkey_tally.py)."""
        self.account_tries.tally = self.name_tries.tally = tally

    async def work(self, message: p.SignUp | p.SignIn, address: str) -> p.SignedIn | p.Refused:
        """A sign-up or sign-in, its slow hash on the hashing threads (hashing.py), its try
        counted before the hash (sign_ins.py: a guesser is slowed, the name's owner is not).
        A sign-up counts against its address; past `failed_tries` a minute, or past the
        hashes one address or the server may have in hand, the answer is a refusal at once,
        without a hash (`slow_down`, `busy`: not fatal)."""
        name = skeletons(message.name)[1]  # look-alikes of a name are counted as the name
        token = isinstance(message, p.SignIn) and bool(message.token)
        tried = None
        if isinstance(message, p.SignUp):
            wait = await self.account_tries.waiting(address)
            if wait <= 0:
                self.account_tries.failed(address)  # a sign-up costs a slow hash: counted
        else:
            tried = await self.sign_ins.ask(name, address, token=token)
            wait = tried.wait
        if wait > 0:
            return p.Refused(p.SLOW_DOWN, f"too many tries; wait {math.ceil(wait)} seconds")
        try:
            if isinstance(message, p.SignUp):
                done = await self.hashing.run(address, partial(
                    self.store.sign_up, message.name, message.password))
            elif token:  # a token's hash is cheap: it never waits behind a password's
                done = await self.token_checks.run(address, partial(
                    self.store.sign_in, message.name, token=message.token),
                    owner=self.sign_ins.usual(name, address))
            else:
                done = await self.hashing.run(address, partial(
                    self.store.sign_in, message.name, message.password),
                    owner=self.sign_ins.usual(name, address))
        except HashRefused as error:
            if tried is None:
                self.account_tries.refund(address)
            else:
                self.sign_ins.untried(tried)
            return p.Refused(error.code, str(error))
        except AccountError as error:
            if tried is not None:
                self.sign_ins.answered(tried, right=False)
            return p.Refused(error.code, str(error))
        except STORE_ERRORS as error:  # a full disk, a damaged file, a database away: said,
            LOG.error("the accounts store failed: %s", error)  # and the line lives
            return p.Refused(p.NO_ROOM, "the server cannot keep players' names now; try "
                                        "again later")
        if tried is not None:
            self.sign_ins.answered(tried, right=True)
        else:
            self.sign_ins.remember(name, address)
        LOG.info("a player signed %s", "up" if isinstance(message, p.SignUp) else "in")
        return p.SignedIn(done.name, done.token)

    async def standing(self, signed: str) -> p.Standing | p.Refused:
        if not signed:
            return p.Refused(p.NOT_NOW, "sign in first to hear your rating")
        try:
            found = await asyncio.to_thread(self.store.standing, signed)
            name = None if found is not None else await asyncio.to_thread(self.store.name_of,
                                                                          signed)
        except STORE_ERRORS as error:
            LOG.error("the accounts store failed: %s", error)
            return p.Refused(p.NO_ROOM, "the server cannot read ratings now")
        if found is None:
            return p.Standing(name or signed)
        return p.Standing(found.name, found.rating, found.rank, found.of,
                          [(result.opponent, result.score) for result in found.recent],
                          found.above or "", found.below or "")

    def rate(self, table: Table) -> None:
        """A game that ended by play (a concession too) between two signed-in players is
        rated, on a thread; a game left before its end, or against itself, is not."""
        outcome = table.game.state.outcome
        home, away = (table.seats.get(team) for team in TEAMS)
        if outcome is None or home is None or away is None or not home.account or \
                not away.account or home.account == away.account:
            return
        score = 0.5 if outcome.winner is None else float(outcome.winner is Team.HOME)
        if len(table.computer) == 1:  # the computer finished a dropped player's game: it
            score = float(Team.AWAY in table.computer)  # counts for the side that stayed
        rating: asyncio.Future[object] = asyncio.ensure_future(asyncio.to_thread(
            self.store.record, home.account, away.account, score))
        self.rating.add(rating)  # a reference until done, so the task is not collected
        rating.add_done_callback(self._rated)

    def _rated(self, done: asyncio.Future[object]) -> None:
        self.rating.discard(done)
        if not done.cancelled() and done.exception() is not None:
            LOG.error("a finished game could not be rated: %s", done.exception())

    async def quick_rating(self, signed: str) -> float:
        """A quick player's rating, to pair the nearest (a newcomer's for one not signed in)."""
        if not signed:
            return START[0]
        try:
            return (await asyncio.to_thread(self.store.rating, signed)).rating
        except STORE_ERRORS as error:  # paired as a newcomer rather than not at all
            LOG.error("the accounts store failed: %s", error)
            return START[0]
