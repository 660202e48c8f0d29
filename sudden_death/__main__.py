"""Entry point: `python -m sudden_death` (the playable front end arrives with its own issue)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("Sudden Death: the rules engine is ready; the spoken game is on its way.")
    print("Try: python -m sudden_death.simulate --games 1000 --seed 1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
