"""The static book as a reader's browser gets it from rulebook serve-static: a second visit
of a chapter fetches under 1 MB (the browser kept the runtime and the archives, and revalidated
the pages), and a request to another host fails in the browser and is counted."""

from __future__ import annotations

from tests.browser.static_book import READY_TIMEOUT_MS
import wasm_page  # noqa: I001 - on the path once served is

SECOND_VISIT_BYTES = 1_000_000     # static_book.GOAL_SECOND_BYTES: a second visit's goal


def _visit(context, url: str) -> wasm_page.Visit:
    """Open *url* in a new tab, wait until its tools answer and its fetches end; what it fetched."""
    page = context.new_page()
    traffic = wasm_page.Traffic(page)
    visit = traffic.start()
    page.goto(url)
    assert wasm_page.wait_settled(page, READY_TIMEOUT_MS) == "ready"
    page.wait_for_load_state("networkidle")
    traffic.close()
    page.close()
    return visit


def test_a_second_visit_fetches_under_a_megabyte(playwright, static_site, tmp_path):
    context = wasm_page.reader_browser(playwright, str(tmp_path / "profile"))
    try:
        url = f"{static_site}/00_dice/dice.html"
        first = _visit(context, url)
        assert any(u.endswith("/pyodide.asm.wasm") for u in first.by_url), first.largest()
        assert first.cached == 0 and first.revalidated == 0
        second = _visit(context, url)
    finally:
        context.close()
    assert second.bytes < SECOND_VISIT_BYTES, second.largest()
    assert second.cached > 0 and second.revalidated > 0, second
    # The runtime and the archives carry their version or digest in their names: kept without
    # asking the server again (no bytes, not even a 304's headers).
    kept = {u: n for u, n in second.by_url.items() if "/_pyodide/runtime-" in u
            or "/_pyodide/archives/" in u}
    assert any(u.endswith("/pyodide.asm.wasm") for u in kept), second.by_url
    assert any(u.endswith(".zip") and "/archives/engine-" in u for u in kept), second.by_url
    assert set(kept.values()) == {0}, kept
    assert first.offsite == second.offsite == []


def test_another_host_is_refused_and_counted(static_page, static_site):
    static_page.goto(f"{static_site}/index.html")
    visit = static_page.traffic.start()
    refused = static_page.evaluate(
        "() => fetch('http://example.org/x.js').then(() => 'fetched', () => 'refused')")
    assert refused == "refused"
    static_page.wait_for_timeout(200)               # the network log's events arrive after
    assert visit.offsite == ["http://example.org/x.js"]
    static_page.traffic.offsite.clear()             # seen here on purpose: not a failure
