// Theme hooks: what a theme's own page machinery needs from the search box.
// The box names its theme in data-theme-adapter (the MkDocs plugin's
// mkdocs_theme.py puts it in the theme's header slot); colours and layout are
// search.css's business, this module is behaviour only. `widget` is what
// mountWidget returns: { close(), focus() }.

const HOOKS = {
  // Material's instant navigation swaps the page in without a reload and
  // announces it on document$ (the first page included): a result clicked in
  // the panel must not leave the panel open over the page it led to.
  material(box, widget) {
    let pages = 0;
    window.document$?.subscribe(() => {
      if (pages++ > 0) leave(box, widget);
    });
  },

  // The `mkdocs` theme's base.js opens #mkdocs_search_modal on `s` and for a
  // `?q=` URL. With MkDocs' search plugin off, the plugin writes an inert
  // stand-in (class citesearch-theme-hook) so base.js keeps running; showing
  // it means "search", so the box takes the focus instead.
  mkdocs(box, widget) {
    const modal = document.getElementById("mkdocs_search_modal");
    if (!modal?.classList.contains("citesearch-theme-hook")) return; // MkDocs' own search is on: its modal works
    modal.addEventListener("show.bs.modal", (event) => {
      event.preventDefault();
      widget.focus();
    });
  },
};

// On a phone the results fill the screen while the box has the focus
// (search.css): leaving means closing the panel and giving the focus back.
function leave(box, widget) {
  widget.close();
  if (box.contains(document.activeElement)) document.activeElement.blur();
}

export function attachTheme(box, widget) {
  // Every theme: the sheet's back button; a followed result, which may only
  // move to a passage of this very page, shows the page.
  box.querySelector(".citesearch-close")?.addEventListener("click", () => leave(box, widget));
  box.addEventListener("click", (event) => {
    if (event.target.closest?.(".citesearch-hit")) leave(box, widget);
  });
  addEventListener("hashchange", () => {
    if (box.isConnected) leave(box, widget);
  });
  HOOKS[box.dataset.themeAdapter]?.(box, widget);
}
