"""The browser seat's cost and speed (issue 64).

    python benchmarks/browser_seat.py [--games 20] [--browser-games 3]

1. **The server's cost of a browser line**: the frames one seat is sent over whole seeded games
   (the engine's own games, the coach on both sides), each handed to a `web.view.Viewer` as the
   postman does for a line on /play; timed per frame, against encoding the same frame, which
   every line costs. This is the work the server's loop does for each browser seat and
   message, in words included.
2. **From a choice to the next decision, in a real browser**: `python -m sudden_death.server`
   and Debian's Chromium (tests/browser.py) playing the computer by keyboard; in the page, from
   the Enter key that sends a choice (keydown, capture phase) to the focus landing on the next
   decision's first control (focusin): the server's step, the computer's answer, the view, the
   page's drawing. Timed inside the page (performance.now), so polling by the driver adds
   nothing.

Where it could mislead: loopback, no network; the computer answers at once, so part 2 is the
whole round trip with no waiting on a person; headless Chromium on this 2-core machine, the
server beside it. A screen reader then starts speaking the focused control: its own delay is
not in these figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from sudden_death.engine.actions import actors  # noqa: E402
from sudden_death.engine.game import Game  # noqa: E402
from sudden_death.engine.smart import SmartPolicy  # noqa: E402
from sudden_death.engine.state import TEAMS, Team  # noqa: E402
from sudden_death.web.view import Viewer  # noqa: E402
from sudden_death.wire import protocol as p  # noqa: E402
from sudden_death.wire.values import events_to_wire, state_to_wire  # noqa: E402


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"n": len(ordered), "p50": round(statistics.median(ordered), 3),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
            "max": round(ordered[-1], 3)}


def seat_frames(seed: int) -> list[str]:
    """Every frame the away seat is sent over one seeded game of two coaches."""
    game = Game(random.Random(seed))
    coaches = {team: SmartPolicy(random.Random(seed * 2 + team)) for team in TEAMS}
    frames = [p.encode(p.Seated("100001", int(Team.AWAY), "x" * 24)),
              p.encode(p.Start(["Bears", "Hawks"], 0, state_to_wire(game.state), []))]
    step = 0
    while not game.is_over:
        actions = {team: coaches[team].choose(game.state, team, game.legal_actions(team))
                   for team in actors(game.state)}
        if len(actions) == 2:
            frames.append(p.encode(p.Committed(step, int(Team.HOME))))
        events = game.apply(actions)
        step += 1
        frames.append(p.encode(p.Update(step, state_to_wire(game.state),
                                        events_to_wire(events))))
    return frames


def server_cost(games: int) -> dict[str, object]:
    viewed: list[float] = []
    encoded: list[float] = []
    for seed in range(1, games + 1):
        frames = seat_frames(seed)
        viewer = Viewer("en")
        for frame in frames:
            message = p.decode_server(frame)
            started = time.perf_counter()
            p.encode(message)
            encoded.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            viewer.seen(frame)
            viewed.append((time.perf_counter() - started) * 1000)
    return {"frames": len(viewed), "view_ms": percentiles(viewed),
            "encode_ms": percentiles(encoded),
            "ratio_p50": round(statistics.median(viewed) / statistics.median(encoded), 1)}


MEASURE = """() => {
    window.benchTimes = [];
    let sent = 0;
    document.addEventListener("keydown", (e) => {
        if (e.key === "Enter") sent = performance.now();
    }, true);
    document.addEventListener("focusin", (e) => {
        if (sent && e.target.closest("#decision")) {
            window.benchTimes.push(performance.now() - sent);
            sent = 0;
        }
    }, true);
}"""


def browser_round_trips(games: int) -> dict[str, object]:
    # Here, not at the top: part 1 needs neither Playwright nor Chromium.
    from browser import browser_page
    from table_driver import Server
    from test_web_browser import play_out

    times: list[float] = []
    finals = []
    for seed in range(1, games + 1):
        with Server("--seed", str(seed)) as served, browser_page(1280, 900) as page:
            page.goto(served.page)
            page.evaluate(MEASURE)
            for _ in range(3):  # the help, the team's name, Play the computer
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            over, _decisions = play_out(page, random.Random(seed))
            finals.append(over.split(".")[0])
            times += page.evaluate("window.benchTimes")
    return {"games": games, "finals": finals, "choice_to_next_decision_ms": percentiles(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--browser-games", type=int, default=3)
    options = parser.parse_args()
    cost = server_cost(options.games)
    print(json.dumps({"server_cost": cost}), flush=True)
    trips = browser_round_trips(options.browser_games) if options.browser_games else {}
    print(json.dumps({"browser": trips}), flush=True)
    view, encode = cost["view_ms"], cost["encode_ms"]
    assert isinstance(view, dict) and isinstance(encode, dict)
    print(f"\nserver: a browser line's view {view['p50']} ms p50, {view['p95']} p95, "
          f"{view['max']} max a frame over {cost['frames']} frames of {options.games} games "
          f"(encoding the frame itself {encode['p50']} ms p50; x{cost['ratio_p50']})")
    if trips:
        rt = trips["choice_to_next_decision_ms"]
        assert isinstance(rt, dict)
        print(f"browser: from Enter on a choice to the next decision focused {rt['p50']} ms "
              f"p50, {rt['p95']} p95, {rt['max']} max over {rt['n']} decisions of "
              f"{options.browser_games} games against the computer")


if __name__ == "__main__":
    main()
