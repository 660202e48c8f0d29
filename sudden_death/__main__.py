"""Entry point: `python -m sudden_death [--seed N] [--headless] [--keys FILE|-] ...`, or
`sudden-death --serve [server options]` for the table server (the packaged game has no
`python -m`)."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the spoken game. The game's modules import pygame, which greets on stdout (where
    `--transcript -` writes) unless told not to before its first import: hence the import here,
    after the setting, rather than at the top."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--serve"]:
        from .server.__main__ import main as serve

        return serve(args[1:])
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from .ui.run.loop import main as run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
