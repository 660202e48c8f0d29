"""Entry point: `python -m sudden_death [--seed N] [--headless] [--keys FILE|-] ...`."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the spoken game. The game's modules import pygame, which greets on stdout (where
    `--transcript -` writes) unless told not to before its first import: hence the import here,
    after the setting, rather than at the top."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from .ui.run.loop import main as run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
