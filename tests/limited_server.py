"""`python -m sudden_death.server` with limits a test chooses: `limited_server.py LIMITS ARGS`,
LIMITS the JSON of a `Limits` (its fields by name), ARGS the server's own. The server is the
real one, as an operator runs it; only the limits it builds from `--per-address` are these.
Why: a test of many thousand messages from one line (tests/test_valkey_hostile.py) needs a
cluster of real processes whose floods limit is far off, as the one-process tests set it."""

from __future__ import annotations

import json
import sys

from sudden_death.server import __main__ as server
from sudden_death.server.lines.limits import Limits


def main(argv: list[str]) -> int:
    chosen = Limits(**json.loads(argv[0]))
    Limits.shared = classmethod(lambda _cls, _players: chosen)  # type: ignore[method-assign, assignment]
    return server.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
