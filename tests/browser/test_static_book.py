"""The static web book: built from jupyter_book.yml, internally linked, and fully offline.
Built and served by the fixtures of static_book.py."""

from __future__ import annotations

import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rulebook.toc import load_book

from .served import ROOT


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
def test_static_chapter_renders_offline(page: Page, static_site, chapter):
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
    page.goto(f"{static_site}/{chapter}.html", wait_until="networkidle")
    expect(page.locator("nav.rulebook-nav").first).to_be_attached()
    if not chapter.endswith("rulings"):  # a rulings chapter is prose and printed rulings
        expect(page.locator(".jupyter-widgets").first).to_be_attached()
        # a field, a menu or a button (a fight page opens with its panels and roster folded)
        assert page.locator(".widget-text, .widget-dropdown, .widget-button").count() > 0
    expect(page.locator(".rulebook-live-note").first).to_contain_text("open this chapter live")
    assert not external, f"requests to other hosts: {external}"
    assert not errors, f"script errors: {errors}"
