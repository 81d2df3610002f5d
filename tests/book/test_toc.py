"""jupyter_book.yml is the one list of chapters: every notebook is in it, and it names no ghost."""

from pathlib import Path

from rulebook.toc import load_book

ROOT = Path(__file__).resolve().parents[2]


def test_every_notebook_is_listed_and_every_listed_chapter_exists():
    book = load_book(ROOT)
    listed = {c.notebook for c in book.chapters} | {f"{book.root}.ipynb"}
    present = {str(p.relative_to(ROOT / "book")) for p in (ROOT / "book").rglob("*.ipynb")
               if "_build" not in p.parts and ".ipynb_checkpoints" not in p.parts}
    assert listed == present


def test_neighbours_follow_reading_order():
    book = load_book(ROOT)
    chapters = book.chapters
    assert book.neighbours(chapters[0].file)[0] is None
    assert book.neighbours(chapters[-1].file)[1] is None
