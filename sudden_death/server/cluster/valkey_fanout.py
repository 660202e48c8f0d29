"""The fan-out across server processes: Valkey pub/sub (issue 62), under the contract of
`fanout.FanOut` (tests/test_contract_fanout.py).

Each process keeps its own lines per topic, as `LocalFanOut` does, and a publish reaches them at
once, in the caller's turn (no round trip, and still while Valkey is down); the same message
goes to Valkey on the topic's channel (`sd:` + topic) for the other processes, whose listening
connection hands it to their lines of that topic. A process listens to a channel only while it
has a line on that topic, and lets it go when the last one leaves, so Valkey sends it nothing for
a topic nobody here hears (what comes before the unsubscribe reaches Valkey is dropped, never
delivered). Its own messages come back on the channels it listens to and are dropped (each
carries its process's random id). Every message is still encoded and sent to Valkey, which drops
it when no process listens: knowing the cluster's listeners is a later piece.

The roles call it synchronously, so nothing here waits on Valkey in their turn: a publish is
queued for one background task that sends in order, in batches (a pipeline), on one connection;
subscriptions are sent by the same task. As with any Redis-protocol pub/sub, a message reaches
another process only once its subscription has reached Valkey: one published elsewhere before
(or just after) a `subscribe` call returns may not be heard there. Per topic, each process's
messages arrive everywhere in the order it published them; two processes publishing on one
topic at the same instant may be heard in a different order on each (each hears its own
first). `subscribed(topic)` counts this process's lines only; a count across the cluster is a
later piece.

A Valkey that is down or cut off: messages for the other processes are dropped (never queued
without bound, never raised into the roles), the log says so once per outage and once when it
is back, and the listening connection is opened again (backing off up to RETRY_MOST seconds)
with every channel that still has a line here. Only this module imports the client (redis-py,
the `server` extra: docs/server.md says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Hashable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from ...wire import protocol as p
from .fanout import Deliver
from .stopping import stop

LOG = logging.getLogger("sudden_death.server")

CHANNEL_PREFIX = "sd:"
CONNECT_TIMEOUT = 2.0  # seconds to open a connection to Valkey
COMMAND_TIMEOUT = 5.0  # seconds a batch of publishes may take: longer is a cut-off Valkey
RETRY_FIRST = 0.1  # seconds before listening again after a lost connection, doubled each try
RETRY_MOST = 1.0  # (issue 70: back within about a second of Valkey's return)
BATCH = 512  # publishes sent in one pipeline
MAX_QUEUED = 10_000  # publishes waiting to be sent; past it (Valkey too slow) they are dropped
CLOSE_GRACE = 2.0  # seconds `close` gives the queued publishes


class ValkeyUnreachable(ConnectionError):
    """Valkey could not be reached when the fan-out was opened."""


@dataclass(eq=False)
class _Listening:
    """One listening connection's life: what it was asked to hear, and the flushes waiting for
    its answer to a PING (which Valkey sends after everything it sent before)."""

    pubsub: PubSub
    channels: set[bytes] = field(default_factory=set)
    barriers: dict[bytes, asyncio.Future[None]] = field(default_factory=dict)
    open: bool = True

    def end(self) -> None:
        self.open = False
        for barrier in self.barriers.values():
            if not barrier.done():
                barrier.set_result(None)  # nothing more will come on this connection
        self.barriers.clear()


class ValkeyFanOut:
    """`fanout.FanOut` across processes on one Valkey; see the module's docstring. Built with
    `await ValkeyFanOut.open(url, deliver)`, let go with `await close()`."""

    def __init__(self, url: str, deliver: Deliver,
                 prefix: str = CHANNEL_PREFIX) -> None:
        self._deliver = deliver
        self._prefix = prefix.encode()
        self._origin = secrets.token_hex(8).encode()  # this process's mark on what it sends
        self._topics: dict[str, dict[Hashable, None]] = {}  # in the order lines came
        self._changed: set[str] = set()  # topics gained or lost since last told to Valkey
        self._outbox: deque[tuple[bytes, bytes] | asyncio.Future[None]] = deque()
        self._wake = asyncio.Event()
        self._listening: _Listening | None = None
        self._listener_task: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._up = asyncio.Event()
        self._down = False
        self._dropped = 0  # messages for other processes dropped in this outage
        self._behind = 0  # dropped since the queue was last full (Valkey too slow)
        self._retry_delay = RETRY_FIRST
        self._closed = False
        self._pings = 0
        # Two pools: publishes time out (a cut-off Valkey is noticed), the listening connection
        # waits for messages as long as it takes. No retry inside the client: a lost message is
        # dropped here, and the listener opens its connection again itself.
        options: dict[str, Any] = {"socket_connect_timeout": CONNECT_TIMEOUT,
                                   "retry": Retry(NoBackoff(), 0), "protocol": 2}
        self._commands = Redis.from_url(url, socket_timeout=COMMAND_TIMEOUT, **options)
        self._listener = Redis.from_url(url, socket_timeout=None, **options)
        self._where = where(url)

    @classmethod
    async def open(cls, url: str, deliver: Deliver,
                   prefix: str = CHANNEL_PREFIX) -> ValkeyFanOut:
        """A fan-out on the Valkey at `url` (redis://host:port/db), listening; raises
        ValkeyUnreachable when it cannot be reached now (a server is not started without it;
        later outages are outlived)."""
        fanout = cls(url, deliver, prefix)
        try:
            await fanout._commands.ping()
            fanout._tasks = [asyncio.create_task(fanout._send()),
                             asyncio.create_task(fanout._listen())]
            await asyncio.wait_for(fanout._up.wait(), CONNECT_TIMEOUT * 2)
        except (RedisError, OSError, asyncio.TimeoutError) as error:
            await fanout.close()
            raise ValkeyUnreachable(f"Valkey at {fanout._where} cannot be reached: "
                                    f"{error or type(error).__name__}") from error
        return fanout

    # The FanOut Protocol: synchronous, never waiting on Valkey.

    def subscribe(self, topic: str, line: Hashable) -> None:
        lines = self._topics.setdefault(topic, {})
        if not lines:
            self._change(topic)
        lines[line] = None

    def unsubscribe(self, topic: str, line: Hashable) -> None:
        lines = self._topics.get(topic)
        if lines is None:
            return
        lines.pop(line, None)
        if not lines:
            del self._topics[topic]
            self._change(topic)

    def publish(self, topic: str, message: p.Message, but: Hashable | None = None) -> None:
        frame = p.encode(message)
        lines = [line for line in self._topics.get(topic, ()) if line is not but]
        if lines:
            self._deliver(lines, frame)
        if self._closed:
            return
        if self._down:
            self._dropped += 1  # the outage's one log line says so
            return
        if len(self._outbox) >= MAX_QUEUED:
            if not self._behind:
                LOG.warning("Valkey at %s takes messages slower than they come: messages for "
                            "the other server processes are dropped", self._where)
            self._behind += 1
            return
        self._outbox.append((self._channel(topic), self._origin + b"\n" + frame.encode()))
        self._wake.set()

    def subscribed(self, topic: str) -> int:
        """How many lines of this process hear `topic` now (not the other processes')."""
        return len(self._topics.get(topic, ()))

    # Beyond the Protocol.

    @property
    def reachable(self) -> bool:
        """Whether Valkey is listened to now (False during an outage)."""
        return self._listening is not None and not self._down

    async def flush(self) -> None:
        """Once this returns, every message published here before the call has been handed to
        Valkey (or dropped, in an outage), this process's subscriptions made before it are in
        effect there, and every message Valkey had sent this process by then was delivered.
        For tests and for `close`; the roles never wait on it."""
        if self._closed or not self._tasks:
            return
        done = asyncio.get_running_loop().create_future()
        self._outbox.append(done)
        self._wake.set()
        await done

    async def close(self) -> None:
        """Send what is queued (for at most CLOSE_GRACE seconds), then stop listening and
        close both connections. The lines here are not told anything."""
        if not self._closed and self._tasks and self.reachable:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.flush(), CLOSE_GRACE)
        self._closed = True
        for task in self._tasks:
            await stop(task)
        self._tasks = []
        for future in self._outbox:
            if isinstance(future, asyncio.Future) and not future.done():
                future.set_result(None)
        self._outbox.clear()
        await self._commands.aclose()
        await self._listener.aclose()

    # Inside.

    def _channel(self, topic: str) -> bytes:
        return self._prefix + topic.encode()

    def _change(self, topic: str) -> None:
        self._changed.add(topic)
        self._wake.set()

    def _lost(self, error: BaseException | str) -> None:
        """Valkey went away: said once per outage; the listening connection is opened again."""
        if not self._down and not self._closed:
            self._down = True
            LOG.warning("Valkey at %s cannot be reached (%s): messages for the other server "
                        "processes are dropped until it is back", self._where,
                        error or type(error).__name__)
        if self._listener_task is not None:
            self._listener_task.cancel()

    def _back(self) -> None:
        if self._down:
            LOG.info("Valkey at %s is reached again (%d messages for the other processes were "
                     "dropped meanwhile); its subscriptions are taken up again",
                     self._where, self._dropped)
        self._down = False
        self._dropped = 0
        self._retry_delay = RETRY_FIRST
        self._up.set()

    async def _send(self) -> None:
        """The one task that talks to Valkey for this process: subscriptions first, then the
        publishes in the order made, in batches, and each flush's PING in its place."""
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            while True:
                listening = self._listening
                if listening is not None and self._changed:
                    await self._tell_subscriptions(listening)
                if not self._outbox:
                    if self._behind:
                        LOG.warning("Valkey at %s caught up (%d messages for the other "
                                    "processes were dropped)", self._where, self._behind)
                        self._behind = 0
                    break
                first = self._outbox[0]
                if isinstance(first, asyncio.Future):
                    self._outbox.popleft()
                    await self._barrier(first)
                    continue
                batch: list[tuple[bytes, bytes]] = []
                while self._outbox and len(batch) < BATCH:
                    item = self._outbox[0]
                    if isinstance(item, asyncio.Future):
                        break
                    batch.append(item)
                    self._outbox.popleft()
                await self._publish(batch)

    async def _tell_subscriptions(self, listening: _Listening) -> None:
        """Listen to the channels of the topics that gained their first line, let go of those
        whose last line left (a topic that came and went meanwhile costs nothing)."""
        changed, self._changed = self._changed, set()
        wanted = {self._channel(topic) for topic in changed if topic in self._topics}
        unwanted = {self._channel(topic) for topic in changed if topic not in self._topics}
        add = sorted(wanted - listening.channels)
        drop = sorted(unwanted & listening.channels)
        try:
            if add and listening.open:
                await listening.pubsub.subscribe(*add)
                listening.channels.update(add)
            if drop and listening.open:
                await listening.pubsub.unsubscribe(*drop)
                listening.channels.difference_update(drop)
        except (RedisError, OSError) as error:
            self._lost(error)

    async def _publish(self, batch: list[tuple[bytes, bytes]]) -> None:
        if self._down:
            self._dropped += len(batch)
            return
        try:
            async with self._commands.pipeline(transaction=False) as pipe:
                for channel, payload in batch:
                    pipe.publish(channel, payload)
                await pipe.execute()
        except (RedisError, OSError) as error:
            self._lost(error)
            self._dropped += len(batch)

    async def _barrier(self, done: asyncio.Future[None]) -> None:
        """A flush's turn: PING on the listening connection; its answer comes after every
        message Valkey sent this process before it (`_heard` completes the flush)."""
        listening = self._listening
        if listening is None or not listening.open or self._down:
            if not done.done():
                done.set_result(None)
            return
        self._pings += 1
        token = b"flush-%d" % self._pings
        listening.barriers[token] = done
        try:
            await listening.pubsub.ping(token)
        except (RedisError, OSError) as error:
            self._lost(error)
            listening.end()

    async def _listen(self) -> None:
        """Keep one listening connection open, opening it again after a loss."""
        while not self._closed:
            task = asyncio.create_task(self._listen_once())
            self._listener_task = task
            try:
                await asyncio.wait({task})
            finally:
                await stop(task)
            self._listener_task = None
            error = None if task.cancelled() else task.exception()
            if error is not None:
                self._lost(error)
            await asyncio.sleep(self._retry_delay)
            self._retry_delay = min(self._retry_delay * 2, RETRY_MOST)

    async def _listen_once(self) -> None:
        """One listening connection, from its opening (with every channel that has a line
        here) to its loss."""
        pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
        listening = _Listening(pubsub)
        try:
            await pubsub.connect()
            self._listening = listening
            self._changed.update(self._topics)  # all of them, on this new connection
            self._back()
            self._wake.set()
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is not None:
                    self._heard(listening, message)
        finally:
            listening.end()
            if self._listening is listening:
                self._listening = None
            with contextlib.suppress(RedisError, OSError):
                await pubsub.aclose()

    def _heard(self, listening: _Listening, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "pong":
            barrier = listening.barriers.pop(message["data"], None)
            if barrier is not None and not barrier.done():
                barrier.set_result(None)
            return
        if kind != "message":
            return
        origin, _, frame = message["data"].partition(b"\n")
        if origin == self._origin:
            return  # our own, delivered here when published
        topic = message["channel"][len(self._prefix):].decode()
        lines = self._topics.get(topic)
        if not lines:
            return  # its last line left before the unsubscribe reached Valkey
        try:
            self._deliver(list(lines), frame.decode())
        except Exception:  # a delivery's trouble never stops the listening
            LOG.exception("a message from another server process was not delivered")


# What a command raises when Valkey is away, cut off or too slow: an outage, never a mistake.
OUTAGE_ERRORS = (RedisError, OSError, asyncio.TimeoutError)


class Outage:
    """How a background user of Valkey (the lobby, the routes, quick games, the limits' counts)
    says an outage in the log: once when it is lost, with what goes on meanwhile
    (`while_down`), and once when it is back (`once_back`). `lost` and `back` say whether the
    state changed, for a user that forgets or writes again then."""

    def __init__(self, place: str, while_down: str, once_back: str) -> None:
        self.place = place
        self.down = False
        self._while_down = while_down
        self._once_back = once_back

    def lost(self, error: BaseException) -> bool:
        if self.down:
            return False
        self.down = True
        LOG.warning("Valkey at %s cannot be reached (%s): %s", self.place,
                    error or type(error).__name__, self._while_down)
        return True

    def back(self) -> bool:
        if not self.down:
            return False
        self.down = False
        LOG.info("Valkey at %s is reached again: %s", self.place, self._once_back)
        return True


async def reached(client: Redis, place: str, first: Awaitable[object]) -> None:
    """A user's first round with Valkey (`first`), awaited when it opens: Valkey away then,
    its client is closed and ValkeyUnreachable raised (a server does not start without it;
    later outages are outlived)."""
    try:
        await first
    except OUTAGE_ERRORS as error:
        await client.aclose()
        raise ValkeyUnreachable(f"Valkey at {place} cannot be reached: "
                                f"{error or type(error).__name__}") from error


def where(url: str) -> str:
    """host:port of a Valkey URL, for the log: never its password."""
    parsed = urlsplit(url)
    return f"{parsed.hostname}:{parsed.port or 6379}"


def outage_client(url: str, timeout_s: float) -> Redis:
    """A client whose connections and commands give up after `timeout_s` and are never tried
    again by the client itself: its owner counts that as an outage and says so once (the
    lobby's and the routes' background loops, which try again on their next round)."""
    return Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                          retry=Retry(NoBackoff(), 0), protocol=2)
