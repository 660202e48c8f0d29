// The page kept on this device for playing with no network (issue 74): sw.js, registered once
// the page is up. A browser without service workers, or a page not served from a secure
// origin (https, or this device's own address), plays as before, only not offline.
"use strict";

window.addEventListener("load", () => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  // Said once, when a build is first kept (or a new one replaces it): a player by ear has no
  // other way to know the page is now safe to open with the network off.
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.kept && typeof words === "object" && words.kept_here) {
      say(words.kept_here); // page.js
    }
  });
  navigator.serviceWorker.register("sw.js").catch(() => {
    // Kept or not, the page plays on: being offline later is the only thing missed.
  });
});
