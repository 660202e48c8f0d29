"""HTTP as raw bytes on a real socket, for tests that must see exactly what a server answers
(no client library that would tidy a path, add a header or hide a second answer)."""

from __future__ import annotations

import asyncio


async def exchange(where: tuple[str, int], *sent: bytes, pause_s: float = 0.0) -> bytes:
    """All the server answers to `sent` (each part written on its own, `pause_s` apart) until
    it closes the line."""
    reader, writer = await asyncio.open_connection(*where)
    try:
        for part in sent:
            writer.write(part)
            await writer.drain()
            await asyncio.sleep(pause_s)
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()
        await writer.wait_closed()


def request(method: str, path: str, extra: str = "", body: bytes = b"") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode() + body


def answers(data: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """The HTTP answers in `data`, each (status, headers, body by its Content-Length); bytes
    left after the last are an answer of their own, which fails its test."""
    found = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        length = int(headers.get("Content-Length", len(rest)))
        found.append((int(lines[0].split(" ")[1]), headers, rest[:length]))
        data = rest[length:]
    return found
