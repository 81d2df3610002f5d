"""Where a live page's time to interactive goes, and a change against what it replaced, in one run.

    .venv/bin/python benchmarks/web/phases.py tsl/attacks range_bands/movement --reps 8
    git show REV:book/tsl/attacks.ipynb > /tmp/attacks_before.ipynb
    .venv/bin/python benchmarks/web/phases.py tsl/attacks --variant before=/tmp/attacks_before.ipynb

The book is served as ``run_web.py`` serves it (its warm-up included). The bare page and each
named page are opened in turn, ``--reps`` times, each open in a fresh browser context. For each
page the script prints the medians over the later opens (the first one is left out, as
``run_web.py`` leaves it out of its verdict) of the page's navigation timing, in ms from
navigation start:

- response start and response end: the server sent the page's head, and the end of the page,
  which Voilà writes once every cell has run (so response end minus response start is mostly
  the kernel's start and the cells);
- DOM content loaded and load: the browser has parsed the page and loaded its scripts;
- interactive: every widget rendered (``ready.js``, as in ``run_web.py``).

A variant (``--variant NAME=FILE``, repeatable) is a notebook served at ``_variants/NAME`` beside
the book and opened in the same rounds. A change and what it replaced, opened alternately under
the same load, say more than two runs of ``run_web.py`` a while apart, whose bare page alone
swings by 0.1 s. A variant is not warmed up: its first open runs every cell, and is left out
like every first open. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_web as R  # noqa: E402

PHASES = (("response start", "responseStart"), ("response end", "responseEnd"),
          ("DOM loaded", "domContentLoadedEventEnd"), ("load", "loadEventEnd"),
          ("interactive", "tti"))
TIMING_JS = """() => { const n = performance.getEntriesByType('navigation')[0];
  return {responseStart: n.responseStart, responseEnd: n.responseEnd,
          domContentLoadedEventEnd: n.domContentLoadedEventEnd, loadEventEnd: n.loadEventEnd,
          tti: window.__tti}; }"""
VARIANTS = "_variants"


def measure(server: R.Server, pages: list[str], reps: int) -> dict[str, list[dict]]:
    """Open every page *reps* times in turn; each open's navigation timing."""
    from playwright.sync_api import sync_playwright
    timings: dict[str, list[dict]] = {page: [] for page in pages}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=R.CHROMIUM, args=R.CHROMIUM_ARGS)
        for rep in range(reps):
            for name in R._round_order(pages, rep):
                ctx, page, pid = R._open_sync(browser, server, name, R.PageFigures())
                timings[name].append(page.evaluate(TIMING_JS))
                R._close_sync(server, ctx, page, pid)
        browser.close()
    return timings


def report(timings: dict[str, list[dict]]) -> None:
    width = max(len(p) for p in timings)
    print(f"{'page':{width}}  " + "  ".join(f"{label:>14}" for label, _ in PHASES)
          + "  (medians of the later opens, ms)")
    for page, opens in timings.items():
        later = opens[1:] or opens
        cells = [statistics.median(t[key] for t in later) for _, key in PHASES]
        print(f"{page:{width}}  " + "  ".join(f"{c:14.0f}" for c in cells))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", help="chapters, as book/ paths without .ipynb")
    ap.add_argument("--reps", type=int, default=8, help="opens of each page (default 8)")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=FILE",
                    help="a notebook served beside the book as _variants/NAME")
    args = ap.parse_args()
    server = R.Server(R.CULL)
    try:
        print(f"Warm-up: {server.wait_warm_up()}")
        pages = [R.BARE, *args.pages]
        if args.variant:
            folder = Path(server.tmp.name) / VARIANTS
            folder.mkdir()
            for spec in args.variant:
                name, _, file = spec.partition("=")
                shutil.copy(file, folder / f"{name}.ipynb")
                pages.append(f"{VARIANTS}/{name}")
        report(measure(server, pages, args.reps))
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
