"""The static book (Python in the reader's browser) beside the live book, in one run: time to
interactive on a first and a second visit, bytes fetched per visit, the built site's size, the
tab's memory (issue 23, item 5).

    .venv/bin/python benchmarks/web/run_web.py --static-only [--static-reps N] [--only TEXT]
    .venv/bin/python benchmarks/web/static_book.py [--reps N] [--only TEXT] [--book DIR]

The static book is the one in ``--book`` (default ``_build/html``, built by ``make book`` when
it holds no ``_pyodide/``), served by ``rulebook serve-static`` (rulebook.static_server: the
runtime and the archives kept by the browser, pages revalidated) on a free 127.0.0.1 port. The
live book is a Voilà started as run_web.py starts it (warmed up). One chromium, headless, that
resolves no host but 127.0.0.1 (wasm_page.FENCE_ARGS); requests to other hosts are counted.

For each chapter of :data:`CHAPTERS` (or those ``--only`` names), in each round: the live
chapter opened in a fresh context, then the static chapter in a new reader's browser (a
profile of its own on disk, empty: a first visit), then the static chapter again in a new tab
of that browser (a second visit: its disk cache kept, as a returning reader's).

Definitions
- Time to interactive (TTI), the issue's "time until the first tool of a chapter is usable":
  for the static book, from navigation start to the first frame in which the page's first
  tool is its live view (the loader's, not the build's snapshot) with its first field enabled
  (wasm_page.READY_JS); the loader takes the reader's input between cells from then on, while
  later cells may still run. Beside it, "all": when every cell has run
  (``data-rulebook-wasm=ready``). For the live book, from navigation start to every cell run
  and every widget drawn (ready.js): the live figure is the stricter of the two.
- Bytes per visit: the sum of ``encodedDataLength`` over the visit's requests in chromium's
  network log (wasm_page.Traffic): a file from the browser's cache counts 0, a 304 its headers.
- Site size: every file under the built book, and under its ``_pyodide/``.
- Tab memory, after a first visit is interactive: the page's JavaScript heap (CDP
  ``Performance.getMetrics`` JSHeapUsedSize) and the private memory of its renderer process
  (/proc smaps_rollup), which also holds Python's WebAssembly memory.

Figures are printed with the goals of the issue and MET / NOT MET; nothing is asserted. The
machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import wasm_page as W  # noqa: E402
from voila_process import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# The dice chapter, a V&L chapter with a tracker kept in the browser, a percentile chapter and
# a fight page.
CHAPTERS = ("00_dice/dice", "veil_and_lead/count", "percentile/injury", "percentile/fight")
GOAL_SECOND_X_LIVE = 2.0        # a second visit at most 2x the live book's TTI
GOAL_FIRST_MS = 15_000          # a first visit within 15 s
GOAL_SECOND_BYTES = 1_000_000   # a second visit fetches under 1 MB
GOAL_SITE_BYTES = 60_000_000    # the built site under 60 MB
TIMEOUT_MS = 180_000            # a first visit on a busy machine; bounded


@dataclass
class Figures:
    """One chapter's measurements over the rounds."""

    live_ms: list[float] = field(default_factory=list)
    first_ms: list[float] = field(default_factory=list)
    second_ms: list[float] = field(default_factory=list)
    first_all_ms: list[float] = field(default_factory=list)     # every cell run
    second_all_ms: list[float] = field(default_factory=list)
    first_bytes: list[int] = field(default_factory=list)
    second_bytes: list[int] = field(default_factory=list)
    second_cached: list[tuple[int, int, int]] = field(default_factory=list)  # kept, 304, all
    # a returning reader: the browser closed and started again on the same profile, so the
    # compiled WebAssembly comes from the disk cache, not from the first tab's memory
    back_ms: list[float] = field(default_factory=list)
    back_bytes: list[int] = field(default_factory=list)
    heap_mb: list[float] = field(default_factory=list)
    renderer_mb: list[float] = field(default_factory=list)
    live_renderer_mb: list[float] = field(default_factory=list)
    marks: dict[str, list[float]] = field(default_factory=dict)   # "first installed": [ms]
    offsite: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def built_book(given: Path | None) -> Path:
    """The built static book to measure: *given*, or _build/html, built when it holds no
    ``_pyodide/`` (the static book with Python)."""
    folder = (given or ROOT / "_build" / "html").resolve()
    if given is None and not (folder / "_pyodide" / "bundle.json").is_file():
        from rulebook.build import build
        print("Building the static book (make book)...", flush=True)
        folder = build(ROOT)
    if not (folder / "index.html").is_file():
        raise SystemExit(f"no built book in {folder}")
    return folder


def _status(page) -> str:
    status = page.locator("#rulebook-wasm-status")
    return status.first.inner_text() if status.count() else ""


# The loader's own marks of its stages (performance.mark), ms from navigation start.
MARKS_JS = """() => Object.fromEntries(performance.getEntriesByType('mark')
    .filter(m => m.name.startsWith('rulebook-wasm:'))
    .map(m => [m.name.slice('rulebook-wasm:'.length), m.startTime]))"""


def _visit(context, url: str, fig: Figures, before: set[int] | None,
           which: str = "") -> tuple[float, float, W.Visit]:
    """Open *url* in a new tab of *context*; its TTI and when every cell had run (ms), and
    what it fetched. With *before*
    (the renderers before the tab opened), the tab's memory is recorded too."""
    page = context.new_page()
    traffic = W.Traffic(page)
    visit = traffic.start()
    try:
        page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
        try:
            state = W.wait_settled(page, TIMEOUT_MS)
        except Exception as exc:  # noqa: BLE001 — the page's own state says more than a timeout
            raise RuntimeError(f"not settled within {TIMEOUT_MS / 1000:.0f} s; states "
                               f"{W.state_times(page)}, status {_status(page)!r}") from exc
        if state != "ready":
            raise RuntimeError(f"the page says {state}: {_status(page)!r}")
        tti = page.evaluate("window.__tti")
        if tti is None:   # a page that says ready without a usable tool is a failure, not a figure
            raise RuntimeError(f"ready, but no tool was ever usable; states {W.state_times(page)}")
        every_cell = W.ready_ms(page)
        which = which or ("first" if before is not None else "second")
        for name, at in page.evaluate(MARKS_JS).items():
            fig.marks.setdefault(f"{which} {name}", []).append(at)
        page.wait_for_load_state("networkidle", timeout=30_000)   # late fetches count too
        if before is not None:
            memory = W.tab_memory(page, before)
            fig.heap_mb.append(memory.js_heap_mb)
            fig.renderer_mb.append(memory.renderer_mb)
    finally:
        fig.offsite += traffic.offsite
        traffic.close()
        page.close()
    return tti, every_cell, visit


def _static_round(pw, site: str, chapter: str, fig: Figures) -> None:
    url = f"{site}/{chapter}.html"
    with tempfile.TemporaryDirectory(prefix="rulebook-reader-") as profile:
        before = set(W.renderer_pids())    # the reader's browser may reuse its first renderer
        context = W.reader_browser(pw, profile)
        try:
            tti, every_cell, first = _visit(context, url, fig, before)
            fig.first_ms.append(tti)
            fig.first_all_ms.append(every_cell)
            fig.first_bytes.append(first.bytes)
            tti, every_cell, second = _visit(context, url, fig, None)
            fig.second_ms.append(tti)
            fig.second_all_ms.append(every_cell)
            fig.second_bytes.append(second.bytes)
            fig.second_cached.append((second.cached, second.revalidated, second.requests))
            context.close()
            context = W.reader_browser(pw, profile)
            tti, _, back = _visit(context, url, fig, None, "back")
            fig.back_ms.append(tti)
            fig.back_bytes.append(back.bytes)
        except Exception as exc:  # noqa: BLE001 — a benchmark reports a failure and goes on
            fig.errors.append(f"static {chapter}: {type(exc).__name__}: "
                              f"{str(exc).splitlines()[0]}")
        finally:
            context.close()


def _live_round(browser, server, chapter: str, fig: Figures) -> None:
    import run_web as R
    live = R.PageFigures()
    before = set(W.renderer_pids())
    try:
        ctx, page, pid = R._open_sync(browser, server, chapter, live)
        if live.tti_ms and live.tti_ms[-1] is not None:
            fig.live_ms.append(live.tti_ms[-1])
        else:   # a live page that never became interactive is an error, not a figure
            fig.errors.append(f"live {chapter}: no time to interactive")
        fig.live_renderer_mb.append(W.tab_memory(page, before).renderer_mb)
        R._close_sync(server, ctx, page, pid)
    except Exception as exc:  # noqa: BLE001
        fig.errors.append(f"live {chapter}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    fig.errors += live.errors


def measure(book: Path, chapters: list[str], reps: int, live: bool) -> dict[str, Figures]:
    """Every round of every chapter; the live book's Voilà only when *live*."""
    from playwright.sync_api import sync_playwright

    import run_web as R
    from rulebook.static_server import serve
    figs = {c: Figures() for c in chapters}
    static = serve(book)
    server = R.Server(R.CULL, warm_up=True, max_kernels=R.UNCAPPED) if live else None
    try:
        if server is not None:
            print(f"  live book's warm-up: {server.wait_warm_up()}", flush=True)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM,
                                         args=CHROMIUM_ARGS + W.FENCE_ARGS)
            for rep in range(reps):
                for chapter in chapters if rep % 2 == 0 else chapters[::-1]:
                    fig = figs[chapter]
                    if server is not None:
                        _live_round(browser, server, chapter, fig)
                    _static_round(pw, static.url, chapter, fig)
                    print(f"  round {rep + 1}/{reps} {chapter}: "
                          + (f"live {fig.live_ms[-1]:.0f} ms, " if fig.live_ms else "")
                          + (f"static first {fig.first_ms[-1]:.0f} ms "
                             f"({fig.first_bytes[-1] / 1e6:.1f} MB), second "
                             f"{fig.second_ms[-1]:.0f} ms, all cells "
                             f"{_ms(fig.second_all_ms[-1])} "
                             f"({fig.second_bytes[-1] / 1e3:.0f} kB), back "
                             f"{fig.back_ms[-1]:.0f} ms"
                             if len(fig.back_ms) > rep else "static failed"), flush=True)
            browser.close()
    finally:
        static.stop()
        if server is not None:
            server.stop()
    return figs


def _ms(value: float | None) -> str:
    """A time in ms, or a dash where the page never reached that stage."""
    return "-" if value is None else f"{value:.0f} ms"


def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def _median(xs: list[float | None]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def report(book: Path, figs: dict[str, Figures], load: tuple[float, float]) -> None:
    site, wasm = folder_bytes(book), folder_bytes(book / "_pyodide")
    print(f"\nStatic book {book}: {site / 1e6:.1f} MB in all, _pyodide/ {wasm / 1e6:.1f} MB. "
          f"Goal: under {GOAL_SITE_BYTES / 1e6:.0f} MB: {_met(site < GOAL_SITE_BYTES)}")
    parts = sorted(((folder_bytes(p), p.relative_to(book).as_posix())
                    for top in (book / "_static", book / "_pyodide") if top.is_dir()
                    for p in top.iterdir() if p.is_dir()), reverse=True)[:5]
    print("   largest parts: " + ", ".join(f"{name} {size / 1e6:.1f} MB" for size, name in parts))
    print(f"Load average (1 min) {load[0]:.1f} before, {load[1]:.1f} after, on "
          f"{os.cpu_count()} CPUs.")
    print(f"\nTime to interactive, median (ms). Goals: first visit within "
          f"{GOAL_FIRST_MS / 1000:g} s; second visit at most {GOAL_SECOND_X_LIVE:g}x the live "
          f"book's; second visit under {GOAL_SECOND_BYTES / 1e6:g} MB fetched.")
    print("   first, second: the first tool usable; all 2nd: every cell run on a second visit;"
          " back: a returning reader (the browser closed and started again, cache kept).")
    print(f"   {'chapter':22s} {'live':>7s} {'first':>7s} {'second':>7s} {'2nd/live':>8s}"
          f" {'all 2nd':>7s} {'/live':>6s} {'back':>7s} {'/live':>6s}"
          f" {'1st MB':>7s} {'2nd kB':>7s}  kept/304/asked  verdicts (first, second, back, "
          "2nd bytes)")
    for chapter, f in figs.items():
        live, first, second = _median(f.live_ms), _median(f.first_ms), _median(f.second_ms)
        b1, b2 = _median(f.first_bytes), _median(f.second_bytes)
        if first is None or second is None:
            print(f"   {chapter:22s} not measured")
            continue
        ratio = second / live if live else None
        every = _median(f.second_all_ms)
        every_ratio = f"{every / live:.2f}x" if live and every else "-"
        cached = f.second_cached[len(f.second_cached) // 2]
        back = _median(f.back_ms)
        back_ratio = back / live if live and back else None
        verdicts = [_met(first <= GOAL_FIRST_MS),
                    _met(ratio <= GOAL_SECOND_X_LIVE) if ratio else "n/a (no live run)",
                    _met(back_ratio <= GOAL_SECOND_X_LIVE) if back_ratio else "-",
                    _met(b2 < GOAL_SECOND_BYTES)]
        print(f"   {chapter:22s} {live or 0:7.0f} {first:7.0f} {second:7.0f} "
              f"{(f'{ratio:.2f}x' if ratio else '-'):>8s} {every or 0:7.0f} {every_ratio:>6s}"
              f" {back or 0:7.0f} {(f'{back_ratio:.2f}x' if back_ratio else '-'):>6s}"
              f" {b1 / 1e6:7.1f} {b2 / 1e3:7.1f}"
              f"  {cached[0]}/{cached[1]}/{cached[2]:<9d}  {', '.join(verdicts)}")
    print("\nWhere a static visit's time goes: the loader's marks, median ms from navigation.")
    for chapter, f in figs.items():
        if f.marks:
            print(f"   {chapter:22s} " + ", ".join(f"{name} {statistics.median(at):.0f}"
                                                   for name, at in sorted(f.marks.items())))
    print("\nTab memory after a first visit, median: JavaScript heap / renderer's private memory "
          "(MiB); the live book's tab beside it (its Python is on the server).")
    for chapter, f in figs.items():
        if f.heap_mb:
            live = _median(f.live_renderer_mb)
            print(f"   {chapter:22s} heap {_median(f.heap_mb):6.1f}  renderer "
                  f"{_median(f.renderer_mb):6.1f}" + (f"   live tab {live:6.1f}" if live else ""))
    offsite = [u for f in figs.values() for u in f.offsite]
    print(f"\nRequests to other hosts: {len(offsite)} (goal 0: {_met(not offsite)})"
          + "".join(f"\n     {u}" for u in offsite[:10]))
    errors = [e for f in figs.values() for e in f.errors]
    print(f"Errors: {len(errors)}" + "".join(f"\n     {e}" for e in errors))


def run(reps: int = 3, only: str = "", book: Path | None = None, live: bool = True) -> int:
    """Measure and print; the entry point run_web.py calls."""
    chapters = [c for c in CHAPTERS if any(part in c for part in only.split(","))]
    if not chapters:
        print(f"Static book: no chapter of {', '.join(CHAPTERS)} matches {only!r}.")
        return 0
    folder = built_book(book)
    load0 = os.getloadavg()[0]
    started = time.perf_counter()
    print(f"\nStatic book beside the live book: {', '.join(chapters)}, {reps} rounds; each a live "
          "open, a first static visit (empty cache), a second (new tab, cache kept) and a "
          "returning reader's (the browser started again on the same profile).",
          flush=True)
    figs = measure(folder, chapters, reps, live)
    report(folder, figs, (load0, os.getloadavg()[0]))
    print(f"Static book benchmark took {time.perf_counter() - started:.0f} s.")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3, help="rounds per chapter (default 3)")
    ap.add_argument("--only", default="", help="only the chapters whose file contains this "
                    "(or one of several texts separated by commas)")
    ap.add_argument("--book", type=Path, help="a built static book (default _build/html)")
    ap.add_argument("--no-live", dest="live", action="store_false",
                    help="the static book only, without the live book beside it")
    args = ap.parse_args()
    return run(args.reps, args.only, args.book, args.live)


if __name__ == "__main__":
    sys.exit(main())
