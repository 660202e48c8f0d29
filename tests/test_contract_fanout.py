"""The fan-out seam's contract (sudden_death/server/cluster/fanout.py): what any implementation,
the in-process one and the cluster's on Valkey (server/cluster/valkey_fanout.py), must do,
tested the same way for each.

An implementation is given as a harness: it builds a fan-out whose deliveries land in an inbox
per line, and `settle` waits until what was published has arrived (nothing to wait for in one
process). A later implementation adds its harness to HARNESSES and passes this file unchanged.
The Valkey kinds need a real engine (the session's `valkey` fixture, conftest.py): "valkey" is
one process's fan-out on it; "valkey, two processes" puts each line in one of two processes'
fan-outs on one Valkey, so every message the contract checks crosses the engine
(`OnValkey`, the one adapter: it lets each call reach Valkey before the next).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st
from valkey_server import ValkeyServer

from sudden_death.server.cluster.fanout import LOBBY, FanOut, LocalFanOut, watch_topic
from sudden_death.server.cluster.valkey_fanout import ValkeyFanOut
from sudden_death.wire import protocol as p


@dataclass
class Inbox:
    """What each line received, decoded back to (type, text) for a chat line."""

    frames: dict[Hashable, list[str]] = field(default_factory=dict)

    def deliver(self, lines: list[Hashable], frame: str) -> None:
        for line in lines:
            self.frames.setdefault(line, []).append(frame)

    def said(self, line: Hashable) -> list[str]:
        return [json.loads(frame)["text"] for frame in self.frames.get(line, [])]


@dataclass
class Harness:
    name: str
    make: Callable[[Inbox], FanOut]
    settle: Callable[[FanOut], None] = lambda fanout: None
    # An implementation on an engine: the harness bound to the session's engine (set up and
    # torn down around its yield), used in place of this one.
    engine: Callable[[pytest.FixtureRequest], Iterator[Harness]] | None = None


def bound_by_its_engine(inbox: Inbox) -> FanOut:
    raise AssertionError("an engine's harness is used through the `harness` fixture")


class Split:
    """The two-process kind's fan-out: each line lives in one of two processes' ValkeyFanOut
    (the first line seen in the first, the next in the second, and so on); a publish leaves from
    its sender's process, or else from each in turn."""

    def __init__(self, engine: OnValkey, processes: list[ValkeyFanOut]) -> None:
        self.engine = engine
        self.processes = processes
        self.homes: dict[Hashable, ValkeyFanOut] = {}
        self.turn = 0

    def home(self, line: Hashable) -> ValkeyFanOut:
        if line not in self.homes:
            self.homes[line] = self.processes[len(self.homes) % len(self.processes)]
        return self.homes[line]

    def subscribe(self, topic: str, line: Hashable) -> None:
        self.home(line).subscribe(topic, line)
        self.engine.settle(self)

    def unsubscribe(self, topic: str, line: Hashable) -> None:
        self.home(line).unsubscribe(topic, line)
        self.engine.settle(self)

    def publish(self, topic: str, message: p.Message, but: Hashable | None = None) -> None:
        if but is None:
            self.turn += 1
            sender = self.processes[self.turn % len(self.processes)]
        else:
            sender = self.home(but)
        sender.publish(topic, message, but=but)
        self.engine.settle(self)

    def subscribed(self, topic: str) -> int:
        return sum(process.subscribed(topic) for process in self.processes)


class OnValkey:
    """The one adapter between the contract's synchronous calls and the fan-out on Valkey: its
    own event loop, run only inside `make` (opening the fan-outs) and `settle` (each process's
    `flush`, the sender's first: what was published has reached Valkey and every process has
    taken in what Valkey sent it). The fan-outs of the last test are closed when the next one
    makes its own, and at the end."""

    def __init__(self, url: str, processes: int) -> None:
        self.url = url
        self.processes = processes
        self.loop = asyncio.new_event_loop()
        self.open: list[ValkeyFanOut] = []

    def make(self, inbox: Inbox) -> FanOut:
        self.close_all()
        self.open = [self.loop.run_until_complete(ValkeyFanOut.open(self.url, inbox.deliver))
                     for _ in range(self.processes)]
        return self.open[0] if self.processes == 1 else Split(self, self.open)

    def settle(self, fanout: FanOut) -> None:
        async def flush_all() -> None:
            for process in self.open:  # a publisher before its listeners, and back again
                await process.flush()
            for process in self.open[:-1]:
                await process.flush()

        self.loop.run_until_complete(asyncio.wait_for(flush_all(), SETTLE_TIMEOUT))

    def close_all(self) -> None:
        for process in self.open:
            self.loop.run_until_complete(process.close())
        self.open = []

    def close(self) -> None:
        self.close_all()
        self.loop.close()


SETTLE_TIMEOUT = 10.0  # seconds: a loopback Valkey answers in well under one


def on_valkey(processes: int) -> Callable[[pytest.FixtureRequest], Iterator[Harness]]:
    def bind(request: pytest.FixtureRequest) -> Iterator[Harness]:
        server: ValkeyServer = request.getfixturevalue("valkey_engine")
        engine = OnValkey(server.url, processes)
        try:
            yield Harness(request.param.name, engine.make, engine.settle)
        finally:
            engine.close()
    return bind


HARNESSES = [
    Harness("in-process", lambda inbox: LocalFanOut(inbox.deliver)),
    Harness("valkey", bound_by_its_engine, engine=on_valkey(1)),
    Harness("valkey, two processes", bound_by_its_engine, engine=on_valkey(2)),
]


@pytest.fixture(scope="session", params=HARNESSES, ids=lambda harness: harness.name)
def harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    """Session-wide, so the property test below may use it too (Hypothesis refuses a fixture
    set up anew for each test) and an engine's kinds share one engine a worker."""
    if request.param.engine is None:
        yield request.param
    else:
        yield from request.param.engine(request)


def said(text: str) -> p.Said:
    return p.Said("Ann", text)


def test_contract_a_topic_arrives_in_the_order_published(harness: Harness) -> None:
    inbox = Inbox()
    fanout = harness.make(inbox)
    fanout.subscribe(LOBBY, "first")
    fanout.subscribe(LOBBY, "second")
    for number in range(50):
        fanout.publish(LOBBY, said(str(number)))
    harness.settle(fanout)
    expected = [str(number) for number in range(50)]
    assert inbox.said("first") == expected and inbox.said("second") == expected


def test_contract_nothing_is_delivered_to_a_topic_nobody_subscribed_to(
        harness: Harness) -> None:
    inbox = Inbox()
    fanout = harness.make(inbox)
    fanout.subscribe(watch_topic("123456"), "spectator")
    fanout.publish(LOBBY, said("to the lobby"))
    fanout.publish(watch_topic("654321"), said("to another table"))
    harness.settle(fanout)
    assert inbox.frames == {} and fanout.subscribed(LOBBY) == 0


def test_contract_the_sender_never_hears_its_own_and_a_line_only_while_subscribed(
        harness: Harness) -> None:
    inbox = Inbox()
    fanout = harness.make(inbox)
    topic = watch_topic("000001")
    fanout.subscribe(topic, "ann")
    fanout.subscribe(topic, "ben")
    fanout.publish(topic, said("from ann"), but="ann")
    fanout.unsubscribe(topic, "ben")
    fanout.unsubscribe(topic, "ben")  # twice: no change
    fanout.publish(topic, said("after ben left"))
    fanout.subscribe(topic, "ben")
    fanout.subscribe(topic, "ben")  # twice: still heard once
    fanout.publish(topic, said("ben is back"))
    harness.settle(fanout)
    assert inbox.said("ann") == ["after ben left", "ben is back"]
    assert inbox.said("ben") == ["from ann", "ben is back"]
    assert fanout.subscribed(topic) == 2


def test_contract_topics_are_apart(harness: Harness) -> None:
    inbox = Inbox()
    fanout = harness.make(inbox)
    fanout.subscribe(LOBBY, "lobby line")
    fanout.subscribe(watch_topic("000001"), "spectator")
    fanout.publish(LOBBY, said("lobby"))
    fanout.publish(watch_topic("000001"), said("table"))
    harness.settle(fanout)
    assert inbox.said("lobby line") == ["lobby"] and inbox.said("spectator") == ["table"]


LINES = ["ann", "ben", "cal"]
TOPICS = [LOBBY, watch_topic("000001")]
OPERATIONS = st.lists(st.tuples(st.sampled_from(["subscribe", "unsubscribe", "publish"]),
                                st.sampled_from(TOPICS), st.sampled_from(LINES),
                                st.booleans()), max_size=40)


@given(operations=OPERATIONS)
def test_contract_each_line_hears_exactly_what_was_published_while_it_listened(
        harness: Harness, operations: list[tuple[str, str, str, bool]]) -> None:
    """Any sequence of subscriptions and messages: a line hears each message published on a
    topic while it was subscribed there, but not its own (`but`), once, in order."""
    chosen = harness
    inbox = Inbox()
    fanout = chosen.make(inbox)
    listening: dict[str, set[str]] = {topic: set() for topic in TOPICS}
    expected: dict[str, list[str]] = {line: [] for line in LINES}
    for number, (operation, topic, line, from_line) in enumerate(operations):
        if operation == "subscribe":
            fanout.subscribe(topic, line)
            listening[topic].add(line)
        elif operation == "unsubscribe":
            fanout.unsubscribe(topic, line)
            listening[topic].discard(line)
        else:
            but = line if from_line else None
            fanout.publish(topic, said(str(number)), but=but)
            for each in LINES:  # in the order published, whatever the order of subscribing
                if each in listening[topic] and each != but:
                    expected[each].append(str(number))
    chosen.settle(fanout)
    for line in LINES:
        assert inbox.said(line) == expected[line]
    for topic in TOPICS:
        assert fanout.subscribed(topic) == len(listening[topic])
