"""The fan-out on Valkey (sudden_death/server/cluster/valkey_fanout.py) beyond the contract every
fan-out passes (tests/test_contract_fanout.py): two ValkeyFanOut on one Valkey stand for two server
processes. A message published in one reaches the other's lines of that topic in order, and no
line that left; a process listens only to the channels of topics it has lines on; a Valkey that
is down, stopped or hung never blocks or breaks a publish, is logged once per outage, and once it
is back every subscription is taken up again.

Valkey (or Redis) is needed: CI sets SUDDEN_DEATH_REQUIRE_VALKEY=1; elsewhere these skip without
it (conftest.py's `valkey`, tests/valkey_server.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import time
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

import pytest
from redis.asyncio import Redis
from valkey_server import ValkeyServer, require_valkey, valkey_server

from sudden_death.server.cluster.fanout import LOBBY, watch_topic
from sudden_death.server.cluster.valkey_fanout import (
    CHANNEL_PREFIX,
    ValkeyFanOut,
    ValkeyUnreachable,
)
from sudden_death.wire import protocol as p

BACK_WITHIN = 10.0  # seconds for a fan-out to be listening again after its Valkey came back


class Inbox:
    """What each line heard: the chat lines' texts, in order."""

    def __init__(self) -> None:
        self.heard: dict[Hashable, list[str]] = {}

    def deliver(self, lines: list[Hashable], frame: str) -> None:
        for line in lines:
            self.heard.setdefault(line, []).append(json.loads(frame)["text"])

    def of(self, line: Hashable) -> list[str]:
        return self.heard.get(line, [])


def said(text: str) -> p.Said:
    return p.Said("Ann", text)


@asynccontextmanager
async def two_processes(url: str, prefix: str = CHANNEL_PREFIX) -> AsyncIterator[
        tuple[ValkeyFanOut, ValkeyFanOut, Inbox, Inbox]]:
    first_inbox, second_inbox = Inbox(), Inbox()
    first = await ValkeyFanOut.open(url, first_inbox.deliver, prefix)
    try:
        second = await ValkeyFanOut.open(url, second_inbox.deliver, prefix)
        try:
            yield first, second, first_inbox, second_inbox
        finally:
            await second.close()
    finally:
        await first.close()


async def settle(*fanouts: ValkeyFanOut) -> None:
    """Each flushed in turn: the publisher's messages reached Valkey, the others took them in."""
    for fanout in fanouts:
        await asyncio.wait_for(fanout.flush(), 10.0)


async def listened(url: str, prefix: str = CHANNEL_PREFIX) -> set[str]:
    """The channels under `prefix` that Valkey has at least one listener on, without it."""
    client = Redis.from_url(url, protocol=2)
    try:
        channels = await client.pubsub_channels(f"{prefix}*")
        return {channel.decode().removeprefix(prefix) for channel in channels}
    finally:
        await client.aclose()


async def back(*fanouts: ValkeyFanOut) -> None:
    deadline = time.monotonic() + BACK_WITHIN
    while not all(fanout.reachable for fanout in fanouts):
        assert time.monotonic() < deadline, "the fan-out did not listen again"
        await asyncio.sleep(0.02)


def test_valkey_a_message_crosses_to_the_other_process_in_order(valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        async with two_processes(valkey.url) as (first, second, here, there):
            first.subscribe(LOBBY, "ann")
            second.subscribe(LOBBY, "ben")
            second.subscribe(LOBBY, "cal")
            second.subscribe(LOBBY, "dee")
            second.unsubscribe(LOBBY, "dee")
            await settle(first, second)
            for number in range(200):
                first.publish(LOBBY, said(str(number)), but="ann")
            await settle(first, second)  # else the second's own lines hear its next one first
            second.publish(LOBBY, said("from the second"), but="ben")
            await settle(second, first)
            expected = [str(number) for number in range(200)]
            assert here.of("ann") == ["from the second"]  # its own `but`: never
            assert there.of("ben") == expected  # not its own, once each, in order
            assert there.of("cal") == [*expected, "from the second"]
            assert there.of("dee") == []  # left before the first was published
            assert (first.subscribed(LOBBY), second.subscribed(LOBBY)) == (1, 2)

    asyncio.run(scenario())


def test_valkey_a_line_that_left_hears_no_more_from_the_other_process(
        valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        async with two_processes(valkey.url) as (first, second, _, there):
            table = watch_topic("000042")
            second.subscribe(table, "spectator")
            second.subscribe(table, "leaving")
            await settle(second)
            first.publish(table, said("both"))
            await settle(first, second)
            second.unsubscribe(table, "leaving")
            first.publish(table, said("one"))
            await settle(first, second)
            assert there.of("spectator") == ["both", "one"]
            assert there.of("leaving") == ["both"]

    asyncio.run(scenario())


def test_valkey_a_process_listens_only_to_topics_it_has_lines_on(valkey: ValkeyServer) -> None:
    prefix = "listens-only:"  # apart from the other tests' channels on this worker's Valkey

    async def scenario() -> None:
        async with two_processes(valkey.url, prefix) as (first, second, here, there):
            first.subscribe(watch_topic("000001"), "ann")
            second.subscribe(LOBBY, "ben")
            second.subscribe(LOBBY, "cal")
            second.subscribe(watch_topic("000002"), "dee")
            second.unsubscribe(watch_topic("000002"), "dee")  # came and went: nothing sent
            await settle(first, second)
            assert await listened(valkey.url, prefix) == {"lobby", "watch:000001"}
            second.unsubscribe(LOBBY, "ben")
            await settle(second)
            assert await listened(valkey.url, prefix) == {"lobby", "watch:000001"}  # cal is there
            second.unsubscribe(LOBBY, "cal")
            await settle(second)
            assert await listened(valkey.url, prefix) == {"watch:000001"}
            first.publish(LOBBY, said("nobody"))
            second.publish(watch_topic("000002"), said("nobody either"))
            await settle(first, second, first)
            assert here.heard == {} and there.heard == {}

    asyncio.run(scenario())


def test_valkey_down_drops_quietly_and_the_subscriptions_come_back(
        caplog: pytest.LogCaptureFixture) -> None:
    """Killed (a lost engine), then stopped cleanly: publishing meanwhile never raises nor
    waits, the other process's copies are dropped with one log line a fan-out an outage, and
    once the engine is back (empty: it keeps nothing) both listen to their channels again."""
    require_valkey()
    caplog.set_level(logging.INFO, logger="sudden_death.server")

    async def outage(server: ValkeyServer, first: ValkeyFanOut, second: ValkeyFanOut,
                     kill: bool, tag: str) -> None:
        caplog.clear()
        if kill:
            server.kill()
        else:
            server.stop()
        started = time.monotonic()
        for number in range(1000):
            first.publish(LOBBY, said(f"{tag} lost {number}"))
            if number % 100 == 0:
                await asyncio.sleep(0.01)  # the loop turns: the loss is noticed meanwhile
        assert time.monotonic() - started < 2.0
        lost = [record for record in caplog.records if "cannot be reached" in record.message]
        assert len(lost) == 2  # one a fan-out, not one a message
        server.start()
        await back(first, second)
        assert sum("reached again" in record.message for record in caplog.records) == 2
        await settle(first, second)
        first.publish(LOBBY, said(f"{tag} back"))
        await settle(first, second)
        second.publish(LOBBY, said(f"{tag} back too"))
        await settle(second, first)

    async def scenario(server: ValkeyServer) -> None:
        async with two_processes(server.url) as (first, second, here, there):
            first.subscribe(LOBBY, "ann")
            second.subscribe(LOBBY, "ben")
            await settle(first, second)
            await outage(server, first, second, kill=True, tag="killed")
            await outage(server, first, second, kill=False, tag="stopped")
            # The first process's own line heard everything it published, the outage too.
            assert len(here.of("ann")) == 2 * (1000 + 2)
            assert there.of("ben") == ["killed back", "killed back too", "stopped back",
                                       "stopped back too"]
            assert await listened(server.url) == {"lobby"}

    with valkey_server() as server:
        asyncio.run(scenario(server))


def test_valkey_hung_never_blocks_a_publish(valkey: ValkeyServer) -> None:
    """A Valkey that stops answering (SIGSTOP) without closing its sockets: the roles'
    publishes still return at once; what was queued goes out, in order, once it answers."""
    async def scenario() -> None:
        async with two_processes(valkey.url) as (first, second, _, there):
            second.subscribe(LOBBY, "ben")
            await settle(second)
            pid = valkey.pid
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
            try:
                started = time.monotonic()
                for number in range(2000):
                    first.publish(LOBBY, said(str(number)))
                    if number % 200 == 0:
                        await asyncio.sleep(0)
                assert time.monotonic() - started < 1.0
                await asyncio.sleep(0.2)
            finally:
                os.kill(pid, signal.SIGCONT)
            await settle(first, second)
            assert there.of("ben") == [str(number) for number in range(2000)]

    asyncio.run(scenario())


def test_valkey_unreachable_at_open_is_said_at_once() -> None:
    async def scenario() -> None:
        started = time.monotonic()
        with pytest.raises(ValkeyUnreachable, match="cannot be reached"):
            await ValkeyFanOut.open("redis://127.0.0.1:1/0", lambda line, frame: None)
        assert time.monotonic() - started < 5.0
        assert asyncio.all_tasks() == {asyncio.current_task()}  # nothing left running

    asyncio.run(scenario())


def test_valkey_close_leaves_no_task_and_sends_what_was_queued(valkey: ValkeyServer) -> None:
    async def scenario() -> None:
        inbox = Inbox()
        listener = await ValkeyFanOut.open(valkey.url, inbox.deliver)
        listener.subscribe(LOBBY, "ben")
        await settle(listener)
        publisher = await ValkeyFanOut.open(valkey.url, lambda line, frame: None)
        for number in range(100):
            publisher.publish(LOBBY, said(str(number)))
        await publisher.close()  # the queue is sent before the connections close
        await settle(listener)
        await listener.close()
        assert inbox.of("ben") == [str(number) for number in range(100)]
        publisher.publish(LOBBY, said("after close"))  # its own lines only: no error
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(scenario())
