"""Serve the book with Voilà on a free loopback port and drive Debian's chromium with Playwright."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.served import ServedBook
from tests.browser.static_book import (book, fenced_browser, static_book,  # noqa: F401
                                       static_page, static_site)
from voila_process import CHROMIUM, CHROMIUM_ARGS  # noqa: I001 - on the path once served is

SUITE_MAX_KERNELS = 10_000
SUITE_CULLING = ("--MappingKernelManager.cull_interval=20",
                 "--MappingKernelManager.cull_idle_timeout=120")


@pytest.fixture(scope="session")
def book_log(tmp_path_factory) -> Path:
    """The log of the book's Voilà server (its stdout and stderr)."""
    return tmp_path_factory.mktemp("voila") / "voila.log"


@pytest.fixture(scope="session")
def book_url(book_log):
    """Base URL of a Voilà server over book/, started as `rulebook serve` starts it (pages
    warmed up at start), stopped after the session."""
    # The suite opens far more pages than the book's default maximum of live kernels, and a
    # test's closed page keeps its kernel until the culler: the maximum is tested on its own
    # server (test_book_full.py).
    # A closed page's kernel lives until the culler; the book's 10 minutes would leave a few
    # hundred kernels alive over the suite, past the server's ZeroMQ socket limit (1023
    # sockets, five a kernel: "Too many open files"), so this server culls sooner.
    served = ServedBook(book_log, args=SUITE_CULLING, max_kernels=SUITE_MAX_KERNELS)
    yield served.base + "/voila/render"
    served.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": CHROMIUM_ARGS}


@pytest.fixture
def external_requests() -> list[str]:
    """Requests the page tried to make to other hosts (refused)."""
    return []


@pytest.fixture
def page(page, external_requests):
    """Every test's page: requests to other hosts are refused and recorded."""
    def guard(route):
        if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            external_requests.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.set_default_timeout(30_000)
    return page


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
