"""What the player hears and presses per down: words spoken and keys pressed, by ear alone.

    python benchmarks/speech_economy.py [--games 20] [--first-seed 1] [--baseline FILE]

Plays whole seeded games through the real program (`python -m sudden_death --headless
--no-sound --keys - --transcript -`), one process per game, with a player who only hears
(tests/ear_player.py): it reads the transcript's speech lines and answers each "waiting" with a
key, never looking at the engine. Each verbosity is played by a careful player (arrows and Space
through the lists; fresh cards on the first down of a drive, then last down's cards, changing one
after a down that went badly), by a tinkerer (the same, changing a card every down) and by an
expert (last down's cards again, keep, first call). A down runs from its first question to the
end of its result (the new down and spot, a new drive, a score, the final score).

Prints, per verbosity and player, the median (and 90th percentile) words and keys per down over
every down of every game, then one machine-readable line per row. Words are counted in what the
game sent to speech; a player who presses on interrupts some of it, so this is what they would
hear if they listened to everything. `--baseline FILE` reads an earlier run's output (its
`speech_economy {...}` lines) and prints each row's old medians beside the new, so a change to
the words shows what it bought.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from ear_player import CAREFUL, EXPERT, TINKERER, Down, Downs, EarPlayer  # noqa: E402

from sudden_death.storage.settings import Settings, save_settings  # noqa: E402

VERBOSITIES = ("short", "normal", "detailed")
TARGETS = {("normal", "words"): 120, ("short", "words"): 70,
           (CAREFUL, "keys"): 9, (EXPERT, "keys"): 5}


def play_game(seed: int, verbosity: str, style: str) -> list[Down]:
    """One whole game through the real program; the downs as the player lived them."""
    with tempfile.TemporaryDirectory() as config:
        save_settings(Settings(verbosity=verbosity), Path(config))  # the game's own file
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1", XDG_CONFIG_HOME=config,
                   XDG_DATA_HOME=config)
        player, downs = EarPlayer(style, seed), Downs()
        # As a context, so its pipes are closed however the game ends (a test plays it too).
        with subprocess.Popen(
            [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed",
             str(seed), "--keys", "-", "--transcript", "-", "--config", config],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        ) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            heard: list[str] = []
            for raw in proc.stdout:
                record = json.loads(raw)
                if record.get("kind") == "speech":
                    heard.append(record["text"])
                    downs.hear(record["text"])
                elif record.get("kind") == "waiting":
                    key = player.next_key(heard)
                    heard = []
                    if key is None:
                        break
                    downs.press(key, player.ends_down)
                    proc.stdin.write(key + "\n")
                    proc.stdin.flush()
            proc.stdin.close()
            code = proc.wait(timeout=30)
            if code != 0 or not downs.over:
                raise RuntimeError(f"seed {seed} {verbosity} {style}: exit {code}, game over "
                                   f"{downs.over}: {proc.stderr.read() if proc.stderr else ''}")
        return downs.downs


def percentile(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))])


def read_baseline(path: Path) -> dict[tuple[str, str], dict[str, float]]:
    """An earlier run's rows, by verbosity and player, from its machine-readable lines."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("speech_economy "):
            row = json.loads(line.removeprefix("speech_economy "))
            rows[(row["verbosity"], row["player"])] = row
    return rows


def was(row: dict[str, float] | None) -> str:
    """The baseline's medians, to print beside the new ones ("" without a baseline row)."""
    if row is None:
        return ""
    return f"   was {row['words_median']} words, {row['keys_median']} keys"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per row (at least 6)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, help="an earlier run's output, to compare")
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.games)
    baseline = read_baseline(args.baseline) if args.baseline else {}
    rows = []
    print(f"{'verbosity':<10}{'player':<9}{'downs':>6}{'words median':>14}{'p90':>6}"
          f"{'keys median':>13}{'p90':>6}")
    for verbosity in VERBOSITIES:
        for style in (CAREFUL, TINKERER, EXPERT):
            downs = [down for seed in seeds for down in play_game(seed, verbosity, style)]
            words = [down.words for down in downs]
            keys = [len(down.keys) for down in downs]
            row = {"verbosity": verbosity, "player": style, "games": args.games,
                   "downs": len(downs), "words_median": statistics.median(words),
                   "words_p90": percentile(words, 0.9), "keys_median": statistics.median(keys),
                   "keys_p90": percentile(keys, 0.9)}
            rows.append(row)
            print(f"{verbosity:<10}{style:<9}{len(downs):>6}{row['words_median']:>14}"
                  f"{row['words_p90']:>6}{row['keys_median']:>13}{row['keys_p90']:>6}"
                  f"{was(baseline.get((verbosity, style)))}")
    failed = []
    for row in rows:
        for (name, measure), limit in TARGETS.items():
            if name in (row["verbosity"], row["player"]) and row[f"{measure}_median"] > limit:
                failed.append(f"{row['verbosity']} {row['player']}: {measure} "
                              f"{row[f'{measure}_median']} > {limit}")
    for row in rows:
        print("speech_economy " + json.dumps(row))
    print("targets met" if not failed else "targets missed: " + "; ".join(failed))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
