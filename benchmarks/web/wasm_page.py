"""A static book's chapter page in chromium, as the browser tests and the benchmark look at it:
the network fence, the bytes a visit fetched, when the page's Python answered, the tab's memory.

- **Fence.** :data:`FENCE_ARGS` make chromium resolve no host name but 127.0.0.1's, so a
  request to another host fails in the browser itself, without Playwright's routing (which
  turns the HTTP cache off, and a cached runtime is what a second visit measures).
  :class:`Traffic` lists every request the page tried to make to another host.
- **Bytes.** :class:`Traffic` reads chromium's own network log (CDP ``Network``): a request's
  bytes are its ``encodedDataLength`` at ``loadingFinished`` (headers and body as they came
  over the wire, compressed if they were), so a file the browser kept counts 0 and a
  revalidated one (304) its headers only.
- **Ready.** :data:`READY_JS` records, in the page's own clock, each value of the page's state
  (``data-rulebook-wasm`` on ``<html>``: ``loading``, ``ready`` once every cell has run,
  ``unsupported``, ``failed``; see the static book's loader) and the time to interactive
  (``window.__tti``): the first frame in which the page's first tool (the first
  ``[class*="rulebook-"].widget-box`` in page order) is its live view, not the build's
  snapshot, with its first field enabled. The loader swaps each cell's snapshot for its live
  view as the cell runs and takes the reader's input between cells, so that tool answers
  while later cells may still run; the time every cell has run is the ``ready`` state's.
- **Memory.** :func:`tab_memory`: the page's JavaScript heap (CDP ``Performance.getMetrics``,
  ``JSHeapUsedSize``) and the private memory of the tab's renderer process (``/proc``), which
  also holds the WebAssembly memory the JavaScript heap does not count.
"""

from __future__ import annotations

import os
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FENCE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
LOCAL_HOSTS = frozenset({"127.0.0.1"})
STATE_ATTR = "data-rulebook-wasm"
SETTLED = ("ready", "unsupported", "failed")

# Runs in every page before its own scripts.
READY_JS = r"""
(() => {
  const SETTLED = ['ready', 'unsupported', 'failed'];
  window.__wasm_states = [];
  const tool = () => document.querySelector('[class*="rulebook-"].widget-box');
  // A snapshot's field is enabled too: only the live view (the loader's output) counts.
  const usable = () => {
    const t = tool();
    const field = t && t.closest('.rulebook-wasm-output')
      && t.querySelector('input, select, textarea, button');
    return !!field && !field.disabled;
  };
  let queued = false;
  const check = () => {
    queued = false;
    const html = document.documentElement;
    const state = html && html.getAttribute('data-rulebook-wasm');
    const last = window.__wasm_states[window.__wasm_states.length - 1];
    if (state && (!last || last[0] !== state))
      window.__wasm_states.push([state, performance.now()]);
    if (window.__tti === undefined && usable()) window.__tti = performance.now();
    if (window.__tti !== undefined && SETTLED.includes(state)) obs.disconnect();
  };
  const obs = new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(check); }
  });
  obs.observe(document, {subtree: true, childList: true, attributes: true});
})();
"""
STATE_JS = "() => document.documentElement.getAttribute('data-rulebook-wasm')"


def reader_browser(playwright: Any, profile: str) -> Any:
    """A reader's chromium, fenced: a profile of its own on disk (*profile*, a folder), so its
    HTTP cache is a disk cache as a reader's is, with this module's :data:`READY_JS` in every
    page. A fresh (incognito) context keeps its cache in memory, where no entry may exceed a few
    MB: it fetches the 8.6 MB WebAssembly runtime again on every visit."""
    from voila_process import CHROMIUM, CHROMIUM_ARGS
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS + FENCE_ARGS)
    context.add_init_script(READY_JS)
    return context


def offsite(url: str) -> bool:
    """Whether *url* goes to another host than 127.0.0.1 (data:, blob: and about: stay here)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss", "ftp"):
        return False
    return parts.hostname not in LOCAL_HOSTS


@dataclass
class Visit:
    """What one visit of a page fetched: requests, bytes over the wire, and how many files
    came from the browser's cache or were revalidated (304)."""

    requests: int = 0
    bytes: int = 0
    cached: int = 0
    revalidated: int = 0
    failed: int = 0
    offsite: list[str] = field(default_factory=list)
    by_url: dict[str, int] = field(default_factory=dict)

    def largest(self, n: int = 5) -> list[tuple[str, int]]:
        return sorted(self.by_url.items(), key=lambda kv: -kv[1])[:n]


class Traffic:
    """Chromium's network log of one page (CDP), counted per visit: :meth:`start` a visit
    before navigating, read :attr:`visit` once the page has settled."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.visit = Visit()
        self.offsite: list[str] = []          # every visit's requests to another host
        self._urls: dict[str, str] = {}
        self._revalidated: set[str] = set()
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", self._from_cache)
        self.cdp.on("Network.responseReceived", self._received)
        self.cdp.on("Network.responseReceivedExtraInfo", self._raw_status)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.loadingFailed", self._failed)
        self.cdp.send("Network.enable")

    def start(self) -> Visit:
        self.visit = Visit()
        self._urls = {}
        self._revalidated = set()
        return self.visit

    def _sent(self, event: dict) -> None:
        url = event["request"]["url"]
        if url.startswith(("data:", "blob:")):
            return
        if offsite(url):
            self.visit.offsite.append(url)
            self.offsite.append(url)
        if event.get("redirectResponse") is None:
            self.visit.requests += 1
        self._urls[event["requestId"]] = url

    def _from_cache(self, event: dict) -> None:
        if event["requestId"] in self._urls:
            self.visit.cached += 1

    def _received(self, event: dict) -> None:
        response = event["response"]
        if event["requestId"] not in self._urls:
            return
        if response.get("status") == 304:
            self._count_304(event["requestId"])
        elif response.get("fromDiskCache") and not response.get("fromPrefetchCache"):
            self.visit.cached += 1

    def _raw_status(self, event: dict) -> None:
        # A revalidated file reaches the page as the kept 200 response; only the raw
        # headers' event tells that the server answered 304.
        if event.get("statusCode") == 304:
            self._count_304(event["requestId"])

    def _count_304(self, request_id: str) -> None:
        if request_id not in self._revalidated:
            self._revalidated.add(request_id)
            self.visit.revalidated += 1

    def _finished(self, event: dict) -> None:
        url = self._urls.get(event["requestId"])
        if url is None:
            return
        size = int(event.get("encodedDataLength", 0))
        self.visit.bytes += size
        self.visit.by_url[url] = self.visit.by_url.get(url, 0) + size

    def _failed(self, event: dict) -> None:
        if event["requestId"] in self._urls:
            self.visit.failed += 1

    def close(self) -> None:
        try:
            self.cdp.detach()
        except Exception:  # noqa: BLE001 — the page may be closed already
            pass


def ready_ms(page: Any) -> float | None:
    """When the page's state became ``ready`` (every cell run), ms from navigation."""
    return next((at for state, at in state_times(page) if state == "ready"), None)


def state_times(page: Any) -> list[tuple[str, float]]:
    """The page's states in order, each with when it began (ms from navigation)."""
    return [tuple(s) for s in page.evaluate("() => window.__wasm_states || []")]


def wait_settled(page: Any, timeout_ms: float) -> str:
    """Wait until the page's Python is ready (and its first tool usable), unsupported or
    failed; return that state."""
    page.wait_for_function(
        "() => { const s = document.documentElement.getAttribute('data-rulebook-wasm');"
        " return (s === 'ready' && window.__tti !== undefined) || s === 'unsupported'"
        " || s === 'failed'; }", timeout=timeout_ms, polling=100)
    return page.evaluate(STATE_JS)


def _renderers() -> dict[int, int]:
    """{pid: parent pid} of every chromium renderer process on the machine."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if b"--type=renderer" in cmd:
            found[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def _ancestors(pid: int) -> set[int]:
    seen = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return seen


def renderer_pids() -> list[int]:
    """The renderer processes of the chromium this process started (through Playwright)."""
    me = os.getpid()
    return [pid for pid in _renderers() if me in _ancestors(pid)]


def private_mb(pid: int) -> float:
    """The memory only *pid* uses (private pages, resident; smaps_rollup): what closing the
    tab would free. Its resident size would also count the browser's shared libraries."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    except OSError:
        pass
    return total / 1024


@dataclass(frozen=True)
class Memory:
    js_heap_mb: float
    renderer_mb: float


def tab_memory(page: Any, renderers_before: set[int]) -> Memory:
    """The page's JavaScript heap, and the private memory of its renderer: the largest of the
    renderer processes that appeared since *renderers_before* (chromium may start a spare
    renderer beside the tab's, and CDP names no process of a page)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    finally:
        cdp.detach()
    mine = [pid for pid in renderer_pids() if pid not in renderers_before]
    return Memory(metrics.get("JSHeapUsedSize", 0) / 2**20,
                  max((private_mb(p) for p in mine), default=0.0))
