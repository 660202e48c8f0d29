"""`python -m sudden_death.server`: run a table server until SIGTERM or Ctrl+C (exit 0).

Its first line on standard output is `{"listening": "ws://HOST:PORT", "page":
"http://HOST:PORT/"}`, so a script that starts it with `--port 0` learns the port it got; the
page is the browser seat's (web/site.py), served on the same port unless `--no-page`.
With `--postgres URL` the tables and the players' accounts are kept in PostgreSQL
(postgres_tables.py, postgres_accounts.py), imported only then: psycopg is the `server`
extra's, and a player's game, or a server on SQLite, starts without it. With `--valkey URL` the
lobby lists every process's tables and players on that Valkey (valkey_lobby.py), its chat
crosses the processes on Valkey's pub/sub (valkey_fanout.py) and a line greeted with another
process's table is relayed there (valkey_routes.py, relay.py): each imported only then for the
same reason (redis-py is the `server` extra's). `GET /healthz` and `GET /readyz` are answered on
its port always, `GET /metrics` with `--metrics-from` (health.py, metrics.py: prometheus_client,
the `server` extra's, imported only then).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import sqlite3
import ssl
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.server import Server, ServerConnection
from websockets.http11 import Request, Response

from .lines.limits import Limits
from .operations import collector
from .operations.draining import STOP_BOUND_S, Leaving, drain
from .operations.health import CHECK_TIMEOUT_S, Check, Readiness, listen, networks
from .operations.watch import Watch
from .service import TableService, address, start, start_relay, stop
from .stores.accounts import Accounts
from .stores.seam import AccountStore, StoreError, answered
from .stores.seam import TableStore as Tables
from .stores.sharded_tables import ShardedTables
from .stores.sqlite_tables import TableStore
from .stores.timed_store import TimedStore

LOG = logging.getLogger("sudden_death.server")
NEEDS_EXTRA = ("--postgres needs the PostgreSQL client, which the game alone does not "
               "install: pip install 'sudden-death[server]'")
NEEDS_VALKEY_EXTRA = ("--valkey needs the Valkey client, which the game alone does not "
                      "install: pip install 'sudden-death[server]'")
NEEDS_METRICS_EXTRA = ("--metrics-from needs prometheus_client, which the game alone does not "
                       "install: pip install 'sudden-death[server]'")
PROBE_CODE = ""  # the table readiness asks the store for: no table has this code


class Refused(Exception):
    """What stops the server before it serves, in one line for stderr (exit 2)."""


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m sudden_death.server",
                                     description="Sudden Death's table server.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (0.0.0.0 serves the whole network)")
    parser.add_argument("--port", type=int, default=8765, help="the port; 0 picks a free one")
    parser.add_argument("--data", type=Path, default=None,
                        help="where the tables and players' names are kept (a folder)")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="keep the tables and the players' accounts and ratings in "
                             "PostgreSQL instead of --data's files "
                             "(postgresql://USER@HOST:PORT/DB; created and migrated at start; "
                             "needs pip install 'sudden-death[server]')")
    parser.add_argument("--tables-on", action="append", default=[], metavar="URL",
                        help="with --postgres: keep the tables in these PostgreSQL databases "
                             "instead (given once each, the same list in the same order to "
                             "every process), each table in the one its code belongs to; the "
                             "accounts and ratings stay in --postgres's (docs/server.md)")
    parser.add_argument("--valkey", default=None, metavar="URL",
                        help="one of many server processes sharing this Valkey (or Redis): the "
                             "lobby lists every process's tables and players and carries "
                             "their chat, and a line that joins, "
                             "resumes or watches a table another process holds is relayed "
                             "there (redis://HOST:PORT/DB; each process needs its own --name, "
                             "and with --postgres they share the tables' codes; needs pip "
                             "install 'sudden-death[server]')")
    parser.add_argument("--relay-port", type=int, default=0, metavar="PORT",
                        help="with --valkey: the port the other processes relay lines to "
                             "(default: a free one), on --host; keep it off the internet")
    parser.add_argument("--no-page", action="store_true",
                        help="serve no browser page, only the WebSocket (the page: "
                             "docs/playing.md, \"In a browser\")")
    parser.add_argument("--web", type=Path, default=None, metavar="DIR",
                        help="serve the web build in DIR (python3 tasks.py build-web) as the "
                             "browser page: the same page, and a phone that opened it can keep "
                             "the game and play the computer with no network")
    parser.add_argument("--reuse-port", action="store_true",
                        help="with --valkey: let other server processes listen on the same "
                             "--port (SO_REUSEPORT, Linux: new connections are spread over "
                             "them), so the players have one address for them all")
    parser.add_argument("--relay-address", default=None, metavar="HOST",
                        help="with --valkey: how the other processes reach this one (default: "
                             "--host, or this machine's name when --host is 0.0.0.0 or ::)")
    parser.add_argument("--tls-cert", type=Path, default=None, help="certificate (PEM)")
    parser.add_argument("--tls-key", type=Path, default=None, help="its private key (PEM)")
    parser.add_argument("--seed", type=int, default=None,
                        help="table n's dice come from SEED + n (tests and replays)")
    parser.add_argument("--per-address", type=int, default=Limits.per_address, metavar="N",
                        help="players one address may stand for (default %(default)s): its "
                             "open connections, new ones a second and wrong codes grow with "
                             "it; behind a reverse proxy every client has the proxy's address")
    parser.add_argument("--name", default=None,
                        help="this server's name in the tables' claims (default: the machine's "
                             "host name): the same across its restarts, so it takes its own "
                             "tables back; servers sharing one store each need their own")
    parser.add_argument("--log-json", action="store_true",
                        help="log one JSON object a line (time, level, message) on stderr")
    parser.add_argument("--metrics-from", action="append", default=[], metavar="NETWORK",
                        help="serve GET /metrics (Prometheus's text format) to addresses in "
                             "NETWORK (127.0.0.1, 10.0.0.0/8, ::1; again for more); others "
                             "get 403. Off by default (404). Needs pip install "
                             "'sudden-death[server]'")
    parser.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                        help="with --metrics-from: serve /metrics on this port (on --host; 0 "
                             "picks a free one) and not on --port, with /healthz and /readyz "
                             "of this process alone (--reuse-port's port reaches any)")
    options = parser.parse_args(argv)
    if options.metrics_port is not None and not options.metrics_from:
        parser.error("--metrics-port needs --metrics-from: who may read the metrics")
    try:
        options.metrics_networks = networks(options.metrics_from)
    except ValueError as error:
        parser.error(f"--metrics-from: {error}")
    if (options.tls_cert is None) != (options.tls_key is None):
        parser.error("--tls-cert and --tls-key come together")
    if options.web is not None and not (options.web / "contents.json").is_file():
        parser.error(f"--web {options.web}: no web build there (no contents.json); "
                     "python3 tasks.py build-web writes one into dist/web/")
    if options.reuse_port and options.valkey is None:
        # Alone, a process sharing its port with others would hold tables they cannot reach.
        parser.error("--reuse-port needs --valkey: every process must reach every table")
    return options


async def serve(options: argparse.Namespace) -> None:
    metrics = None if not options.metrics_networks else measured()  # before any store opens
    tls = None
    if options.tls_cert is not None:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(options.tls_cert, options.tls_key)
    store: Tables | None = None
    accounts: Accounts | AccountStore
    if options.postgres is not None:
        accounts = await postgres_accounts(options.postgres)
        try:
            store = (await sharded_tables(options.tables_on) if options.tables_on
                     else await postgres_tables(options.postgres))
        except Refused:
            await asyncio.to_thread(accounts.close)
            raise
    else:
        store = None if options.data is None else TableStore(options.data)
        accounts = Accounts(options.data)  # in memory without --data
    limits = Limits.shared(options.per_address)
    named = {} if options.name is None else {"name": options.name}
    site = None if options.no_page else page_site(options.web)
    timed = store if metrics is None or store is None else TimedStore(store, metrics.store_call)
    service = TableService(seed=options.seed, store=timed, limits=limits, accounts=accounts,
                           site=site, **named)
    readiness = service.probes.readiness
    if store is not None:
        readiness.checks.append(store_check(store))
    shared: list[Closing] = []
    relaying = operating = None
    routes: Routes | None = None  # a cluster's, to hand the tables over on a clean stop
    try:
        # Its tables restored before it answers for any (issue 70): its relay listener and
        # its lease in Valkey come after, so no line is relayed here to a table not yet back.
        restoring = service.restore()
        if restoring is not None:  # a database's answers are awaited
            await restoring
        readiness.restored = True
        if options.valkey is not None:
            shared.append(await valkey_check(options.valkey, readiness.checks))
            shared.append(await valkey_lobby(options.valkey, service))
            shared.append(await valkey_chat(options.valkey, service))
            relaying = await start_relay(service, options.host, options.relay_port)
            shared.append(routes := await valkey_routes(options, service, relaying))
            shared.append(await valkey_quick(options.valkey, service))
            shared.append(await valkey_tally(options.valkey, service))
        server = await start(service, options.host, options.port, tls, options.reuse_port)
        # No full collection's long stop (a rare sweep only on Python 3.10: collector.py)
        settled = collector.settle(asyncio.get_running_loop(), collector.sweep_needed())
        if metrics is not None:
            service.watch = metrics.watch(service)
            service.probes.page, service.probes.metrics_from = (metrics.page,
                                                                options.metrics_networks)
            readiness.checked = metrics.checked
            metrics.start(readiness)
        if options.metrics_port is not None:
            operating = await listen(service.probes, options.host, options.metrics_port)
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, done.set)
        # Said once SIGTERM already stops it cleanly: a supervisor may stop it the moment it
        # hears.
        url = address(server, tls is not None)
        page = {} if site is None else {"page": "http" + url.removeprefix("ws") + "/"}
        if operating is not None:
            page["metrics"] = "http" + address(operating, False).removeprefix("ws") + "/metrics"
        print(json.dumps({"listening": url, **page}), flush=True)
        await done.wait()
        service.draining = True  # /readyz 503 and the metrics' draining 1 from now
        bounded(STOP_BOUND_S)
        if routes is not None and relaying is not None and options.postgres is not None:
            await drain(service.seats, (server, relaying), routes)  # a shared store
        await stop(server)
        settled.undo()
    finally:
        if operating is not None:
            await stop(operating)
        if metrics is not None:
            await metrics.close()
        await readiness.close()
        if relaying is not None:
            await stop(relaying)
        for each in reversed(shared):
            await each.close()
        await service.settled()  # a database's writes still under way finish first
        service.seats.keeper.close()  # nothing more is written: the store closes now
        closing = service.close()
        if closing is not None:  # a database's pool
            await closing


def store_check(store: Tables) -> Check:
    """Readiness's check of the tables store: a read of a table no code names, through the
    store's own calls (its pool, for PostgreSQL), so it answers only when a real read would."""

    async def ask() -> object:
        return await answered(store.ended(PROBE_CODE))

    return Check("the tables store", "store", ask)


async def valkey_check(url: str, checks: list[Check]) -> Closing:
    """Readiness's check of Valkey (a PING on a client of its own, which gives up after the
    check's timeout and never tries again by itself), added to `checks`; what closes it."""
    from .cluster.valkey_fanout import outage_client  # only here, as valkey_lobby's

    client = outage_client(url, CHECK_TIMEOUT_S)

    async def ask() -> object:
        return await client.ping()

    checks.append(Check("Valkey", "valkey", ask))

    class Closed:
        async def close(self) -> None:
            await client.aclose()

    return Closed()


class Measuring(Protocol):
    """What the server asks of its metrics (metrics.Metrics), without importing them."""

    def store_call(self, call: str, seconds: float, failed: bool) -> None: ...

    def checked(self, name: str, seconds: float, ok: bool) -> None: ...

    def page(self) -> tuple[bytes, str]: ...

    def watch(self, service: TableService) -> Watch: ...

    def start(self, readiness: Readiness) -> None: ...

    async def close(self) -> None: ...


def measured() -> Measuring:
    """The server's metrics (metrics.py), imported only with --metrics-from: prometheus_client
    is the server extra's, and a player's game, or a server without metrics, never loads it.
    Refused (one line) without it."""
    try:
        from .operations.metrics import Metrics
    except ImportError as error:
        raise Refused(NEEDS_METRICS_EXTRA) from error
    return Metrics()


def bounded(seconds: float) -> None:
    """A stop that is not over within `seconds` (a close or a write that hangs) ends the
    process anyway, with exit 0 and a line in the log: what it had not handed over is then
    taken over as a lost process's tables are (docs/server.md, "A clean stop")."""

    def ended() -> None:
        LOG.error("the stop took longer than %g s: exiting now; this process's tables are "
                  "taken over as a lost process's", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, ended)
    timer.daemon = True  # an exit in time is not held up by it
    timer.start()


def page_site(web: Path | None = None) -> Callable[[ServerConnection, Request], Response | None]:
    """The browser page's answer to a plain request (web/site.py): the package's page, or the
    web build in `web`. Imported only here: the page's views bring the desktop game's word
    modules, which a server run with --no-page never loads (a quicker start)."""
    from ..web.site import Site

    return (Site() if web is None else Site(folder=web)).answer


async def postgres_tables(url: str) -> Tables:
    """The tables' store in PostgreSQL at `url`, its schema created or migrated first; Refused
    (one line, no traceback) without psycopg, for a URL that does not lead to a database
    this server may use, or for a database a newer server has migrated."""
    try:  # only here: psycopg is the server extra's (docs/architecture.md)
        from .stores.postgres_tables import PgTableStore, SchemaTooNew
    except ImportError as error:
        raise Refused(NEEDS_EXTRA) from error
    try:
        return await PgTableStore.open(url)
    except (SchemaTooNew, StoreError) as error:  # a newer schema; a wrong URL, no database...
        raise Refused(f"the PostgreSQL database cannot be used: {error}") from error


async def sharded_tables(urls: list[str]) -> Tables:
    """The tables spread over the databases at `urls` by their codes (sharded_tables.py);
    Refused as for one database, naming which, with every database opened so far closed."""
    opened: list[Any] = []  # PgTableStores: every call answered with an awaitable
    try:
        for number, url in enumerate(urls, 1):
            try:
                opened.append(await postgres_tables(url))
            except Refused as error:
                raise Refused(f"tables database {number} of {len(urls)}: {error}") from error
    except Refused:
        for store in opened:
            await store.close()
        raise
    return ShardedTables(opened)


async def postgres_accounts(url: str) -> AccountStore:
    """The players' accounts and ratings in PostgreSQL at `url` (migrated first, on a thread:
    the account store is synchronous, made for the desk's threads); Refused as for the
    tables."""
    try:  # only here, like postgres_tables
        from .stores.postgres_accounts import PgAccounts
        from .stores.postgres_schema import SchemaTooNew
    except ImportError as error:
        raise Refused(NEEDS_EXTRA) from error
    try:
        return await asyncio.to_thread(PgAccounts, url)
    except (SchemaTooNew, OSError, StoreError) as error:  # DatabaseFailed is an OSError
        raise Refused(f"the PostgreSQL database cannot be used: {error}") from error


class Closing(Protocol):
    """What the server lets go of when it stops (the shared lobby, its chat, the routes),
    without importing them."""

    async def close(self) -> None: ...


async def valkey_lobby(url: str, service: TableService) -> Closing:
    """The lobby shared with the other processes on the Valkey at `url`: this process's
    entries written there under its name, the others' listed here. Refused (one line) without
    redis-py or when Valkey cannot be reached at start."""
    try:  # only here: redis-py is the server extra's (docs/architecture.md)
        from .cluster.valkey_lobby import ValkeyLobby, ValkeyUnreachable
    except ImportError as error:
        raise Refused(NEEDS_VALKEY_EXTRA) from error
    lobby = service.lobby
    try:
        shared = await ValkeyLobby.open(url, service.name, lobby.own, lobby.changed)
    except ValkeyUnreachable as error:
        raise Refused(str(error)) from error
    lobby.elsewhere, lobby.shared = shared.others, shared.changed
    return shared


async def valkey_chat(url: str, service: TableService) -> Closing:
    """The lobby's chat on the Valkey at `url`: said on one process, heard in every process's
    lobby (its lists stay each process's own). Refused (one line) when Valkey cannot be
    reached at start; later outages keep the chat to this process's lines (valkey_fanout.py)."""
    from .cluster.valkey_fanout import (  # only here, as valkey_lobby's
        ValkeyFanOut,
        ValkeyUnreachable,
    )

    try:
        chat = await ValkeyFanOut.open(url, service.postman.send_frames)
    except ValkeyUnreachable as error:
        raise Refused(str(error)) from error
    service.lobby.chat_fanout = chat
    return chat


class Routes(Closing, Leaving, Protocol):
    """The cluster's routes (valkey_routes.py): closed, or left on a clean stop."""


async def valkey_routes(options: argparse.Namespace, service: TableService,
                        relaying: Server) -> Routes:
    """This process's tables' routes on the Valkey at --valkey, the others' read there, so a
    line greeted with another process's table is relayed to it (relay.py)."""
    from .cluster.valkey_fanout import ValkeyUnreachable
    from .cluster.valkey_routes import ValkeyRoutes  # only here, as valkey_lobby's

    host = options.relay_address or options.host
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    port = next(iter(relaying.sockets)).getsockname()[1]
    url = f"ws://{f'[{host}]' if ':' in host else host}:{port}"
    try:
        routes = await ValkeyRoutes.open(options.valkey, service.name, url,
                                         lambda: service.seats.tables.keys())
    except ValkeyUnreachable as error:
        raise Refused(str(error)) from error
    service.routes = routes
    service.seats.shared = True  # a table open in the store may be another process's
    return routes


async def valkey_quick(url: str, service: TableService) -> Closing:
    """The quick games waiting on every process, on the Valkey at `url`: a quick player is
    paired across the cluster (valkey_quick.py)."""
    from .cluster.valkey_fanout import ValkeyUnreachable
    from .cluster.valkey_quick import ValkeyQuick  # only here, as valkey_lobby's

    try:
        quick = await ValkeyQuick.open(url, service.name, service.pairing.waiting)
    except ValkeyUnreachable as error:
        raise Refused(str(error)) from error
    service.quick = quick
    return quick


async def valkey_tally(url: str, service: TableService) -> Closing:
    """The limits counted across the cluster, on the Valkey at `url`: a client meets the same
    per-address limits, and a name the same limit on tries, whichever process it reaches."""
    from .cluster.valkey_fanout import ValkeyUnreachable
    from .cluster.valkey_tally import ValkeyTally  # only here, as valkey_lobby's

    try:
        tally = await ValkeyTally.open(url, service.name)
    except ValkeyUnreachable as error:
        raise Refused(str(error)) from error
    service.addresses.tally = service.seats.tally = tally
    service.desk.share(tally)
    tally.polled("tables", service.seats.waiting_from)  # tables fill and end in many places
    return tally


class JsonLines(logging.Formatter):
    """A log record as one JSON object, for a log collector. The server never logs a seat's
    token or a table's password, so none is in any line."""

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps({"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
                           "level": record.levelname.lower(), "logger": record.name,
                           "message": record.getMessage()})


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if options.log_json
                         else logging.Formatter("sudden_death.server: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("websockets").setLevel(logging.WARNING)  # not a line per connection
    try:
        asyncio.run(serve(options))
    except Refused as error:  # no database client, a database that cannot be used
        print(f"sudden_death.server: {error}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error, StoreError) as error:  # the port is taken, the data...
        print(f"sudden_death.server: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
