"""The static book as a reader's browser gets it from rulebook serve-static: a second visit
fetches next to nothing (the browser kept the files or revalidated them), and a request to
another host fails in the browser and is counted."""

from __future__ import annotations

from playwright.sync_api import expect

SECOND_VISIT_BYTES = 1_000_000     # issue 23's goal for a second visit


def test_a_second_visit_is_served_from_the_browser_cache(static_page, static_site):
    url = f"{static_site}/00_dice/dice.html"
    first = static_page.traffic.start()
    static_page.goto(url, wait_until="networkidle")
    expect(static_page.locator("nav.rulebook-nav").first).to_be_attached()
    assert first.requests > 5 and first.bytes > 100_000, (first.requests, first.bytes)
    assert first.cached == 0 and first.revalidated == 0

    again = static_page.context.new_page()       # the reader comes back in a new tab
    traffic = type(static_page.traffic)(again)
    second = traffic.start()
    again.goto(url, wait_until="networkidle")
    expect(again.locator("nav.rulebook-nav").first).to_be_attached()
    traffic.close()
    assert second.requests >= first.requests - 2     # the same page, asked for again
    assert second.cached + second.revalidated >= first.requests - 2, second
    assert second.bytes < SECOND_VISIT_BYTES, second.largest()
    assert second.bytes < first.bytes / 20, (first.bytes, second.bytes)


def test_another_host_is_refused_and_counted(static_page, static_site):
    static_page.goto(f"{static_site}/index.html")
    visit = static_page.traffic.start()
    refused = static_page.evaluate(
        "() => fetch('http://example.org/x.js').then(() => 'fetched', () => 'refused')")
    assert refused == "refused"
    static_page.wait_for_timeout(200)               # the network log's events arrive after
    assert visit.offsite == ["http://example.org/x.js"]
    static_page.traffic.offsite.clear()             # seen here on purpose: not a failure
