// The page's line to a game on this device (issue 74): the same frames a table server sends a
// browser seat, from the game's Python in a Web Worker (offline.js, Pyodide) instead of a
// WebSocket. A `DeviceLine` looks to page.js like its WebSocket (readyState, send, close, and
// "open", "message" and "close" events whose data is a frame's JSON text), so the page plays
// one way whichever answers it. The worker is started once, the first time the page plays
// here, and kept for the page's life: loading the runtime is what costs, not a game. Only a
// web build's page loads this file (tools/web_build.py): the runtime is beside it.
"use strict";

(() => {
  let worker = null;
  let ready = null; // resolves when the worker has loaded, rejects when it cannot
  let asked = 0;
  const answers = new Map(); // an ask's id: what its answer goes to
  const loadingHeard = new Set(); // what hears the worker's progress

  // The worker's load, tried again after a pause when it fails: a table server counts each
  // file as a new line from the phone's address, and on a first visit the service worker
  // keeping the build (sw.js) may have used the address's allowance for a few seconds, so a
  // runtime file is refused (429). 1 + 2 + 4 s of pauses outlast that; a load that still
  // fails is said, and the next press tries again.
  const LOAD_TRIES = 4;
  let farthest = -1; // the furthest step of the load said so far

  function loadOnce() {
    return new Promise((resolve, reject) => {
      try {
        worker = new Worker("offline.js", {type: "module"});
      } catch (error) {
        reject(error);
        return;
      }
      worker.onerror = (event) => reject(new Error(event.message || "the worker failed"));
      worker.onmessage = (event) => {
        const said = event.data;
        if (said.loading) {
          if (said.done > farthest) { // a load tried again says only the steps it had not
            farthest = said.done;
            for (const hear of loadingHeard) hear(said.done, said.of);
          }
          if (said.loading === "ready") resolve();
          if (said.loading === "failed") reject(new Error(said.error));
          return;
        }
        const answer = answers.get(said.id);
        answers.delete(said.id);
        if (answer) answer(said);
      };
    });
  }

  function startWorker() {
    if (ready) return ready;
    farthest = -1;
    ready = (async () => {
      for (let tried = 1; ; tried += 1) {
        try {
          await loadOnce();
          return;
        } catch (error) {
          if (worker) worker.terminate();
          worker = null;
          if (tried >= LOAD_TRIES) {
            ready = null;
            throw error;
          }
          await new Promise((done) => setTimeout(done, 1000 * 2 ** (tried - 1)));
        }
      }
    })();
    return ready;
  }

  function ask(message) {
    return new Promise((resolve) => {
      asked += 1;
      answers.set(asked, resolve);
      worker.postMessage({...message, id: asked});
    });
  }

  // A game's seed: the page's address may name one (?seed=12, a game to play again, and what
  // the tests play); else a fresh one from the browser's own randomness.
  function newSeed() {
    const named = Number(new URLSearchParams(location.search).get("seed"));
    if (Number.isSafeInteger(named) && named >= 0) return named;
    return crypto.getRandomValues(new Uint32Array(1))[0];
  }

  class DeviceLine extends EventTarget {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSED = 3;

    // `lang`: the page's language; `loading(done, of)` hears how far the worker has loaded.
    constructor(lang, loading) {
      super();
      this.lang = lang;
      this.readyState = DeviceLine.CONNECTING;
      this.loading = loading;
      loadingHeard.add(loading);
      startWorker().then(() => this.opened(), (error) => this.failed(error));
    }

    opened() {
      loadingHeard.delete(this.loading);
      if (this.readyState !== DeviceLine.CONNECTING) return;
      this.readyState = DeviceLine.OPEN;
      this.dispatchEvent(new Event("open"));
    }

    failed(error) {
      loadingHeard.delete(this.loading);
      if (this.readyState === DeviceLine.CLOSED) return;
      this.readyState = DeviceLine.CLOSED;
      const closed = new Event("close");
      closed.reason = String(error);
      this.dispatchEvent(closed);
    }

    // What the page would send a table server, as its JSON text: its greeting to a table
    // against the computer starts the game here; anything else goes to that game's table.
    async send(text) {
      if (this.readyState !== DeviceLine.OPEN) return;
      const message = JSON.parse(text);
      const said = message.type === "host"
        ? await ask({ask: "start", seed: newSeed(), lang: this.lang, team: message.name,
                     theirs: message.computer || "", opponent: message.opponent || "random"})
        : await ask({ask: "line", message: text});
      if (this.readyState !== DeviceLine.OPEN) return; // left meanwhile
      if (said.error) {
        this.failed(said.error);
        return;
      }
      for (const frame of said.frames) {
        this.dispatchEvent(new MessageEvent("message", {data: JSON.stringify(frame)}));
      }
    }

    // The page leaves the game: this line hears no more (the worker stays, loaded).
    close() {
      loadingHeard.delete(this.loading);
      this.readyState = DeviceLine.CLOSED;
    }
  }

  window.DeviceLine = DeviceLine;
})();
