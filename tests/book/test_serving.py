"""The live book leaves out worked-example checks (rulescore.serving) and nothing else."""

import ast
from pathlib import Path

import nbformat
import pytest

from rulescore.book import load_book
from rulescore.serving import (check_flags, data_names, is_check_cell, live_cells, prelaunch_hook,
                               widget_names)

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = [c.notebook for c in load_book().chapters if (BOOK / c.notebook).is_file()]


def code(source: str) -> dict:
    return nbformat.v4.new_code_cell(source)


DATA = {"x", "a", "b", "p", "rb", "x6", "Fraction"}


@pytest.mark.parametrize("source, check", [
    ("assert x == 3", True),
    ("assert a == 1\nassert b == 2", True),
    ("from fractions import Fraction\nassert p == Fraction(1, 2)", True),
    ("pool = x6.refresh(x6.start_combat(2))\nassert pool.available == 2", True),
    ("odds = x6.hit_distribution(1)\nassert sum(odds.values()) == 1", True),
    ("assert [x6.recoil_malus(n) for n in (1, 2, 3)] == [0, 2, 4]", True),
    ("assert sorted(a, key=lambda v: -v) == b", True),
    ("a, (b, c) = 1, (2, 3)\nassert c == 3", True),
    ("x = roll()\nassert x == 3", False),                   # roll is not engine data
    ("r = worked(rb.move('far', 'closer'), 'One move')\nassert r.actions == 1", False),
    ("odds = show_odds(rb.check_odds(4, 4), 'Four dice')\nassert odds.success", False),
    ("x = x6.hit_roll([5])\nassert x.hits == 1\nx.explain()", False),   # shows its value
    ("assert x == 3\nprint(x)", False),
    ("assert print(x) is None", False),                      # print is not a quiet builtin
    ("assert tool.roll() == 3", False),                      # tool came from a shown cell
    ("x.pool.value = '5'\nassert x", False),                # changes a tool: always runs
    ("import widgets\nassert x", False),
    ("import os\nassert x", False),
    ("TurnBoard('Vela, Ko')", False),
    ("import os", False),
    ("", False),
    ("assert (", False),                                     # not Python: left as it is
])
def test_is_check_cell(source, check):
    assert is_check_cell(code(source), DATA) is check


def test_an_assert_that_calls_a_widget_runs():
    cells = [code("from widgets.book import worked_roll"), code("assert worked_roll('2d6', seed=1)")]
    assert widget_names(cells) == {"worked_roll"}
    assert live_cells(cells) == cells


def test_checks_build_on_earlier_checks_but_not_on_shown_cells():
    cells = [code("from rulescore.systems import exploding_d6 as x6\nfrom widgets.book import worked"),
             code("pool = x6.refresh(x6.start_combat(2))\nassert pool.available == 2"),
             code("after = x6.spend(pool, 'attack').pool\nassert after.available == 1"),
             code("r = worked(x6.hit_roll([5]), 'A hit')"),
             code("assert r.value == 1")]
    assert data_names(cells) == {"x6"}
    assert check_flags(cells) == [False, True, True, False, False]


def test_markdown_is_never_a_check():
    assert not is_check_cell(nbformat.v4.new_markdown_cell("assert x"), {"x"})


def test_prelaunch_hook_keeps_prose_and_shown_cells_in_order():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title"), code("from fractions import Fraction"),
        code("x = Fraction(1)"), code("assert Fraction(1, 2) < 1"), code("assert x"),
        code("show(2)"), nbformat.v4.new_markdown_cell("More")])
    served = prelaunch_hook(None, nb, "/tmp")
    assert [c.source for c in served.cells] == [
        "# Title", "from fractions import Fraction", "x = Fraction(1)",
        "assert x",                      # x was bound by a shown cell: the check runs
        "show(2)", "More"]


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
def test_no_live_cell_reads_a_name_a_check_bound_last(chapter):
    """Leaving a check out changes no name a live cell reads (nor one it rebinds)."""
    cells = [c for c in nbformat.read(BOOK / chapter, 4).cells if c.cell_type == "code"]
    last_bound_by_check: dict[str, bool] = {}
    for cell, check in zip(cells, check_flags(cells)):
        if not check:
            from_check = sorted(n for n in _loads(cell) if last_bound_by_check.get(n))
            assert not from_check, f"{chapter}: a live cell reads {from_check} from a check"
        for name in _stores(cell):
            last_bound_by_check[name] = check


def test_chapters_lose_their_checks_only():
    nb = nbformat.read(BOOK / "exploding_d6" / "close.ipynb", 4)
    served = live_cells(nb.cells)
    assert len(nb.cells) - len(served) >= 5
    assert [c for c in nb.cells if c.cell_type == "markdown"] == \
        [c for c in served if c.cell_type == "markdown"]


@pytest.fixture(scope="module")
def executed():
    """Every chapter run whole, as nbval and the static book run it (one kernel a chapter)."""
    from nbclient import NotebookClient
    runs = {}

    def run(chapter: str):
        if chapter not in runs:
            nb = nbformat.read(BOOK / chapter, 4)
            NotebookClient(nb, timeout=120, kernel_name="python3",
                           resources={"metadata": {"path": str((BOOK / chapter).parent)}}).execute()
            runs[chapter] = nb
        return runs[chapter]
    return run


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_cell_the_live_book_leaves_out_shows_nothing(chapter, executed):
    """Run the chapter in full: a cell the served page skips must have shown nothing, or the
    live page would lack what the static book shows (a worked example's table or odds)."""
    nb = executed(chapter)
    shown = [c.source.splitlines()[0] for c, check in zip(nb.cells, check_flags(nb.cells))
             if check and c.get("outputs")]
    assert not shown, f"{chapter}: the live book skips cells that show something: {shown}"
    assert any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
