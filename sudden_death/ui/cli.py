"""Command-line options, kept apart from the loop so tests can build `Options` directly."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Options:
    """Everything the command line can set; the defaults are an ordinary interactive game."""

    seed: int | None = None
    headless: bool = False
    keys: str | None = None  # a file path, "-" for standard input, or None for the keyboard
    transcript: str | None = None  # a file path, "-" for standard output, or None
    config: Path | None = None
    no_sound: bool = False


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sudden_death",
        description="Sudden Death: an American-football card game you play by ear.",
    )
    parser.add_argument("--seed", type=int, default=None, help="fix every die and computer choice")
    parser.add_argument(
        "--headless", action="store_true", help="no window or sound device (SDL dummy drivers)"
    )
    parser.add_argument(
        "--keys", metavar="FILE", default=None, help="read key steps from FILE, or - for stdin"
    )
    parser.add_argument(
        "--transcript",
        metavar="FILE",
        default=None,
        help="write speech and cues as JSON Lines to FILE, or - for stdout",
    )
    parser.add_argument(
        "--config", metavar="DIR", type=Path, default=None,
        help="settings folder (default: your config folder)",
    )
    parser.add_argument(
        "--no-sound", action="store_true", help="silent: speech and cues are only recorded"
    )
    return parser


def parse_options(argv: list[str] | None) -> Options:
    args = build_parser().parse_args(argv)
    return Options(
        seed=args.seed,
        headless=args.headless,
        keys=args.keys,
        transcript=args.transcript,
        config=args.config,
        no_sound=args.no_sound,
    )
