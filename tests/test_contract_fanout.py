"""The fan-out seam's contract (sudden_death/server/fanout.py): what any implementation, the
in-process one today and a cluster's later, must do, tested the same way for each.

An implementation is given as a harness: it builds a fan-out whose deliveries land in an inbox
per line, and `settle` waits until what was published has arrived (nothing to wait for in one
process). A later implementation adds its harness to HARNESSES and passes this file unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudden_death.server.fanout import LOBBY, FanOut, LocalFanOut, watch_topic
from sudden_death.wire import protocol as p


@dataclass
class Inbox:
    """What each line received, decoded back to (type, text) for a chat line."""

    frames: dict[Hashable, list[str]] = field(default_factory=dict)

    def deliver(self, line: Hashable, frame: str) -> None:
        self.frames.setdefault(line, []).append(frame)

    def said(self, line: Hashable) -> list[str]:
        return [json.loads(frame)["text"] for frame in self.frames.get(line, [])]


@dataclass
class Harness:
    name: str
    make: Callable[[Inbox], FanOut]
    settle: Callable[[FanOut], None] = lambda fanout: None


HARNESSES = [Harness("in-process", lambda inbox: LocalFanOut(inbox.deliver))]


@pytest.fixture(params=HARNESSES, ids=lambda harness: harness.name)
def harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    yield request.param


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


@pytest.mark.parametrize("chosen", HARNESSES, ids=lambda harness: harness.name)
@given(operations=OPERATIONS)
def test_contract_each_line_hears_exactly_what_was_published_while_it_listened(
        chosen: Harness, operations: list[tuple[str, str, str, bool]]) -> None:
    """Any sequence of subscriptions and messages: a line hears each message published on a
    topic while it was subscribed there, but not its own (`but`), once, in order."""
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
