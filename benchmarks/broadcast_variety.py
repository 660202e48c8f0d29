"""How varied the play-by-play sounds: distinct result sentences across whole seeded games.

    python benchmarks/broadcast_variety.py [--games 20] [--first-seed 1] [--verbosity normal]

Plays whole seeded games through the real program with the by-ear expert player of
benchmarks/speech_economy.py, and keeps each line that tells a play's result (a gain or loss in
yards, no gain, incomplete, an interception, a fumble, a touchdown, a punt, a kick good or no
good, a first down). Numbers become "#" and the team names "T", so "A gain of 4 yards." and "A
gain of 7 yards." count as one sentence: what is counted is how many different ways the news
is said, not how many different yardages came up. Also prints the times the same sentence
came twice in a row, and the words per result line.

Where it could mislead: which results come up depends on the seeds and the player's cards, so
compare runs with the same seeds; a line is a result line by the words it contains (a regular
expression), so a result said in words it does not know is missed.
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speech_economy import EXPERT, play_game

RESULT = re.compile(r"(?i)\b(\d+ yards?|no gain|incomplete|intercept|picked off|pick it off|"
                    r"fumble|touchdown|punt|good|first down|first and goal)\b")
TEAMS = re.compile(r"\b(Hawks|Bears)\b")
# The card screens and kick choices name punts and kicks too, but tell no result.
NOT_RESULT = re.compile(r"Players:|Calls:|Space checks|Or kick instead|percent")


def sentence_of(line: str) -> str:
    return re.sub(r"\d+", "#", TEAMS.sub("T", line))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--verbosity", default="normal")
    args = parser.parse_args(argv)
    lines: list[str] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        for down in play_game(seed, args.verbosity, EXPERT):
            lines += [line for line in down.lines
                      if RESULT.search(line) and not NOT_RESULT.search(line)]
    sentences = [sentence_of(line) for line in lines]
    counts = Counter(sentences)
    twice = sum(1 for a, b in itertools.pairwise(sentences) if a == b)
    words = [len(line.split()) for line in lines]
    print(f"{args.games} games at {args.verbosity}, expert player: {len(lines)} result lines, "
          f"{len(counts)} distinct sentences (numbers and team names aside); the same one "
          f"twice in a row {twice} times; words per result line median "
          f"{statistics.median(words)}, mean {statistics.fmean(words):.2f}")
    for sentence, count in counts.most_common(8):
        print(f"  {count:4} x {sentence}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
