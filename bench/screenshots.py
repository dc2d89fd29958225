"""Screenshots of the search box with results, on the real MkDocs sites and on citesearch's own docs.

For each site: the box answering a realistic query on a desktop in the light
scheme, the same in the dark scheme (Material's ``slate``, the ``mkdocs``
theme's dark mode, the OS setting for the standalone theme), and on a 390 px
phone, where the results fill the screen. PNGs go to ``--out`` as
``<site>-<light|dark|phone>.png``.

    python bench/screenshots.py --out /tmp/shots               # builds every site
    python bench/screenshots.py --out /tmp/shots --site typer=/path/to/built/site --only typer

The real sites come from ``../shared/realsites`` built with their own
mkdocs.yml, ``search`` swapped for ``citesearch`` (tests/realsite_support.py);
``demo`` is ``content/`` built by
``citesearch build``. Chromium is Debian's, through Playwright.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REALSITES = REPO.parent / "shared" / "realsites"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
                 # Fonts and badges from CDNs: nothing leaves this machine.
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# site -> (page to open, query a reader of that site would type)
SITES = {
    "typer": ("tutorial/", "command line arguments"),
    "httpx": ("quickstart/", "streaming responses"),
    "mkdocs": ("", "google analytics"),  # its configuration page holds a table wider than a phone
    "demo": ("index.html", "stable anchors"),
}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


@contextlib.contextmanager
def serve(folder: Path, port: int = 0) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def build_realsite(name: str, dest: Path) -> Path:
    """The real site built with its own mkdocs.yml, MkDocs' search swapped for citesearch (as the tests build it)."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from realsite_support import build_realsite as build
    finally:
        sys.path.pop(0)
    return build(name, dest / name)


def build_demo(dest: Path) -> Path:
    site = dest / "demo"
    done = subprocess.run([sys.executable, "-m", "citesearch", "build", str(REPO / "content"), "--out", str(site)],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"demo: citesearch build failed:\n{done.stderr}")
    return site


def dark(page) -> None:  # type: ignore[no-untyped-def]
    """The site's own dark scheme, as its reader would switch to it."""
    page.evaluate("""() => {
        const material = document.body.hasAttribute('data-md-color-scheme');
        if (material) {
          for (let i = 0; i < 3 && document.body.dataset.mdColorScheme !== 'slate'; i++) {
            const toggle = document.querySelector('[data-md-component=palette] label:not([hidden])');
            if (!toggle) break;
            toggle.click();
          }
        } else if (document.documentElement.hasAttribute('data-bs-theme')) {
          document.documentElement.setAttribute('data-bs-theme', 'dark');
        }
    }""")


def ask(page, query: str) -> None:  # type: ignore[no-untyped-def]
    box = page.locator("[data-citesearch] input")
    if not box.is_visible():  # the mkdocs theme keeps its navbar in a menu on phones
        page.locator('[data-bs-target="#navbar-collapse"]').click()
        box.wait_for(state="visible")
    box.click()
    box.press_sequentially(query, delay=10)
    page.wait_for_function("q => document.querySelector('[data-citesearch]').dataset.citesearchQuery === q", arg=query)
    page.wait_for_timeout(300)  # fonts and the panel's layout settle


def shoot(browser, name: str, url: str, query: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    written = []
    for variant, viewport, scheme in (("light", DESKTOP, "light"), ("dark", DESKTOP, "dark"), ("phone", PHONE, "light")):
        context = browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1,
                                      is_mobile=variant == "phone", has_touch=variant == "phone")
        page = context.new_page()
        page.goto(url, wait_until="load")
        if variant == "dark":
            dark(page)
        ask(page, query)
        path = out / f"{name}-{variant}.png"
        page.screenshot(path=str(path))
        written.append(path)
        context.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNGs")
    parser.add_argument("--site", action="append", default=[], metavar="NAME=DIR", help="an already built site")
    parser.add_argument("--only", action="append", choices=sorted(SITES), help="these sites only")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    given = dict(item.split("=", 1) for item in args.site)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="citesearch-shots-") as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in args.only or list(SITES):
            path, query = SITES[name]
            if name in given:
                site = Path(given[name])
            elif name == "demo":
                site = build_demo(Path(tmp))
            else:
                site = build_realsite(name, Path(tmp))
            with serve(site) as url:
                for png in shoot(browser, name, url + path, query, args.out):
                    print(png)
        browser.close()


if __name__ == "__main__":
    main()
