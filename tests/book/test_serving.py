"""The live book leaves out worked-example checks (rulescore.serving) and nothing else."""

import ast
from pathlib import Path

import nbformat
import pytest

from rulescore.book import load_book
from rulescore.serving import is_check_cell, live_cells, prelaunch_hook, widget_names

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = [c.notebook for c in load_book().chapters if (BOOK / c.notebook).is_file()]


def code(source: str) -> dict:
    return nbformat.v4.new_code_cell(source)


@pytest.mark.parametrize("source, check", [
    ("assert x == 3", True),
    ("assert a == 1\nassert b == 2", True),
    ("from fractions import Fraction\nassert p == Fraction(1, 2)", True),
    ("x = roll()\nassert x == 3", False),                   # roll() might display: it runs
    ("r = worked(rb.move('far', 'closer'), 'One move')\nassert r.actions == 1", False),
    ("odds = show_odds(rb.check_odds(4, 4), 'Four dice')\nassert odds.success", False),
    ("x = roll()\nassert x == 3\nexplain(x)", False),
    ("assert x == 3\nprint(x)", False),
    ("TurnBoard('Vela, Ko')", False),
    ("import os", False),
    ("", False),
    ("assert (", False),                                     # not Python: left as it is
])
def test_is_check_cell(source, check):
    assert is_check_cell(code(source)) is check


def test_an_assert_that_calls_a_widget_runs():
    cells = [code("from widgets.book import worked_roll"), code("assert worked_roll('2d6', seed=1)")]
    assert widget_names(cells) == {"worked_roll"}
    assert not is_check_cell(cells[1], {"worked_roll"})
    assert live_cells(cells) == cells


def test_markdown_is_never_a_check():
    assert not is_check_cell(nbformat.v4.new_markdown_cell("assert x"))


def test_prelaunch_hook_keeps_prose_and_shown_cells_in_order():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title"), code("x = 1"), code("assert x"),
        code("show(2)"), nbformat.v4.new_markdown_cell("More")])
    served = prelaunch_hook(None, nb, "/tmp")
    assert [c.source for c in served.cells] == ["# Title", "x = 1", "show(2)", "More"]


def _stores(cell) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(cell.source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _loads(cell) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(cell.source))
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_live_cell_needs_a_name_only_a_check_defines(chapter):
    cells = [c for c in nbformat.read(BOOK / chapter, 4).cells if c.cell_type == "code"]
    displays = widget_names(cells)
    live, only_in_checks = set(), set()
    for cell in cells:
        if is_check_cell(cell, displays):
            only_in_checks |= _stores(cell) - live
        else:
            missing = _loads(cell) & only_in_checks
            assert not missing, f"{chapter}: a live cell uses {sorted(missing)} from a check"
            live |= _stores(cell)
            only_in_checks -= live


def test_chapters_lose_their_checks_only():
    nb = nbformat.read(BOOK / "exploding_d6" / "close.ipynb", 4)
    served = live_cells(nb.cells)
    assert len(nb.cells) - len(served) >= 5
    assert [c for c in nb.cells if c.cell_type == "markdown"] == \
        [c for c in served if c.cell_type == "markdown"]
