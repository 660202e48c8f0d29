// The explorer of play cards and bands (docs/playing.md, "In a browser"): the desktop game's E,
// as a modal dialog. Its levels come whole from /explorer.json, in the page's language, made by
// the server from the desktop explorer's own words (sudden_death/web/explorer_words.py). It
// reads no game, sends nothing on the page's line and touches no other part of the page, so
// opening it never changes the game; closing it (Escape, or Close) puts the focus back on
// exactly the element that had it. page.js may ask `window.explorerOpen()` before it moves
// the focus: while the dialog is open the rest of the page is inert.
"use strict";

(() => {
  const dialog = document.getElementById("explorer");
  const opener = document.getElementById("explore");
  const heading = document.getElementById("explorer-heading");
  const note = document.getElementById("explorer-note");
  const level = document.getElementById("explorer-level");
  const back = document.getElementById("explorer-back");
  const close = document.getElementById("explorer-close");
  let tree = null;
  let treeReady = null;
  let returnTo = null; // the element that had the focus when the explorer opened
  let trail = []; // the levels walked into, the current one last

  function language() {
    return (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  }

  // The whole tree, asked for once; a failed fetch is asked again at the next opening.
  function load() {
    if (!treeReady) {
      treeReady = fetchWords("explorer", language()) // page.js
        .then((found) => {
          tree = found;
          opener.textContent = tree.open;
          note.textContent = tree.note;
          back.textContent = tree.back;
          close.textContent = tree.close;
          dialog.lang = tree.lang;
          return tree;
        }, () => {
          treeReady = null;
          return null;
        });
    }
    return treeReady;
  }

  // "Band 0, average gain 4 yards": a line as the desktop's menu reads it, its note after.
  function said(line) {
    return line.note ? `${line.label}, ${line.note}` : line.label;
  }

  function lineItem(line, id) {
    const item = document.createElement("li");
    if (line.open) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = said(line);
      button.dataset.open = line.open;
      button.addEventListener("click", () => enter(line.open));
      item.append(button);
    } else if (line.more) {
      // What the desktop says on Enter (a yardage table, a matchup in full), folded until asked.
      const button = document.createElement("button");
      const more = document.createElement("p");
      button.type = "button";
      button.className = "details";
      button.textContent = said(line);
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", id);
      more.id = id;
      more.textContent = line.more;
      more.hidden = true;
      button.addEventListener("click", () => {
        more.hidden = !more.hidden;
        button.setAttribute("aria-expanded", String(!more.hidden));
      });
      item.append(button, more);
    } else {
      item.textContent = said(line);
    }
    return item;
  }

  // Draw the level `id`: its title as the dialog's heading, the card's details or the
  // explorer's note, then each titled list. The focus goes to `focus` or the heading.
  function draw(id, focus) {
    const shown = tree.levels[id];
    heading.textContent = shown.title;
    note.textContent = shown.text || (id === tree.home ? tree.note : "");
    note.hidden = !note.textContent;
    level.replaceChildren();
    shown.parts.forEach((part, p) => {
      if (part.title !== shown.title) {
        const title = document.createElement("h3");
        title.textContent = part.title;
        level.append(title);
      }
      if (part.empty) {
        const empty = document.createElement("p");
        empty.textContent = part.empty;
        level.append(empty);
        return;
      }
      const list = document.createElement("ul");
      list.setAttribute("role", "list"); // Safari drops an unbulleted list's role otherwise
      part.lines.forEach((line, n) => list.append(lineItem(line, `explorer-more-${p}-${n}`)));
      level.append(list);
    });
    back.hidden = trail.length < 2;
    (focus || heading).focus();
  }

  function enter(id) {
    trail.push(id);
    draw(id, null);
  }

  // Back one level, to the button that opened the one left.
  function goBack() {
    if (trail.length < 2) return;
    const left = trail.pop();
    draw(trail[trail.length - 1], null);
    const from = [...level.querySelectorAll("button[data-open]")]
      .find((button) => button.dataset.open === left);
    if (from) from.focus();
  }

  async function open() {
    if (dialog.open) return;
    returnTo = document.activeElement;
    if (!(await load()) || dialog.open) return;
    trail = [];
    dialog.showModal();
    enter(tree.home);
  }

  function typing(target) {
    if (!(target instanceof Element)) return false;
    if (target.isContentEditable || target.matches("textarea, select")) return true;
    return target.matches("input") && !["checkbox", "radio", "button", "submit", "reset",
      "image", "range", "color", "file"].includes(target.type);
  }

  // E opens it from anywhere on the page, as the desktop game's E, except where E is typed.
  document.addEventListener("keydown", (event) => {
    if (event.key.toLowerCase() !== "e" || event.ctrlKey || event.altKey || event.metaKey
        || event.defaultPrevented || event.repeat || dialog.open || typing(event.target)) return;
    event.preventDefault();
    open();
  });

  opener.addEventListener("click", open);
  back.addEventListener("click", goBack);
  close.addEventListener("click", () => dialog.close());
  // An element the page redrew while the explorer was open, found again: by its id, or a
  // card's checkbox or an option by its name and value.
  function again(gone) {
    if (gone.id) return document.getElementById(gone.id);
    if (gone.matches("input[name]")) {
      return [...document.querySelectorAll("input[name]")]
        .find((input) => input.name === gone.name && input.value === gone.value) || null;
    }
    return null;
  }

  // Escape is the dialog's own cancel; either way the focus goes back where it was.
  dialog.addEventListener("close", () => {
    let target = returnTo;
    returnTo = null;
    if (target instanceof Element && !target.isConnected) target = again(target);
    if (target instanceof HTMLElement && target.isConnected) target.focus();
  });

  window.explorerOpen = () => dialog.open;
  load();
})();
