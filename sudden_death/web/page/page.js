// The browser seat (docs/playing.md, "In a browser"): a seat like the desktop game's, speaking
// the table protocol (docs/protocol.md) on the page's own server. The server adds a `view` after
// each message (sudden_death/web/view.py): the news in words, the situation, the cards shown and
// the decision owed as a form. This script only draws it and sends what the player chooses; the
// rules stay on the server. No framework, no build step, nothing from another site.
"use strict";

const PROTOCOL_VERSION = 6;
let words = {};
let line = null;
let wordsReady = Promise.resolve(); // the page's words in the browser's language (loadWords)
let view = null;
let shownDecision = "";
let sentThrough = -1; // the last step the actions sent cover: a snap and its cards are two

function act(actions) {
  sentThrough = view.step + actions.length - 1;
  shownDecision = ""; // the form is gone: whatever comes next is drawn, the same one too
  send({type: "act", step: view.step, actions});
}

const byId = (id) => document.getElementById(id);

function word(key) {
  return words[key] || key;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

function say(text) {
  // The live region is cleared first, so the same words said twice are said again.
  const news = byId("news");
  news.textContent = "";
  window.setTimeout(() => { news.textContent = text; }, 50);
}

async function loadWords() {
  const lang = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  try {
    const answer = await fetch("words.json?lang=" + encodeURIComponent(lang));
    words = await answer.json();
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
  say(word("connecting"));
  mine.addEventListener("open", () => send(first), {once: true});
  mine.addEventListener("message", (event) => heardFromServer(JSON.parse(event.data)));
  mine.addEventListener("close", () => {
    if (line !== mine) return; // closed by the page itself
    line = null;
    if (seat && view && !["over", "watch"].includes(view.decision.kind)) comeBack();
    else say(word("lost"));
  });
}

// A line that drops mid-game (a phone's screen locked, a Wi-Fi hand-over): the seat is kept
// for it, so the page goes back to it as the desktop game does, after 0.25 s, doubling up to
// 8 s, for two minutes, with the last step it heard (the server tells what it missed).
let seat = null;
let lastStep = 0;
let dropped = 0; // when the line dropped (0: it is up)
let retryWait = 250;

function comeBack() {
  if (!dropped) {
    dropped = Date.now();
    retryWait = 250;
  } else {
    retryWait = Math.min(retryWait * 2, 8000);
  }
  if (Date.now() - dropped > 120000) {
    say(word("lost"));
    return;
  }
  say(word("reconnecting"));
  window.setTimeout(() => {
    connect({type: "resume", version: PROTOCOL_VERSION, code: seat.code, token: seat.token,
             step: lastStep});
  }, retryWait);
}

let greeting = null;
let retried = false;
let signedIn = null; // this browser's name and key once the server took them
let fromLobby = false; // the table was found in the lobby: leaving it goes back there

function heardFromServer(message) {
  if (message.type === "seated") seat = {code: message.code, token: message.token};
  if (message.type === "start" || message.type === "update") lastStep = message.step;
  if (message.type === "start") {
    sentThrough = -1; // a new game (a rematch), or resumed
    // Back after a drop, the form being filled in stays (its checks, the focus) when the
    // same decision is owed: a line that drops mid-choice costs the player nothing.
    if (dropped) say(word("back"));
    else shownDecision = "";
    dropped = 0;
  }
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

// Leave the table for good (after the game, or a spectator's): the server closes the line, so
// the page opens another where the player was: the lobby (signed in again by the key this
// browser keeps), or the start.
function leaveTable() {
  send({type: "leave"});
  line = null; // its close is the server's answer, not a drop
  seat = null;
  view = null;
  shownDecision = "";
  sentThrough = -1;
  lastStep = 0;
  byId("log").replaceChildren();
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
  say(lines.join(" "));
}

function teamName() {
  return byId("team").value.trim() || "Hawks";
}

function show(next) {
  view = next;
  byId("start").hidden = true;
  byId("lobby").hidden = true;
  if (byId("game").hidden) byId("told").textContent = ""; // the lobby's news, now old
  byId("game").hidden = false;
  const log = byId("log");
  for (const text of next.lines) {
    const item = document.createElement("li");
    item.textContent = text;
    log.append(item);
  }
  if (next.lines.length) say(next.lines.join(" "));
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

function choiceRow(type, name, label, value) {
  const row = document.createElement("label");
  const input = document.createElement("input");
  input.type = type;
  input.name = name;
  input.value = value;
  row.append(input, document.createTextNode(label));
  return [row, input];
}

function detailsButton(card, into) {
  // A disclosure button, collapsed at first: what the card does, at band 0.
  const button = document.createElement("button");
  button.type = "button";
  button.className = "details";
  button.textContent = `${word("details")}: ${card.name}`;
  button.setAttribute("aria-expanded", "false");
  const detail = document.createElement("p");
  detail.className = "detail";
  detail.id = `detail-${card.id.replace(/\W/g, "-")}`;
  detail.textContent = card.detail;
  detail.hidden = true;
  button.setAttribute("aria-controls", detail.id);
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    detail.hidden = !open;
  });
  into.append(button, detail);
}

function cardSet(legend, cards, name, limit, countKey, form) {
  const set = document.createElement("fieldset");
  const title = document.createElement("legend");
  title.textContent = legend;
  set.append(title);
  for (const card of cards) {
    const holder = document.createElement("div");
    holder.className = "choice";
    const [row, input] = choiceRow("checkbox", name, card.name, card.id);
    holder.append(row);
    set.append(holder);
    detailsButton(card, set);
    input.addEventListener("change", () => {
      const checked = form.querySelectorAll(`input[name="${name}"]:checked`);
      if (checked.length > limit) input.checked = false;
      const count = form.querySelectorAll(`input[name="${name}"]:checked`).length;
      byId("count").textContent = fill(word(countKey), {count, limit});
    });
  }
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

function drawDecision(decision) {
  const form = byId("decision");
  form.replaceChildren();
  byId("count").textContent = "";
  form.onsubmit = (event) => event.preventDefault();
  if (decision.kind === "watch") { // a spectator: nothing to decide, ever
    const watching = document.createElement("p");
    watching.textContent = decision.question;
    form.append(watching, leaveButton(word("stop_watching")));
    return;
  }
  if (decision.kind === "wait" || (decision.kind !== "over" && view.step <= sentThrough)) {
    const waiting = document.createElement("p");
    waiting.textContent = word("waiting");
    form.append(waiting);
    return;
  }
  if (decision.kind === "over") {
    const over = document.createElement("p");
    over.textContent = decision.question;
    const again = submitButton(word("again"));
    form.append(over, again, leaveButton(word("leave")));
    form.onsubmit = (event) => { event.preventDefault(); send({type: "rematch"}); };
    again.focus();
    return;
  }
  if (decision.kind === "choice") {
    const set = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = decision.question;
    set.append(legend);
    decision.options.forEach((option, index) => {
      const holder = document.createElement("div");
      holder.className = "choice";
      const [row, input] = choiceRow("radio", "choice", option.label, String(index));
      if (index === 0) input.checked = true;
      holder.append(row);
      set.append(holder);
    });
    form.append(set, submitButton(word("choose")));
    form.onsubmit = (event) => {
      event.preventDefault();
      const picked = form.querySelector('input[name="choice"]:checked');
      if (!picked) return;
      form.replaceChildren();
      act(decision.options[Number(picked.value)].actions);
    };
    form.querySelector("input").focus();
    return;
  }
  // The cards for a down: players and calls as checkboxes, counted as they are checked.
  const [players, calls] = decision.limits;
  const heading = document.createElement("p");
  heading.textContent = decision.question;
  form.append(heading,
    cardSet(word("players"), decision.players, "player", players, "players_count", form),
    cardSet(word("calls"), decision.calls, "call", calls, "calls_count", form),
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
      button.addEventListener("click", () => {
        form.replaceChildren();
        act(kick.actions);
      });
      kicks.append(button);
    }
    form.append(kicks);
  }
  form.onsubmit = (event) => {
    event.preventDefault();
    const chosen = (name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)]
      .map((input) => input.value);
    const hand = {players: chosen("player"), calls: chosen("call")};
    if (hand.players.length !== players || hand.calls.length !== calls) {
      byId("count").textContent = [
        fill(word("players_count"), {count: hand.players.length, limit: players}),
        fill(word("calls_count"), {count: hand.calls.length, limit: calls})].join(", ");
      return;
    }
    form.replaceChildren();
    act([...decision.before, {action: "PickHand", hand}]);
  };
  form.querySelector("input").focus();
}

// Every control answers from the start: a player quick to press Enter before the words have
// come would otherwise send the form the browser's own way, and nothing would happen.
window.addEventListener("DOMContentLoaded", () => {
  wordsReady = loadWords();
  byId("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const team = teamName();
    sit({type: "host", version: PROTOCOL_VERSION, name: team, computer: otherTeam(team)});
  });
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
  byId("situation").addEventListener("click", () => {
    if (view) say(view.situation);
  });
});
