"""How soon the game lets go when the player leaves in the middle of a sentence.

    python benchmarks/exit_latency.py [--runs 10]

The tests only guard against a hang (pytest-timeout); how fast is measured here. Three ways out,
each started while the welcome (about twelve seconds of real eSpeak NG speech) is playing:

- close: a window close request (Alt+F4 through a live `--keys -` source, which the loop turns
  into pygame's QUIT), from writing the key to the process having exited;
- ctrl-c: SIGINT to the process, from sending it to the process having exited;
- audio: `AudioSystem.close()` called in a child process mid-utterance, from the call to its
  return (the speech worker is stopped and joined).

Each run is a fresh process with SDL's dummy drivers. The first two include the interpreter's own
teardown and the pipe hop for the key, so they overstate what a player waits for before the
window goes (it disappears at pygame.quit(), before the teardown); they can also mislead on a
loaded machine, where a wake-up can come late. The target: under a second each.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1", "SDL_VIDEODRIVER": "dummy",
       "SDL_AUDIODRIVER": "dummy"}
MID_SPEECH_S = 1.0  # how far into the welcome the player leaves

AUDIO_CHILD = """
import json, threading, time
from sudden_death.audio.system import open_audio
audio = open_audio(sound=False)
playing = threading.Event()
audio.speech.add_playback_listener(lambda _t, _w: playing.set())
audio.speaker.say("The quarterback takes the snap, drops back, looks left, looks right and "
                  "throws deep down the sideline toward the end zone, where two receivers race.")
assert playing.wait(20)
time.sleep(%(mid)r)
started = time.perf_counter()
audio.close()
print(json.dumps({"seconds": time.perf_counter() - started,
                  "alive": audio.speech.worker_alive}))
"""


def _launch(config: Path, keys: bool) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "sudden_death", "--headless", "--transcript", "-",
               "--config", str(config)]
    if keys:
        command += ["--keys", "-"]
    # Ctrl+C at its default, as at a terminal: a benchmark run in the background ignores SIGINT,
    # and the game rightly keeps an ignore it inherits.
    return subprocess.Popen(command, cwd=ROOT, env=ENV, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _until_welcome(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the game exited before speaking")
        if json.loads(line).get("kind") == "speech":
            return


def one_exit(how: str, config: Path) -> float:
    """Seconds from the request to leave to the process's exit."""
    proc = _launch(config, keys=how == "close")
    try:
        _until_welcome(proc)
        time.sleep(MID_SPEECH_S)
        started = time.perf_counter()
        if how == "close":
            assert proc.stdin is not None
            proc.stdin.write("alt+f4\n")
            proc.stdin.flush()
        else:
            proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
        return time.perf_counter() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def one_audio_close() -> float:
    result = subprocess.run([sys.executable, "-c", AUDIO_CHILD % {"mid": MID_SPEECH_S}],
                            cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    report = json.loads(result.stdout.strip().splitlines()[-1])
    if report["alive"]:
        raise RuntimeError("the speech worker outlived close()")
    return float(report["seconds"])


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(s * 1000 for s in seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{name:8} n={len(ordered)} median={statistics.median(ordered):.0f} ms "
            f"p95={p95:.0f} ms max={ordered[-1]:.0f} ms "
            f"(median/target {statistics.median(ordered) / 1000:.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    results: dict[str, list[float]] = {"close": [], "ctrl-c": [], "audio": []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            for how in ("close", "ctrl-c"):
                results[how].append(one_exit(how, Path(tmp) / f"cfg-{how}-{run}"))
            results["audio"].append(one_audio_close())
    print(f"Leaving {MID_SPEECH_S:.0f} s into a sentence (target: under 1 s each)")
    for name, seconds in results.items():
        print(summary(name, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
