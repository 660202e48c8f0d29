"""The page's load time on the device (issue 74): from opening the web build's page to the
first decision of a game against the computer focused, cold and cached.

    python benchmarks/web_load.py [--runs 5] [--web DIR] [--server]

The web build (`tools/web_build.py`, into a temporary folder unless `--web` names one) served
by a plain static server (Python's http.server, as tests/test_web_offline.py's `site`), or
with `--server` by the table server (`python -m sudden_death.server --web DIR`), and opened
in Debian's Chromium (tests/browser.py) on a fresh profile each run:

- **cold**: the first visit: nothing cached, the runtime fetched from the server (the service
  worker registers on the page's load and keeps the build meanwhile);
- **cached**: once that browser's service worker holds the build, the browser is closed and
  started again on the same profile and opens the page again: the page and the runtime come
  from the kept copy (a phone opening the page from its home screen).

Each from the page's navigation (performance.timeOrigin) to the first control of the first
decision (the toss) taking the focus (the page's focusin), timed inside the page with
performance.now, so the driver's polling adds nothing. Its parts: **page**, the navigation to
the page's load event; **runtime**, that load to the worker's `ready` (device.js's worker,
offline.js: starting the worker, Pyodide's runtime, game.zip, the game's imports; the page's
words come first, as Play the computer on this device waits for them); **first decision**,
`ready` to the focus (the table's start in Python, the frames drawn). The worker's own steps
are kept per run (`steps_ms`). The button is pressed by a script in the page at its load
event, so no person's reaction and no driver's round trip is in the figures. With the static
server, the files it answered during each run are counted, so a cached run that fetched the
runtime would show it. Each run has a server of its own, as each visitor has an address of
its own: the table server counts new lines by address, and the first visit's copying (sw.js,
one file after another, waiting out each 429) spends that address's burst for about 20 s, so
a second visitor from the same address at once would be refused its runtime (said: "The game
could not be loaded on this device").

Where it could mislead: loopback, so a phone's network (the cold download of 18 MB, 6.5 MB
packed by a server that compresses; this one does not) is not in the cold figure; headless
Chromium on this shared 2-core machine, with the server beside it, where a phone's slower
CPU makes the runtime's start slower still and its memory may be short; the press at the load
event is sooner than any person, so the page's words and a cold service worker's copying
compete with the runtime more here than for a person, who reads first. The cached run
restarts the browser but not the machine: the operating system's file cache holds the
profile's files, as it would on a phone that opened the page a moment ago but not after a
restart. A few runs only (the default 5): p95 of five is close to their maximum.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from measures import percentiles  # noqa: E402
from static_site import Quiet, static_site  # noqa: E402

# Each part of a run, from one mark of the page's to the next.
PARTS = (("page", "start", "loaded"), ("runtime", "loaded", "ready"),
         ("first_decision", "ready", "focused"))
# The worker's own steps (offline.js: its `loading` messages, as the page hears them).
STEPS = (("start", "loaded", "runtime"), ("pyodide", "runtime", "game"),
         ("game_zip", "game", "modules"), ("imports", "modules", "ready"))
LOAD_TIMEOUT_MS = 300_000  # a cold load on a busy machine: far more than it takes

# Run in the page before its own scripts: the times of its load, of what its worker says as
# it loads, and of the first decision's control taking the focus, from the navigation
# (performance.now counts from performance.timeOrigin); and Play the computer on this device
# pressed at the load, as a player would.
MARKS = """(() => {
  const marks = {start: 0};
  window.loadMarks = marks;
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const said = event.data || {};
        if (said.loading && !(said.loading in marks)) marks[said.loading] = performance.now();
      });
    }
  };
  window.addEventListener("load", () => {
    marks.loaded = performance.now();
    marks.controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
    const button = document.getElementById("computer-here");
    if (button) button.click();
  });
  document.addEventListener("focusin", (event) => {
    const control = event.target;
    if ("focused" in marks || !control.closest("#decision")) return;
    if (!control.matches("input, button")) return;
    marks.focused = performance.now();
    marks.control = control.labels && control.labels.length
      ? control.labels[0].textContent.trim() : control.textContent.trim();
  }, true);
})();"""

KEPT = "() => navigator.serviceWorker.controller !== null"


class Counted(Quiet):
    """The build's files, said of in no log; each path asked for is counted."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Counted.asked.append(self.path)
        super().do_GET()


def counted_site(folder: Path) -> AbstractContextManager[str]:
    """The build on a plain static host (tests/static_site.py), its requests counted."""
    return static_site(folder, Counted)


@contextmanager
def table_server(folder: Path) -> Iterator[str]:
    from server_process import Running

    with Running("--web", str(folder)) as server:
        yield "http://" + server.url.split("//", 1)[1].split("/", 1)[0] + "/"
        server.stopped()


def opened(page: Any, address: str, counted: bool) -> dict[str, Any]:
    """Open the page (its marks set first) and wait for the first decision to take the
    focus: the page's marks, in milliseconds from its navigation; with `counted` (the static
    server), the files the server answered meanwhile, and how many of them the runtime's."""
    Counted.asked.clear()
    page.context.add_init_script(MARKS)
    page.goto(address)
    page.wait_for_function("() => 'focused' in window.loadMarks || "
                           "document.getElementById('urgent').textContent !== ''",
                           timeout=LOAD_TIMEOUT_MS, polling=100)
    marks: dict[str, Any] = page.evaluate("window.loadMarks")
    if "focused" not in marks:
        said = page.locator("#urgent").inner_text()
        raise RuntimeError(f"the page said {said!r} instead of a decision: {marks}")
    run = {"total_ms": round(marks["focused"], 1), "control": marks["control"],
           "controlled": marks["controlled"]}
    run.update({f"{name}_ms": round(marks[to] - marks[since], 1) for name, since, to in PARTS})
    run["steps_ms"] = {name: round(marks[to] - marks[since], 1) for name, since, to in STEPS}
    if counted:
        run["served"] = len(Counted.asked)
        run["served_runtime"] = sum(path.startswith("/pyodide/") for path in Counted.asked)
    return run


def one_run(address: str, counted: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A cold visit on a fresh profile, then, once its service worker holds the build, the
    same browser started again on that profile and the page opened again."""
    from browser import browser_page

    with tempfile.TemporaryDirectory(prefix="sudden-death-web-load-",
                                     ignore_cleanup_errors=True) as folder:
        with browser_page(folder=Path(folder)) as page:
            cold = opened(page, address, counted)
            page.wait_for_function(KEPT, timeout=LOAD_TIMEOUT_MS, polling=250)
        with browser_page(folder=Path(folder)) as page:
            cached = opened(page, address, counted)
    return cold, cached


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and p95 of the whole and of each part (measures.percentiles, in ms)."""
    figures: dict[str, Any] = {}
    for name in ("total", *(part for part, _since, _to in PARTS)):
        values = [run[f"{name}_ms"] / 1000 for run in runs]
        figures[name] = {"median_ms": round(statistics.median(values) * 1000, 1),
                         **percentiles(values)}
    figures["runs"] = runs
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold and cached runs, each")
    parser.add_argument("--web", type=Path, help="a web build to serve (default: one built "
                        "now, into a temporary folder)")
    parser.add_argument("--server", action="store_true",
                        help="served by the table server (--web) rather than a static server")
    options = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="sudden-death-web-build-") as built:
        folder = options.web
        if folder is None:
            import web_build

            folder = Path(built)
            web_build.build(folder)
        listed = json.loads((folder / "contents.json").read_text())["files"]
        serve = table_server if options.server else counted_site
        colds: list[dict[str, Any]] = []
        cacheds: list[dict[str, Any]] = []
        for number in range(1, options.runs + 1):
            started = time.monotonic()
            with serve(folder) as address:  # a server of its own: a new visitor each run
                cold, cached = one_run(address, not options.server)
            colds.append(cold)
            cacheds.append(cached)
            print(json.dumps({"run": number, "cold": cold, "cached": cached,
                              "wall_s": round(time.monotonic() - started, 1)}), flush=True)
    result = {"runs": options.runs, "served_by": "table server" if options.server else "static",
              "build": {"files": len(listed),
                        "bytes": sum(entry["bytes"] for entry in listed.values())},
              "load_before": [round(value, 2) for value in load_before],
              "load_after": [round(value, 2) for value in os.getloadavg()],
              "cores": os.cpu_count(), "cold": summary(colds), "cached": summary(cacheds)}
    for kind in ("cold", "cached"):
        figures = result[kind]
        line = ", ".join(f"{name} {figures[name]['median_ms']} ms (p95 "
                         f"{figures[name].get('p95_ms', '-')})"
                         for name in ("total", *(part for part, _since, _to in PARTS)))
        print(f"{kind}: opening the page to the first decision focused: {line}", flush=True)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
