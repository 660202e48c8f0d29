"""`python -m sudden_death.server`: run a table server until SIGTERM or Ctrl+C (exit 0).

Its first line on standard output is `{"listening": "ws://HOST:PORT"}`, so a script that
starts it with `--port 0` learns the port it got.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sqlite3
import ssl
import sys
from pathlib import Path

from . import collector
from .accounts import Accounts
from .limits import Limits
from .service import TableService, address, start, stop
from .store import TableStore


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m sudden_death.server",
                                     description="Sudden Death's table server.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (0.0.0.0 serves the whole network)")
    parser.add_argument("--port", type=int, default=8765, help="the port; 0 picks a free one")
    parser.add_argument("--data", type=Path, default=None,
                        help="where the tables are kept (a folder)")
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
    options = parser.parse_args(argv)
    if (options.tls_cert is None) != (options.tls_key is None):
        parser.error("--tls-cert and --tls-key come together")
    return options


async def serve(options: argparse.Namespace) -> None:
    tls = None
    if options.tls_cert is not None:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(options.tls_cert, options.tls_key)
    store = None if options.data is None else TableStore(options.data)
    limits = Limits.shared(options.per_address)
    accounts = Accounts(options.data)  # in memory without --data
    named = {} if options.name is None else {"name": options.name}
    service = TableService(seed=options.seed, store=store, limits=limits, accounts=accounts,
                           **named)
    service.restore()
    server = await start(service, options.host, options.port, tls)
    # No full collection's long stop (a rare sweep only on Python 3.10: collector.py)
    settled = collector.settle(asyncio.get_running_loop(), collector.sweep_needed())
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, done.set)
    # Said once SIGTERM already stops it cleanly: a supervisor may stop it the moment it hears.
    print(json.dumps({"listening": address(server, tls is not None)}), flush=True)
    await done.wait()
    await stop(server)
    settled.undo()
    service.close()


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
    except (OSError, sqlite3.Error) as error:  # the port is taken, the data unreadable...
        print(f"sudden_death.server: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
