"""Bot tables: two seats that speak the table protocol over real WebSocket connections and play
random legal actions at every step, for the load test, the secrets fuzzer and
benchmarks/server_load.py.

A bot's think time is also its watch: while the second seat of a card step "thinks", it
listens, and anything it hears before it has committed is a leak (the server must tell it
nothing until both are in). Every update must be the same for both seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from sudden_death.engine.actions import actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, Team
from sudden_death.wire import protocol as p

HOST, GUEST = Team.AWAY, Team.HOME  # the server seats the host away, the guest home
ANSWER_TIMEOUT_S = 60.0


class BotError(Exception):
    """What a bot saw that a correct server never does (a leak, a refusal, a stray message)."""


class Dropped(BotError):
    """The other seat's line dropped (`away`) while this one waited: a table that comes back
    (`comeback_s`) resumes both seats, as it does when its own line drops."""


@dataclass
class Stats:
    """What every bot table saw, together: steps played, games finished, the time from the
    last commit sent to both seats' updates in (`round_trips`, seconds), and what went wrong."""

    steps: int = 0
    commits: int = 0  # actions sent, one per seat that acts at a step
    games: int = 0
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    connected: int = 0
    tokens: list[str] = field(default_factory=list)  # every seat's, to look for in logs
    resumed: int = 0  # seats that came back after their line dropped
    behind: int = 0  # resumed seats the server had gone back behind (a lost step)
    watching: int = 0  # spectators connected
    watched: int = 0  # messages the spectators heard
    refused: list[str] = field(default_factory=list)  # a resume's refusals, by code
    dropped_again: int = 0  # comebacks whose line dropped once more on the way back


# What a seat may hear at any time and act on by waiting: its table's writes are slow (`busy`)
# or kept again (`steady`); the answer it waits for still comes, later.
WAITS = ("busy", "steady")


async def _receive(connection: ClientConnection, timeout: float = ANSWER_TIMEOUT_S
                   ) -> dict[str, Any]:
    """The next message but `busy` and `steady`, which say only that the answer is late."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(connection.recv(),
                                                                    timeout))
        if message.get("type") not in WAITS:
            return message


async def _answer(connection: ClientConnection) -> dict[str, Any]:
    """The next message but a spectator's coming to watch, which may come at any moment (a
    page's watch arrives whenever its line does) and says nothing of the game."""
    while (message := await _receive(connection))["type"] == "watching":
        pass
    return message


async def _quiet_for(connection: ClientConnection, seconds: float) -> None:
    """Think for `seconds`, listening: a message now is a leak (but for a spectator
    coming to watch, which says nothing of the game)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            heard = await asyncio.wait_for(connection.recv(), left)
        except (asyncio.TimeoutError, TimeoutError):
            return
        kind = json.loads(heard).get("type")
        if kind == "away":
            raise Dropped(f"thinking, heard {heard[:200]!r}")
        if kind not in ("watching", *WAITS):
            raise BotError(f"heard {heard[:200]!r} before committing its own choice")


async def _until(connection: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of `kind`; `committed` may come first, anything else is an error."""
    while True:
        message = await _receive(connection)
        if message["type"] == kind:
            return message
        if message["type"] == "away":
            raise Dropped(f"waiting for {kind!r}, heard {message}")
        if message["type"] not in ("committed", "rematch_asked", "watching"):
            raise BotError(f"waiting for {kind!r}, heard {message}")


async def _closed(connection: ClientConnection, patience_s: float = 2.0) -> None:
    """A bot's line closed: cleanly if the server answers within `patience_s`, else cut. Two
    thousand tables closing at once, with both processes busy, left a few hundred closes
    waiting on each other's send buffers (no timeout covers a close waiting to write its
    frame), and the benchmark never ended."""
    try:
        await asyncio.wait_for(connection.close(), patience_s)
    except (asyncio.TimeoutError, TimeoutError, ConnectionClosed, OSError):
        connection.transport.abort()


class BotTable:
    """One table: a host and a guest bot, `games` games with rematches between them."""

    def __init__(self, url: str, rng: random.Random, stats: Stats, games: int = 1,
                 think: Callable[[random.Random], float] = lambda rng: 0.0,
                 comeback_s: float = 0.0, watchers: int = 0,
                 comeback_urls: list[str] | None = None, guest_url: str | None = None) -> None:
        """`comeback_s`: for how long a dropped line is tried again (0: a drop is an error),
        through `comeback_urls` in turn (default: `url`; a cluster's other processes when
        one is lost). `guest_url`: where the guest joins (default `url`; another process of
        a cluster relays it). `watchers`: spectators that watch the table's games (and only
        listen)."""
        self.url, self.rng, self.stats, self.games, self.think = url, rng, stats, games, think
        self.comeback_s = comeback_s
        self.comeback_urls = comeback_urls or [url]
        self.guest_url = guest_url or url
        self.played: dict[int, str] = {}  # step: the state heard at it (JSON), this game
        # The step being played: its seats' order and the actions chosen, sent again as they
        # were when a line drops mid-step (as a game does), so a table that comes back plays
        # what it would have played.
        self.pending_step = -1
        self.pending_order: list[Team] = []
        self.pending: dict[Team, tuple[Any, float]] = {}  # a seat's action and think
        self.dropped_at: float | None = None  # perf_counter: when its line dropped last
        self.back_after: list[float] = []  # seconds from a drop to the next update heard
        self.back_at: list[float] = []  # perf_counter: when that update was heard
        self.dropped: list[float] = []  # perf_counter: the drop each of those followed
        # A test's pause: before playing step `pause_at`, `paused` is set and the table waits
        # for `go_on` (a process killed between two steps, whatever the machine's load).
        self.pause_at: int | None = None
        self.paused = asyncio.Event()
        self.go_on = asyncio.Event()
        self.watchers = watchers
        self.spectators: list[ClientConnection] = []
        self.listening: list[asyncio.Future[None]] = []
        self.local_host: str | None = None
        self.seats: dict[Team, ClientConnection] = {}
        self.tokens: dict[Team, str] = {}
        self.code = ""
        self.heard = 0  # the last step both seats heard played
        self.held: set[Team] = set()  # seats whose choice for this step the server holds

    async def run(self) -> None:
        """Sit (unless `sit` was awaited already), then play its games."""
        try:
            if not self.code:
                await self._sit()
            for _ in range(self.watchers):
                await self._watch()
            for game in range(self.games):
                if game:
                    await self._rematch()
                await self._play()
                self.stats.games += 1
        except (BotError, ConnectionClosed, OSError, asyncio.TimeoutError, TimeoutError,
                KeyError, ValueError) as error:
            self.stats.errors.append(f"table {self.code}: {type(error).__name__}: {error}")
        finally:
            for connection in [*self.seats.values(), *self.spectators]:
                await _closed(connection)
            for listening in self.listening:
                listening.cancel()

    async def _connect(self, timeout: float, url: str | None = None) -> ClientConnection:
        """A line to the server (or `url`), from `local_host` if one is set (each table its
        own loopback address, 127.x.y.z, so per-address limits count tables as they would
        players)."""
        local = {"local_addr": (self.local_host, 0)} if self.local_host else {}
        return await connect(url or self.url, compression=None, open_timeout=timeout, **local)

    async def sit(self) -> None:
        """Both seats taken and the game started: tables sat one by one, in order, get
        their dice in that order on a server with --seed (benchmarks/node_loss.py)."""
        await self._sit()

    async def _sit(self) -> None:
        host = await self._connect(ANSWER_TIMEOUT_S)
        self.seats[HOST] = host
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        seated = await _until(host, "seated")
        self.code, self.tokens[HOST] = seated["code"], seated["token"]
        guest = await self._connect(ANSWER_TIMEOUT_S, self.guest_url)
        self.seats[GUEST] = guest
        await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, self.code, "Bears")))
        self.tokens[GUEST] = (await _until(guest, "seated"))["token"]
        self.stats.tokens += self.tokens.values()
        self.stats.connected += 2
        self.start = [await _until(self.seats[team], "start") for team in Team]

    async def _watch(self) -> None:
        """A spectator of this table: it hears the game (counted) until its line closes; what
        it may hear is tests/test_server_watch.py's to check."""
        spectator = await self._connect(ANSWER_TIMEOUT_S)
        self.spectators.append(spectator)
        await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, self.code)))
        self.stats.watching += 1

        async def listen() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for _frame in spectator:
                    self.stats.watched += 1

        self.listening.append(asyncio.ensure_future(listen()))

    async def _rematch(self) -> None:
        for connection in self.seats.values():
            await connection.send(p.encode(p.Rematch()))
        self.start = [await _until(self.seats[team], "start") for team in Team]

    async def _play(self) -> None:
        if self.start[0] != self.start[1]:
            raise BotError("the seats started different games")
        state, step = state_from_dict(self.start[0]["state"]), self.start[0]["step"]
        self.held, self.pending_step = set(), -1
        self.played = {int(step): json.dumps(self.start[0]["state"], sort_keys=True)}
        while state.outcome is None:
            if self.pause_at is not None and step >= self.pause_at:
                self.pause_at = None
                self.paused.set()
                await self.go_on.wait()
            try:
                state, step = await self._step(state, step)
            except (ConnectionClosed, Dropped):
                if not self.comeback_s:
                    raise
                self.dropped_at = time.perf_counter()
                state, step = await self._come_back_again()

    async def _come_back_again(self) -> tuple[GameState, int]:
        """`_come_back`, again if a line drops once more on the way (a table handed over
        twice in a moment, as a player's game comes back again too), for `comeback_s`."""
        assert self.dropped_at is not None
        while True:
            try:
                return await self._come_back()
            except ConnectionClosed:
                if time.perf_counter() - self.dropped_at > self.comeback_s:
                    raise
                self.stats.dropped_again += 1

    async def _come_back(self) -> tuple[GameState, int]:
        """Both seats resume after the server went away, trying for `comeback_s`; returns
        where the server has the game. A server behind what the seats heard lost a step."""
        for connection in self.seats.values():
            await _closed(connection)
        deadline = time.monotonic() + self.comeback_s
        starts: dict[Team, dict[str, Any]] = {}
        tries = 0
        for team in Team:
            while True:  # each process in turn, until one has the table (or the time is up)
                url = self.comeback_urls[tries % len(self.comeback_urls)]
                tries += 1
                try:
                    connection = await self._connect(5, url)
                except (OSError, asyncio.TimeoutError, TimeoutError, InvalidHandshake):
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)
                    continue
                try:
                    await connection.send(p.encode(p.Resume(p.PROTOCOL_VERSION, self.code,
                                                            self.tokens[team], self.heard)))
                    seated = await _receive(connection)
                    if seated["type"] != "seated":  # not found yet: a process lost
                        self.stats.refused.append(str(seated.get("code")))
                        raise BotError(f"resuming, heard {seated}")
                    starts[team] = await _until(connection, "start")
                    break
                except (ConnectionClosed, BotError):
                    await _closed(connection)
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)
            self.seats[team] = connection
            self.stats.resumed += 1
        state = state_from_dict(starts[HOST]["state"])
        if state.outcome is None:  # the other seat came back after the first
            await _until(self.seats[next(iter(starts))], "back")
        step = int(starts[HOST]["step"])
        self.played[step] = json.dumps(starts[HOST]["state"], sort_keys=True)
        if step < self.heard:
            self.stats.behind += 1
        self.held = {team for team, start in starts.items() if start["held"]}
        return state, step

    async def _step(self, state: GameState, step: int) -> tuple[GameState, int]:
        if step != self.pending_step:
            self.pending_step, self.pending_order, self.pending = step, list(actors(state)), {}
            self.rng.shuffle(self.pending_order)  # either seat may commit first
        teams = [team for team in self.pending_order if team not in self.held]
        last = time.perf_counter()
        for number, team in enumerate(teams):
            if team not in self.pending:
                self.pending[team] = (self.rng.choice(legal_actions(state, team)),
                                      self.think(self.rng))
            action, think = self.pending[team]
            if number:  # the second seat thinks, listening for a leak
                await _quiet_for(self.seats[team], think)
            else:
                await asyncio.sleep(think)
            last = time.perf_counter()
            await self.seats[team].send(p.encode(p.Act(step, [action_to_dict(action)])))
            self.stats.commits += 1
            if number == 0 and len(teams) == 2:
                held = await _answer(self.seats[team])
                chosen = {"type": "committed", "step": step, "seat": int(team)}
                if held.get("type") == "away":
                    raise Dropped(f"after its commit, heard {held}")
                if held != chosen:
                    raise BotError(f"after its commit, heard {held}")
                told = await _answer(self.seats[team.other])  # that it chose, not what
                if told.get("type") == "away":
                    raise Dropped(f"after its friend's commit, heard {told}")
                if told != chosen:
                    raise BotError(f"after its friend's commit, heard {told}")
                self.held.add(team)
        updates = [await _until(self.seats[team], "update") for team in Team]
        self.held = set()
        self.heard = int(updates[0]["step"])
        self.stats.round_trips.append(time.perf_counter() - last)
        if updates[0] != updates[1]:
            raise BotError("the seats heard different updates")
        self.played[self.heard] = json.dumps(updates[0]["state"], sort_keys=True)
        if self.dropped_at is not None:
            self.back_at.append(time.perf_counter())
            self.dropped.append(self.dropped_at)
            self.back_after.append(self.back_at[-1] - self.dropped_at)
            self.dropped_at = None
        self.stats.steps += 1
        return state_from_dict(updates[0]["state"]), int(updates[0]["step"])


async def play_tables(url: str, tables: int, seed: int, games: int = 1,
                      think: Callable[[random.Random], float] = lambda rng: 0.0,
                      ramp_s: float = 0.0, comeback_s: float = 0.0,
                      stats: Stats | None = None, own_addresses: bool = False,
                      watchers: int = 0) -> Stats:
    """`tables` bot tables at the server at `url`, started over `ramp_s` seconds; returns
    what they saw once every one has finished (into `stats`, if given, as they go). With
    `own_addresses`, each table connects from a loopback address of its own."""
    stats = stats or Stats()
    master = random.Random(seed)
    bots = [BotTable(url, random.Random(master.randrange(2**32)), stats, games, think,
                     comeback_s, watchers) for _ in range(tables)]
    if own_addresses:
        for number, bot in enumerate(bots):
            bot.local_host = f"127.1.{number // 250}.{number % 250 + 1}"

    async def started(number: int, bot: BotTable) -> None:
        await asyncio.sleep(ramp_s * number / max(1, tables))
        await bot.run()

    await asyncio.gather(*(started(number, bot) for number, bot in enumerate(bots)))
    return stats
