// The page's game on its own device (issue 74): a module Web Worker that runs the game's
// Python (the rules engine, unchanged) in Pyodide, so the page's thread never waits on it.
// Everything comes from the page's own folder: Pyodide's core in pyodide/, the game's Python
// in game.zip (tools/web_build.py); nothing from another origin.
//
// Messages in: {ask: "games", id, seeds, home, away}. Out: {loading: "runtime" | "game" |
// "ready", done, of} as it loads (done of `of` steps, for a progress a screen reader can
// read), {id, answer} or {id, error} for each ask.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const STEPS = 3; // the runtime, the game's files, the game's modules

async function start() {
  postMessage({ loading: "runtime", done: 0, of: STEPS });
  const base = new URL("./", self.location.href).href;
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  postMessage({ loading: "game", done: 1, of: STEPS });
  const archive = await (await fetch(base + "game.zip")).arrayBuffer();
  pyodide.unpackArchive(archive, "zip", { extractDir: "/game" });
  postMessage({ loading: "modules", done: 2, of: STEPS });
  pyodide.runPython("import sys; sys.path.insert(0, '/game')");
  const offline = pyodide.pyimport("sudden_death.web.offline");
  postMessage({ loading: "ready", done: STEPS, of: STEPS });
  return offline;
}

const ready = start();
ready.catch((error) => postMessage({ loading: "failed", error: String(error) }));

self.onmessage = async (event) => {
  const { ask, id } = event.data;
  try {
    const offline = await ready;
    if (ask === "games") {
      const { seeds, home = "random", away = "coach" } = event.data;
      const answer = JSON.parse(offline.games_json(seeds, home, away));
      postMessage({ id, answer });
    } else {
      postMessage({ id, error: `nothing is done for ${JSON.stringify(ask)}` });
    }
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
