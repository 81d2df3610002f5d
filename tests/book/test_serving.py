"""The live book leaves out worked-example checks (rulebook.serving) and nothing else."""

import ast
import json
import re
from pathlib import Path

import nbformat
import pytest

from rulebook.serving import (
    KEEP,
    MARK,
    NO_KERNEL_ID,
    REUSE,
    RUN,
    ShownOnce,
    candidate_flags,
    check_flags,
    code_fingerprint,
    data_names,
    is_check_cell,
    live_cells,
    mark_reuse,
    page_kernel_id,
    prelaunch_hook,
    reusable_outputs,
    reuse_plan,
    run_or_reuse,
    warm_up,
    warm_up_enabled,
    widget_names,
)
from rulebook.toc import load_book
from tests.book.aio import run_async

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


# ---------------------------------------------------------------- outputs kept for later readers

def html_out(text: str) -> dict:
    return nbformat.v4.new_output("display_data", data={"text/html": text})


WIDGET_OUT = nbformat.v4.new_output(
    "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m1"}})


@pytest.mark.parametrize("source, candidate", [
    ("print_table('tsl', 'bands', 'bands')", True),
    ("r = worked(rb.move('far', 'closer'), 'One move')", True),
    ("DashHelper(kind='dash')", True),                      # a tool: its output is never kept
    ("import os", False),
    ("from widgets.book import chapter_nav\nchapter_nav('x')", False),
    ("odds = tsl.band_odds('Proficient', 11)\nfrom fractions import Fraction\nchances(odds)", True),
    ("from rulescore.systems import tsl\nprint_table('tsl', 'bands', 'bands')", True),
    ("tool.pool.value = '5'", False),                        # changes a tool
    ("table['x'] = 1", False),
    ("def f():\n    return 1", False),
    ("del r", False),
    ("global x\nx = 1", False),
    ("", False),
])
def test_candidate_cells(source, candidate):
    assert candidate_flags([code(source)]) == [candidate]


def test_a_cell_that_reads_a_tool_is_no_candidate():
    cells = [code("from widgets.x import Tool"), code("t = Tool()"), code("t.pool.value = '3'"),
             code("show(t)"), code("show(u)")]
    assert candidate_flags(cells) == [False, True, False, True, True]
    cells = [code("t = Tool()\nt.pool.value = '3'"), code("show(t)"), code("show(rb.x)")]
    assert candidate_flags(cells) == [False, False, True]


def test_reuse_plan_keeps_then_reuses_and_never_skips_a_name_a_running_cell_reads():
    cells = [code("from m import worked, Tool, rb"),
             nbformat.v4.new_markdown_cell("text"),
             code("r = worked(rb.move(1))"),       # 2: read by cell 5, which always runs: kept only
             code("s = worked(rb.move(2))"),       # 3: s is read by cell 4 only
             code("show(s)"),                      # 4
             code("Tool(start=r.end)"),            # 5: a tool: never kept, always runs
             code("print_table('a')")]             # 6
    first = reuse_plan(cells, lambda i: False)
    assert first == [RUN, RUN, KEEP, KEEP, KEEP, KEEP, KEEP]
    later = reuse_plan(cells, lambda i: i in {2, 3, 4, 6})   # cell 5's widget was not kept
    assert later == [RUN, RUN, KEEP, REUSE, REUSE, KEEP, REUSE]
    # show(s) not kept (say its output went to stderr): s must be computed for it
    assert reuse_plan(cells, lambda i: i in {2, 3, 6}) == [RUN, RUN, KEEP, KEEP, KEEP, KEEP, REUSE]


def test_only_plain_display_output_is_kept():
    assert reusable_outputs([html_out("<b>x</b>")])
    assert reusable_outputs([nbformat.v4.new_output("stream", name="stdout", text="75 m")])
    assert not reusable_outputs([])
    assert not reusable_outputs([WIDGET_OUT])
    assert not reusable_outputs([html_out("a"), nbformat.v4.new_output("stream", name="stderr",
                                                                       text="warning")])
    assert not reusable_outputs([nbformat.v4.new_output("error", ename="E", evalue="",
                                                        traceback=[])])


def _page(sources):
    return [code(s) for s in sources]


def test_a_page_runs_kept_cells_for_its_first_reader_only():
    shown = ShownOnce()
    sources = ["from m import show, Tool", "show(1)", "Tool()"]
    ran = []

    async def execute(cell, *args, **kwargs):
        ran.append(cell["source"])
        cell["outputs"] = [WIDGET_OUT] if cell["source"] == "Tool()" else [html_out("one")]
        return cell

    def serve():
        cells = _page(sources)
        mark_reuse(cells, "/book/x", "code-v1", shown)
        for cell in cells:
            run_async(run_or_reuse(execute, cell, None, 0, store_history=False, shown=shown))
        assert all(MARK not in cell["metadata"] for cell in cells)    # nothing left for the page
        return cells

    serve()
    assert ran == sources and len(shown) == 1                    # the tool's widget is not kept
    ran.clear()
    cells = serve()
    assert ran == ["from m import show, Tool", "Tool()"]
    assert cells[1]["outputs"] == [html_out("one")]
    cells[1]["outputs"][0]["data"]["text/html"] = "changed by a page"    # pages get copies
    assert serve()[1]["outputs"] == [html_out("one")]


def test_kept_outputs_are_not_shown_after_an_edit_or_a_code_change():
    shown = ShownOnce()
    cells = _page(["from m import show", "show(1)"])
    key = ShownOnce.keys(cells, "/book/x", "code-v1")[1]
    assert shown.put(key, [html_out("one")])
    assert shown.get(key) == [html_out("one")]
    assert shown.get(ShownOnce.keys(cells, "/book/x", "code-v2")[1]) is None
    assert shown.get(ShownOnce.keys(cells, "/book/y", "code-v1")[1]) is None
    edited = _page(["from m import show", "show(2)"])
    assert shown.get(ShownOnce.keys(edited, "/book/x", "code-v1")[1]) is None
    assert not shown.put(key, [WIDGET_OUT]) and shown.get(key) == [html_out("one")]


def test_the_code_fingerprint_follows_the_rules_tables(tmp_path):
    for folder in ("rulescore/systems/tsl/data", "widgets"):
        (tmp_path / folder).mkdir(parents=True)
    table = tmp_path / "rulescore/systems/tsl/data/bands.toml"
    table.write_text("a = 1\n")
    (tmp_path / "widgets/tsl.py").write_text("x = 1\n")
    before = code_fingerprint(tmp_path)
    assert code_fingerprint(tmp_path) == before
    table.write_text("a = 22\n")
    assert code_fingerprint(tmp_path) != before


def _normalised(outputs):
    """Outputs without what differs from kernel to kernel: widget model ids, execution counts
    (the live page shows no prompts) and where a printed text was cut into messages (a
    reader sees one text either way)."""
    merged: list[dict] = []
    for o in outputs:
        o = {k: v for k, v in o.items() if k != "execution_count"}
        last = merged[-1] if merged else None
        if (last and o.get("output_type") == "stream" == last.get("output_type")
                and o.get("name") == last.get("name")):
            last["text"] += o["text"]
        else:
            merged.append(o)
    text = json.dumps(merged, sort_keys=True)
    return re.sub(r'"model_id": "[0-9a-f]+"', '"model_id": "-"', text)


def _run_served(chapter, plan, kept=None):
    """Run a chapter's live cells as Voilà would under *plan*; kept cells get *kept* outputs."""
    from nbclient import NotebookClient
    nb = nbformat.read(BOOK / chapter, 4)
    nb.cells = live_cells(nb.cells)
    skipped = {i for i, how in enumerate(plan(nb.cells)) if how == REUSE}
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str((BOOK / chapter).parent)}})
    with client.setup_kernel():
        for i, cell in enumerate(nb.cells):
            if i in skipped:
                cell.outputs = kept[i]
            elif cell.cell_type == "code":
                client.execute_cell(cell, i, store_history=False)
    return nb.cells, skipped


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_later_readers_see_what_the_first_reader_saw(chapter, executed):
    """The first reader runs every live cell; a later reader's kernel skips the cells whose
    output was kept. Every kept output equals the full run's (nbval's and the static book's),
    and every cell the later reader runs shows what it showed the first reader: skipping
    changed nothing another cell sees."""
    first, _ = _run_served(chapter, lambda cells: reuse_plan(cells, lambda i: False))
    kept = {i: c.outputs for i, c in enumerate(first)
            if c.cell_type == "code" and reusable_outputs(c.outputs)}
    later, skipped = _run_served(chapter, lambda cells: reuse_plan(cells, kept.__contains__),
                                 kept)
    full = {c.source: c.outputs for c in executed(chapter).cells if c.cell_type == "code"}
    for i in kept:
        assert _normalised(first[i].outputs) == _normalised(full[first[i].source]), \
            f"{chapter}: cell {i} shows something else when run alone"
    for i, (a, b) in enumerate(zip(first, later)):
        if a.cell_type == "code":
            assert _normalised(a.outputs) == _normalised(b.outputs), \
                f"{chapter}: cell {i} ({a.source.splitlines()[0]}) changed when kept cells were skipped"
    assert skipped or chapter == "index.ipynb"
    # What the first reader was shown is kept for every cell but imports and tools: a worked
    # example shown as a widget could not be kept and would run for every reader.
    ran = [c for i, c in enumerate(later) if c.cell_type == "code" and i not in skipped]
    assert [c.source for c in ran if not _imports_or_tool(c, later)] == [], \
        f"{chapter}: every reader runs these cells (their output could not be kept)"


# ------------------------------------------------------------------ warm-up at server start

def test_page_kernel_id_reads_the_pages_configuration():
    page = ('<script id="jupyter-config-data" type="application/json">{"baseUrl": "/", '
            '"kernelId": "1a5ec0b6-1317-43aa-9c1e-0123456789ab", "x": 1}</script>')
    assert page_kernel_id(page) == "1a5ec0b6-1317-43aa-9c1e-0123456789ab"
    assert page_kernel_id("<html>no kernel here</html>") is None
    assert page_kernel_id('"kernelId": ""') is None


@pytest.mark.parametrize("value, enabled", [
    (None, True), ("1", True), ("yes", True), ("0", False), ("off", False), (" False ", False)])
def test_warm_up_is_on_unless_turned_off(value, enabled):
    environ = {} if value is None else {"RULEBOOK_WARM_UP": value}
    assert warm_up_enabled(environ) is enabled


def test_warm_up_renders_every_page_in_order_and_stops_each_kernel():
    """Each page is fetched once, in the order given, one at a time; the kernel its page
    carries is shut down before the next page is fetched; a page that cannot be fetched is
    reported and the rest still warm up."""
    shown = ShownOnce()
    events = []

    async def fetch(page):
        events.append(("fetch", page))
        if page == "broken.ipynb":
            raise OSError("HTTP 500")
        shown.put(("/book", len(events), "k"),
                  [nbformat.v4.new_output("display_data", data={"text/html": page})])
        return ('<script id="jupyter-config-data" type="application/json">'
                f'{{"kernelId": "0000000{len(events)}-aaaa-bbbb-cccc-0123456789ab"}}</script>')

    async def shutdown(kernel_id):
        events.append(("shutdown", kernel_id))

    done = run_async(warm_up(["index.ipynb", "broken.ipynb", "tsl/attacks.ipynb"],
                               fetch, shutdown, shown=shown))
    assert events == [("fetch", "index.ipynb"), ("shutdown", "00000001-aaaa-bbbb-cccc-0123456789ab"),
                      ("fetch", "broken.ipynb"),
                      ("fetch", "tsl/attacks.ipynb"), ("shutdown", "00000004-aaaa-bbbb-cccc-0123456789ab")]
    assert done.rendered == ("index.ipynb", "tsl/attacks.ipynb")
    assert done.failed == (("broken.ipynb", "HTTP 500"),)
    assert done.kept == 2 and done.seconds >= 0
    assert done.summary().startswith("warm-up: 2 pages rendered in ")
    assert "2 outputs kept" in done.summary() and "broken.ipynb (HTTP 500)" in done.summary()


def test_a_warm_up_page_without_a_kernel_id_is_reported_not_passed_over():
    """Should Voilà stop writing the kernel id into its page (rulebook.patches:
    voila-page-kernel-id), the warm-up cannot stop that page's kernel: the page is reported
    as failed, saying its kernel is left running, and the server logs the summary as a
    warning (rulebook.live.warm_up_pages)."""
    stopped = []

    async def fetch(page):
        return "<html><body>a page of some later Voilà</body></html>"

    async def shutdown(kernel_id):
        stopped.append(kernel_id)

    done = run_async(warm_up(["index.ipynb"], fetch, shutdown, shown=ShownOnce()))
    assert stopped == [] and done.rendered == ()
    assert done.failed == (("index.ipynb", NO_KERNEL_ID),)
    assert "left running" in done.summary() and "voila-page-kernel-id" in done.summary()



@pytest.mark.parametrize("chapter", ["index.ipynb", *CHAPTERS])
def test_a_later_reader_runs_only_imports_and_tools(chapter):
    """Once a chapter's outputs are kept, a reader's kernel runs only cells that import and
    cells that build a tool (a widget class): a cell mixing imports with a printed table or the
    chapter links would run that display for every reader."""
    cells = live_cells(nbformat.read(BOOK / chapter, as_version=4).cells)
    for cell, how in zip(cells, reuse_plan(cells, lambda i: True)):
        if cell.cell_type == "code" and how == RUN:
            assert _imports_or_tool(cell, cells), f"{chapter}: every reader runs {cell.source!r}"


def _imports_or_tool(cell, cells) -> bool:
    """Whether *cell* only imports, or only builds and shows one tool: a call of a name the
    chapter imports from ``widgets`` (a tool's class, or a function such as ``fight_page`` or
    ``roster`` that builds one), alone or as ``shot = Tool(...)`` then ``shot``."""
    tools = widget_names(cells)
    body = ast.parse(cell.source).body

    def builds_tool(node) -> bool:
        return isinstance(node, ast.Call) and getattr(node.func, "id", None) in tools

    if all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in body):
        return True
    if len(body) == 1:
        return isinstance(body[0], ast.Expr) and builds_tool(body[0].value)
    return (len(body) == 2 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1
            and isinstance(body[0].targets[0], ast.Name) and builds_tool(body[0].value)
            and isinstance(body[1], ast.Expr) and isinstance(body[1].value, ast.Name)
            and body[1].value.id == body[0].targets[0].id)


def test_two_chapters_of_one_folder_keep_their_outputs_apart():
    """Chapters of one folder share their cwd; the server keys their kept outputs by the page
    asked for, so reading one chapter never evicts what its neighbour's readers are shown."""
    from types import SimpleNamespace

    from rulebook.serving import SHOWN_ONCE, page_identity

    def handler(path):
        return SimpleNamespace(request=SimpleNamespace(path=path))

    assert page_identity(handler("/voila/render/tsl/gear.ipynb"), "/book/tsl") == \
        "/voila/render/tsl/gear.ipynb"
    assert page_identity(None, "/book/tsl") == "/book/tsl"

    async def execute(cell, *args, **kwargs):
        cell["outputs"] = [html_out(cell["source"])]
        return cell

    def serve(path, sources):
        nb = nbformat.v4.new_notebook(cells=[code(s) for s in sources])
        prelaunch_hook(handler(path), nb, "/book/same-folder")
        plan = ["reuse" if "outputs" in c.metadata.get(MARK, {}) else "run" for c in nb.cells]
        for cell in nb.cells:
            run_async(run_or_reuse(execute, cell, None, 0, store_history=False))
        return plan

    first = ["from widgets.book import show", "show('first chapter')"]
    second = ["from widgets.book import show", "show('second chapter')"]
    before = len(SHOWN_ONCE)
    assert serve("/voila/render/folder/first.ipynb", first) == ["run", "run"]
    assert serve("/voila/render/folder/second.ipynb", second) == ["run", "run"]
    assert serve("/voila/render/folder/first.ipynb", first) == ["run", "reuse"]
    assert serve("/voila/render/folder/second.ipynb", second) == ["run", "reuse"]
    assert len(SHOWN_ONCE) == before + 2
