"""From a key to the first sound the player hears: through the game's real loop, real speech.

    python benchmarks/key_to_ear.py [--runs 10]

Each run is a fresh process (one speech engine per process) that starts the game on the keyboard
path (no --keys, and the loop looks at SDL's queue every INPUT_POLL_S while it sleeps, as it does
for a real window's keyboard; SDL's dummy video and audio drivers) with real eSpeak NG speech. A
thread posts real SDL key events the way a keyboard does, each after the game has gone quiet for
0.3 s, and `audible.AudibleProbe` (a post-mix hook in pygame's own SDL_mixer) finds the first
sample above -60 dBFS that the mixer produces after the key was posted. Measured keys: Down on the
title menu (its cue, then its words) and Enter on an empty second team name (the report said this
one was silent for 0.4-0.7 s before "No name typed, so the default" was heard). `pad_down` is the
D-pad's Down on a game controller: SDL's own virtual pad (ui/run/virtual_pad.py) is plugged in, and
the time runs from setting its button down (SDL_JoystickSetVirtualButton) to the first audible
sample, so it includes SDL noticing the pad's state while the loop waits for events.

The probe times a buffer from the moment SDL_mixer mixes it; a real sound card adds its own fixed
output delay, which this does not include. Prints median, p95 and max per key, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
QUIET_S = 0.3


def child() -> dict[str, float | None]:
    """One run in this process; the times from posting each measured key to its first sound."""
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                      PYGAME_HIDE_SUPPORT_PROMPT="1")
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import pygame
    from audible import AudibleProbe

    from sudden_death.audio import system
    from sudden_death.ui.keys.keymap import Pad
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import Options
    from sudden_death.ui.run.virtual_pad import VirtualPad, sdl_library

    found: dict[str, float | None] = {}
    probe: dict[str, AudibleProbe] = {}
    opened = threading.Event()
    original_open = system.open_audio

    def open_audio_with_probe(**kwargs: Any) -> Any:
        audio = original_open(**kwargs)
        probe["mixer"] = AudibleProbe.install()
        opened.set()
        return audio

    def timed(press: Callable[[], None], measure: str) -> None:
        """`press` once the game is quiet, at a moment out of step with the mixer, as a
        player's does; with `measure`, the time from it to the first audible sample."""
        listening = probe["mixer"]
        if not listening.wait_quiet(QUIET_S, timeout=20):
            raise RuntimeError("the game never went quiet")
        # wait_quiet returns in step with the mixer's callbacks; a player's key does not.
        time.sleep(random.uniform(0.0, listening.period_s or 0.025))
        started = listening.mark()
        press()
        if measure:
            delay = listening.first_audible_after(started, timeout=3.0)
            found[measure] = None if delay is None else round(delay * 1000, 2)

    def key(code: int, measure: str = "") -> None:
        def post() -> None:
            for kind in (pygame.KEYDOWN, pygame.KEYUP):
                pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="",
                                                     scancode=0))

        timed(post, measure)

    def button(pad: VirtualPad, which: Pad, measure: str) -> None:
        """A pad's button pressed as a player's thumb does, then let go a moment later (set
        straight on SDL's virtual pad: the loop's own event pumping reads it)."""
        timed(lambda: pad.sdl.SDL_JoystickSetVirtualButton(pad.handle, which.value, 1), measure)
        time.sleep(0.05)
        pad.sdl.SDL_JoystickSetVirtualButton(pad.handle, which.value, 0)

    def player() -> None:
        try:
            opened.wait(20)
            time.sleep(0.5)
            key(pygame.K_LCTRL)  # silence the long welcome
            key(pygame.K_DOWN, "down")
            key(pygame.K_UP)
            pad = VirtualPad(sdl_library(), "Benchmark Pad", lambda low, high: None)
            button(pad, Pad.DPAD_DOWN, "pad_down")  # after "Controller connected" is said
            key(pygame.K_UP)
            key(pygame.K_RETURN)  # Start a game
            probe["mixer"].wait_quiet(QUIET_S, timeout=20)
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Owls"))
            key(pygame.K_RETURN)  # the player's team
            key(pygame.K_RETURN, "enter_empty_name")
        finally:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    system.open_audio = open_audio_with_probe
    loop_module.HEADLESS_DRIVERS = ()  # keys come to SDL's queue here: looked at as a window's
    threading.Thread(target=player, daemon=True).start()
    with tempfile.TemporaryDirectory() as config:
        loop_module.run_app(Options(headless=True, config=Path(config)))
    return found


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{name}: n={len(values)} median={statistics.median(values):.1f} ms "
            f"p95={p95:.1f} ms max={ordered[-1]:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child()))
        return 0
    results: dict[str, list[float]] = {}
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--child"], capture_output=True,
                             text=True, timeout=120, cwd=ROOT)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return 1
        for name, value in json.loads(out.stdout.strip().splitlines()[-1]).items():
            if value is None:
                print(f"{name}: nothing was heard", file=sys.stderr)
                return 1
            results.setdefault(name, []).append(value)
    for name, values in results.items():
        print(summary(name, values))
    print("key_to_ear_ms " + json.dumps({n: statistics.median(v) for n, v in results.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
