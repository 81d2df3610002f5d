"""The static book in the browser tests: built once a session, served by
``rulebook serve-static`` (rulebook.static_server) on a free 127.0.0.1 port, opened in a
chromium that resolves no other host, with every request to another host counted.

conftest.py makes these fixtures available to every browser test:

- ``static_book``: the built book's folder (what ``make book`` makes). Set
  ``RULEBOOK_STATIC_BOOK`` to a folder already built to use it as it is (a quick rerun);
- ``static_site``: the base URL of the server over it;
- ``fenced_browser``: chromium with :data:`wasm_page.FENCE_ARGS` (no other host resolves, no
  Playwright routing, so the HTTP cache works as a reader's does);
- ``static_page``: a page in a fresh context of that browser, its network log
  (``static_page.traffic``: bytes and requests per visit, and every request to another host);
- ``book``: the live or the static book behind one interface (:class:`Book`), for reader
  scripts that run against both (``@pytest.mark.parametrize("book", ["live", "static"],
  indirect=True)``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

from rulebook.static_server import serve
from tests.browser.reader import open_chapter
from tests.browser.served import ROOT
from voila_process import CHROMIUM, CHROMIUM_ARGS  # noqa: I001 - on the path once served is
import wasm_page  # noqa: I001

BUILT_BOOK_VAR = "RULEBOOK_STATIC_BOOK"
READY_TIMEOUT_MS = 120_000     # a first visit boots Python in WebAssembly: slow on a busy machine


@pytest.fixture(scope="session")
def static_book() -> Path:
    """Build the static book once (what `make book` does) and return _build/html; or the
    folder ``RULEBOOK_STATIC_BOOK`` names, as it is."""
    given = os.environ.get(BUILT_BOOK_VAR)
    if given:
        folder = Path(given).resolve()
        if not (folder / "index.html").is_file():
            pytest.fail(f"{BUILT_BOOK_VAR}={given} holds no built book (index.html)")
        return folder
    from rulebook.build import build
    return build(ROOT)


@pytest.fixture(scope="session")
def static_site(static_book):
    """Base URL of the static book served on 127.0.0.1 with the caching headers of
    docs/deploy.md."""
    server = serve(static_book)
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def fenced_browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                         args=CHROMIUM_ARGS + wasm_page.FENCE_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def static_page(fenced_browser):
    """A page of a fresh context (empty cache and storage) in the fenced browser; its network
    log in ``.traffic``. Fails the test if the page tried to reach another host. Such a
    context's cache is in memory and keeps no file of more than a few MB: a second visit is
    measured in a reader's own profile (wasm_page.reader_browser)."""
    context = fenced_browser.new_context()
    context.add_init_script(wasm_page.READY_JS)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.traffic = wasm_page.Traffic(page)  # type: ignore[attr-defined]
    yield page
    offsite = list(page.traffic.offsite)  # type: ignore[attr-defined]
    page.traffic.close()  # type: ignore[attr-defined]
    context.close()
    assert offsite == [], f"requests to other hosts: {offsite}"


def open_static(page: Page, url: str) -> str:
    """Open a page of the static book and wait until its Python has settled; return the state
    (``ready``, ``unsupported`` or ``failed``)."""
    if not getattr(page, "_rulebook_wasm_js", False):
        page.add_init_script(wasm_page.READY_JS)
        page._rulebook_wasm_js = True  # type: ignore[attr-defined]
    page.goto(url)
    return wasm_page.wait_settled(page, READY_TIMEOUT_MS)


@dataclass(frozen=True)
class Book:
    """The live book (Voilà) or the static book (Python in the page) as a reader script sees
    it: open a chapter, reload it, and wait each time until its tools answer."""

    kind: str          # "live" or "static"
    base: str

    def url(self, chapter: str) -> str:
        """The address of *chapter* ("00_dice/dice") in this book."""
        return f"{self.base}/{chapter}.{'ipynb' if self.kind == 'live' else 'html'}"

    def open(self, page: Page, chapter: str) -> None:
        if self.kind == "live":
            open_chapter(page, self.url(chapter))
        else:
            assert open_static(page, self.url(chapter)) == "ready"

    def reload(self, page: Page) -> None:
        """Reload the page as a reader would, and wait until its tools answer again: the
        static book shows its snapshot of the tools before its Python answers."""
        page.reload()
        if self.kind == "live":
            page.wait_for_function("() => window.__tti !== undefined", timeout=60_000)
        else:
            assert wasm_page.wait_settled(page, READY_TIMEOUT_MS) == "ready"


@pytest.fixture
def book(request, external_requests):
    """The book a parametrised reader script runs against: "live" (the suite's Voilà) or
    "static" (the static book on its own server). Either way the test's page may reach no
    other host (conftest's ``page`` refuses and records such requests)."""
    kind = request.param
    if kind not in ("live", "static"):
        raise ValueError(f"book must be 'live' or 'static', got {kind!r}")
    base = request.getfixturevalue("book_url" if kind == "live" else "static_site")
    yield Book(kind, base)
    assert external_requests == [], f"requests to other hosts: {external_requests}"

