"""More readers than the live book holds: who is served, who is told the book is full.

    .venv/bin/python benchmarks/web/capacity.py [--readers 30] [--max-kernels 20]
                                                [--stagger S] [--linger S] [--no-warm-up]

One Voilà started as ``rulebook serve --max-kernels N`` starts it, on a free 127.0.0.1 port
(run_web.Server: the book's chapters, short cull settings for this run), warmed up. Then
*readers* chromium pages (Playwright, one browser context each) open the book's chapters in
book order, their starts spread over *stagger* seconds. A reader whose page is served waits
until it is interactive and makes its chapter's probe change once (run_web's load reader);
every served reader keeps its page open until every reader has had the server's answer, so the
later readers meet a full book. A reader told the book is full checks what it was told: HTTP
503, ``Retry-After``, the page's heading and its Try again link. Then every reader closes its
page as a tab closes (its unload handlers run), and the script waits (bounded) until no kernel
is left and the server's memory is back near its idle figure.

Counted: served (page interactive, its change answered, no page error), told (the full page,
as above), errors (anything else: another status, a timeout, a page error). Memory: RSS of the
server plus its kernels (/proc), idle before the readers, at peak, and after they left. Kernels
started during the run come from the server's log: none may start for a reader who was told.
Nothing is asserted; the machine is shared, so times are noisy, but the counts are not.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import probes as P  # noqa: E402
import run_web as R  # noqa: E402
from rulebook.toc import load_book  # noqa: E402

FULL_HEADING = "The book is full right now"
RETRY_AFTER = "60"
LEAVE_LIMIT_S = 20 + R.CULL["cull_idle_timeout"]   # a page not unloaded is left to the culler
SETTLE_S = 30           # then the server's own memory, given back or not
UNLOAD_S = 2.0


@dataclass
class Reader(R.Reader):
    status: int | None = None
    told: bool = False
    answer_ms: float | None = None   # from asking for the page to the server's status line


async def _reader(browser, server: R.Server, r: Reader, delay: float, answered, all_answered,
                  linger: float) -> None:
    await asyncio.sleep(delay)
    r.start_s = time.perf_counter()
    ctx = await browser.new_context()
    page = None
    try:
        await ctx.add_init_script(R.INIT_JS)
        page = await ctx.new_page()
        page.on("pageerror", lambda e: r.errors.append(str(e)))
        asked = time.perf_counter()
        try:
            resp = await page.goto(server.url(r.page), wait_until="commit",
                                   timeout=R.TTI_TIMEOUT_S * 1000)
            r.answer_ms = (time.perf_counter() - asked) * 1000
        finally:
            answered()
        r.status = resp.status if resp else None
        if r.status == 503:
            retry = (await resp.all_headers()).get("retry-after")
            heading = page.get_by_role("heading", name=FULL_HEADING)
            await heading.wait_for(timeout=R.TTI_TIMEOUT_S * 1000)
            link = await page.get_by_role("link", name="Try again").get_attribute("href")
            r.told = retry == RETRY_AFTER and link == f"/voila/render/{r.page}.ipynb"
            if not r.told:
                r.errors.append(f"told the book is full, but Retry-After {retry!r}, "
                                f"Try again -> {link!r}")
        elif r.status == 200:
            await R._use_page(page, r)
        else:
            r.errors.append(f"HTTP {r.status}")
        await all_answered.wait()
        await asyncio.sleep(linger)
        await page.close(run_before_unload=True)       # as a reader closes the tab
        # A browser outlives a closed tab: give the page's unload request (the shutdown of its
        # kernel) time to reach the server before this reader's browser context goes.
        await asyncio.sleep(UNLOAD_S)
    except Exception as exc:  # noqa: BLE001 — a benchmark counts any failure as an error
        r.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    finally:
        await ctx.close()


async def rush(server: R.Server, pages: list[str], readers: int, stagger: float,
               linger: float) -> tuple[list[Reader], list[tuple[float, float, int]], float]:
    """The readers' run: (readers, memory samples every 0.5 s, seconds until every answer)."""
    from playwright.async_api import async_playwright
    rs = [Reader(pages[i % len(pages)], P.CHAPTERS.get(pages[i % len(pages)]))
          for i in range(readers)]
    samples: list[tuple[float, float, int]] = []
    all_answered, stop = asyncio.Event(), asyncio.Event()
    answers = []
    t0 = time.perf_counter()

    def answered():
        answers.append(time.perf_counter() - t0)
        if len(answers) == readers:
            all_answered.set()

    async def sampler():
        while not stop.is_set():
            samples.append(server.rss_mb())
            await asyncio.sleep(0.5)

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=R.CHROMIUM, args=R.CHROMIUM_ARGS)
        sampling = asyncio.create_task(sampler())
        await asyncio.gather(*(_reader(browser, server, r, stagger * i / max(1, readers - 1),
                                       answered, all_answered, linger)
                               for i, r in enumerate(rs)))
        await browser.close()
        stop.set()
        await sampling
    return rs, samples, max(answers, default=0.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--readers", type=int, default=30, help="readers (default 30)")
    ap.add_argument("--max-kernels", type=int, default=20,
                    help="the server's most live pages (default 20, as rulebook serve)")
    ap.add_argument("--stagger", type=float, default=3.0,
                    help="seconds over which the readers' starts are spread (default 3)")
    ap.add_argument("--linger", type=float, default=2.0,
                    help="seconds each reader stays once every reader has its answer (default 2)")
    ap.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                    help="serve without the warm-up at start")
    args = ap.parse_args()
    started = time.perf_counter()
    book = load_book(R.ROOT)
    pages = [c.file for c in book.chapters if (R.ROOT / "book" / c.notebook).is_file()]
    print(f"Capacity — {args.readers} readers against a server holding at most "
          f"{args.max_kernels} live pages; {len(pages)} chapters in book order, starts spread "
          f"over {args.stagger:g} s; cull every {R.CULL['cull_interval']} s after "
          f"{R.CULL['cull_idle_timeout']} s idle (this run only).", flush=True)
    server = R.Server(R.CULL, warm_up=args.warm_up, max_kernels=args.max_kernels)
    try:
        if args.warm_up:
            print(f"  warm-up: {server.wait_warm_up()}", flush=True)
        time.sleep(2.0)
        idle = server.rss_mb()
        started_before = server.log_count("Kernel started:")
        refused_before = server.log_count("The book is full")
        culled_before = server.log_count("Culling 'idle'")
        rs, samples, answered_s = asyncio.run(rush(server, pages, args.readers, args.stagger,
                                                   args.linger))
        kernels_started = server.log_count("Kernel started:") - started_before
        refused = server.log_count("The book is full") - refused_before
        culled = server.log_count("Culling 'idle'") - culled_before
        gone = R.wait_culled(server, float("inf"), limit_s=LEAVE_LIMIT_S)   # no kernel left
        settled = R.wait_culled(server, idle[0], limit_s=SETTLE_S)
        after = (*settled[:3], gone[3] + settled[3])
        report(args, rs, samples, answered_s, idle, after, gone[3], kernels_started, refused)
        print(f"   Kernels the culler stopped while the readers were there: {culled} (a culled "
              "kernel's page stops answering: see run_web's load).")
    finally:
        server.stop()
    print(f"\nCapacity run took {time.perf_counter() - started:.0f} s.")
    return 0


def report(args, rs: list[Reader], samples, answered_s: float, idle, after, gone_s: float,
           kernels_started: int, refused: int) -> None:
    served = [r for r in rs if r.status == 200 and r.interactive and not r.errors]
    told = [r for r in rs if r.told and not r.errors]
    errors = [f"reader {i + 1} ({r.page}, HTTP {r.status}): {e}"
              for i, r in enumerate(rs) for e in r.errors]
    expect_served = min(args.readers, args.max_kernels)
    ok = (len(served), len(told), len(errors)) == (expect_served, args.readers - expect_served, 0)
    print(f"\nReaders: {len(served)} served, {len(told)} told the book is full, "
          f"{len(errors)} errors — goal {expect_served} served, "
          f"{args.readers - expect_served} told, 0 errors: {R._met(ok)}")
    for e in errors:
        print(f"   {e}")
    print(f"   Every reader had the server's answer within {answered_s:.1f} s of the first "
          f"start; the told readers' answers: {len([r for r in rs if r.status == 503])} HTTP 503 "
          f"with Retry-After {RETRY_AFTER} and the Try again link.")
    for name, group in (("told", told), ("served", served)):
        waits = sorted(r.answer_ms for r in group if r.answer_ms is not None)
        if waits:
            print(f"   Server's answer (status line) to a {name} reader: median "
                  f"{statistics.median(waits):.0f} ms, max {waits[-1]:.0f} ms after asking.")
    ttis = sorted(r.tti_ms for r in served if r.tti_ms is not None)
    if ttis:
        print(f"   Served pages interactive: median {statistics.median(ttis):.0f} ms, "
              f"max {ttis[-1]:.0f} ms after their navigation started.")
    peak = max(samples, key=lambda s: s[0] + s[1]) if samples else idle
    peak_k = max((s[2] for s in samples), default=0)
    print(f"   Kernels: {kernels_started} started during the run (the server's log), at most "
          f"{peak_k} live at once (/proc, every 0.5 s), {refused} readers refused in the log: "
          + R._met(kernels_started == len([r for r in rs if r.status == 200])
                   and peak_k <= args.max_kernels)
          + " (no kernel for a told reader, never more than the maximum)")
    srv, kern, n, left_s = after
    back = n == 0 and srv <= R.GOAL_IDLE * idle[0]
    print(f"   Memory (RSS, server + kernels): idle {idle[0] + idle[1]:.0f} MiB "
          f"(server {idle[0]:.0f}, {idle[2]} kernels) -> peak {peak[0] + peak[1]:.0f} MiB "
          f"(server {peak[0]:.0f} + {peak[2]} kernels {peak[1]:.0f}) -> after {srv + kern:.0f} "
          f"MiB (server {srv:.0f}, {n} kernels), {left_s:.0f} s after the last reader left (the "
          f"last kernel went {gone_s:.0f} s after). "
          f"Goal: no kernel left and the server within {R.GOAL_IDLE:.2f}x idle: {R._met(back)}")


if __name__ == "__main__":
    sys.exit(main())
