"""A server that holds at most two live pages (rulebook serve --max-kernels 2): the third reader
is told the book is full, and no kernel starts for them; once a place frees, Try again opens the
page, and a reader moving on to another chapter of the full book is let in. Another spelling of
a chapter's path is redirected to its one address, and runs nothing."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.reader import open_chapter
from tests.browser.served import ServedBook

LANDING = "/voila/render/index.ipynb"
# A closed page's kernel is stopped once idle this long; a connected page's never (so the two
# readers keep their places for as long as the test needs).
CULL = ["--MappingKernelManager.cull_interval=1", "--MappingKernelManager.cull_idle_timeout=15",
        "--MappingKernelManager.cull_connected=False"]


def _started(server: ServedBook) -> int:
    """Kernels the server has started since it began, as its log tells."""
    return server.log_text().count("Kernel started:")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServedBook(tmp_path_factory.mktemp("voila-full") / "voila.log", CULL,
                     warm_up=False, max_kernels=2)
    yield srv
    srv.stop()


def test_another_spelling_is_redirected_and_runs_nothing(server):
    for spelling in ["/voila/render/./index.ipynb", "/voila/render//index.ipynb",
                     "/voila/render/%2e/index.ipynb", "/voila/render/tsl/%2e%2e/index.ipynb",
                     "/voila/render/index.ipynb/", "/voila/render/%69ndex.ipynb"]:
        response = server.get(spelling)
        assert (response.status, response.getheader("Location")) == (301, LANDING), spelling
    assert server.get("/voila/render/%2e%2e/index.ipynb").status == 404
    assert _started(server) == 0 and len(server.kernels()) == 0


def test_the_third_reader_is_told_the_book_is_full_until_a_place_frees(server, browser):
    readers = [browser.new_context() for _ in range(3)]
    try:
        first, second, third = (ctx.new_page() for ctx in readers)
        for page in (first, second):
            open_chapter(page, server.base + LANDING)
            expect(page.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible()
        assert len(server.kernels()) == 2

        response = third.goto(server.base + LANDING)
        assert response.status == 503
        assert response.headers["retry-after"] == "60"
        expect(third.get_by_role("heading", name="The book is full right now")).to_be_visible()
        expect(third.get_by_text("Try again in a minute.")).to_be_visible()
        assert _started(server) == 2 and len(server.kernels()) == 2        # none for the third

        # The Try again link carries the address as asked, query and all: escaped.
        hostile = server.get(LANDING + """?x="><b>bold</b>'""")
        assert hostile.status == 503
        assert 'href="/voila/render/index.ipynb?x=&#34;&gt;&lt;b&gt;bold&lt;/b&gt;&#39;"' \
            in hostile.text
        assert "<b>" not in hostile.text

        readers[0].close()                 # the first reader leaves; the culler frees the place
        deadline = time.time() + 120
        while len(server.kernels()) > 1 and time.time() < deadline:
            time.sleep(0.5)
        assert len(server.kernels()) == 1

        with third.expect_navigation() as opened:
            third.get_by_role("link", name="Try again").click()
        assert opened.value.status == 200
        assert re.search(r"/voila/render/index\.ipynb$", third.url)
        expect(third.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible(
            timeout=60_000)
        assert _started(server) == 3

        # The book is full again. A reader following a link to another chapter closes their
        # page's kernel as they ask for the next page (the page's unload request): they are let
        # in, not kept out by their own page's kernel. The two requests race; when the page
        # comes first, the full page asks once more a second later.
        third.get_by_role("link", name="Dice, seeds and exact odds").click()
        expect(third.locator(".rulebook-dice-roller").first).to_be_visible(timeout=60_000)
        assert _started(server) == 4 and len(server.kernels()) == 2
    finally:
        for ctx in readers:
            ctx.close()
