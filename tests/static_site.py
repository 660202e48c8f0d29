"""A web build served as any static host serves it (issue 74), for the tests and the load
benchmark: Python's own HTTP server on a free loopback port, quiet, with the types a host
gives the build's files (Python's own table lacks .mjs before 3.12)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".zip": "application/zip"}


class Quiet(SimpleHTTPRequestHandler):
    """The build's files, said of in no log."""

    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map,
                                                **TYPES}

    def log_message(self, format: str, *args: Any) -> None:
        """Nothing on the output for each file served."""


@contextmanager
def static_site(folder: Path, handler: type[Quiet] = Quiet) -> Iterator[str]:
    """`folder` served until the block ends: the address of its root."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
