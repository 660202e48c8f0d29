"""The browser seat's cost, speed and ear (issues 64 and 69).

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
   nothing. The same games by ear (tests/page_ear.py): keys a down, the words the news log,
   the count and the focused controls said a down, and the shortest time a line of news
   stood readable (a MutationObserver in the page, from its arrival to its removal or to a
   second and a half after the game's end); then the same number of games on a phone's
   screen by taps, and the taps a down.

Where it could mislead: loopback, no network; the computer answers at once, so part 2 is the
whole round trip with no waiting on a person; headless Chromium on this 2-core machine, the
server beside it. A screen reader then starts speaking the focused control: its own delay is
not in these figures. The words are what the page gave a screen reader, not what one said:
a focus change may cut a polite line short in some readers (it stays in the log to read).
The players are seeded bots: a person changes cards more or less often than they do.
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
        // The next decision's control, not the note that holds the focus while it comes.
        if (sent && e.target.closest("#decision") && e.target.matches("input, button")) {
            window.benchTimes.push(performance.now() - sent);
            sent = 0;
        }
    }, true);
}"""


def words_in(text: str) -> int:
    return len(text.split())


def browser_round_trips(games: int) -> dict[str, object]:
    """Whole games against the computer by keys (page_ear.KeyPlayer): the round trip, the
    keys and words a down, and the shortest time a line of news stood readable."""
    # Here, not at the top: part 1 needs neither Playwright nor Chromium.
    from browser import browser_page
    from page_ear import KeyPlayer, heard, listen
    from table_driver import Server

    times: list[float] = []
    finals = []
    keys = downs = 0
    news_words = status_words = focus_words = 0
    stood: list[float] = []
    for seed in range(1, games + 1):
        with Server("--seed", str(seed)) as served, browser_page(1280, 900) as page:
            page.goto(served.page)
            page.evaluate(MEASURE)
            listen(page)
            # The help, the explorer, both teams' names, the opponent, Play the computer.
            for _ in range(6):
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            player = KeyPlayer(page, random.Random(seed))
            over = player.play_out()
            time.sleep(1.5)  # the last lines stand their second too
            record = heard(page)
            finals.append(over.split(".")[0])
            times += page.evaluate("window.benchTimes")
            keys += player.keys
            downs += player.downs
            news_words += sum(words_in(entry["text"]) for entry in record["news"])
            status_words += sum(words_in(entry["text"]) for entry in record["count"])
            focus_words += sum(words_in(entry["text"]) for entry in record["focus"])
            stood += [entry["stood"] for entry in record["news"]]
    return {"games": games, "finals": finals, "choice_to_next_decision_ms": percentiles(times),
            "downs": downs, "keys_per_down": round(keys / downs, 2),
            "news_words_per_down": round(news_words / downs, 1),
            "count_words_per_down": round(status_words / downs, 1),
            "focus_words_per_down": round(focus_words / downs, 1),
            "shortest_readable_ms": round(min(stood)), "lines": len(stood)}


def phone_taps(games: int) -> dict[str, object]:
    """Whole games on a phone's screen (390 by 844), by taps (page_ear.TapPlayer)."""
    from browser import browser_page
    from page_ear import TapPlayer
    from table_driver import Server

    taps = downs = 0
    for seed in range(1, games + 1):
        with Server("--seed", str(seed)) as served, browser_page(390, 844) as page:
            page.goto(served.page)
            page.get_by_role("button", name="Play the computer").click()
            player = TapPlayer(page, random.Random(seed))
            player.play_out()
            taps += player.taps
            downs += player.downs
    return {"games": games, "downs": downs, "taps_per_down": round(taps / downs, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--browser-games", type=int, default=3)
    options = parser.parse_args()
    cost = server_cost(options.games)
    print(json.dumps({"server_cost": cost}), flush=True)
    trips = browser_round_trips(options.browser_games) if options.browser_games else {}
    print(json.dumps({"browser": trips}), flush=True)
    taps = phone_taps(options.browser_games) if options.browser_games else {}
    print(json.dumps({"phone": taps}), flush=True)
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
        print(f"browser, by ear: {trips['keys_per_down']} keys a down over {trips['downs']} "
              f"downs; words heard a down: {trips['news_words_per_down']} news, "
              f"{trips['count_words_per_down']} counts, {trips['focus_words_per_down']} on "
              f"the focus; the shortest time a line of news stood readable: "
              f"{trips['shortest_readable_ms']} ms ({trips['lines']} lines)")
        print(f"phone: {taps['taps_per_down']} taps a down over {taps['downs']} downs")


if __name__ == "__main__":
    main()
