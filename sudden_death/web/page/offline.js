// The page's game on its own device (issue 74): a module Web Worker that runs the game's
// Python (the rules engine, unchanged) in Pyodide, so the page's thread never waits on it.
// Everything comes from the page's own folder: Pyodide's core in pyodide/, the game's Python
// in game.zip (tools/web_build.py); nothing from another origin.
//
// Messages in: {ask: "games", id, seeds, home, away}: seeded games between the computers;
// {ask: "start", id, seed, lang, team, theirs, opponent}: a table against the computer
// (sudden_death/web/offline_table.py), a new one for each start; {ask: "line", id, message}:
// what the page would send a table server, as its JSON text. Out: {loading: "runtime" |
// "game" | "modules" | "ready", done, of} as it loads (done of `of` steps, for a progress a
// screen reader can read), then for each ask {id, answer} (games), {id, frames} (the frames a
// table server would send, in order) or {id, error}.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const STEPS = 3; // the runtime, the game's files, the game's modules

async function start() {
  postMessage({ loading: "runtime", done: 0, of: STEPS });
  const base = new URL("./", self.location.href).href;
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  postMessage({ loading: "game", done: 1, of: STEPS });
  const answer = await fetch(base + "game.zip");
  if (!answer.ok) throw new Error(`game.zip: ${answer.status}`); // device.js asks again
  const archive = await answer.arrayBuffer();
  pyodide.unpackArchive(archive, "zip", { extractDir: "/game" });
  postMessage({ loading: "modules", done: 2, of: STEPS });
  pyodide.runPython("import sys; sys.path.insert(0, '/game')");
  const offline = pyodide.pyimport("sudden_death.web.offline");
  const tables = pyodide.pyimport("sudden_death.web.offline_table");
  postMessage({ loading: "ready", done: STEPS, of: STEPS });
  return { offline, tables };
}

let table = null; // the page's table against the computer (a Python object), once started

const ready = start();
ready.catch((error) => postMessage({ loading: "failed", error: String(error) }));

self.onmessage = async (event) => {
  const { ask, id } = event.data;
  try {
    const { offline, tables } = await ready;
    if (ask === "games") {
      const { seeds, home = "random", away = "coach" } = event.data;
      const answer = JSON.parse(offline.games_json(seeds, home, away));
      postMessage({ id, answer });
    } else if (ask === "start") {
      const { seed, lang = "en", team = "", theirs = "", opponent = "random" } = event.data;
      if (table) table.destroy();
      table = tables.OfflineTable.open(Math.trunc(Number(seed)) || 0, String(lang),
                                       String(team), String(theirs), String(opponent));
      postMessage({ id, frames: JSON.parse(table.start_json()) });
    } else if (ask === "line") {
      if (!table) throw new Error("no game has started here");
      postMessage({ id, frames: JSON.parse(table.answer_json(String(event.data.message))) });
    } else {
      postMessage({ id, error: `nothing is done for ${JSON.stringify(ask)}` });
    }
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
