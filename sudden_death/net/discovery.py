"""Tables on the home network, found without typing an address: multicast DNS service
discovery with `zeroconf` (pure Python, the Bonjour/Avahi protocol, kept up to date).

A game that serves a table itself advertises it (`Advertiser`, in the link's asyncio loop)
until the friend has joined; "Join a table" looks for them (`Finder`, on zeroconf's own
threads) and lists what it finds. Neither ever blocks the game's loop: the finder is polled.
"""

from __future__ import annotations

import contextlib
import socket
import threading

from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from ..wire import protocol as p
from .news import NearbyTable

SERVICE = "_sudden-death._tcp.local."
LOOKUP_MS = 1500


class Advertiser:
    """One table served here, announced on the network until `stop`."""

    def __init__(self) -> None:
        self._zeroconf: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    async def start(self, team: str, code: str, host: str, port: int) -> None:
        name = f"{team} {code}"[:60].replace(".", " ")
        self._info = AsyncServiceInfo(
            SERVICE, f"{name}.{SERVICE}", port=port, addresses=[socket.inet_aton(host)],
            properties={"team": team, "code": code, "version": str(p.PROTOCOL_VERSION)})
        self._zeroconf = AsyncZeroconf(ip_version=IPVersion.V4Only)
        await self._zeroconf.async_register_service(self._info)

    async def stop(self) -> None:
        zeroconf, info = self._zeroconf, self._info
        self._zeroconf = self._info = None
        if zeroconf is None:
            return
        with contextlib.suppress(Exception):  # the network may be gone: closing must not fail
            if info is not None:
                await zeroconf.async_unregister_service(info)
            await zeroconf.async_close()


class Finder:
    """Looks for tables nearby until `close`; `tables()` says what it has found so far."""

    def __init__(self) -> None:
        self._found: dict[str, NearbyTable] = {}
        self._lock = threading.Lock()
        self._zeroconf: Zeroconf | None = None
        self._closed = False
        self.failed = ""  # why looking was not possible (no network), for a log

    def start(self) -> None:
        threading.Thread(target=self._open, name="table-finder", daemon=True).start()

    def _open(self) -> None:
        try:
            zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
        except OSError as error:
            self.failed = str(error)
            return
        with self._lock:
            if self._closed:
                zeroconf.close()
                return
            self._zeroconf = zeroconf
        ServiceBrowser(zeroconf, SERVICE, handlers=[self._changed])

    def _changed(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            with self._lock:
                self._found.pop(name, None)
            return
        info = zeroconf.get_service_info(service_type, name, LOOKUP_MS)
        if info is None or not info.addresses or info.port is None:
            return
        props = {key.decode(errors="replace"): (value or b"").decode(errors="replace")
                 for key, value in info.properties.items()}
        if props.get("version") != str(p.PROTOCOL_VERSION) or not props.get("code"):
            return
        table = NearbyTable(props.get("team", "")[: p.MAX_NAME], props["code"][:12],
                            f"{socket.inet_ntoa(info.addresses[0])}:{info.port}")
        with self._lock:
            self._found[name] = table

    def tables(self) -> list[NearbyTable]:
        with self._lock:
            return sorted(self._found.values(), key=lambda table: (table.team, table.code))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None:
            threading.Thread(target=zeroconf.close, daemon=True).start()  # it waits a little
