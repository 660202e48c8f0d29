// The browser seat (docs/playing.md, "In a browser"): a seat like the desktop game's, speaking
// the table protocol (docs/protocol.md) on the page's own server. The server adds a `view` after
// each message (sudden_death/web/view.py): the news in words, the situation, the cards shown and
// the decision owed as a form. This script only draws it and sends what the player chooses; the
// rules stay on the server. No framework, no build step, nothing from another site. Against the
// computer on this device (device.js, issue 74) the same frames come from the game's Python in
// a worker instead, on a line that looks like the WebSocket: the page plays either one way.
"use strict";

const PROTOCOL_VERSION = 6;
let words = {};
let line = null;
let wordsReady = Promise.resolve(); // the page's words in the browser's language (loadWords)
let view = null;
let shownDecision = "";
let sentThrough = -1; // the last step the actions sent cover: a snap and its cards are two

const byId = (id) => document.getElementById(id);

function word(key) {
  return words[key] || key;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

// The news: an append-only log (role="log"), never overwritten. A screen reader reads each
// entry as it is added and lets it stand; text replaced within a frame or two is never read, so
// each line is its own entry, and entries go only once they are old (docs/architecture.md,
// "The browser page's ear"). Urgent words (a refusal, a dropped line) go to an assertive log
// of their own, which may interrupt the news but never removes it.
const NEWS_KEPT_MS = 30000; // an entry stays at least this long...
const NEWS_KEPT = 6; // ...and the newest this many stay whatever their age

function say(text, urgent = false) {
  if (!text) return;
  const region = byId(urgent ? "urgent" : "news");
  const entry = document.createElement("p");
  entry.textContent = text;
  entry.dataset.at = String(Date.now());
  entry.dataset.step = view ? String(view.step) : "";
  region.append(entry);
  const now = Date.now();
  while (region.children.length > NEWS_KEPT &&
         now - Number(region.firstElementChild.dataset.at) > NEWS_KEPT_MS) {
    region.firstElementChild.remove();
  }
}

// The count as cards are checked: a status the player's own keys change, at a person's pace.
// The same words again (a third card refused twice) are cleared first so they are read again.
function status(text) {
  const count = byId("count");
  if (count.textContent === text) {
    count.textContent = "";
    window.setTimeout(() => { count.textContent = text; }, 100);
  } else {
    count.textContent = text;
  }
}

// Words in the page's language (`name`: "words" or "explorer"): from the table server, which
// picks the nearest language it has, else from a web build's own files (words/es.json, then
// English), as a static host or the page kept on the device (sw.js) holds them.
async function fetchWords(name, lang) {
  try {
    const answer = await fetch(`${name}.json?lang=${encodeURIComponent(lang)}`);
    if (answer.ok) return await answer.json();
  } catch (error) {
    // no table server here: the build's files
  }
  for (const code of [lang.split("-")[0].toLowerCase(), "en"]) {
    try {
      const answer = await fetch(`${name}/${encodeURIComponent(code)}.json`);
      if (answer.ok) return await answer.json();
    } catch (error) {
      // the next
    }
  }
  throw new Error(`no ${name} for ${lang}`);
}

async function loadWords() {
  const lang = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  try {
    words = await fetchWords("words", lang);
  } catch (error) {
    words = {};
  }
  if (words.lang) document.documentElement.lang = words.lang;
  for (const element of document.querySelectorAll("[data-word]")) {
    const text = words[element.dataset.word];
    if (text) element.textContent = text;
  }
  if (words.title) document.title = words.title;
}

function send(message) {
  if (line && line.readyState === WebSocket.OPEN) line.send(JSON.stringify(message));
}

function otherTeam(team) {
  return team.toLowerCase() === "bears" ? "Hawks" : "Bears";
}

// The page's one line (a seat, a spectator or the lobby, as the protocol's lines are):
// opened on /play, so the server adds the views; `first` is sent once it is up. Opened once
// the words are here: the line asks for the views in their language.
async function connect(first) {
  await wordsReady;
  if (line && line.readyState <= WebSocket.OPEN) {
    if (line.readyState === WebSocket.OPEN) send(first);
    else line.addEventListener("open", () => send(first), {once: true});
    return;
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const lang = encodeURIComponent(words.lang || "en");
  const mine = new WebSocket(`${scheme}//${location.host}/play?lang=${lang}`);
  line = mine;
  if (!busyResuming) say(word("connecting")); // asked again: busy said it once
  mine.addEventListener("open", () => send(first), {once: true});
  mine.addEventListener("message", (event) => heardFromServer(JSON.parse(event.data)));
  mine.addEventListener("close", (event) => {
    if (line !== mine) return; // closed by the page itself
    line = null;
    const notNow = forNow && event.code === 1013; // refused for now, closed to try again
    forNow = false;
    if (closedByRefusal) { // its reason is said already: nothing dropped
      closedByRefusal = false;
      if (seat && view) returnToStart(); // a seat the server no longer knows
    } else if (seat && view && !["over", "watch"].includes(view.decision.kind)) {
      comeBack();
    } else if (!seat && view && view.decision.kind === "watch" && !view.decision.over &&
               greeting && greeting.type === "watch") {
      comeBack(); // a spectator watches again (its table handed to another process, say)
    } else if (!notNow && !seat && !view && greeting && greeting.computer && canPlayHere()) {
      say(word("no_server_here")); // no server answers: the computer on this device instead
      playHere(greeting);
    } else if (!notNow) { // a refusal for now has said its words: the player tries again
      say(word("lost"), true);
    }
  });
}

// A line that drops mid-game (a phone's screen locked, a Wi-Fi hand-over): the seat is kept
// for it, so the page goes back to it as the desktop game does, after 0.25 s, doubling up to
// 8 s, for two minutes, with the last step it heard (the server tells what it missed). A
// spectator's line watches the same table again.
let seat = null;
let lastStep = 0;
let dropped = 0; // when the line dropped (0: it is up)
let retryWait = 250;
// The server refused this seat's resume for now (its Valkey or database away, issue 70): it
// is said once as busy, and asked again within a second until the seat is back.
let busyResuming = false;
let forNow = false; // the last refusal was not fatal: a close with 1013 after it is no drop

function comeBack() {
  if (!dropped) {
    dropped = Date.now();
    retryWait = 250;
  } else {
    retryWait = Math.min(retryWait * 2, busyResuming ? 1000 : 8000);
  }
  if (Date.now() - dropped > 120000) {
    say(word("lost"), true);
    return;
  }
  if (!busyResuming) say(word("reconnecting"));
  const again = seat ? {type: "resume", version: PROTOCOL_VERSION, code: seat.code,
                        token: seat.token, step: lastStep} : {...greeting, step: lastStep};
  window.setTimeout(() => connect(again), retryWait);
}

let greeting = null;
let retried = false;
let signedIn = null; // this browser's name and key once the server took them
let fromLobby = false; // the table was found in the lobby: leaving it goes back there
let refusal = null; // the refusal whose words are still to come (its `told` or `view`)
let alreadySaid = ""; // a line the next view need not say again (a spectator's table)
let closedByRefusal = false; // the server closed the line after saying why: not a drop

function heardFromServer(message) {
  if (message.type === "seated") seat = {code: message.code, token: message.token};
  if (message.type === "start" || message.type === "update") lastStep = message.step;
  if (message.type === "start") {
    sentThrough = -1; // a new game (a rematch), or resumed
    actAgain(message);
    // Back after a drop, the form being filled in stays (its checks, the focus) when the
    // same decision is owed: a line that drops mid-choice costs the player nothing.
    if (dropped) {
      say(word("back"));
      // A spectator back on its table: what it watches was said already.
      if (!seat && view) alreadySaid = view.decision.question;
    } else {
      shownDecision = "";
      if (message.step === 0) lastHands = {};
    }
    dropped = 0;
    busyResuming = false;
  }
  if (message.type === "refused") {
    refusal = message;
    closedByRefusal = message.fatal;
    forNow = !message.fatal;
    if (forNow && dropped) { // this seat's resume, refused for now: busy, said once
      refusal = {skip: true};
      if (!busyResuming) say(word("busy"));
      busyResuming = true;
    }
  }
  if (message.type === "told" && message.cues && window.cues) window.cues.play(message.cues);
  if (message.type === "view") show(message);
  else if (message.type === "told" && message.chat) heardInLobby(message.lines);
  else if (message.type === "told") {
    // A table's code is for a friend: with the computer at the table, the game begins now.
    if (!(message.code && greeting && greeting.computer)) tell(message.lines);
  }
  else if (message.type === "lobby_view") showLobby(message);
  else if (message.type === "signed_in") {
    // The server's key for next time, kept by this browser (never the password).
    signedIn = {name: message.name, token: message.token};
    localStorage.setItem("sudden-death-sign-in", JSON.stringify(signedIn));
    byId("password").value = "";
    send({type: "lobby"});
  } else if (message.type === "refused" && message.code === "same_name" && !retried &&
             greeting && greeting.type === "join") {
    retried = true; // the host took our name: join as the other team, as the game does
    refusal = {skip: true}; // not a refusal the player needs to hear: the game goes on
    send({...greeting, name: otherTeam(greeting.name)});
  }
}

// A table with the computer, a table for a friend, a friend's table by its code, or one from
// the lobby: on the line the page has, or a new one.
function sit(message) {
  greeting = message;
  retried = false;
  fromLobby = !byId("lobby").hidden;
  connect(message);
}

// Whether this page can play the computer on the device: a web build's page loads device.js
// (tools/web_build.py), its runtime beside it; a table server's own page has neither.
function canPlayHere() {
  return typeof window.DeviceLine === "function";
}

// The computer on this device, with no server (issue 74): the greeting a table against the
// computer would get, on a line to the worker (device.js) whose frames are a table's. The
// worker says how far it has loaded the first time; a worker that cannot load is said, urgently.
async function playHere(first) {
  greeting = first;
  retried = false;
  fromLobby = false;
  await wordsReady;
  const old = line;
  const mine = new DeviceLine(words.lang || "en", (done, of) => {
    if (done < of) say(fill(word("loading_here"), {step: String(done + 1), steps: String(of)}));
  });
  line = mine;
  if (old) old.close(); // a server's line left open (a refusal at the start): not a drop
  mine.addEventListener("open", () => send(first), {once: true});
  mine.addEventListener("message", (event) => heardFromServer(JSON.parse(event.data)));
  mine.addEventListener("close", () => {
    if (line !== mine) return;
    line = null;
    say(word("failed_here"), true);
    if (view) returnToStart();
  });
}

// Leave the table for good (after the game, or a spectator's): the server closes the line, so
// the page opens another where the player was: the lobby (signed in again by the key this
// browser keeps), or the start.
function leaveTable() {
  send({type: "leave"});
  if (canPlayHere() && line instanceof DeviceLine) line.close(); // a game here: no more to hear
  line = null; // its close is the server's answer, not a drop
  seat = null;
  view = null;
  shownDecision = "";
  sentThrough = -1;
  lastStep = 0;
  byId("log").replaceChildren();
  byId("told").textContent = ""; // the last game's news: the start is a fresh page
  byId("game").hidden = true;
  if (fromLobby && signedIn) {
    connect({type: "sign_in", version: PROTOCOL_VERSION, name: signedIn.name,
             token: signedIn.token});
  } else if (fromLobby) {
    connect({type: "lobby"});
  } else {
    byId("start").hidden = false;
    byId("start-heading").focus();
  }
}

// Concede: asked first, as the desktop game asks (No has the focus; Escape is No).
function askConcede() {
  byId("concede-question").textContent = view.concede;
  byId("concede").hidden = true;
  byId("concede-ask").hidden = false;
  byId("concede-no").focus();
}

function keepPlaying() {
  byId("concede-ask").hidden = true;
  byId("concede").hidden = !(view && view.concede);
  const control = byId("decision").querySelector("input, button");
  (control || byId("decision-heading")).focus();
}

function showLobby(lobby) {
  const section = byId("lobby");
  const entering = section.hidden;
  byId("start").hidden = true;
  section.hidden = false;
  byId("rating").hidden = !signedIn;
  byId("lobby-chat-form").hidden = !signedIn; // the server's rule: chat here needs a name
  byId("lobby-chat-name").hidden = Boolean(signedIn);
  byId("lobby-summary").textContent = lobby.summary;
  byId("lobby-here").textContent = lobby.here;
  const list = (id, entries, key, action) => {
    const into = byId(id);
    into.replaceChildren();
    for (const entry of entries) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${word(key)}: ${entry.label}`;
      button.addEventListener("click", () => action(entry.code));
      item.append(button);
      into.append(item);
    }
  };
  list("lobby-tables", lobby.tables, "join", (code) =>
    sit({type: "join", version: PROTOCOL_VERSION, code, name: teamName()}));
  list("lobby-games", lobby.games, "watch", (code) =>
    sit({type: "watch", version: PROTOCOL_VERSION, code, name: ""}));
  if (entering) {
    say(lobby.summary);
    byId("lobby-heading").focus();
  }
}

// The lobby's chat: each line read as it comes and kept in a list to read again (the last
// LOBBY_LINES_KEPT), as the game log keeps a table's lines.
const LOBBY_LINES_KEPT = 50;

function heardInLobby(lines, speak = true) {
  const list = byId("lobby-said");
  for (const text of lines) {
    const item = document.createElement("li");
    item.textContent = text;
    list.append(item);
  }
  while (list.children.length > LOBBY_LINES_KEPT) list.firstElementChild.remove();
  if (speak && !byId("lobby").hidden) say(lines.join(" "));
}

function signIn(kind) {
  const name = byId("player").value.trim();
  const password = byId("password").value;
  const kept = JSON.parse(localStorage.getItem("sudden-death-sign-in") || "null");
  if (kind === "sign_in" && !password && kept && kept.name.toLowerCase() === name.toLowerCase()) {
    connect({type: "sign_in", version: PROTOCOL_VERSION, name, token: kept.token});
  } else {
    connect({type: kind, version: PROTOCOL_VERSION, name, password});
  }
}

function tell(lines) {
  byId("told").textContent = lines.join(" ");
  const urgent = refusal !== null;
  const skip = refusal && refusal.skip;
  refusal = null;
  if (skip) return;
  for (const text of lines) say(text, urgent);
  // A table's code waits for a friend: the focus goes to it, so it can be read again.
  if (!urgent && seat && !view) takeFocus(byId("told"));
}

function teamName() {
  return byId("team").value.trim() || "Hawks";
}

// A table against the computer, as the start form asks for it: the rules' computer by default
// (the coach a choice), in the home seat's other: the player calls the toss, as in the
// desktop game; both teams named by the player.
function computerGreeting() {
  const team = teamName();
  const theirs = byId("their-team").value.trim() || otherTeam(team);
  const opponent = byId("start-form").querySelector("input[name=opponent]:checked");
  return {type: "host", version: PROTOCOL_VERSION, name: team, computer: theirs,
          opponent: opponent ? opponent.value : "random", home: true};
}

// The focus is the player's: a new decision takes it, except from a chat line being typed,
// the concede question or an open dialog (the explorer), which keep it.
function takeFocus(element) {
  const active = document.activeElement;
  if (active && active.tagName === "INPUT" && active.type !== "checkbox" &&
      active.type !== "radio" && active.value) return;
  if (!byId("concede-ask").hidden || document.querySelector("dialog[open]")) return;
  element.focus();
}

function show(next) {
  view = next;
  byId("start").hidden = true;
  byId("lobby").hidden = true;
  if (byId("game").hidden) byId("told").textContent = ""; // the lobby's news, now old
  byId("game").hidden = false;
  const log = byId("log");
  const urgent = refusal !== null && !refusal.skip;
  refusal = null;
  const lines = next.lines.filter((text) => text !== alreadySaid);
  alreadySaid = "";
  for (const text of lines) {
    const item = document.createElement("li");
    item.textContent = text;
    log.append(item);
    say(text, urgent);
  }
  if (next.cues && next.cues.length && window.cues) window.cues.play(next.cues, next.rolls);
  byId("theirs").textContent = next.cards.theirs
    ? `${word("their_cards")}: ${next.cards.theirs}` : word("none_yet");
  byId("mine").textContent = next.cards.mine
    ? `${word("yours")}: ${next.cards.mine}` : word("none_yet");
  byId("more-time").hidden = !next.turn_s;
  if (!next.concede) byId("concede-ask").hidden = true; // the game ended meanwhile
  byId("concede").hidden = !next.concede || !byId("concede-ask").hidden;
  const key = JSON.stringify([next.step, next.decision]);
  if (key !== shownDecision) {
    shownDecision = key;
    drawDecision(next.decision);
  }
}

function waitingWords() {
  return (view && view.waiting) || word("waiting");
}

// While the other side decides, the form says so, and holds the focus: the player who has
// just confirmed hears what happens now, and the next decision takes the focus from it.
function drawNote(text, kind) {
  const form = byId("decision");
  const shown = form.querySelector(".note");
  if (shown && shown.dataset.kind === kind && shown.textContent === text) {
    if (document.activeElement === document.body) takeFocus(shown);
    return shown;
  }
  form.replaceChildren();
  byId("count").textContent = "";
  const note = document.createElement("p");
  note.className = "note";
  note.tabIndex = -1;
  note.dataset.kind = kind;
  note.textContent = text;
  form.append(note);
  takeFocus(note);
  return note;
}

function act(actions) {
  sentThrough = view.step + actions.length - 1;
  shownDecision = ""; // the form is gone: whatever comes next is drawn, the same one too
  drawNote(waitingWords(), "wait");
  const message = {type: "act", step: view.step, actions};
  inDoubt = {message, line: line && line.readyState === WebSocket.OPEN ? line : null};
  send(message);
}

// The last act and the line it went out on (null: none was open, so it never went out; issue
// 73). A server stopped before it wrote a held choice (on PostgreSQL it goes with the next
// step, or within a second) has lost it, so back on the seat, a start at that step that holds
// nothing of ours has it sent again, as the desktop game's link does; one sent on the line we
// came back on is not sent twice.
let inDoubt = null;

function actAgain(start) {
  const doubt = inDoubt;
  inDoubt = null;
  if (!dropped || !doubt || doubt.line === line || doubt.message.step !== start.step ||
      (start.held || []).length) return;
  send(doubt.message);
  sentThrough = doubt.message.step + doubt.message.actions.length - 1;
}

// -- cards: checkboxes in two groups, Players and Calls, moved through as the desktop's lists

let lastHands = {}; // the cards confirmed last, by decision: checked again, as the desktop does
let detailsShown = localStorage.getItem("sudden-death-details") === "on";

function checkedIn(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)];
}

// The desktop's counting phrases, made by the server for every count (site.py page_words).
function pickedWords(noun, have) {
  return (words[`${noun}_picked`] || [])[have] || "";
}

function notYetWords(form) {
  const have = [checkedIn(form, "player").length, checkedIn(form, "call").length];
  return (words.not_yet || {})[`${have[0]},${have[1]}`] || "";
}

// One tab stop a list, as a radio group has: the arrows, Home, End and digits move in it.
function roving(set) {
  const inputs = [...set.querySelectorAll("input")];
  const current = inputs.find((input) => input.checked) || inputs[0];
  for (const input of inputs) input.tabIndex = input === current ? 0 : -1;
  set.addEventListener("focusin", (event) => {
    if (!(event.target instanceof HTMLInputElement)) return;
    for (const input of inputs) input.tabIndex = input === event.target ? 0 : -1;
  });
}

function firstIn(set) {
  return set.querySelector("input");
}

function detailOf(input) {
  return input.dataset.detail ? byId(input.getAttribute("data-detail-id")) : null;
}

// What a card does: its paragraph under the card, shown with D (as the desktop's key) or for
// every card with "Show what each card does"; a shown one is the card's description too.
function showDetail(input, open) {
  const detail = detailOf(input);
  if (!detail) return;
  detail.hidden = !open;
  if (open) input.setAttribute("aria-describedby", detail.id);
  else input.removeAttribute("aria-describedby");
}

function choiceRow(type, name, label, value, detail) {
  const holder = document.createElement("div");
  holder.className = "choice";
  const row = document.createElement("label");
  const input = document.createElement("input");
  input.type = type;
  input.name = name;
  input.value = value;
  row.append(input, document.createTextNode(label));
  holder.append(row);
  if (detail) {
    const text = document.createElement("p");
    text.className = "detail";
    text.id = `detail-${name}-${String(value).replace(/\W/g, "-")}`;
    text.textContent = detail;
    input.dataset.detail = detail;
    input.setAttribute("data-detail-id", text.id);
    holder.append(text);
  }
  return [holder, input];
}

function cardSet(legend, cards, name, limit, noun, form, again) {
  const set = document.createElement("fieldset");
  const title = document.createElement("legend");
  title.textContent = legend;
  set.append(title);
  for (const card of cards) {
    const [holder, input] = choiceRow("checkbox", name, card.name, card.id, card.detail);
    input.checked = again.includes(card.id);
    set.append(holder);
    input.addEventListener("change", () => {
      const have = checkedIn(form, name).length;
      if (have > limit) { // a third player: refused, and said why
        input.checked = false;
        status(word(`${noun}_over`));
        return;
      }
      const count = pickedWords(noun, have);
      if (have < limit || !input.checked) {
        status(count);
        return;
      }
      const open = [...form.querySelectorAll("fieldset.cards")].find((other) =>
        checkedIn(form, other.dataset.name).length < Number(other.dataset.limit));
      if (open) { // a full list hands the focus on to the list still open
        status(count);
        firstIn(open).focus();
      } else {
        status(fill(word("full_confirm"), {count}));
      }
    });
  }
  set.className = "cards";
  set.dataset.name = name;
  set.dataset.limit = String(limit);
  roving(set);
  return set;
}

function submitButton(text) {
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = text;
  return button;
}

function leaveButton(text) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.addEventListener("click", leaveTable);
  return button;
}

// One switch for every card's details, kept by this browser (a touchscreen has no D key).
function detailsSwitch(form) {
  const [holder, input] = choiceRow("checkbox", "details", word("show_details"), "on", "");
  input.checked = detailsShown;
  input.addEventListener("change", () => {
    detailsShown = input.checked;
    localStorage.setItem("sudden-death-details", detailsShown ? "on" : "off");
    for (const card of form.querySelectorAll("input[data-detail]")) showDetail(card, detailsShown);
  });
  return holder;
}

function drawDecision(decision) {
  const form = byId("decision");
  form.onsubmit = (event) => event.preventDefault();
  if (decision.kind === "watch") { // a spectator: nothing to decide, ever
    if (form.querySelector(".note[data-kind=watch]")) {
      form.querySelector(".note").textContent = decision.question;
      return;
    }
    drawNote(decision.question, "watch");
    form.append(leaveButton(word("stop_watching")));
    return;
  }
  if (decision.kind === "wait" || (decision.kind !== "over" && view.step <= sentThrough)) {
    drawNote(waitingWords(), "wait");
    return;
  }
  form.replaceChildren();
  byId("count").textContent = "";
  if (decision.kind === "over") {
    const over = document.createElement("p");
    over.textContent = decision.question;
    const again = submitButton(word("again"));
    form.append(over, again, leaveButton(word("leave")));
    form.onsubmit = (event) => { event.preventDefault(); send({type: "rematch"}); };
    takeFocus(again);
    return;
  }
  if (decision.kind === "choice") {
    const set = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = decision.question;
    set.append(legend);
    decision.options.forEach((option, index) => {
      const [holder, input] = choiceRow("radio", "choice", option.label, String(index),
                                        option.detail);
      if (index === 0) input.checked = true;
      set.append(holder);
    });
    form.append(set, submitButton(word("choose")));
    if (decision.options.some((option) => option.detail)) form.append(detailsSwitch(form));
    for (const card of form.querySelectorAll("input[data-detail]")) showDetail(card, detailsShown);
    form.onsubmit = (event) => {
      event.preventDefault();
      const picked = form.querySelector('input[name="choice"]:checked');
      if (!picked) return;
      act(decision.options[Number(picked.value)].actions);
    };
    takeFocus(form.querySelector("input"));
    return;
  }
  // The cards for a down: players and calls as checkboxes, counted as they are checked;
  // last down's cards come checked again, so Enter plays them again.
  const [players, calls] = decision.limits;
  const again = lastHands[decision.question] || {players: [], calls: []};
  const heading = document.createElement("p");
  heading.textContent = decision.question;
  form.append(heading,
    cardSet(word("players"), decision.players, "player", players, "players", form, again.players),
    cardSet(word("calls"), decision.calls, "call", calls, "calls", form, again.calls),
    submitButton(word("confirm")));
  if (decision.kicks.length) {
    const kicks = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = word("kick");
    kicks.append(legend);
    for (const kick of decision.kicks) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = kick.label;
      button.addEventListener("click", () => act(kick.actions));
      kicks.append(button);
    }
    form.append(kicks);
  }
  form.append(detailsSwitch(form));
  for (const card of form.querySelectorAll("input[data-detail]")) showDetail(card, detailsShown);
  const names = (ids, cards) => ids.map((id) => cards.find((card) => card.id === id).name);
  if (again.players.length) {
    status(fill(word("again_checked"), {hand: names(again.players, decision.players).join(", ")
      + "; " + names(again.calls, decision.calls).join(", ")}));
  }
  form.onsubmit = (event) => {
    event.preventDefault();
    const chosen = (name) => checkedIn(form, name).map((input) => input.value);
    const hand = {players: chosen("player"), calls: chosen("call")};
    if (hand.players.length !== players || hand.calls.length !== calls) {
      status(notYetWords(form));
      const open = [...form.querySelectorAll("fieldset.cards")].find((set) =>
        checkedIn(form, set.dataset.name).length !== Number(set.dataset.limit));
      if (open) firstIn(open).focus();
      return;
    }
    lastHands[decision.question] = hand;
    act([...decision.before, {action: "PickHand", hand}]);
  };
  const open = [...form.querySelectorAll("fieldset.cards")].find((set) =>
    checkedIn(form, set.dataset.name).length < Number(set.dataset.limit));
  takeFocus(open ? open.querySelector('input[tabindex="0"]') : form.querySelector("input"));
}

// The decision's keys, as the desktop game's: Enter confirms from anywhere in the form; in a
// list, the arrows, Home and End move, and 1-9 pick that item (a checkbox toggles); D tells
// what the focused card does.
function decisionKeys(event) {
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || event.altKey || event.ctrlKey ||
      event.metaKey) return;
  const form = byId("decision");
  const set = target.closest("fieldset");
  if (!set) return;
  const inputs = [...set.querySelectorAll("input")];
  const key = event.key;
  if (key === "Enter") {
    event.preventDefault();
    form.requestSubmit();
  } else if (/^[1-9]$/.test(key) && inputs[Number(key) - 1]) {
    event.preventDefault();
    const item = inputs[Number(key) - 1];
    item.focus();
    item.click();
  } else if (target.type === "checkbox" &&
             ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft", "Home", "End"].includes(key)) {
    event.preventDefault();
    const at = inputs.indexOf(target);
    const to = {ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1,
                Home: 0, End: inputs.length - 1}[key];
    if (inputs[to]) inputs[to].focus();
  } else if ((key === "d" || key === "D") && target.dataset.detail) {
    event.preventDefault();
    const detail = detailOf(target);
    const open = detail.hidden;
    showDetail(target, open || detailsShown);
    if (open) say(target.dataset.detail);
  }
}

// A seat the server no longer knows (its refusal said already): back to the start, its
// heading focused, rather than a game that can never go on.
function returnToStart() {
  seat = null;
  view = null;
  shownDecision = "";
  sentThrough = -1;
  lastStep = 0;
  byId("game").hidden = true;
  byId("start").hidden = false;
  byId("start-heading").focus();
}

// Every control answers from the start: a player quick to press Enter before the words have
// come would otherwise send the form the browser's own way, and nothing would happen.
window.addEventListener("DOMContentLoaded", () => {
  wordsReady = loadWords();
  byId("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sit(computerGreeting());
  });
  byId("computer-here").addEventListener("click", () => playHere(computerGreeting()));
  byId("computer-here").hidden = !canPlayHere(); // a table server's page: no runtime here
  byId("host").addEventListener("click", () => {
    sit({type: "host", version: PROTOCOL_VERSION, name: teamName()});
  });
  byId("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = byId("code").value.replace(/\D/g, "");
    sit({type: "join", version: PROTOCOL_VERSION, code, name: teamName()});
  });
  byId("sign-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn("sign_in");
  });
  byId("sign-up").addEventListener("click", () => signIn("sign_up"));
  byId("no-name").addEventListener("click", () => connect({type: "lobby"}));
  byId("quick").addEventListener("click", () => {
    const team = teamName();
    sit({type: "quick", version: PROTOCOL_VERSION, name: team, other: otherTeam(team)});
  });
  const kept = JSON.parse(localStorage.getItem("sudden-death-sign-in") || "null");
  if (kept) byId("player").value = kept.name;
  byId("help").addEventListener("click", () => {
    const open = byId("help").getAttribute("aria-expanded") !== "true";
    byId("help").setAttribute("aria-expanded", String(open));
    byId("help-text").hidden = !open;
  });
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault(); // a line for the other seat (or, watching, the other spectators)
    const text = byId("chat").value.trim();
    if (text) send({type: "chat", text});
    byId("chat").value = "";
  });
  byId("lobby-chat-form").addEventListener("submit", (event) => {
    event.preventDefault(); // a line for everyone in the lobby (not echoed: shown here)
    const text = byId("lobby-line").value.trim();
    if (text && signedIn) heardInLobby([fill(word("said"), {name: signedIn.name, text})], false);
    if (text) send({type: "chat", text});
    byId("lobby-line").value = "";
  });
  byId("more-time").addEventListener("click", () => send({type: "more_time"}));
  byId("rating").addEventListener("click", () => send({type: "rating"}));
  byId("concede").addEventListener("click", askConcede);
  byId("concede-no").addEventListener("click", keepPlaying);
  byId("concede-ask").addEventListener("keydown", (event) => {
    if (event.key === "Escape") keepPlaying();
  });
  byId("concede-yes").addEventListener("click", () => {
    byId("concede-ask").hidden = true;
    if (view && view.concede) act([{action: "Concede"}]);
  });
  byId("decision").addEventListener("keydown", decisionKeys);
  byId("situation").addEventListener("click", () => {
    if (view) say(view.situation);
  });
});
