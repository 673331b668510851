"""The picture of ``unosim play`` served in a browser, for docs/play.md: serves a
table with ``unosim play --serve``, opens it in headless Chromium (tests/browser.py),
plays the first move it offers twice with the keyboard and saves a screenshot.

Usage: python bench/play_screenshot.py [OUT.png]   (default docs/play/served.png)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser import Browser, find_browser, not_blank, serving  # noqa: E402

#: the table pictured: a match under seven-o, four players
ARGV = ["play", "--variant", "seven-o", "--seed", "12", "--match", "--serve"]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "play" / "served.png"
    exe = find_browser()
    if exe is None:
        sys.exit("no Chromium or Chrome found (apt-get install chromium, or set "
                 "UNOSIM_BROWSER)")
    browser = Browser(exe, 1280, 760)
    try:
        with tempfile.TemporaryDirectory() as here, serving(ARGV, cwd=here) as url:
            _, png = browser.terminal(url, ("your hand", "last moves"), timeout=180,
                                      keys="11")
    finally:
        browser.close()
    not_blank(png)
    out.write_bytes(png)
    print(f"{out} ({len(png)} bytes): unosim {' '.join(ARGV)}")


if __name__ == "__main__":
    main()
