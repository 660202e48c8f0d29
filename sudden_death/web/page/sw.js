// The page kept on this device (issue 74): a service worker, so that a page opened once opens
// and plays the computer again with the network off.
//
// A web build (tools/web_build.py) writes its version here in place of "dev" and lists every
// file it holds in contents.json: installing this worker keeps all of them in one cache named
// for that version, each answered from there ever after (the same version, the same bytes),
// and a new build is a new sw.js, so the browser installs it, keeps the new files and drops
// the old cache. Anything not listed (the table server's words.json?lang=..., a page served
// without a build) goes to the network first and falls back to the last copy kept, so a page
// at a table always matches its server while the network is up.
//
// Never answered here: other origins, anything but GET, and the table's WebSocket (a service
// worker never sees one).

const VERSION = "dev";
const KEPT = `sudden-death-${VERSION}`;
const SEEN = "sudden-death-seen"; // copies of what was fetched and is in no build's list

const TRIES = 12; // a file refused for now (a table server's limit on new lines) is asked again
const PAUSE_MS = 1000; // this long after each refusal, or as long as the server says

// One file after another, not all at once: a table server counts each file as a new line
// from this address (2 a second after a burst of 20), so fifty at once would be refused.
async function fetched(name) {
  for (let tried = 1; ; tried += 1) {
    const answer = await fetch(new Request(name, { cache: "no-cache" }));
    if (answer.ok) return answer;
    if (![429, 503].includes(answer.status) || tried >= TRIES) {
      throw new Error(`${name}: ${answer.status}`);
    }
    const said = Number(answer.headers.get("Retry-After"));
    await new Promise((done) => setTimeout(done, said > 0 ? Math.min(said, 10) * 1000 : PAUSE_MS));
  }
}

async function keepBuild() {
  if (VERSION === "dev") return; // served without a build: nothing listed to keep
  const { files } = await (await fetched("contents.json")).json();
  const cache = await caches.open(KEPT);
  for (const name of ["./", ...Object.keys(files)]) {
    await cache.put(name, await fetched(name));
  }
}

// Each open page is told once the build is kept, so it can say so (install.js): from then
// on it opens and plays with no network.
async function tellKept() {
  if (VERSION === "dev") return;
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
    client.postMessage({ kept: VERSION });
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepBuild().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== KEPT && name !== SEEN && name.startsWith("sudden-death-")) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
    await tellKept();
  })());
});

async function fromNetworkFirst(request) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const copy = answer.clone();
      caches.open(SEEN).then((cache) => cache.put(request, copy)).catch(() => {});
    }
    return answer;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: SEEN });
    if (kept) return kept;
    throw error;
  }
}

async function answer(request) {
  const kept = await caches.match(request, { cacheName: KEPT });
  if (kept) return kept;
  try {
    return await fromNetworkFirst(request);
  } catch (error) {
    // The page itself asked for by another address ("/?lang=es", "/index.html"), offline.
    const page = request.mode === "navigate" && await caches.match("./", { cacheName: KEPT });
    if (page) return page;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(answer(request));
});
