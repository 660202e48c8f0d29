"""A table served inside the game for the home network: the server's code, which the game
hands to its link (`net/link.py`) so that the link never imports the server."""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass

from websockets.asyncio.server import Server

from .service import TableService, start

HOME_PORT = 8765  # the port a table hosted inside the game listens on, when it is free


@dataclass
class HomeServer:
    """The running server and its service, closed together: the link knows only `Served`,
    and the service's accounts file (in memory here) must be closed once the server is."""

    server: Server
    service: TableService

    def close(self) -> None:
        self.server.close()

    async def wait_closed(self) -> None:
        try:
            await self.server.wait_closed()
        finally:
            self.service.close()


async def serve_here() -> tuple[HomeServer, str, str]:
    """A table server on this computer for the home network: HOME_PORT if it is free, else
    any port. Returns the server, the URL to connect to and the address a friend joins."""
    service = TableService()
    try:
        try:
            server = await start(service, "0.0.0.0", HOME_PORT)
        except OSError:
            server = await start(service, "0.0.0.0", 0)
    except BaseException:
        service.close()
        raise
    port = next(iter(server.sockets)).getsockname()[1]
    return HomeServer(server, service), f"ws://127.0.0.1:{port}", f"{home_address()}:{port}"


def home_address() -> str:
    """This computer's address on its network (no packet is sent: a UDP socket is only aimed
    at a documentation address so the system picks the interface it would use)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        return str(probe.getsockname()[0])
    return "127.0.0.1"
