"""The static web book: built from jupyter_book.yml, internally linked, and fully offline."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rulebook.toc import load_book

from .served import ROOT, free_port


@pytest.fixture(scope="session")
def static_book() -> Path:
    """Build the static book once (what `make book` does) and return _build/html."""
    from rulebook.build import build
    return build(ROOT)


@pytest.fixture(scope="session")
def static_url(static_book):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                             "127.0.0.1", "--directory", str(static_book)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base, timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("href", "src"):
            value = attrs.get(key)
            if value and tag in ("a", "link", "script", "img"):
                self.links.append(value)


def test_every_internal_link_resolves(static_book: Path):
    broken = []
    pages = [p for p in static_book.rglob("*.html")  # _static holds theme templates, not pages
             if "_static" not in p.relative_to(static_book).parts]
    assert len(pages) >= 1 + len(load_book(ROOT).chapters)
    for page in pages:
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path:
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            if not target.exists():
                broken.append(f"{page.relative_to(static_book)} -> {link}")
    assert not broken, "broken links:\n" + "\n".join(broken)


@pytest.mark.parametrize("chapter", [c.file for c in load_book(ROOT).chapters])
def test_static_chapter_renders_offline(page: Page, static_url, chapter):
    external, errors = [], []

    def guard(route):
        if urllib.parse.urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.unroute("**/*")
    page.route("**/*", guard)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_url}/{chapter}.html", wait_until="networkidle")
    expect(page.locator("nav.rulebook-nav").first).to_be_attached()
    if not chapter.endswith("rulings"):  # a rulings chapter is prose and printed rulings
        expect(page.locator(".jupyter-widgets").first).to_be_attached()
        assert page.locator(".widget-text, .widget-dropdown").count() > 0
    expect(page.locator(".rulebook-live-note").first).to_contain_text("live in the served book")
    assert not external, f"requests to other hosts: {external}"
    assert not errors, f"script errors: {errors}"
