"""A loopback TCP proxy a test can stall (it holds every byte until released), cut (it
closes the lines it carries) or shut (it closes every new line at once, until opened), to
play a network that misbehaves between a game and its table server. It runs its own asyncio
loop on a thread."""

from __future__ import annotations

import asyncio
import contextlib
import threading


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._flowing: asyncio.Event | None = None
        self._lines: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self._shut = False  # new lines closed at once: a network that stays down
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._started.wait(10)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())
        self._loop.run_forever()

    async def _serve(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        self._started.set()

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._shut:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._lines.append((writer, up_writer))
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer),
                             return_exceptions=True)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._flowing is not None
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    def stall(self) -> None:
        assert self._flowing is not None
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def release(self) -> None:
        assert self._flowing is not None
        self._loop.call_soon_threadsafe(self._flowing.set)

    def shut(self) -> None:
        """From now on every new line is closed as it comes (the lines carried stay)."""
        self._loop.call_soon_threadsafe(setattr, self, "_shut", True)

    def open(self) -> None:
        """New lines are carried again."""
        self._loop.call_soon_threadsafe(setattr, self, "_shut", False)

    def cut(self, index: int) -> None:
        """Close the `index`th line carried (0: the first to connect), both of its ends."""
        def close() -> None:
            for writer in self._lines[index]:
                writer.close()

        self._loop.call_soon_threadsafe(close)

    def close(self) -> None:
        """Close every line, both ends, and wait for the closes before the loop stops (a
        socket left open would warn, and hold up the server's own shutdown)."""
        async def stop() -> None:
            self._server.close()
            writers = [writer for pair in self._lines for writer in pair]
            for writer in writers:
                writer.close()
            for writer in writers:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer.wait_closed(), 2)
            self._loop.stop()

        self._loop.call_soon_threadsafe(lambda: self._loop.create_task(stop()))
        self._thread.join(10)
        self._loop.close()
