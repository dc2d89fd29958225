// `citesearch serve` only (never in `build` output): reload the page when a new
// build is ready, and show a failed build's errors over the last good page.
(() => {
  "use strict";
  const OVERLAY_ID = "citesearch-build-error";
  const SCROLL_KEY = "citesearch-serve-scroll:" + location.pathname;
  const meta = document.querySelector('meta[name="citesearch-build"]');
  const pageBuild = meta ? meta.content : "";

  // Keep the reader's place across reloads.
  const saved = sessionStorage.getItem(SCROLL_KEY);
  if (saved !== null) {
    sessionStorage.removeItem(SCROLL_KEY);
    addEventListener("load", () => scrollTo(0, Number(saved)));
  }

  function reload() {
    sessionStorage.setItem(SCROLL_KEY, String(scrollY));
    location.reload();
  }

  function showErrors(errors) {
    let overlay = document.getElementById(OVERLAY_ID);
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = OVERLAY_ID;
      overlay.setAttribute("role", "alert");
      overlay.style.cssText =
        "position:fixed;top:0;left:0;right:0;z-index:2147483647;max-height:60vh;overflow:auto;" +
        "margin:0;padding:1rem 1.25rem;background:#2b0b0b;color:#ffd7d7;border-bottom:3px solid #ff5c5c;" +
        "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;box-shadow:0 4px 16px #0008";
      document.body.append(overlay);
    }
    const title = document.createElement("strong");
    title.textContent = "Build failed: showing the last good version of the site";
    const list = document.createElement("ul");
    list.style.cssText = "margin:.5rem 0 0;padding-left:1.25rem";
    for (const error of errors) {
      const item = document.createElement("li");
      item.textContent = error; // "path:line: message", never parsed as HTML
      list.append(item);
    }
    const hide = document.createElement("button");
    hide.type = "button";
    hide.textContent = "Hide";
    hide.style.cssText = "float:right;font:inherit;color:inherit;background:none;border:1px solid;border-radius:3px;cursor:pointer";
    hide.addEventListener("click", hideErrors); // until the next build reports again
    overlay.replaceChildren(hide, title, list);
  }

  function hideErrors() {
    document.getElementById(OVERLAY_ID)?.remove();
  }

  const events = new EventSource("/__citesearch/events");
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    if (state.build && state.build !== pageBuild) {
      reload();
    } else if (state.errors.length) {
      showErrors(state.errors);
    } else {
      hideErrors();
    }
  });
})();
