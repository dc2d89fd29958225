// `citesearch serve` only (never in `build` output): reload the page when a new
// build is ready, show a failed build's errors over the last good page, and
// list a good build's warnings in a smaller panel at the bottom.
(() => {
  "use strict";
  const OVERLAY_ID = "citesearch-build-error";
  const WARNINGS_ID = "citesearch-build-warnings";
  const HIDDEN_WARNINGS_KEY = "citesearch-serve-hidden-warnings";
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

  // A panel of "path:line: message" lines, made once per id; `onHide` runs when the reader hides it.
  function showPanel(id, role, place, colours, heading, lines, hideLabel, onHide) {
    let panel = document.getElementById(id);
    if (!panel) {
      panel = document.createElement("div");
      panel.id = id;
      panel.setAttribute("role", role);
      panel.style.cssText =
        `position:fixed;${place};left:0;right:0;z-index:2147483647;max-height:60vh;overflow:auto;` +
        `margin:0;padding:1rem 1.25rem;${colours};` +
        "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;box-shadow:0 4px 16px #0008";
      document.body.append(panel);
    }
    const title = document.createElement("strong");
    title.textContent = heading;
    const list = document.createElement("ul");
    list.style.cssText = "margin:.5rem 0 0;padding-left:1.25rem";
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line; // "path:line: message", never parsed as HTML
      list.append(item);
    }
    const hide = document.createElement("button");
    hide.type = "button";
    hide.textContent = hideLabel;
    hide.style.cssText = "float:right;font:inherit;color:inherit;background:none;border:1px solid;border-radius:3px;cursor:pointer";
    hide.addEventListener("click", () => { panel.remove(); onHide(); });
    panel.replaceChildren(hide, title, list);
  }

  function showErrors(errors) {
    showPanel(OVERLAY_ID, "alert", "top:0", "background:#2b0b0b;color:#ffd7d7;border-bottom:3px solid #ff5c5c",
      "Build failed: showing the last good version of the site", errors, "Hide", () => {}); // until the next build reports
  }

  function hideErrors() {
    document.getElementById(OVERLAY_ID)?.remove();
  }

  // Warnings stay hidden, across reloads, once hidden for the very same list.
  function showWarnings(warnings) {
    const key = warnings.join("\n");
    if (!warnings.length || sessionStorage.getItem(HIDDEN_WARNINGS_KEY) === key) {
      document.getElementById(WARNINGS_ID)?.remove();
      return;
    }
    const heading = `${warnings.length} warning${warnings.length === 1 ? "" : "s"} in the last build`;
    showPanel(WARNINGS_ID, "status", "bottom:0", "background:#2b2205;color:#ffeeb0;border-top:3px solid #e0b000",
      heading, warnings, "Hide warnings", () => sessionStorage.setItem(HIDDEN_WARNINGS_KEY, key));
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
    if (!state.build || state.build === pageBuild) showWarnings(state.warnings || []);
  });
})();
