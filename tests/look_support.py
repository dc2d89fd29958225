"""Helpers for the look tests: measuring what a reader sees in Chromium.

Colours are read from computed styles, semi-transparent ones composited over
what lies beneath, and compared with the WCAG 2 contrast ratio.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

from browser_support import INPUT, wait_for_answer

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
PANEL = "[data-citesearch] .citesearch-panel"
WCAG_AA = 4.5  # normal text

# The text colour and the effective background (every ancestor's background
# composited, top layer last) of an element, as [r, g, b] in 0..255.
COLOURS_JS = """
el => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/) || c.match(/color\\(srgb ([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    const scale = c.startsWith('color(') ? 255 : 1;
    return [parts[0] * scale, parts[1] * scale, parts[2] * scale, parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const layers = [];
  for (let node = el; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
  let background = [255, 255, 255, 1];  // the canvas
  for (const layer of layers.reverse()) background = over(layer, background);
  const text = over(parse(getComputedStyle(el).color), background);
  return { text: text.slice(0, 3), background: background.slice(0, 3) };
}
"""


def luminance(rgb: list[float]) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrasts(page, selector: str) -> list[float]:  # type: ignore[no-untyped-def]
    """The text/background contrast of every element matching ``selector``."""
    found = page.eval_on_selector_all(selector, f"nodes => nodes.map({COLOURS_JS})")
    return [contrast(colours["text"], colours["background"]) for colours in found]


def background(page, selector: str) -> list[float]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector(selector, COLOURS_JS)["background"]


def mkdocs_build(folder: Path, settings: dict) -> Path:
    config = folder / "mkdocs.yml"
    config.write_text(yaml.safe_dump(settings, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(config)],
                          capture_output=True, text=True, timeout=600, env=ENV)
    assert done.returncode == 0, done.stderr
    return folder / settings.get("site_dir", "site")


def write_pages(docs: Path, pages: dict[str, str]) -> None:
    for name, text in pages.items():
        path = docs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def ask(page, query: str) -> None:  # type: ignore[no-untyped-def]
    """Type into the box as a reader does (on a phone the box is an icon until tapped)."""
    page.locator(INPUT).click()
    page.locator(INPUT).fill("")
    page.locator(INPUT).press_sequentially(query, delay=10)
    wait_for_answer(page, query)


def document_width(page) -> int:  # type: ignore[no-untyped-def]
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def on_screen(page, selector: str, width: int) -> bool:  # type: ignore[no-untyped-def]
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
