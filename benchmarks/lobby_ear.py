"""From a lobby list reaching the game to its first word heard, through a real table server
on loopback and a real game with real eSpeak NG speech.

    python benchmarks/lobby_ear.py [--tables 15]

One server process (`python -m sudden_death.server --data DIR`), one game process on SDL's
dummy drivers with `audible.AudibleProbe` on its mixer, signed in by the token this script
keeps for it (so Play online goes straight to the lobby). The script then opens public
tables one at a time from a WebSocket client of its own, each 3 s after the game said the
last one's news (its words over, and past the server's one-second lobby throttle), so each
list the game hears is one table's news ("New table: the Owls1'.") heard from silence.

Three clocks' worth of moments, all CLOCK_MONOTONIC (shared by the processes of a machine):
the script's `host` sent; the lobby list taken off the socket by the game's link thread; the
first words said after it (the speaker's listener); the first audible sample the mixer mixes
after those words. Printed: list received -> first audible ("list_to_ear", the game's own
part), and host sent -> first audible ("host_to_ear", which includes the server's throttle,
at most `lobby_every_s`, 1 s: the figure a player in a busy lobby lives with). The first list
(Play online pressed -> "Lobby: ...") is not timed: it follows "Signed in as ..." at once, so
the mixer is never quiet before it and its first sample cannot be told from the sign-in's.

Where it could mislead: cues are off (cue volume 0), since the lobby news cue would otherwise
be the first sound, sooner than the words; with it on the player hears the news no later than
measured. The probe times a buffer when SDL_mixer mixes it; a sound card adds its own output
delay. Loopback has no network delay.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
SETTLE_S = 3.0  # the last news (about a second of speech) over, and a quiet gap


def child(out: Path, game_args: list[str]) -> int:
    """The game in this process, instrumented; writes its timings to `out` at the end."""
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                      PYGAME_HIDE_SUPPORT_PROMPT="1")
    sys.path.insert(0, str(ROOT))
    from audible import AudibleProbe

    from sudden_death.audio import system
    from sudden_death.net import link as link_module
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import parse_options
    from sudden_death.wire import protocol as p

    lists: list[float] = []  # when the link thread took each lobby list off the socket
    says: list[float] = []
    probe: dict[str, AudibleProbe] = {}
    original_open, original_news = system.open_audio, link_module.TableLink._news

    def open_audio_with_probe(**kwargs: Any) -> Any:
        audio = original_open(**kwargs)
        probe["mixer"] = AudibleProbe.install()
        audio.speaker.add_listener(lambda message: says.append(time.perf_counter()))
        return audio

    def news(self: Any, message: Any) -> None:
        if isinstance(message, p.LobbyList):
            lists.append(time.perf_counter())
        original_news(self, message)

    system.open_audio = open_audio_with_probe
    link_module.TableLink._news = news  # type: ignore[method-assign]
    code = loop_module.run_app(parse_options(game_args))
    heard: list[float | None] = []
    mixer = probe.get("mixer")
    for taken in lists:
        said = next((t for t in says if t >= taken), None)
        buffer = None if said is None or mixer is None else mixer.first_buffer_after(
            said, timeout=3.0)
        heard.append(None if buffer is None or mixer is None else mixer.audible_time(buffer))
    out.write_text(json.dumps({"lists": lists, "heard": heard}))
    return code


async def sign_up(url: str) -> str:
    from websockets.asyncio.client import connect

    from sudden_death.wire import protocol as p

    async with connect(url) as client:
        await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Listener", "password one")))
        answer = json.loads(await client.recv())
    return str(answer["token"])


async def open_tables(url: str, count: int, heard: Any) -> list[float]:
    """Open `count` public tables, one each time the game has said the last one's news."""
    from websockets.asyncio.client import connect

    from sudden_death.wire import protocol as p

    sent, clients = [], []
    try:
        for number in range(count):
            await asyncio.sleep(SETTLE_S)  # past the throttle, and the last news said
            client = await connect(url)
            clients.append(client)
            sent.append(time.perf_counter())
            await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, f"Owls{number}",
                                              public=True)))
            await client.recv()  # seated
            await asyncio.to_thread(heard, f"New table: the Owls{number}'.")
    finally:
        for client in clients:
            await client.close()
    return sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.child is not None:
        return child(args.child, rest)
    from key_to_ear import summary
    from table_driver import Seat, Server

    from sudden_death.storage.sign_in_file import SignIn, save_sign_in

    with tempfile.TemporaryDirectory() as folder, \
            Server("--data", str(Path(folder) / "server")) as server:
        config = Path(folder) / "game"
        config.mkdir()
        (config / "settings.json").write_text(json.dumps({"cue_volume": 0.0}))
        save_sign_in(config, server.url, SignIn("Listener", asyncio.run(sign_up(server.url))))
        with Seat(config, "--server", server.url,
                  command=[sys.executable, __file__, "--child",
                           str(config / "timings.json")]) as seat:
            seat.send("end", "up", "up", "up", "up", "return")  # Play online
            seat.said_starting("Lobby: ")
            sent = asyncio.run(open_tables(server.url, args.tables, seat.until_said))
            seat.send("escape", "end", "return", "down", "return")  # the title, Quit, Yes
            if seat.finish(60) != 0:
                print(seat.stderr(), file=sys.stderr)
                return 1
        timings = json.loads((config / "timings.json").read_text())
    lists, heard = timings["lists"], timings["heard"]
    list_to_ear, host_to_ear = [], []
    for at in sent:  # each table's news: the first list the game took after its host
        found = next((index for index, got in enumerate(lists) if got >= at), None)
        if found is None or heard[found] is None:
            continue
        list_to_ear.append(1000 * (heard[found] - lists[found]))
        host_to_ear.append(1000 * (heard[found] - at))
    if not list_to_ear:
        print("nothing measured", file=sys.stderr)
        return 1
    print(summary("list_to_ear", list_to_ear))
    print(summary("host_to_ear", host_to_ear))
    print("lobby_ear_ms " + json.dumps({
        "list_to_ear": round(statistics.median(list_to_ear), 1),
        "host_to_ear": round(statistics.median(host_to_ear), 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
