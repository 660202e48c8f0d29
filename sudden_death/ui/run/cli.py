"""Command-line options, kept apart from the loop so tests can build `Options` directly."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from ...language import available


@dataclass(frozen=True)
class Options:
    """Everything the command line can set; the defaults are an ordinary interactive game."""

    seed: int | None = None
    headless: bool = False
    keys: str | None = None  # a file path, "-" for standard input, or None for the keyboard
    transcript: str | None = None  # a file path, "-" for standard output, or None
    config: Path | None = None
    no_sound: bool = False
    window: tuple[int, int] | None = None  # the window's first size, or the default
    computer: str | None = None  # "random" or "coach"; None: the saved setting
    lang: str | None = None  # a catalog's code ("en", "es"); None: the saved setting
    server: str | None = None  # a table server's URL for "Play a friend"; None: the setting


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
        "--transcript", type=_not_empty,
        metavar="FILE",
        default=None,
        help="write speech and cues as JSON Lines to FILE, or - for stdout",
    )
    parser.add_argument(
        "--config", metavar="DIR", type=_folder, default=None,
        help="settings folder (default: your config folder)",
    )
    parser.add_argument(
        "--no-sound", action="store_true", help="silent: speech and cues are only recorded"
    )
    parser.add_argument(
        "--lang", metavar="CODE", type=_language, default=None,
        help="the language for this run, e.g. en or es (default: the setting, else the "
             "system's language when the game has it)",
    )
    parser.add_argument(
        "--server", type=_server_url, default=None, metavar="URL",
        help="the table server for Play a friend (ws://HOST:PORT or wss://...), this run only",
    )
    parser.add_argument(
        "--computer", choices=("random", "coach"), default=None,
        help="the opponent: the rules' random computer, or the coach (default: the setting)",
    )
    parser.add_argument(
        "--window", metavar="WxH", type=_window_size, default=None,
        help="the window's first size in pixels, e.g. 1280x1024 (it can be resized later)",
    )
    return parser


def _not_empty(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a file name, or - for standard output")
    return text


def _folder(text: str) -> Path:
    """A folder name; an empty one would quietly mean the current folder, so it is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a folder name (it was empty)")
    return Path(text)


def _language(text: str) -> str:
    """A language the game has a catalog for; the message lists the ones it has."""
    codes = available()
    if text not in codes:
        raise argparse.ArgumentTypeError(
            f"no catalog for {text!r}; the game has: {', '.join(codes)}")
    return text


def _window_size(text: str) -> tuple[int, int]:
    """"1280x1024" as (1280, 1024); a clear message for anything else."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT, like 1024x768, not {text!r}") from None
    if not (320 <= width <= 10000 and 240 <= height <= 10000):
        raise argparse.ArgumentTypeError("the window must be 320x240 to 10000x10000 pixels")
    return width, height


def _server_url(text: str) -> str:
    if not text.startswith(("ws://", "wss://")) or len(text) > 300:
        raise argparse.ArgumentTypeError(f"a table server is ws://HOST:PORT or wss://..., "
                                         f"not {text[:40]!r}")
    return text


def parse_options(argv: list[str] | None) -> Options:
    args = build_parser().parse_args(argv)
    return Options(
        seed=args.seed,
        headless=args.headless,
        keys=args.keys,
        transcript=args.transcript,
        config=args.config,
        no_sound=args.no_sound,
        window=args.window,
        computer=args.computer,
        lang=args.lang,
        server=args.server,
    )
