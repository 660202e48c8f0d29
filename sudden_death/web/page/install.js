// The page kept on this device for playing with no network (issue 74): sw.js, registered once
// the page is up. A browser without service workers, or a page not served from a secure
// origin (https, or this device's own address), plays as before, only not offline.
"use strict";

window.addEventListener("load", () => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("sw.js").catch(() => {
    // Kept or not, the page plays on: being offline later is the only thing missed.
  });
});
