"""A server that holds at most two live pages (rulebook serve --max-kernels 2): the third reader
is told the book is full, and no kernel starts for them; once a place frees, Try again opens the
page, and a reader moving on to another chapter of the full book is let in. Another spelling of
a chapter's path is redirected to its one address, and runs nothing."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from rulescore.cli import voila_command, voila_env
from tests.browser.reader import open_chapter

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "web"))
import run_web as R  # noqa: E402  (its /proc readings of the server's kernels)

LANDING = "/voila/render/index.ipynb"
# A closed page's kernel is stopped once idle this long; a connected page's never (so the two
# readers keep their places for as long as the test needs).
CULL = ["--MappingKernelManager.cull_interval=1", "--MappingKernelManager.cull_idle_timeout=15",
        "--MappingKernelManager.cull_connected=False"]


class SmallServer:
    def __init__(self, log: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        cmd = [a for a in voila_command("127.0.0.1", self.port, ROOT / "book")
               if not a.startswith("--MappingKernelManager.cull_")] + CULL
        self.log_path = log
        self.log = open(log, "w")
        self.proc = subprocess.Popen(cmd, env=voila_env(ROOT, warm_up=False, max_kernels=2),
                                     stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.root = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(self.root + "/", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.stop()
                    pytest.fail("Voilà did not start")
                time.sleep(0.3)

    def kernels(self) -> int:
        return sum("kernel" in R._cmdline(c) for c in R._children(self.proc.pid))

    def started(self) -> int:
        self.log.flush()
        return self.log_path.read_text(errors="replace").count("Kernel started:")

    def get(self, path: str) -> http.client.HTTPResponse:
        """The server's answer to a GET of *path*, sent as written; its text in ``.text``."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", path)
        response = conn.getresponse()
        response.text = response.read().decode("utf-8", "replace")
        conn.close()
        return response

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)
        self.log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = SmallServer(tmp_path_factory.mktemp("voila-full") / "voila.log")
    yield srv
    srv.stop()


def test_another_spelling_is_redirected_and_runs_nothing(server):
    for spelling in ["/voila/render/./index.ipynb", "/voila/render//index.ipynb",
                     "/voila/render/%2e/index.ipynb", "/voila/render/tsl/%2e%2e/index.ipynb",
                     "/voila/render/index.ipynb/", "/voila/render/%69ndex.ipynb"]:
        response = server.get(spelling)
        assert (response.status, response.getheader("Location")) == (301, LANDING), spelling
    assert server.get("/voila/render/%2e%2e/index.ipynb").status == 404
    assert server.started() == 0 and server.kernels() == 0


def test_the_third_reader_is_told_the_book_is_full_until_a_place_frees(server, browser):
    readers = [browser.new_context() for _ in range(3)]
    try:
        first, second, third = (ctx.new_page() for ctx in readers)
        for page in (first, second):
            open_chapter(page, server.root + LANDING)
            expect(page.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible()
        assert server.kernels() == 2

        response = third.goto(server.root + LANDING)
        assert response.status == 503
        assert response.headers["retry-after"] == "60"
        expect(third.get_by_role("heading", name="The book is full right now")).to_be_visible()
        expect(third.get_by_text("Try again in a minute.")).to_be_visible()
        assert server.started() == 2 and server.kernels() == 2        # none for the third

        # The Try again link carries the address as asked, query and all: escaped.
        hostile = server.get(LANDING + """?x="><b>bold</b>'""")
        assert hostile.status == 503
        assert 'href="/voila/render/index.ipynb?x=&#34;&gt;&lt;b&gt;bold&lt;/b&gt;&#39;"' \
            in hostile.text
        assert "<b>" not in hostile.text

        readers[0].close()                 # the first reader leaves; the culler frees the place
        deadline = time.time() + 120
        while server.kernels() > 1 and time.time() < deadline:
            time.sleep(0.5)
        assert server.kernels() == 1

        with third.expect_navigation() as opened:
            third.get_by_role("link", name="Try again").click()
        assert opened.value.status == 200
        assert re.search(r"/voila/render/index\.ipynb$", third.url)
        expect(third.get_by_role("link", name="Dice, seeds and exact odds")).to_be_visible(
            timeout=60_000)
        assert server.started() == 3

        # The book is full again. A reader following a link to another chapter closes their
        # page's kernel as they ask for the next page (the page's unload request): they are let
        # in, not kept out by their own page's kernel. The two requests race; when the page
        # comes first, the full page asks once more a second later.
        third.get_by_role("link", name="Dice, seeds and exact odds").click()
        expect(third.locator(".rulebook-dice-roller").first).to_be_visible(timeout=60_000)
        assert server.started() == 4 and server.kernels() == 2
    finally:
        for ctx in readers:
            ctx.close()
