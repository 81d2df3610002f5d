"""Web benchmarks of the live book: round trip, time to interactive, kernel memory, load.

    .venv/bin/python benchmarks/web/run_web.py [--reps N] [--round-trips N] [--readers N]
                                                 [--stagger S] [--no-load] [--only TEXT]
                                                 [--static-only] [--static-reps N]
                                                 [--static-book DIR]

One Voilà, started exactly as ``rulebook serve`` starts it (rulebook.cli.voila_command and
voila_env) but on a free 127.0.0.1 port, with short cull settings for this run, over a
temporary folder that links every entry of book/ (so chapters keep their live URLs) plus
``_bench`` -> benchmarks/web (the bare one-slider page and the no-op echo widget). Chromium
(/usr/bin/chromium) is driven headless by Playwright. The chapters measured are the ones listed
in jupyter_book.yml (rulebook.toc.load_book) whose notebook exists, so new chapters are
measured too.

Figures are printed with their baseline, the ratio and whether the goal is met; nothing is
asserted. The machine is shared, so the numbers are noisy. Only the Voilà process group this
script started is stopped; every wait is bounded.

Definitions
- Time to interactive (TTI): from navigation start (the page's time origin) until Voilà has
  shown the cells, every cell has run and every widget output holds a rendered widget (ready.js,
  a MutationObserver in the page, performance.now()). With Voilà's progressive rendering the
  cells show before they run, so ready.js also waits for every cell's placeholder to go
  (without that, progressive rendering would look faster than it is). A box's children may
  render a moment later; the round trip waits for its field (up to 30 s). The end is an event,
  not a settle time (no change for a while), because page timers in a starved chromium are
  unreliable under load. It includes starting the kernel and running the notebook, as a reader
  waits for both.
- Round trip: in the page, from setting a text field and firing its input/change/Enter events (or
  pressing a button, for a click probe)
  until the last change of the tool's visible text (the kernel's whole reply rendered; a change
  counts as the last once 100 ms pass without another), performance.now().
- Kernel memory: VmRSS of the page's kernel (found among the children of our Voilà PID in /proc
  by the kernel id the page carries), read 0.5 s after the page is interactive.

Last, the static book (Python in the reader's browser) beside the live book: static_book.py
says what it measures; ``--static-only`` runs that part alone.
"""

from __future__ import annotations

import argparse
import asyncio
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

import probes as P  # noqa: E402
import voila_process  # noqa: E402
from rulebook.cli import voila_command, voila_env  # noqa: E402
from rulebook.toc import load_book  # noqa: E402

CHROMIUM, CHROMIUM_ARGS = voila_process.CHROMIUM, voila_process.CHROMIUM_ARGS
BENCH = "_bench"                        # where benchmarks/web appears in the served folder
BARE, ECHO = f"{BENCH}/bare", f"{BENCH}/echo"
# This run only (the book: every 60 s after 600 s). The idle timeout must stay well above the
# time to interactive under load: with cull_connected the culler also stops the kernel of a page
# that is still loading, and a starved browser on this machine can take over a minute for a page.
CULL = {"cull_interval": 5, "cull_idle_timeout": 150}
TTI_TIMEOUT_S = 120
RT_TIMEOUT_MS = 10_000
LOAD_RT_TIMEOUT_MS = 60_000   # under load a starved browser needs longer; still bounded
RT_SETTLE_MS = 100     # a round trip ends at the last text change followed by this much quiet
GOAL_RT_MS = 30.0       # round trip within 30 ms of the echo floor (median and p95)
GOAL_TTI = 1.25         # chapter TTI at most 1.25x the bare page's
NEARBY_BARE = 5         # a chapter open's baseline: the median of this many bare opens nearest it
GOAL_MEM = 1.5          # kernel RSS at most 1.5x the bare page's kernel, for a chapter without a formula
IOPUB_TIMEOUT = "Timeout waiting for IOPub output"   # nbclient's log line when it drops output
GOAL_IDLE = 1.15        # after culling, the server's RSS within 15 % of its idle RSS, no kernel left
# This benchmark measures the server under its whole load, so it holds every reader: the
# sequential run's closed pages keep their kernels until the culler (150 s), 40 or more at once.
# benchmarks/web/capacity.py measures the book's own maximum (rulebook serve --max-kernels).
UNCAPPED = 10_000

# Runs in every page before its own scripts: records when the page became interactive.
INIT_JS = (HERE / "ready.js").read_text()

# Set a text field as typing does, and time until the tool's visible text changes.
ROUND_TRIP_JS = r"""
(el, [value, toolSel, timeoutMs, settleMs]) => new Promise(resolve => {
  const tool = el.closest(toolSel) || document.body;
  const before = tool.textContent;
  let done = false;
  const finish = v => { if (!done) { done = true; obs.disconnect(); resolve(v); } };
  let last = null, quiet = null;
  const obs = new MutationObserver(() => {
    if (tool.textContent === before) return;
    last = performance.now() - t0;                 // the latest change of the visible text
    clearTimeout(quiet);
    quiet = setTimeout(() => finish(last), settleMs);
  });
  obs.observe(tool, {subtree: true, childList: true, characterData: true});
  setTimeout(() => finish(last === null ? -1 : last), timeoutMs);
  const t0 = performance.now();
  if (el.tagName === 'BUTTON') { el.click(); return; }
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  el.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', keyCode: 13, bubbles: true}));
  el.dispatchEvent(new KeyboardEvent('keypress', {key: 'Enter', keyCode: 13, bubbles: true}));
})
"""

# A probe for chapters without one in probes.py: the first rulebook-* tool with a text or number
# field holding a whole number; alternate that number and the next. Returns [css, label, value]
# or null. A chapter's roster (shown above its tools) is passed over: its fields change no text
# by themselves, the tools below it are what a reader waits on.
GENERIC_JS = r"""
() => {
  for (const tool of document.querySelectorAll('[class*="rulebook-"].widget-box')) {
    const cls = [...tool.classList].find(c => c.startsWith('rulebook-'));
    if (cls.startsWith('rulebook-roster')) continue;
    for (const input of tool.querySelectorAll(
        '.widget-text input[type="text"], .widget-text input[type="number"]')) {
      const label = input.parentElement.querySelector('label');
      if (label && /^-?\d+$/.test(input.value.trim()))
        return ['.' + cls, label.textContent.trim(), input.value.trim()];
    }
  }
  return null;
}
"""

# Voilà's own kernel shutdown endpoint (what its page calls on unload), with the XSRF cookie.
SHUTDOWN_JS = r"""
async () => {
  const kid = JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId;
  const m = document.cookie.match(/\b_xsrf=([^;]*)\b/);
  const form = new FormData();
  form.append('_xsrf', m ? m[1] : '');
  const r = await fetch(`${document.body.dataset.baseUrl}api/shutdown/${kid}`,
                        {method: 'POST', body: form});
  return r.status;
}
"""
KERNEL_ID_JS = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
FORMULA_JS = "() => !!document.querySelector('mjx-container, .MathJax, .MathJax_Display, .katex')"


# ---------------------------------------------------------------- processes, via /proc

def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int, children: bool = True) -> float:
    """CPU seconds (user + system) of *pid*, plus those of its reaped children if asked."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(f[11]) + int(f[12]) + ((int(f[13]) + int(f[14])) if children else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class Server:
    """Our Voilà over a folder of links to book/ entries plus _bench; stopped by process group."""

    def __init__(self, cull: dict[str, int], warm_up: bool = True,
                 max_kernels: int | None = None):
        self.tmp = tempfile.TemporaryDirectory(prefix="rulebook-bench-")
        root = Path(self.tmp.name)
        for entry in (ROOT / "book").iterdir():
            (root / entry.name).symlink_to(entry)
        (root / BENCH).symlink_to(HERE)
        self.port = voila_process.free_port()
        cmd = [a for a in voila_command("127.0.0.1", self.port, root)
               if not a.startswith("--MappingKernelManager.cull_")]
        cmd += [f"--MappingKernelManager.{k}={v}" for k, v in cull.items()]
        cmd += ["--MappingKernelManager.cull_connected=True"]
        self.log = open(Path(self.tmp.name).with_suffix(".log"), "w")
        env = voila_env(ROOT, warm_up=warm_up, max_kernels=max_kernels)
        self.base = f"http://127.0.0.1:{self.port}/voila/render"
        proc = voila_process.start(cmd, env, self.log, f"http://127.0.0.1:{self.port}/")
        if proc is None:
            self.log.close()
            self.tmp.cleanup()
            raise SystemExit("Voilà did not start")
        self.proc = proc

    def url(self, page: str) -> str:
        return f"{self.base}/{page}.ipynb"

    def kernels(self) -> dict[int, str]:
        """{pid: command line} of the kernels our Voilà started."""
        return {c: _cmdline(c) for c in _children(self.proc.pid) if "kernel" in _cmdline(c)}

    def kernel_pid(self, kernel_id: str) -> int | None:
        for pid, cmd in self.kernels().items():
            if kernel_id in cmd:
                return pid
        return None

    def cpu_s(self) -> float:
        """CPU seconds of our Voilà, its reaped kernels and its live kernels."""
        return _cpu_s(self.proc.pid) + sum(_cpu_s(k, children=False) for k in self.kernels())

    def rss_mb(self) -> tuple[float, float, int]:
        """(server RSS, kernels' RSS, number of kernels), MiB."""
        ks = self.kernels()
        return (_rss_kb(self.proc.pid) / 1024, sum(_rss_kb(k) for k in ks) / 1024, len(ks))

    def wait_warm_up(self, limit_s: float = 600) -> str:
        """Wait (bounded) for the server's report of its warm-up (rulebook.serving.warm_up);
        the report's line, or why there is none."""
        deadline = time.time() + limit_s
        while time.time() < deadline and self.proc.poll() is None:
            self.log.flush()
            for line in Path(self.log.name).read_text(errors="replace").splitlines():
                if "warm-up:" in line:
                    return line.split("warm-up:", 1)[1].strip()
            time.sleep(0.5)
        return f"no warm-up reported within {limit_s:.0f} s"

    def log_count(self, text: str) -> int:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace").count(text)

    def stop(self) -> None:
        voila_process.stop(self.proc)
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)
        self.tmp.cleanup()


# ---------------------------------------------------------------- figures

def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


@dataclass
class PageFigures:
    tti_ms: list[float] = field(default_factory=list)
    paired_bare_ms: list[float] = field(default_factory=list)   # the bare open before each
    nearby_bare_ms: list[float] = field(default_factory=list)   # median of the bare opens near each
    rss_mb: list[float] = field(default_factory=list)
    rt_ms: list[float] = field(default_factory=list)
    rt_note: str = ""
    probe: P.Probe | None = None   # the field the round trips changed (the load run reuses it)
    formula: bool = False
    errors: list[str] = field(default_factory=list)


def _open_sync(browser, server: Server, page_name: str, fig: PageFigures):
    """Open a page in a fresh context; record its TTI and its kernel's RSS. Returns the page."""
    ctx = browser.new_context()
    ctx.add_init_script(INIT_JS)
    page = ctx.new_page()
    page.on("pageerror", lambda e: fig.errors.append(f"{page_name}: {e}"))
    resp = page.goto(server.url(page_name), wait_until="commit", timeout=TTI_TIMEOUT_S * 1000)
    if resp is None or resp.status >= 400:
        fig.errors.append(f"{page_name}: HTTP {resp.status if resp else '?'}")
    page.wait_for_function("window.__tti !== undefined", timeout=TTI_TIMEOUT_S * 1000)
    fig.tti_ms.append(page.evaluate("window.__tti"))
    fig.formula = page.evaluate(FORMULA_JS)
    time.sleep(0.5)                                    # let the kernel settle before reading
    pid = server.kernel_pid(page.evaluate(KERNEL_ID_JS))
    if pid is None:
        fig.errors.append(f"{page_name}: kernel process not found")
    else:
        fig.rss_mb.append(_rss_kb(pid) / 1024)
    return ctx, page, pid


def _close_sync(server: Server, ctx, page, pid: int | None) -> None:
    """Close the page as a reader closes a tab; its kernel is left to the culler."""
    page.close(run_before_unload=True)
    ctx.close()


def unload_shutdown_status(browser, server: Server) -> tuple[int, bool]:
    """What Voilà answers to its own page's unload request (kernel shutdown), and whether the
    kernel then went away within 5 s."""
    fig = PageFigures()
    ctx, page, pid = _open_sync(browser, server, BARE, fig)
    status = page.evaluate(SHUTDOWN_JS)
    ctx.close()
    deadline = time.time() + 5
    while pid in server.kernels() and time.time() < deadline:
        time.sleep(0.2)
    return status, pid not in server.kernels()


def _probe_locator(page, probe: P.Probe, label: str | None = None, click: bool | None = None):
    """The field (or, for a click probe, the button) a probe changes, inside its tool; or the
    one a setup step names (*label*, *click*)."""
    tool = page.locator(probe.tool).first
    label = probe.label if label is None else label
    if probe.click if click is None else click:
        return tool.get_by_role("button", name=label, exact=True)
    return tool.get_by_label(label, exact=True)


def _setup_steps(page, probe: P.Probe):
    """A probe's setup as (locator, value) steps: type *value* into it, or press it (None)."""
    return [(_probe_locator(page, probe, label, click=value is None), value)
            for label, value in probe.setup]


def _set_up(page, probe: P.Probe) -> None:
    """Do a probe's setup steps as a reader would: type into a field, or press a button."""
    for target, value in _setup_steps(page, probe):
        if value is None:
            target.click(timeout=10_000)
        else:
            target.fill(value, timeout=10_000)
            target.press("Enter")
        page.wait_for_timeout(300)


async def _set_up_async(page, probe: P.Probe) -> None:
    """:func:`_set_up` for the load run's asynchronous pages."""
    for target, value in _setup_steps(page, probe):
        if value is None:
            await target.click(timeout=TTI_TIMEOUT_S * 1000)
        else:
            await target.fill(value, timeout=TTI_TIMEOUT_S * 1000)
            await target.press("Enter")
        await page.wait_for_timeout(300)


def _round_trips(page, probe: P.Probe | None, n: int, fig: PageFigures) -> None:
    generic = probe is None
    if generic:
        found = page.evaluate(GENERIC_JS)
        if not found:
            tools = page.locator('[class*="rulebook-"].widget-box').count()
            fig.rt_note = ("no field with a whole number: not measured" if tools else
                           "no tool on this page (prose and tables): nothing to measure")
            return
        css, label, value = found
        probe = P.Probe(css, label, (str(int(value) + 1), value))
        fig.rt_note = f"generic probe: {label!r} in {css}"
    _set_up(page, probe)
    handle = _probe_locator(page, probe).element_handle(timeout=10_000)
    for i in range(n + 2):                             # the first two are warm-up
        dt = handle.evaluate(ROUND_TRIP_JS, [probe.values[i % 2], probe.tool, RT_TIMEOUT_MS, RT_SETTLE_MS])
        if dt < 0 and generic and i == 0:
            # Some fields only feed a button (a Horde's size, a day to stop on): changing one
            # shows nothing by itself, so the generic probe cannot time it.
            fig.rt_note = f"generic probe {label!r} in {css} changes no text by itself: not measured"
            return
        if dt < 0:
            fig.errors.append(f"round trip timed out ({probe.label})")
        elif i >= 2:
            fig.rt_ms.append(dt)
    fig.probe = probe


def _round_order(names: list[str], rep: int) -> list[str]:
    """One round of opens: every page other than the bare one, each right after an open of the
    bare page (the machine's speed drifts by more than the goal's margin within minutes, so
    each chapter is compared with the bare opens made around it: see :func:`nearby_medians`),
    in the book's order, reversed every other round."""
    others = [n for n in names if n != BARE]
    if rep % 2:
        others.reverse()
    return [page for name in others for page in (BARE, name)]


def sequential(server: Server, chapters: list[str], reps: int, n_rt: int):
    from playwright.sync_api import sync_playwright
    figs = {name: PageFigures() for name in [BARE, ECHO, *chapters]}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        status, gone = unload_shutdown_status(browser, server)   # also warms the server up
        print(f"  Voilà's shutdown-on-unload request (as its page sends it) answered HTTP {status}; "
              + ("the kernel stopped." if gone else "the kernel kept running: a closed page's "
                 "kernel lives until the culler stops it."), flush=True)
        opens: list[tuple[str, int]] = []              # each chapter open, its paired bare open
        for rep in range(reps):
            for name in _round_order(list(figs), rep):
                t0 = time.perf_counter()
                ctx, page, pid = _open_sync(browser, server, name, figs[name])
                t1 = time.perf_counter()
                if name == BARE:
                    bare_tti = figs[BARE].tti_ms[-1]
                else:
                    figs[name].paired_bare_ms.append(bare_tti)
                    opens.append((name, len(figs[BARE].tti_ms) - 1))
                if rep == 0 and name != BARE:
                    probe = P.ECHO if name == ECHO else P.CHAPTERS.get(name)
                    _round_trips(page, probe, n_rt, figs[name])
                t2 = time.perf_counter()
                _close_sync(server, ctx, page, pid)
                print(f"  open {rep + 1}/{reps} {name}: interactive in {figs[name].tti_ms[-1]:.0f} ms"
                      f" (open {t1 - t0:.1f} s, round trips {t2 - t1:.1f} s, "
                      f"close {time.perf_counter() - t2:.1f} s)", flush=True)
        browser.close()
    nearby = nearby_medians(figs[BARE].tti_ms, [at for _, at in opens], NEARBY_BARE)
    for (name, _), baseline in zip(opens, nearby):
        figs[name].nearby_bare_ms.append(baseline)
    return figs


def nearby_medians(bare: list[float], at: list[int], k: int) -> list[float]:
    """For each index in *at*, the median of the *k* values of *bare* nearest to it in open order
    (the window shifted, not cut, at either end). One bare open varies by ±15% from the next on
    this machine, and a ratio over that one open carries its noise; the median of the bare opens
    of the surrounding minute or so still follows the machine's drift."""
    k = min(k, len(bare))
    out = []
    for i in at:
        start = min(max(i - k // 2, 0), len(bare) - k)
        out.append(statistics.median(bare[start:start + k]))
    return out


# ---------------------------------------------------------------- load

@dataclass
class Reader:
    page: str
    probe: P.Probe | None = None   # a field whose change shows (from the sequential run)
    start_s: float = 0.0
    tti_ms: float | None = None
    interactive: bool = False
    errors: list[str] = field(default_factory=list)


PAGE_STATE_JS = """(sel) => {
  const cells = document.getElementById('rendered_cells');
  return [document.querySelectorAll('.jupyter-widgets').length,
          !!(sel && document.querySelector(sel)), document.readyState,
          cells ? (cells.style.display === 'none' ? 'hidden' : 'shown') : 'absent',
          document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]')
            .length];
}"""


async def _page_state(page, probe: P.Probe | None, console: list[str]) -> str:
    """What a failed reader's page shows: its widget views and whether its tool is there (a
    starved page can pass the TTI check with some tools never drawn), whether its HTML had
    finished and Voilà had shown the cells, and the last things it wrote to its console."""
    try:
        views, tool, ready, cells, unrendered = await page.evaluate(
            PAGE_STATE_JS, probe.tool if probe else None)
    except Exception:  # noqa: BLE001 — the page may be gone; the error itself is recorded
        return ""
    said = f"; console: {' | '.join(console[-3:])}" if console else ""
    return (f" [page shows {views} widget views"
            + (f"; {probe.tool} {'present' if tool else 'missing'}" if probe else "")
            + f"; document {ready}, cells {cells}, {unrendered} outputs not drawn{said}]")


async def _use_page(page, r: Reader) -> None:
    """A loaded reader's use of an opened page: wait until it is interactive, then make the
    probe's change once (when the chapter has a probe) and wait for the tool's answer."""
    await page.wait_for_function("window.__tti !== undefined", polling=100,
                                 timeout=TTI_TIMEOUT_S * 1000)
    r.tti_ms = await page.evaluate("window.__tti")
    probe = r.probe
    if probe:
        await _set_up_async(page, probe)
        handle = await _probe_locator(page, probe).element_handle(timeout=TTI_TIMEOUT_S * 1000)
        dt = await handle.evaluate(ROUND_TRIP_JS, [probe.values[0], probe.tool,
                                                   LOAD_RT_TIMEOUT_MS, RT_SETTLE_MS])
        r.interactive = dt >= 0
        if dt < 0:
            r.errors.append("round trip timed out")
    else:
        r.interactive = True                           # widgets rendered, nothing to type into


async def _reader(browser, server: Server, r: Reader, delay: float, linger: float) -> None:
    await asyncio.sleep(delay)
    r.start_s = time.perf_counter()
    ctx = await browser.new_context()
    console: list[str] = []
    try:
        await ctx.add_init_script(INIT_JS)
        page = await ctx.new_page()
        page.on("pageerror", lambda e: r.errors.append(str(e)))
        page.on("console", lambda m: console.append(f"{m.type}: {m.text[:160]}")
                if m.type in ("error", "warning") else None)
        resp = await page.goto(server.url(r.page), wait_until="commit",
                               timeout=TTI_TIMEOUT_S * 1000)
        if resp is None or resp.status >= 400:
            r.errors.append(f"HTTP {resp.status if resp else '?'}")
        await _use_page(page, r)
        await asyncio.sleep(linger)
    except Exception as exc:  # noqa: BLE001 — a benchmark counts any failure as an error
        r.errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                        + await _page_state(page, r.probe, console))
    finally:
        await ctx.close()                              # no unload: the kernel is left to the culler


async def load(server: Server, pages: list[str], readers: int, stagger: float,
               probes: dict[str, P.Probe | None]):
    from playwright.async_api import async_playwright
    rs = [Reader(pages[i % len(pages)], probes.get(pages[i % len(pages)])) for i in range(readers)]
    samples: list[tuple[float, float, int]] = []
    stop = asyncio.Event()

    async def sampler():
        while not stop.is_set():
            samples.append(server.rss_mb())
            await asyncio.sleep(0.5)

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        sampling = asyncio.create_task(sampler())
        t0 = time.perf_counter()
        await asyncio.gather(*(_reader(browser, server, r, stagger * i / max(1, readers - 1), 2.0)
                               for i, r in enumerate(rs)))
        wall = time.perf_counter() - t0
        await browser.close()
        stop.set()
        await sampling
    return rs, wall, samples


def wait_culled(server: Server, idle_server_mb: float,
                limit_s: float) -> tuple[float, float, int, float]:
    t0 = time.perf_counter()
    while True:
        srv, kern, n = server.rss_mb()
        waited = time.perf_counter() - t0
        if (n == 0 and srv <= idle_server_mb * GOAL_IDLE) or waited > limit_s:
            return srv, kern, n, waited
        time.sleep(1.0)


# ---------------------------------------------------------------- report

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=6,
                    help="opens of each page: a chapter's first, then the median of the rest "
                         "(default 6: single opens swing by about 0.2x each way, so five later opens "
                         "make a steadier verdict than three)")
    ap.add_argument("--round-trips", type=int, default=30, help="round trips per page (default 30)")
    ap.add_argument("--readers", type=int, default=20, help="readers in the load run (default 20)")
    ap.add_argument("--stagger", type=float, default=5.0,
                    help="seconds over which the readers' starts are spread (default 5)")
    ap.add_argument("--no-load", action="store_true", help="skip the load run")
    ap.add_argument("--only", default="", help="measure only the chapters whose file contains this (or one of "
                         "several texts separated by commas)")
    ap.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                    help="serve without the warm-up at start, so each chapter's first open is "
                         "its first reader's, who runs every cell (as before the warm-up)")
    ap.add_argument("--static-only", action="store_true",
                    help="measure only the static book beside the live one (static_book.py)")
    ap.add_argument("--static-reps", type=int, default=3,
                    help="rounds per chapter of the static book's measurement (default 3)")
    ap.add_argument("--static-book", type=Path, metavar="DIR",
                    help="a built static book to measure (default _build/html, built if needed)")
    args = ap.parse_args()
    import static_book
    if args.static_only:
        return static_book.run(args.static_reps, args.only, args.static_book)
    started = time.perf_counter()

    book = load_book(ROOT)
    chapters = [c.file for c in book.chapters
                if (ROOT / "book" / c.notebook).is_file()
                and any(part in c.file for part in args.only.split(","))]
    missing = [c.file for c in book.chapters if not (ROOT / "book" / c.notebook).is_file()]
    print(f"Web benchmarks — {os.cpu_count()} CPUs, chromium headless, one Voilà on 127.0.0.1, "
          f"cull every {CULL['cull_interval']} s after {CULL['cull_idle_timeout']} s idle "
          f"(this run only). {len(chapters)} chapters from jupyter_book.yml"
          + (f" ({len(missing)} listed but not written yet: skipped)" if missing else "") + ".")

    server = Server(CULL, warm_up=args.warm_up, max_kernels=UNCAPPED)
    try:
        time.sleep(1.0)
        if args.warm_up:
            print("Waiting for the server's warm-up (it opens every page of the book once, then "
                  "stops those pages' kernels)...", flush=True)
            print(f"  warm-up: {server.wait_warm_up()}")
        idle = server.rss_mb()
        print(f"Voilà up on port {server.port}; server RSS {idle[0]:.0f} MiB, {idle[2]} kernels.")
        print("Opening each page in a fresh browser context:", flush=True)
        figs = sequential(server, chapters, args.reps, args.round_trips)
        report_sequential(figs, chapters, args.warm_up)
        if not args.no_load:
            print("\nWaiting for the culler to stop the kernels of the pages above...", flush=True)
            wait_culled(server, float("inf"), limit_s=20 + CULL["cull_idle_timeout"])
            idle = server.rss_mb()
            cpu0 = server.cpu_s()
            pages = chapters or [ECHO]
            print(f"\nLoad: {args.readers} readers over {len(pages)} chapters, starts spread over "
                  f"{args.stagger:g} s; each opens a chapter, types once, lingers 2 s, closes "
                  "its browser without unloading (the kernel is left to the culler).", flush=True)
            culled = server.log_count("Culling 'idle'")
            dropped = server.log_count(IOPUB_TIMEOUT)
            probes = {name: f.probe for name, f in figs.items()}
            rs, wall, samples = asyncio.run(load(server, pages, args.readers, args.stagger, probes))
            culled = server.log_count("Culling 'idle'") - culled
            dropped = server.log_count(IOPUB_TIMEOUT) - dropped
            after = wait_culled(server, idle[0], limit_s=20 + CULL["cull_idle_timeout"])
            report_load(rs, wall, samples, idle, after, figs)
            cpu = server.cpu_s() - cpu0
            print(f"   Server CPU (Voilà and every kernel it started, from /proc): {cpu:.0f} CPU-s "
                  f"for {len(rs)} readers = {cpu / len(rs):.1f} CPU-s a reader (open, one change, "
                  f"idle until culled): about {len(rs) / cpu:.2f} chapter opens per second per "
                  "CPU, the browser's CPU not counted.")
            print(f"   Kernels culled while the readers were active: {culled} (Voilà's log); "
                  "a culled kernel's page never becomes interactive.")
            print(f"   Cell outputs Voilà gave up waiting for: {dropped} (its log's '{IOPUB_TIMEOUT}'; "
                  "each leaves a page without that cell's output, a tool missing with no error "
                  "shown: rulebook.live sets the wait).")
    finally:
        server.stop()
    static_book.run(args.static_reps, args.only, args.static_book)
    print(f"\nWeb benchmark took {time.perf_counter() - started:.0f} s.")
    return 0


def report_sequential(figs: dict[str, PageFigures], chapters: list[str],
                      warmed_up: bool = True) -> None:
    bare, echo = figs[BARE], figs[ECHO]
    b_tti, b_rss = statistics.median(bare.tti_ms), statistics.median(bare.rss_mb)
    print(f"\nBaselines: bare one-slider page TTI median {b_tti:.0f} ms, its kernel "
          f"{b_rss:.1f} MiB RSS; echo page TTI median {statistics.median(echo.tti_ms):.0f} ms.")
    e_med, e_p95 = statistics.median(echo.rt_ms), _pct(echo.rt_ms, 0.95)
    print(f"\n2. Round trip (input change -> updated text), {len(echo.rt_ms)} per page; floor = "
          f"no-op echo widget: median {e_med:.1f} ms, p95 {e_p95:.1f} ms. Goal: within "
          f"{GOAL_RT_MS:g} ms of the floor, median and p95.")
    for name in chapters:
        f = figs[name]
        if not f.rt_ms:
            print(f"   {name:28s} {f.rt_note or 'not measured'}")
            continue
        med, p95 = statistics.median(f.rt_ms), _pct(f.rt_ms, 0.95)
        ok = med - e_med <= GOAL_RT_MS and p95 - e_p95 <= GOAL_RT_MS
        print(f"   {name:28s} median {med:6.1f} ms (+{med - e_med:5.1f}, {med / e_med:4.2f}x)  "
              f"p95 {p95:6.1f} ms (+{p95 - e_p95:5.1f}, {p95 / e_p95:4.2f}x)  {_met(ok)}"
              + (f"  [{f.rt_note}]" if f.rt_note else ""))
    print(f"\n3. Time to interactive; baseline: the bare page, opened right before each open of "
          f"a chapter (median {b_tti:.0f} ms over {len(bare.tti_ms)} opens). Ratio: the median of "
          f"each open's TTI over the median of the {NEARBY_BARE} bare opens nearest it in time "
          f"(the verdict); beside it, over the one bare open just before it ('paired'), which "
          f"carries that one open's noise too. Goal: at most {GOAL_TTI:g}x. The first "
          "page of a chapter since the server started runs every cell and the server keeps what "
          "no reader can change (tables, worked examples, links); later pages' kernels skip "
          "those cells (rulebook/serving.py). "
          + ("The server warmed every page up as it started, so a chapter's first reader is "
             "such a later page too. " if warmed_up else
             "Served without the warm-up (--no-warm-up): a chapter's first open here is that "
             "first page. ")
          + "Verdict on opens 2 and later; the first open's figures beside them.")
    met = 0
    for name in chapters:
        f = figs[name]
        ratios = [t / b for t, b in zip(f.tti_ms, f.nearby_bare_ms)]
        paired = [t / b for t, b in zip(f.tti_ms, f.paired_bare_ms)]
        later = statistics.median(ratios[1:]) if len(ratios) > 1 else ratios[0]
        later_paired = statistics.median(paired[1:]) if len(paired) > 1 else paired[0]
        t = statistics.median(f.tti_ms[1:]) if len(f.tti_ms) > 1 else f.tti_ms[0]
        met += later <= GOAL_TTI
        print(f"   {name:28s} later {t:6.0f} ms  {later:4.2f}x  {_met(later <= GOAL_TTI):8s}"
              f"  (paired {later_paired:4.2f}x)  first open {f.tti_ms[0]:6.0f} ms  {ratios[0]:4.2f}x")
    print(f"   {met} of {len(chapters)} chapters within {GOAL_TTI:g}x for later readers.")
    print(f"\n4. Kernel memory (VmRSS of the page's kernel, median); baseline bare page's kernel "
          f"{b_rss:.1f} MiB. Goal: at most {GOAL_MEM:g}x for a chapter that renders no formula.")
    for name in chapters:
        f = figs[name]
        m = statistics.median(f.rss_mb)
        verdict = "(renders a formula: goal n/a)" if f.formula else _met(m <= GOAL_MEM * b_rss)
        print(f"   {name:28s} {m:6.1f} MiB  {m / b_rss:4.2f}x  +{m - b_rss:5.1f} MiB  {verdict}")
    errors = [e for f in figs.values() for e in f.errors]
    print(f"   Page errors while measuring: {len(errors)}" + "".join(f"\n     {e}" for e in errors))


def report_load(rs: list[Reader], wall: float, samples, idle, after, figs) -> None:
    ok = [r for r in rs if r.interactive and not r.errors]
    ttis = [r.tti_ms for r in rs if r.tti_ms is not None]
    errors = [f"{r.page}: {e}" for r in rs for e in r.errors]
    peak = max(samples, key=lambda s: s[0] + s[1]) if samples else idle
    peak_k = max((s[2] for s in samples), default=0)
    print(f"\n5. Load: {len(ok)}/{len(rs)} pages interactive, errors {len(errors)} "
          f"({_met(len(ok) == len(rs) and not errors)}: all interactive, 0 errors)")
    for e in errors:
        print(f"     {e}")
    if ttis:
        quiet = statistics.median([t for n in figs if n not in (BARE, ECHO)
                                   for t in figs[n].tti_ms] or figs[BARE].tti_ms)
        med, p95 = statistics.median(ttis), _pct(ttis, 0.95)
        print(f"   TTI under load: median {med:.0f} ms ({med / quiet:.1f}x the quiet chapters' "
              f"median {quiet:.0f} ms), p95 {p95:.0f} ms, max {max(ttis):.0f} ms.")
    print(f"   Throughput: {len(ok)} pages interactive in {wall:.1f} s from the first start = "
          f"{len(ok) / wall:.2f} pages/s on this machine.")
    print(f"   Memory at peak: server {peak[0]:.0f} MiB + {peak_k} kernels {peak[1]:.0f} MiB "
          f"(= {peak[1] / max(1, peak_k):.0f} MiB a kernel); idle before: server {idle[0]:.0f} "
          f"MiB, {idle[2]} kernels.")
    srv, kern, n, waited = after
    print(f"   After culling ({waited:.0f} s after the last reader left): server {srv:.0f} MiB "
          f"({srv / idle[0]:.2f}x idle), {n} kernels ({kern:.0f} MiB). Goal: no kernel left and "
          f"server within {GOAL_IDLE:.2f}x idle: {_met(n == 0 and srv <= GOAL_IDLE * idle[0])}")


if __name__ == "__main__":
    sys.exit(main())
