"""How soon speech starts and stops: the numbers that make a self-voicing game feel instant.

    python benchmarks/speech_latency.py [--count 60] [--driver dummy]

Measures, over --count different sentences of 10-20 words (real eSpeak NG via pyttsx3, real
pygame.mixer; headless SDL `dummy` audio unless --driver says otherwise):
  - uncached: from say() to the speech channel starting playback of a phrase never heard before;
  - cached:   the same for a phrase heard before (served from the phrase cache);
  - interrupt: from an interrupting say() to the old utterance no longer playing.
The last line is machine-readable:
  speech_latency_ms median=<x> p95=<y> cached_median=<z> interrupt_median=<w>
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROSE = (
    "the quarterback drops back and fires deep down the right sideline where the receiver "
    "makes a diving catch at the twenty yard line for a first down while the defense calls "
    "time out after a long drive that started at their own thirty with two minutes left in "
    "overtime and the home crowd roaring as the kicker warms up behind the bench"
)
WORDS = PROSE.split()


def sentences(count: int, seed: int = 7) -> list[str]:
    """Distinct sentences of 10-20 words (8-18 plus "play N"), the same for every run."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
        text = " ".join(words).capitalize() + f", play {len(out) + 1}."
        if text not in out:
            out.append(text)
    return out


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="speech latency benchmark")
    parser.add_argument("--count", type=int, default=60, help="sentences (at least 50)")
    parser.add_argument("--driver", default="dummy", help="SDL audio driver (default: dummy)")
    args = parser.parse_args(argv)
    os.environ["SDL_AUDIODRIVER"] = args.driver
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    import pygame

    from sudden_death.audio.system import SPEECH_CHANNEL, open_audio

    audio = open_audio(sound=False)
    service = audio.speech
    if service is None:
        print("speech unavailable: " + "; ".join(audio.notices), file=sys.stderr)
        return 1
    channel = pygame.mixer.Channel(SPEECH_CHANNEL)
    started: dict[str, float] = {}
    arrived = threading.Event()

    def on_start(text: str, when: float) -> None:
        started[text] = when
        arrived.set()

    service.add_playback_listener(on_start)
    service.say("Warming up the speech engine.")
    service.wait_idle(10)

    def time_say(text: str) -> float:
        """Milliseconds from say() to playback start; the channel is quiet beforehand."""
        service.silence()
        time.sleep(0.01)  # let the worker settle, as between key presses
        arrived.clear()
        before = time.perf_counter()
        service.say(text)
        if not arrived.wait(5):
            raise RuntimeError(f"speech never started for {text!r}")
        return (started[text] - before) * 1000

    texts = sentences(max(50, args.count))
    uncached = [time_say(text) for text in texts]
    # The cache holds short, often repeated phrases (audio up to a few seconds), as the game's
    # menus repeat them; a one-off long sentence is synthesized afresh. So the cached figure
    # repeats the six shortest sentences (10-11 words) nine times each: 54 cached utterances.
    repeated = sorted(texts, key=lambda t: len(t.split()))[:6]
    for text in repeated:
        time_say(text)  # make sure each is cached (already heard once above)
    cached = [time_say(text) for _ in range(9) for text in repeated]

    interrupts = []
    fresh = sentences(len(texts), seed=8)
    for old, new in zip(texts, fresh, strict=True):
        time_say(old)  # cached: playing at once
        time.sleep(0.02)
        if not channel.get_busy():
            continue
        before = time.perf_counter()
        service.say(new)  # uncached, so the channel goes quiet until the new audio is ready
        while channel.get_busy() and channel.get_sound() is not None and not started.get(new):
            pass
        interrupts.append((time.perf_counter() - before) * 1000)
    service.silence()
    audio.close()

    words = [len(t.split()) for t in texts]
    print(f"utterances: {len(texts)} ({min(words)}-{max(words)} words), driver {args.driver}")
    print(f"engine renders: {service.synth_count}, cache hits: {service.cache_hits}")
    print(f"uncached ms: min={min(uncached):.2f} max={max(uncached):.2f}")
    print(f"interrupts measured: {len(interrupts)}")
    print(
        "speech_latency_ms "
        f"median={statistics.median(uncached):.2f} p95={percentile(uncached, 0.95):.2f} "
        f"cached_median={statistics.median(cached):.2f} "
        f"interrupt_median={statistics.median(interrupts):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
