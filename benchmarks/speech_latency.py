"""How soon the player hears: from a key, a say() or a launch to the first sample the mixer makes.

    python benchmarks/speech_latency.py [--sentences 50] [--launches 5] [--games 2]
    python benchmarks/speech_latency.py --gaps 30

Every time here ends at the first sample above -60 dBFS that pygame's own SDL_mixer mixes
(benchmarks/audible.py: a post-mix hook, verified against tones of known lead silence). Real
eSpeak NG speech at the default rate, real cues, SDL's dummy audio driver (it mixes in real time).
Each part runs in fresh processes (one speech engine per process):

- service: 50 game sentences never heard before (the narration of seeded games between two
  computers), each said after a quiet moment: say() to audible. Then short menu phrases said a
  second time (repeated phrase), every cue (cue), Control's silence() while a long line plays
  until the mix is silent (interrupt), and the touchdown cheer under speech (clipped buffers).
- keys: whole games through the real loop, every key of the game measured from the moment its
  event is posted: once as the keyboard gives them (no --keys: the loop polls and sleeps) and
  once through a live `--keys -` source. Before each measured key, Control silences speech and
  the test waits for quiet, so the sound that follows is the key's own.
  The crowd is off in those (the mix falls silent between sounds); then the keyboard games
  again with the crowd at its default volume against off, both heard above -18 dBFS (over the
  crowd's loudest samples), to show the crowd costs the key nothing.
- launch: the game started as `python -m sudden_death --headless` is, from spawning the process
  to the welcome's first audible sample.
- underruns: gaps between mixed buffers longer than two buffer periods, in every process.
  `--gaps GAMES` plays only keyboard games with the crowd on and lists each underrun with its
  likely cause (see Witnesses): held while mixing (the GIL), the machine took the CPU, or held
  before mixing; and counts the buffers that took over 1 and 3 ms to mix, which are common
  enough to compare two runs where a handful of underruns cannot.

A real sound card adds its own fixed output latency, which none of this includes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
QUIET_S = 0.05
# With the crowd on, keys are heard above this (its loudest samples at the default volume,
# leaning in, are near -23 dBFS; speech and cues pass it within milliseconds of their start).
CROWD_THRESHOLD_DBFS = -18.0
JITTER = random.Random(11)


def unphased(probe: Any) -> float:
    """Now, after a random part of a mix period: `wait_quiet` returns in step with the mixer's
    callbacks, and a player's key is not, so without this every run would hit the same phase."""
    time.sleep(JITTER.uniform(0.0, probe.period_s or 0.025))
    return probe.mark()
MENU_PHRASES = ("Keep, 1 of 6", "Final call?", "Run a play, 1 of 3", "Scatback", "Deep Pass",
                "Checked, 1 of 2", "Keep or replace?", "Man Coverage", "Heads, 1 of 2",
                "Play again or quit?")


def _setup_child() -> None:
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                      PYGAME_HIDE_SUPPORT_PROMPT="1")
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT / "tests"))  # game_script, the key-script helper


def game_sentences(count: int, seed: int = 7) -> list[str]:
    """Lines the game really says, from seeded games between two computers, shuffled."""
    from sudden_death.engine import Game, Match, RandomComputer, Team
    from sudden_death.ui.words.narration import Narrator
    from sudden_death.ui.words.phrases import Names

    seen: dict[str, None] = {}
    for game_seed in range(200):
        match = Match(Game(random.Random(game_seed)), {
            Team.HOME: RandomComputer(random.Random(f"h{game_seed}")),
            Team.AWAY: RandomComputer(random.Random(f"a{game_seed}"))})
        events = match.advance()
        for line in Narrator(Names("Hawks", "Bears")).lines(events):
            if len(line.text.split()) >= 3:
                seen.setdefault(line.text, None)
    lines = list(seen)
    random.Random(seed).shuffle(lines)
    return lines[:count]


def stolen_seconds() -> float | None:
    """CPU time the hypervisor has taken from this machine's CPUs since boot (/proc/stat's
    steal column, all CPUs); None where there is no such file."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def gap_buffers(probe: Any) -> list[tuple[Any, Any]]:
    """Each underrun as (last buffer before it, first after it)."""
    buffers = probe.snapshot()
    period = (probe.period_s or 0.0) or 1.0
    return [(a, b) for a, b in itertools.pairwise(buffers)
            if b.t_callback - a.t_callback > 2 * period]


def gaps(probe: Any) -> list[tuple[float, float]]:
    """Each underrun as (last buffer before it, first after it), on the probe's clock."""
    return [(a.t_callback, b.t_callback) for a, b in gap_buffers(probe)]


def underruns(probe: Any) -> int:
    return len(gaps(probe))


# Calls of the game's own that touch the mixer or hold the GIL a while, shown beside each gap:
# the window's drawing, a line starting to play, Control's silence, and a cue.
WATCHED = ("draw", "_start", "silence", "play")


class Witnesses:
    """What else was late when the mixer was, and where the late buffer lost its time.

    - The mixing itself is timed (`AudibleProbe.time_mixing`): a buffer that took long to mix
      was held inside it, by pygame's channel-finished callback waiting for the GIL.
    - The probe's C wakers, one pinned to each CPU at the audio thread's priority and never
      needing the GIL: one of them late means that CPU was not there for any thread of the
      game (the hypervisor took it, or the kernel did).
    - A Python thread that asks to wake every millisecond: late alone, a thread held the GIL.
    - The collector's passes (gc.callbacks) and the game's calls in WATCHED.

    The witnesses add a little load of their own, so count underruns without them (part keys).
    """

    WAKE_S = 0.001
    LATE_S = 0.006  # a waker this late missed more than a mix period

    def __init__(self) -> None:
        import gc

        self.collections: list[tuple[float, float, int]] = []
        self.stalls: list[tuple[float, float]] = []
        self.c_stalls: list[tuple[float, float, int]] = []
        self.calls: dict[str, list[tuple[float, float]]] = {}
        self.timed = False
        self._probe: Any = None
        self._started = 0.0
        gc.callbacks.append(self._collected)
        threading.Thread(target=self._wake, daemon=True).start()

    def attach(self, probe: Any) -> None:
        """Start the probe's GIL-free wakers and its timing of the mixing."""
        if probe.start_wakers(self.WAKE_S, self.LATE_S):
            self._probe = probe
        self.timed = probe.time_mixing()

    def watch(self, owner: Any, name: str) -> None:
        """Record each call of `owner.name` as a span, to see whether it overlapped a gap."""
        original = getattr(owner, name)
        spans = self.calls.setdefault(name, [])

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spans.append((began, time.perf_counter()))

        setattr(owner, name, timed)

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.collections.append((self._started, time.perf_counter(), info["generation"]))

    def _wake(self) -> None:
        last = time.perf_counter()
        while True:
            time.sleep(self.WAKE_S)
            now = time.perf_counter()
            if now - last > self.LATE_S:
                self.stalls.append((last, now))
            last = now

    def explain(self, gap: tuple[Any, Any]) -> dict[str, Any]:
        """The gap's length and what overlapped it (times in ms from the gap's start); with
        the mixing timed, how long the late buffer took to mix once it began."""
        start, end = gap[0].t_callback, gap[1].t_callback
        mixing = round((end - gap[1].t_start) * 1000, 1) if self.timed else None

        def near(spans: Any) -> list[list[float]]:
            return [[round((a - start) * 1000, 1), round((b - a) * 1000, 1)]
                    for a, b, *_ in spans if b > start - 0.02 and a < end]

        c_late = [c for c in self.c_stalls if c[1] > start and c[0] < end]
        if mixing is not None and mixing > (end - start) / 4:
            cause = "held while mixing (a channel-finished callback waiting for the GIL)"
        elif c_late and self._probe.wakers_niced:
            cause = "the machine took the CPU (a pinned top-priority waker was late too)"
        elif c_late:  # the wakers could not have the audio thread's priority here
            cause = "a CPU was busy elsewhere (a pinned waker, at normal priority, was late too)"
        else:
            cause = "held before mixing"
        return {"gap_ms": round((end - start) * 1000, 1), "mixing_ms": mixing, "cause": cause,
                "collections": near(self.collections),
                "stalls": near(self.stalls),
                "c_stalls": [[*span, cpu] for span, (*_, cpu) in zip(
                    near(self.c_stalls), [c for c in self.c_stalls
                                          if c[1] > start - 0.02 and c[0] < end], strict=True)],
                **{name: near(spans) for name, spans in self.calls.items()}}

    def report(self, found: list[tuple[Any, Any]]) -> dict[str, Any]:
        """Every gap explained, and the counts that say how often each witness was late; with
        the mixing timed, how many buffers took over 1 and over 3 ms to mix (the audio thread
        waiting for the GIL), which is far commoner than an underrun, so it tells two runs
        apart where the few underruns cannot."""
        self.c_stalls = self._probe.waker_stalls() if self._probe is not None else []
        mixing = [b.t_callback - b.t_start for b in self._probe.snapshot()
                  if b.t_start] if self._probe is not None and self.timed else []
        return {"gaps": [self.explain(gap) for gap in found],
                "collections_over_5_ms": sum(1 for a, b, _ in self.collections if b - a > 0.005),
                "python_waker_late": len(self.stalls), "c_waker_late": len(self.c_stalls),
                "buffers": len(mixing),
                "mixing_over_1_ms": sum(1 for m in mixing if m > 0.001),
                "mixing_over_3_ms": sum(1 for m in mixing if m > 0.003),
                "c_waker": self._probe is not None,
                "c_waker_niced": self._probe is not None and self._probe.wakers_niced}


# -- parts, each in its own process --------------------------------------------------------------


def part_service(sentences: int) -> dict[str, Any]:
    _setup_child()
    from audible import AudibleProbe

    from sudden_death.audio.protocols import CUE_NAMES, Priority
    from sudden_death.audio.system import open_audio

    audio = open_audio()
    probe = AudibleProbe.install()
    speech = audio.speech
    assert speech is not None and not audio.notices, audio.notices
    speech.say("Ready.")
    speech.wait_idle(5)

    def measure(action: Any) -> float | None:
        probe.wait_quiet(QUIET_S, timeout=30)
        started = unphased(probe)
        action()
        delay = probe.first_audible_after(started, timeout=3.0)
        return None if delay is None else delay * 1000

    results: dict[str, Any] = {"new": [], "repeated": [], "cue": [], "interrupt": []}
    for text in game_sentences(sentences):
        results["new"].append(measure(lambda text=text: speech.say(text)))
        speech.silence()
    for phrase in MENU_PHRASES:
        speech.say(phrase)
        speech.wait_idle(5)
    for phrase in MENU_PHRASES:
        results["repeated"].append(measure(lambda phrase=phrase: speech.say(phrase)))
        speech.wait_idle(5)
    for name in CUE_NAMES:
        results["cue"].append(measure(lambda name=name: audio.cues.play(name)))
        time.sleep(0.1)
    long_line = " ".join(game_sentences(8))
    for _ in range(20):
        probe.wait_quiet(0.3, timeout=30)
        speech.say(long_line, priority=Priority.ALERT)
        time.sleep(0.4)
        started = unphased(probe)
        speech.silence()
        gone = next((b for b in _buffers_after(probe, started, 1.0) if not b.audible), None)
        results["interrupt"].append(None if gone is None else (gone.t_callback - started) * 1000)
    probe.wait_quiet(0.3, timeout=30)
    cheer_start = probe.mark()
    speech.say(long_line, priority=Priority.ALERT)
    time.sleep(0.3)
    audio.cues.play("touchdown")
    time.sleep(3.0)
    speech.silence()
    results["clipped_buffers"] = sum(1 for b in probe.snapshot()
                                     if b.t_callback >= cheer_start and b.peak >= 32767)
    results["underruns"] = underruns(probe)
    results["period_ms"] = (probe.period_s or 0) * 1000
    audio.close()
    return results


def _buffers_after(probe: Any, started: float, seconds: float) -> list[Any]:
    time.sleep(seconds)
    return [b for b in probe.snapshot() if b.t_callback >= started]


def part_keys(games: int, live: bool, crowd: float = 0.0,
              threshold_dbfs: float = -60.0, witness: bool = False) -> dict[str, Any]:
    """Whole games of planned keys; each key's delay to its first audible sample. With the
    crowd on (its volume, 0 to 1) the mix is never silent, so "audible" and "quiet" are taken
    above `threshold_dbfs`, over the crowd's loudest samples. `witness`: each underrun with
    what overlapped it (Witnesses)."""
    _setup_child()
    witnesses = Witnesses() if witness else None
    import pygame
    from audible import AudibleProbe
    from game_script import plan_game

    from sudden_death.audio import system
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import Options
    from sudden_death.ui.run.key_script import KeySource, parse_step, post_step

    found: list[float | None] = []
    probe: dict[str, Any] = {}
    opened = threading.Event()
    original_open = system.open_audio
    live_source = KeySource(live=True) if live else None

    def open_audio_with_probe(**kwargs: Any) -> Any:
        audio = original_open(**kwargs)
        probe["mixer"] = AudibleProbe.install(threshold_dbfs)
        if witnesses is not None:
            witnesses.attach(probe["mixer"])
        opened.set()
        return audio

    def send(name: str) -> None:
        step = parse_step(name)
        assert step is not None
        if live_source is not None:
            live_source.put(step)  # what the stdin reader does with a line
        else:
            post_step(step)  # what the keyboard does

    def press(name: str, measure: bool = True) -> None:
        listening = probe["mixer"]
        if measure:
            send("left ctrl")  # silence: the next sound is the key's own
            listening.wait_quiet(QUIET_S, timeout=30)
        started = unphased(listening)
        send(name)
        if measure and not name.startswith("type "):
            delay = listening.first_audible_after(started, timeout=3.0)
            found.append(None if delay is None else delay * 1000)

    def player() -> None:
        try:
            opened.wait(20)
            for game in range(games):
                keys, _events = plan_game(100 + game)
                for key in keys if game == 0 else ["return", *keys[4:]]:
                    press(key)
                probe["mixer"].wait_quiet(QUIET_S, timeout=30)
        finally:
            if live_source is not None:
                live_source.put(None)
            else:
                pygame.event.post(pygame.event.Event(pygame.QUIT))

    system.open_audio = open_audio_with_probe
    if live_source is None:  # keys come to SDL's queue: looked at as a real window's are
        loop_module.HEADLESS_DRIVERS = ()
    if witnesses is not None:
        from sudden_death.audio.cues import CueBank
        from sudden_death.audio.speech import SpeechService

        owners = {"draw": loop_module, "_start": SpeechService, "silence": SpeechService,
                  "play": CueBank}
        for name in WATCHED:
            witnesses.watch(owners[name], name)
    if live_source is not None:
        loop_module._key_source = lambda _keys: live_source  # type: ignore[assignment]
    threading.Thread(target=player, daemon=True).start()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as config:
        from sudden_death.storage.settings import Settings, save_settings
        save_settings(Settings(crowd_volume=crowd), Path(config))
        loop_module.run_app(Options(headless=True, config=Path(config),
                                   keys="-" if live else None, seed=100))
    peak = max((b.peak for b in probe["mixer"].snapshot()), default=0)
    found_gaps = gap_buffers(probe["mixer"])
    return {"keys": found, "underruns": len(found_gaps),
            **(witnesses.report(found_gaps) if witnesses else {}),
            "seconds": time.perf_counter() - started,
            "peak_dbfs": 20 * math.log10(max(peak, 1) / 32768)}


LAUNCH_WRAPPER = """
import sys, time, threading
sys.path[:0] = {paths!r}
from audible import AudibleProbe
from sudden_death.audio import system
from sudden_death.ui.run import loop as app
original = system.open_audio
def opened(**kwargs):
    audio = original(**kwargs)
    probe = AudibleProbe.install()
    installed = probe.mark()
    def report():
        buffer = probe.first_buffer_after(installed, 30.0)
        print("FIRST_AUDIBLE", probe.audible_time(buffer), flush=True)
        import pygame
        pygame.event.post(pygame.event.Event(pygame.QUIT))
    threading.Thread(target=report, daemon=True).start()
    return audio
system.open_audio = opened
sys.exit(app.main(["--headless", "--config", {config!r}]))
"""


def part_launch() -> float:
    """Seconds from spawning the game to its first audible sample."""
    with tempfile.TemporaryDirectory() as config:
        code = LAUNCH_WRAPPER.format(paths=[str(ROOT), str(ROOT / "benchmarks")], config=config)
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        started = time.perf_counter()  # CLOCK_MONOTONIC, the probe's clock in the child too
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    line = next(x for x in out.stdout.splitlines() if x.startswith("FIRST_AUDIBLE"))
    return float(line.split()[1]) - started


# -- the report ----------------------------------------------------------------------------------


def stats(values: list[float | None]) -> str:
    heard = sorted(v for v in values if v is not None)
    missing = len(values) - len(heard)
    if not heard:
        return "nothing heard"
    p95 = heard[min(len(heard) - 1, round(0.95 * (len(heard) - 1)))]
    text = (f"n={len(heard)} median={statistics.median(heard):.1f} p95={p95:.1f} "
            f"max={heard[-1]:.1f} ms")
    return text + (f" ({missing} never heard)" if missing else "")


def run_part(*args: str) -> Any:
    out = subprocess.run([sys.executable, __file__, "--part", *args], capture_output=True,
                         text=True, timeout=1200, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=50)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--games", type=int, default=2, help="games per key run")
    parser.add_argument("--part", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--gaps", type=int, metavar="GAMES",
                        help="only play GAMES keyboard games with the crowd on and explain "
                             "each underrun (what else was late then)")
    args = parser.parse_args(argv)
    if args.gaps:
        from sudden_death.storage.settings import Settings

        stolen = stolen_seconds()
        found = run_part("keys", str(args.gaps), "keyboard", str(Settings().crowd_volume),
                         str(CROWD_THRESHOLD_DBFS), "witness")
        after = stolen_seconds()
        if stolen is not None and after is not None:
            print(f"meanwhile the hypervisor took {after - stolen:.1f} s of CPU time from this "
                  f"machine's {os.cpu_count()} CPUs (/proc/stat steal)")
        print(f"{found['underruns']} underruns in {found['seconds']:.0f} s; collections over "
              f"5 ms: {found['collections_over_5_ms']}; wakers late (over "
              f"{Witnesses.LATE_S * 1000:.0f} ms): Python {found['python_waker_late']}, C "
              f"{found['c_waker_late'] if found['c_waker'] else 'not built (no C compiler)'}")
        print(f"buffers {found['buffers']}; mixing took over 1 ms: {found['mixing_over_1_ms']}, "
              f"over 3 ms: {found['mixing_over_3_ms']}")
        causes: dict[str, int] = {}
        for gap in found["gaps"]:
            causes[gap["cause"]] = causes.get(gap["cause"], 0) + 1
        for cause, count in sorted(causes.items(), key=lambda kv: -kv[1]):
            print(f"  {count}: {cause}")
        for gap in found["gaps"]:
            calls = {name: gap[name] for name in WATCHED}
            print(f"gap {gap['gap_ms']} ms, mixing {gap['mixing_ms']} ms: {gap['cause']}; "
                  f"[start, length] collections {gap['collections']}; Python waker late "
                  f"{gap['stalls']}; C wakers late [start, length, cpu] {gap['c_stalls']}; "
                  f"calls {calls}")
        return 0
    if args.part:
        name = args.part[0]
        if name == "service":
            print(json.dumps(part_service(int(args.part[1]))))
        elif name == "keys":
            crowd, threshold = (float(x) for x in args.part[3:5]) if len(args.part) > 3 \
                else (0.0, -60.0)
            print(json.dumps(part_keys(int(args.part[1]), args.part[2] == "live", crowd,
                                       threshold, witness="witness" in args.part[5:])))
        else:
            print(json.dumps(part_launch()))
        return 0
    service = run_part("service", str(args.sentences))
    keyboard = run_part("keys", str(args.games), "keyboard")
    live = run_part("keys", str(args.games), "live")
    from sudden_death.storage.settings import Settings

    # The crowd on (its default) against off, both heard above CROWD_THRESHOLD_DBFS.
    crowd_off = run_part("keys", str(args.games), "keyboard", "0", str(CROWD_THRESHOLD_DBFS))
    crowd_on = run_part("keys", str(args.games), "keyboard", str(Settings().crowd_volume),
                        str(CROWD_THRESHOLD_DBFS))
    launches = [run_part("launch") * 1000 for _ in range(args.launches)]
    rows = {
        "say() of a new sentence": service["new"],
        "say() of a repeated phrase": service["repeated"],
        "cue": service["cue"],
        "interrupt (silence until the mix is quiet)": service["interrupt"],
        "key, keyboard path": keyboard["keys"],
        "key, --keys - path": live["keys"],
        f"key, crowd off, above {CROWD_THRESHOLD_DBFS:.0f} dBFS": crowd_off["keys"],
        f"key, crowd on, above {CROWD_THRESHOLD_DBFS:.0f} dBFS": crowd_on["keys"],
        "launch to first audible": launches,
    }
    for name, values in rows.items():
        print(f"{name:<45} {stats(values)}")
    print(f"mix buffer period {service['period_ms']:.1f} ms; underruns (gaps over two "
          f"periods): service {service['underruns']}, keyboard games "
          f"{keyboard['underruns']} in {keyboard['seconds']:.0f} s, --keys games "
          f"{live['underruns']} in {live['seconds']:.0f} s, keyboard games with the crowd "
          f"on {crowd_on['underruns']} in {crowd_on['seconds']:.0f} s (the mix's peak over "
          f"those games {crowd_on['peak_dbfs']:.1f} dBFS, {crowd_off['peak_dbfs']:.1f} with the "
          f"crowd off); clipped buffers under the "
          f"touchdown cheer: {service['clipped_buffers']}")
    summary = {name: statistics.median(v for v in values if v is not None)
               for name, values in rows.items()}
    print("speech_latency_ms " + json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
