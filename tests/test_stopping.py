"""`stopping.stop` ends a background task even when a cancellation is lost (as Python 3.10's
`asyncio.wait_for` and redis-py's timeouts there can lose one), and gives up, saying so, on a
task that will not end, instead of a close that waits for ever."""

from __future__ import annotations

import asyncio
import logging

import pytest

from sudden_death.server.cluster.stopping import stop

pytestmark = pytest.mark.timeout(30)


def test_a_task_that_swallows_its_first_cancellation_is_cancelled_again() -> None:
    async def scenario() -> None:
        swallowed = 0

        async def stubborn() -> None:
            nonlocal swallowed
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    swallowed += 1
                    if swallowed == 1:
                        continue  # lost, as a 3.10 wait_for or async-timeout can lose it
                    raise

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        assert await stop(task, patience_s=5)
        assert task.cancelled() and swallowed == 2

    asyncio.run(scenario())


def test_what_a_stopped_task_raised_is_taken_and_a_finished_task_is_left_as_it_is() -> None:
    async def scenario() -> None:
        async def fails() -> None:
            try:
                await asyncio.sleep(3600)
            finally:
                raise RuntimeError("while stopping")

        task = asyncio.create_task(fails())
        await asyncio.sleep(0)
        assert await stop(task)
        assert isinstance(task.exception(), RuntimeError)
        done = asyncio.create_task(asyncio.sleep(0, "result"))
        await done
        assert await stop(done) and done.result() == "result"

    asyncio.run(scenario())


def test_a_task_that_never_ends_is_given_up_on_and_said_in_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async def deaf() -> None:
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    continue

        task = asyncio.create_task(deaf(), name="deaf")
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert not await stop(task, patience_s=1.2)
        assert 1.2 <= loop.time() - started < 3
        assert not task.done()
        assert "deaf" in caplog.text and "did not stop" in caplog.text
        task.get_coro().close()  # the test's own clean-up of a task that cannot be cancelled

    with caplog.at_level(logging.ERROR, "sudden_death.server"):
        asyncio.run(scenario())
