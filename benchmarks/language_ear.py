"""What a translation costs the ear: words, and seconds of speech, per down in each language.

    python benchmarks/language_ear.py [--games 12] [--first-seed 0]

Plays the same scripted games (tests/game_script.py: the same seeds, the same keys) through the
real program once per language (`--headless --no-sound --lang CODE --transcript -`), then
renders every spoken line with the game's own eSpeak NG at the default rate, in the voice the
language chooses, and sums the audio's length. A down is one `DownStarted` of the engine.

Prints, per language, the median over games of words and of seconds of speech per down, and
the ratio to English. Where it could mislead: this is everything the game sends to speech, as
if the player listened to each line to its end (a player who presses on hears less); the
scripted player presses the same keys in both languages, so it says nothing about how long a
player takes to understand; and eSpeak NG's own pauses (20-50 ms before each utterance) are in
the seconds, as the player hears them.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game_script import plan_game, spoken_lines  # noqa: E402

from sudden_death import language  # noqa: E402
from sudden_death.engine.events import DownStarted  # noqa: E402
from sudden_death.storage.settings import Settings  # noqa: E402
from sudden_death.ui.screens.welcome import DEFAULT_HOME  # noqa: E402

WORD = re.compile(r"[^\W_]+")


def game_speech(seed: int, code: str) -> tuple[list[str], int]:
    """The speech of one scripted game in `code`, and the number of downs it played."""
    with language.using(language.load(code)):
        home = language._(DEFAULT_HOME)
    keys, events = plan_game(seed, home=home)
    with tempfile.TemporaryDirectory() as config:
        lines = spoken_lines(seed, keys, code, Path(config))
    return lines, sum(isinstance(event, DownStarted) for event in events)


def seconds_of(synth: object, text: str) -> float:
    with wave.open(io.BytesIO(synth.render(text)), "rb") as wav:  # type: ignore[attr-defined]
        return wav.getnframes() / wav.getframerate()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)

    from sudden_death.audio.synth import start_synth  # one eSpeak NG per process, started here

    synth = start_synth()
    rate = Settings().speech_rate
    rows: dict[str, tuple[float, float]] = {}
    for code in language.available():
        synth.apply(rate, language.load(code).voice)  # "" is the engine's own voice
        words, seconds = [], []
        for seed in range(args.first_seed, args.first_seed + args.games):
            lines, downs = game_speech(seed, code)
            words.append(sum(len(WORD.findall(line)) for line in lines) / downs)
            seconds.append(sum(seconds_of(synth, line) for line in lines) / downs)
        rows[code] = (statistics.median(words), statistics.median(seconds))
    english_words, english_seconds = rows[language.ENGLISH]
    print(f"{args.games} scripted games per language, seeds {args.first_seed}.."
          f"{args.first_seed + args.games - 1}, speech rate {rate}; medians per down")
    print(f"{'language':10} {'words':>8} {'seconds':>9} {'words vs en':>12} {'time vs en':>11}")
    for code, (words_per_down, seconds_per_down) in rows.items():
        print(f"{code:10} {words_per_down:8.1f} {seconds_per_down:9.1f} "
              f"{words_per_down / english_words:12.2f} {seconds_per_down / english_seconds:11.2f}")
    for code, (words_per_down, seconds_per_down) in rows.items():
        print(json.dumps({"language": code, "words_per_down": round(words_per_down, 1),
                          "seconds_per_down": round(seconds_per_down, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
