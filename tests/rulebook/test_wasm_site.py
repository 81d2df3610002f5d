"""The static book's page files for Python in the browser (rulebook.wasm.site): a chapter
showing a widget gets its executed cells, in order, with the groups and bytes to fetch; a
page whose cells cannot be matched to its notebook's is refused."""

import json
from pathlib import Path

import pytest

from rulebook.build import BookBuildError
from rulebook.toc import load_book
from rulebook.wasm.site import page_spec, write_pages

ROOT = Path(__file__).resolve().parents[2]
VIEW = ('<script type="application/vnd.jupyter.widget-view+json">{"model_id": "m"}'
        '</script>')
SIZES = {"runtime": 100, "engine": 10, "widgets": 20, "formulas": 1000}


def _cell(output: str = "") -> str:
    return f'<div class="cell docutils container">\n<div class="cell_output">{output}</div></div>'


def _site(tmp_path: Path, cells: list[str], shown: int):
    """A built book of empty pages but for the first chapter, which shows *shown* cells (the
    first with a widget) and whose executed notebook holds *cells*."""
    book = load_book(ROOT)
    html, executed = tmp_path / "html", tmp_path / "executed"
    first = book.chapters[0]
    for chapter in book.chapters:
        page = html / f"{chapter.file}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        body = (_cell(VIEW) + _cell() * (shown - 1)) if chapter is first else "<p>prose</p>"
        page.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    notebook = executed / first.notebook
    notebook.parent.mkdir(parents=True)
    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "source": ["# Title"]},
        *({"cell_type": "code", "source": c.splitlines(keepends=True)} for c in cells)]}),
        encoding="utf-8")
    return book, html, executed


def test_a_chapter_with_a_widget_gets_its_cells_groups_and_bytes(tmp_path):
    cells = ["from widgets.dice import DiceRoller\nDiceRoller()", "x = 1"]
    book, html, executed = _site(tmp_path, cells, shown=2)
    written = write_pages(tmp_path / "site", html, book, executed, SIZES)
    assert [p.relative_to(tmp_path / "site").as_posix() for p in written] == \
        [f"pages/{book.chapters[0].file}.json"]
    spec = json.loads(written[0].read_text(encoding="utf-8"))
    assert spec["cells"] == cells
    assert spec["groups"] == ["engine", "widgets"]
    assert spec["bytes"] == 130
    assert spec["live"] == (f"{book.live_url}/{book.chapters[0].notebook}" if book.live_url
                            else None)


def test_a_page_whose_cells_do_not_match_its_notebook_is_refused(tmp_path):
    book, html, executed = _site(tmp_path, ["a = 1", "b = 2", "c = 3"], shown=2)
    with pytest.raises(BookBuildError, match="shows 2 code cells but .* has 3"):
        write_pages(tmp_path / "site", html, book, executed, SIZES)


def test_a_cell_rendering_latex_asks_for_the_formulas_group():
    spec = page_spec(["f.latex()"], SIZES, None)
    assert spec["groups"] == ["engine", "widgets", "formulas"]
    assert spec["bytes"] == 1130
