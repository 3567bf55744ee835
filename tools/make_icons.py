"""Draws the site's PNG icons from its two SVGs, in Chromium, so that every size is the same drawing.

Phones want PNGs for their home screens (Android's launcher, iOS's ``apple-touch-icon``); the SVGs
are the source. Run it after changing an SVG, and commit the PNGs::

    PEDRO_CHROMIUM=/usr/bin/chromium python tools/make_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "src" / "pedro" / "server" / "static" / "icons"
#: (source SVG, PNG written, side in pixels)
PNGS = (
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
    # iOS rounds the corners itself and shows no transparency: the full-bleed drawing
    ("icon-maskable.svg", "apple-touch-icon.png", 180),
)


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("PEDRO_CHROMIUM", "/usr/bin/chromium"))
        for source, target, side in PNGS:
            page = browser.new_page(viewport={"width": side, "height": side})
            svg = (ICONS / source).read_text(encoding="utf-8")
            page.set_content(
                f'<html><body style="margin:0;background:transparent">'
                f'<div style="width:{side}px;height:{side}px">{svg}</div></body></html>'
            )
            page.locator("svg").evaluate("s => { s.style.width = '100%'; s.style.height = '100%'; }")
            page.screenshot(path=str(ICONS / target), omit_background=True)
            page.close()
            print(f"{target}: {side}x{side}")
        browser.close()


if __name__ == "__main__":
    main()
