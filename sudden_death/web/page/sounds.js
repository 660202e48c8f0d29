// The page's sound cues (docs/playing.md, "In a browser"): the desktop game's own WAV files,
// served by the table server at /sounds/NAME.wav (web/site.py, CueFiles), played through Web
// Audio. One global, `window.cues`: page.js calls `cues.play(names)` with a view's cues; this
// script wires the Sound section's controls and keeps their setting in localStorage.
//
// Quiet by design: the cues sit under the player's screen reader, so the volume starts at
// 50 percent and a GainNode never amplifies (its gain is the volume, at most 1). Browsers keep
// audio off until a gesture, so the context is made on the first key press or click. A cue
// that cannot be fetched or decoded is skipped: nothing is worth a console error.
"use strict";

window.cues = (() => {
  const KEY = "sudden-death-sound"; // {on, volume}: volume 0 to 100, in steps of 10
  const GAP_S = 0.05; // between two cues in a row, as the desktop game's roll and its result
  const MAX_PENDING = 8; // cues waiting their turn; past it the oldest go (old news)
  const MAX_PLAYED = 50; // the log the tests read
  const SAMPLE = "menu_move"; // heard when the volume changes, at the new volume
  // A roll as the desktop game plays it (audio/cues.py, dice_samples): one click a die,
  // DIE_GAP_S apart, each pitched by its pips (0.8 + 0.1 a pip times the click's speed).
  const DIE_CLICK = "die_click";
  const DIE_GAP_S = 0.11;

  let setting = {on: true, volume: 50};
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (kept && typeof kept.on === "boolean") setting.on = kept.on;
    if (kept && Number.isFinite(kept.volume)) {
      setting.volume = Math.max(0, Math.min(100, Math.round(kept.volume / 10) * 10));
    }
  } catch (error) {
    // A damaged or refused store: the defaults.
  }

  let context = null;
  let gain = null;
  const buffers = new Map(); // name -> Promise of an AudioBuffer, or of null (skipped)
  const pending = []; // names waiting for the one before them to end
  let playing = false;
  let current = null; // the source playing now, stopped when sound is switched off
  const played = [];
  const rolled = []; // each roll's click speeds, for the tests (as bounded as `played`)

  function keep() {
    try {
      localStorage.setItem(KEY, JSON.stringify(setting));
    } catch (error) {
      // Private browsing may refuse: the setting still holds for this page.
    }
  }

  function level() {
    return Math.min(1, setting.volume / 100); // never above 1: no amplification
  }

  // On a user gesture only (browsers refuse audio before one): make the context, or wake it.
  function unlock() {
    if (context === null) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      context = new Context();
      gain = context.createGain();
      gain.gain.value = level();
      gain.connect(context.destination);
    }
    if (context.state === "suspended") context.resume().catch(() => {});
  }

  // Fetched and decoded on first use and kept. A missing file is remembered as missing; any
  // other failure (the server's limit on new lines, a dropped network) may be tried again.
  function load(name) {
    if (!buffers.has(name)) {
      const loading = fetch("sounds/" + encodeURIComponent(name) + ".wav")
        .then((answer) => {
          if (answer.status === 404) return null;
          if (!answer.ok) throw new Error(String(answer.status));
          return answer.arrayBuffer().then((bytes) => context.decodeAudioData(bytes))
            .catch(() => null); // a damaged file: skipped for good
        })
        .catch(() => {
          buffers.delete(name);
          return null;
        });
      buffers.set(name, loading);
    }
    return buffers.get(name);
  }

  // One cue at a time, each starting once the one before has ended (and GAP_S after it), as
  // the desktop game queues a roll's result behind its dice.
  async function next() {
    if (playing) return;
    playing = true;
    while (pending.length > 0) {
      const {name, dice} = pending.shift();
      if (dice && setting.on && context !== null) {
        const click = await load(DIE_CLICK);
        if (click !== null && setting.on) {
          await roll(click, dice);
          played.push(name);
          if (played.length > MAX_PLAYED) played.shift();
          continue;
        }
      }
      const buffer = setting.on && context !== null ? await load(name) : null;
      if (buffer === null || !setting.on) continue;
      await new Promise((done) => {
        const source = context.createBufferSource();
        let over = false;
        const end = () => {
          if (over) return;
          over = true;
          current = null;
          window.setTimeout(done, GAP_S * 1000);
        };
        source.buffer = buffer;
        source.connect(gain);
        source.onended = end;
        // A context the browser has put to sleep never ends its cue: the queue moves on.
        window.setTimeout(end, (buffer.duration + 1) * 1000);
        current = source;
        source.start();
        played.push(name);
        if (played.length > MAX_PLAYED) played.shift();
      });
    }
    playing = false;
  }

  // The clicks of one roll, scheduled on the context's clock; done once the last has ended.
  function roll(click, dice) {
    return new Promise((done) => {
      const start = context.currentTime;
      let last = 0;
      rolled.push(dice.map((pips) => 0.8 + 0.1 * Math.max(1, Math.min(6, pips))));
      if (rolled.length > MAX_PLAYED) rolled.shift();
      dice.forEach((pips, index) => {
        const source = context.createBufferSource();
        source.buffer = click;
        source.playbackRate.value = 0.8 + 0.1 * Math.max(1, Math.min(6, pips));
        source.connect(gain);
        const at = index * DIE_GAP_S;
        source.start(start + at);
        last = Math.max(last, at + click.duration / source.playbackRate.value);
      });
      window.setTimeout(done, (last + GAP_S) * 1000);
    });
  }

  // Play `names` in order, after any still playing; nothing when sound is off or before the
  // first gesture (a cue heard late would belong to news already read). `rolls`: the pips of
  // each "dice" among them, in order (a view's), played as the desktop plays a roll.
  function play(names, rolls = []) {
    if (!setting.on || context === null || !Array.isArray(names)) return;
    let rolled = 0;
    for (const name of names) {
      if (typeof name !== "string" || !/^[a-z0-9_]+$/.test(name)) continue;
      const dice = name === "dice" && Array.isArray(rolls) ? rolls[rolled++] : undefined;
      const pips = Array.isArray(dice) && dice.length <= 12 &&
        dice.every((pip) => Number.isInteger(pip)) ? dice : null;
      pending.push({name, dice: pips});
    }
    while (pending.length > MAX_PENDING) pending.shift();
    next();
  }

  function setOn(on) {
    setting.on = Boolean(on);
    if (!setting.on) {
      pending.length = 0;
      if (current !== null) current.stop();
    }
    keep();
  }

  function setVolume(percent) {
    setting.volume = Math.max(0, Math.min(100, Math.round(Number(percent) / 10) * 10 || 0));
    if (gain !== null) gain.gain.value = level();
    keep();
  }

  // The Sound section (index.html): its controls show the kept setting and change it. The
  // volume's spoken value comes from the page's words ("{percent} percent"), filled into the
  // hidden #sound-percent by page.js like every data-word, and is read again when they come.
  function wire() {
    const box = document.getElementById("sound-on");
    const slider = document.getElementById("sound-volume");
    const template = document.getElementById("sound-percent");
    if (!box || !slider) return;
    const say = () => {
      const words = (template && template.textContent) || "{percent} percent";
      slider.setAttribute("aria-valuetext", words.replace("{percent}", String(setting.volume)));
    };
    box.checked = setting.on;
    slider.value = String(setting.volume);
    say();
    box.addEventListener("change", () => setOn(box.checked));
    slider.addEventListener("input", () => {
      setVolume(slider.value);
      say();
    });
    // The new level heard at once; a sample still waiting is enough for a key held down.
    slider.addEventListener("change", () => {
      if (!pending.some((cue) => cue.name === SAMPLE)) play([SAMPLE]);
    });
    if (template) new MutationObserver(say).observe(template, {childList: true, subtree: true,
                                                               characterData: true});
  }

  // Capture phase: the gesture counts before any handler of the page's can stop it.
  for (const kind of ["keydown", "click", "touchend"]) {
    document.addEventListener(kind, unlock, {capture: true});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();

  return {
    play,
    unlock,
    played,
    rolled,
    setOn,
    setVolume,
    get on() { return setting.on; },
    get volume() { return setting.volume; },
    // The gain node's value (0 to 1), null before the first gesture: for the tests.
    get gain() { return gain === null ? null : gain.gain.value; },
  };
})();
