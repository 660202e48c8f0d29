"""From the second seat's commit to the reveal heard by each player, through a real table
server on loopback and two real games with real eSpeak NG speech.

    python benchmarks/network_latency.py [--games 3]

One server process (`python -m sudden_death.server --port 0`), two game processes on SDL's
dummy drivers, each with `audible.AudibleProbe` (the post-mix hook key_to_ear.py uses) on its
mixer. This script drives both games' keys (`--keys -`, answering their `turn` records with
tests/table_driver.py's strategy) and paces every card step (pick, swap, final call) so that
each measurement starts from silence: both games are silenced (Ctrl) and left quiet for
0.3 s, the first seat commits, both are silenced again, and then the second seat commits.

Inside each game: the moment the player's commit is handed to the network (`RemoteMatch.play`,
on the loop's thread), the moment the server's update is taken off the queue, the first words
said after it, and the first audible sample the mixer mixes after those words. The latency
for each seat is its reveal's first audible sample minus the second seat's commit, on one
clock (CLOCK_MONOTONIC is shared by the processes of one machine).

Where it could mislead: cues are turned off in both games (cue volume 0), because the second
seat's own Enter cue would otherwise be the "first sound" after its commit; with cues on the
reveal's dice or cue start with its words, so the player hears it no later than measured. The
probe times a buffer when SDL_mixer mixes it; a sound card adds its own output delay. Loopback
has no network delay: add the round trip of a real network.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
QUIET_S = 0.3
CARD_PHASES = ("selection", "substitution", "final_call")


def child(out: Path, game_args: list[str]) -> int:
    """One game in this process, instrumented; writes its timings to `out` at the end."""
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                      PYGAME_HIDE_SUPPORT_PROMPT="1")
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from audible import AudibleProbe

    from sudden_death.audio import system
    from sudden_death.net.remote_match import RemoteMatch
    from sudden_death.ui import table as table_module
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import parse_options
    from sudden_death.wire import protocol as p

    commits: dict[int, float] = {}  # the step a commit is for -> when it was handed over
    updates: list[tuple[int, float]] = []  # (step played, when the game took it)
    says: list[float] = []
    probe: dict[str, AudibleProbe] = {}
    original_open, original_play = system.open_audio, RemoteMatch.play
    original_news = table_module.TablePlay._in_game

    def open_audio_with_probe(**kwargs: Any) -> Any:
        audio = original_open(**kwargs)
        probe["mixer"] = AudibleProbe.install()
        audio.speaker.add_listener(lambda message: says.append(time.perf_counter()))
        return audio

    def play(self: RemoteMatch, actions: Any) -> Any:
        commits[self.step + len(actions) - 1] = time.perf_counter()
        return original_play(self, actions)

    def in_game(self: Any, news: Any) -> None:
        if isinstance(news, p.Update):
            updates.append((news.step - 1, time.perf_counter()))
        original_news(self, news)

    system.open_audio = open_audio_with_probe
    RemoteMatch.play = play  # type: ignore[method-assign]
    table_module.TablePlay._in_game = in_game  # type: ignore[method-assign]
    code = loop_module.run_app(parse_options(game_args))
    heard: dict[int, float] = {}
    mixer = probe.get("mixer")
    for step, taken in updates:
        said = next((t for t in says if t >= taken), None)
        if said is None or mixer is None:
            continue
        buffer = mixer.first_buffer_after(said, timeout=3.0)
        if buffer is not None:
            heard[step] = mixer.audible_time(buffer)
    out.write_text(json.dumps({"commits": commits, "heard": heard,
                               "updates": dict(updates)}))
    return code


def game(folder: Path, url: str) -> Any:
    """One instrumented game process (a table_driver.Seat), cues off, keys from here."""
    from table_driver import Seat

    folder.mkdir(parents=True)
    (folder / "settings.json").write_text(json.dumps({"cue_volume": 0.0}))
    return Seat(folder, "--server", url,
                command=[sys.executable, __file__, "--child", str(folder / "timings.json")])


def drive(host: Any, guest: Any) -> None:
    """Answer both seats' turns as they come; a card step's commit is paced to start from
    silence: its other keys, QUIET_S, Ctrl in both games, QUIET_S, then the committing key."""
    turns: queue.Queue[tuple[Any, dict[str, Any]]] = queue.Queue()

    def reader(seat: Any) -> None:
        while True:
            turn = seat.next("turn", 120)
            turns.put((seat, turn))
            if turn.get("over"):
                return

    for seat in (host, guest):
        threading.Thread(target=reader, args=(seat,), daemon=True).start()
    over = 0
    while over < 2:
        seat, turn = turns.get(timeout=120)
        if turn.get("over"):
            seat.send("down", "return")  # Quit
            over += 1
            continue
        if not turn["mine"]:
            continue
        keys = seat.keys_for(turn)
        card = turn["phase"] in CARD_PHASES or (turn["phase"] == "snap_choice"
                                                and turn["down"] != 4)
        if not card:
            seat.send(*keys)
            continue
        seat.send(*keys[:-1])
        time.sleep(QUIET_S)
        host.send("ctrl")
        guest.send("ctrl")
        time.sleep(QUIET_S)
        seat.send(keys[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.child is not None:
        return child(args.child, rest)
    from key_to_ear import summary
    from table_driver import HOST_KEYS, JOIN_KEYS, Server

    results: dict[str, list[float]] = {"first_seat": [], "second_seat": []}
    for number in range(args.games):
        server = Server("--seed", str(number))
        with tempfile.TemporaryDirectory() as folder:
            host = game(Path(folder) / "host", server.url)
            guest = game(Path(folder) / "guest", server.url)
            try:
                host.send(*HOST_KEYS)
                code = host.next("table")["code"]
                guest.send(*JOIN_KEYS, f"type {code}", "return")
                drive(host, guest)
                codes = host.finish(120), guest.finish(120)
            finally:
                host.kill()
                guest.kill()
                server.stop()
            if codes != (0, 0):
                print(host.stderr() + guest.stderr(), file=sys.stderr)
                return 1
            timings = {name: json.loads((Path(folder) / name / "timings.json").read_text())
                       for name in ("host", "guest")}
        for step_text, heard_host in timings["host"]["heard"].items():
            commit_host = timings["host"]["commits"].get(step_text)
            commit_guest = timings["guest"]["commits"].get(step_text)
            heard_guest = timings["guest"]["heard"].get(step_text)
            if None in (commit_host, commit_guest, heard_guest):
                continue  # not a step both seats committed
            second = max(commit_host, commit_guest)
            first_is_host = commit_host < commit_guest
            results["first_seat"].append(
                1000 * ((heard_host if first_is_host else heard_guest) - second))
            results["second_seat"].append(
                1000 * ((heard_guest if first_is_host else heard_host) - second))
    for name, values in results.items():
        if not values:
            print(f"{name}: nothing measured", file=sys.stderr)
            return 1
        print(summary(name, values))
    both = results["first_seat"] + results["second_seat"]
    print(summary("both", both))
    print("network_latency_ms " + json.dumps({n: round(statistics.median(v), 2)
                                              for n, v in results.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
