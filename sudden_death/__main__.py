"""Entry point: `python -m sudden_death [--seed N] [--headless] [--keys FILE|-] ...`."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the spoken game; the import is inside so `--help` and tests import nothing early."""
    from .ui.app import main as run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
