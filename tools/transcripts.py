"""The words of seeded games, kept so a change that should not alter the spoken game can be
checked not to (tests/test_transcripts.py).

    .venv/bin/python tools/transcripts.py --write tests/transcripts/   # after a wanted change
    .venv/bin/python tools/transcripts.py --check tests/transcripts/

Each game is the real program, headless and silent: games against the computer from their
seeds with the keys tests/game_script.py plans, and a game at a table between two game
processes on a table server with seeded dice (each seat's words kept). At a table, what
depends on timing or chance outside the seeds is left out or masked: "Waiting for the ..."
(said only when the friend is still choosing 0.4 s after the player chose), "The ... have
chosen" (said when the friend chose first, a race between the two games), "... left the
table" after the game (whichever quits first), and the table's code (drawn by the server
from the system's entropy, as a code must be), in its announcement and as it is typed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from game_script import plan_game, spoken_lines  # noqa: E402
from table_driver import Seat, Server, sit_down, start_playing  # noqa: E402

COMPUTER_GAMES = ((3, "en"), (11, "en"), (29, "es"))  # (seed, language)
TABLE_SEED = 7  # the server's dice and both games' choice of phrasings


def table_line(line: str) -> str | None:
    """The line as kept for a table game: None to leave it out, the code's digits masked."""
    if line.startswith("Waiting for the") or "left the table" in line or line.endswith(
            " have chosen."):
        return None
    if line.startswith("Your table code:") or re.fullmatch(r"\d", line):
        return re.sub(r"\d", "#", line)
    return line


def computer_game(seed: int, lang: str) -> list[str]:
    keys, _events = plan_game(seed)
    with tempfile.TemporaryDirectory() as folder:
        return spoken_lines(seed, keys, lang, Path(folder))


def table_game() -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as folder, Server("--seed", str(TABLE_SEED)) as server:
        tmp = Path(folder)
        host = Seat(tmp / "host", "--server", server.url, "--seed", str(TABLE_SEED))
        guest = Seat(tmp / "guest", "--server", server.url, "--seed", str(TABLE_SEED + 1))
        with host, guest:
            sit_down(host, guest)
            for thread in start_playing(host, guest):
                thread.join(600)
            host.proc.wait(60)
            guest.proc.wait(60)
        kept: dict[str, list[str]] = {}
        for name, seat in (("host", host), ("guest", guest)):
            lines = (table_line(r["text"]) for r in seat.records if r.get("kind") == "speech")
            kept[name] = [line for line in lines if line is not None]
        return kept


def all_games() -> dict[str, list[str]]:
    games = {f"computer-{seed}-{lang}": computer_game(seed, lang)
             for seed, lang in COMPUTER_GAMES}
    for seat, lines in table_game().items():
        games[f"table-{TABLE_SEED}-{seat}"] = lines
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="write each game's words into this folder")
    action.add_argument("--check", type=Path, help="compare each game's words with this folder")
    args = parser.parse_args(argv)
    games = all_games()
    if args.write is not None:
        args.write.mkdir(parents=True, exist_ok=True)
        for name, lines in games.items():
            (args.write / f"{name}.json").write_text(
                json.dumps(lines, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return 0
    changed = [name for name, lines in games.items()
               if json.loads((args.check / f"{name}.json").read_text(encoding="utf-8")) != lines]
    for name in changed:
        print(f"{name}: the words differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
