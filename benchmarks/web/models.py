"""What a chapter's page costs its kernel, as a later reader of the live book runs it: the
widget models its cells make, the kernel's CPU time, and the bytes of widget state the browser
asks for when it connects. Proxies for time to interactive that a busy machine does not blur.

    .venv/bin/python benchmarks/web/models.py range_bands/movement tsl/gear [-v]

Each chapter (a path under book/, no extension) runs twice, each time in a fresh kernel started
as the live book starts its kernels (``RULEBOOK_TARGET=live``, the chapter's folder as working
directory). The first run, every cell the live page runs (``rulebook.serving.live_cells``), finds
which outputs the server would keep (``reusable_outputs``); the second runs the cells a later
reader's kernel runs (``reuse_plan``: kept outputs are shown, not run). Around each cell of the
second run a probe reads ``len(ipywidgets.Widget.widgets)`` and ``time.process_time()``; at the
end, the JSON size of every widget's state (what the browser's ``request_states`` receives).
``-v`` prints each cell's models and CPU, and the commonest widget kinds. Nothing is asserted.

The probes run in the kernel too; their own CPU is about 1 ms a cell and is not counted.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rulebook import serving  # noqa: E402

PROBE = ("import json as _j, time as _t, ipywidgets as _w\n"
         "print('@@' + _j.dumps([len(_w.Widget.widgets), _t.process_time()]))")
STATE = ("import json as _j, collections as _c, ipywidgets as _w\n"
         "_all = list(_w.Widget.widgets.values())\n"
         "print('@@' + _j.dumps([sum(len(_j.dumps(x.get_state(), default=str)) for x in _all),\n"
         "    _c.Counter(type(x).__name__ for x in _all).most_common(10)]))")


def _probe(client: NotebookClient, source: str) -> list:
    """Run *source* in the kernel as a cell of its own; what it printed after ``@@``."""
    cell = nbformat.v4.new_code_cell(source)
    client.nb.cells.append(cell)
    try:
        client.execute_cell(cell, len(client.nb.cells) - 1)
    finally:
        client.nb.cells.pop()
    text = "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")
    return json.loads(text.split("@@", 1)[1])


def run_cells(chapter: str, cells: list) -> tuple[list[tuple[int, float, object]], list]:
    """Run *cells* in a fresh kernel: (models, CPU seconds, cell) for each code cell, and
    [state bytes, commonest kinds] at the end."""
    nb = nbformat.v4.new_notebook(cells=cells)
    # as the live book starts a kernel (rulebook.cli.voila_env): bytecode cached, target live
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(RULEBOOK_TARGET="live", RULEBOOK_HOME=str(ROOT))
    folder = ROOT / "book" / Path(chapter).parent
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    rows = []
    with client.setup_kernel(env=env):
        for i, cell in enumerate(list(nb.cells)):
            if cell.cell_type != "code":
                continue
            before = _probe(client, PROBE)
            client.execute_cell(cell, i)
            after = _probe(client, PROBE)
            rows.append((after[0] - before[0], after[1] - before[1], cell))
        end = _probe(client, STATE)
    return rows, end


def measure(chapter: str, verbose: bool) -> None:
    nb = nbformat.read(ROOT / "book" / f"{chapter}.ipynb", as_version=4)
    cells = serving.live_cells(nb.cells)
    first, _ = run_cells(chapter, copy.deepcopy(cells))
    outputs = {}
    code = [i for i, c in enumerate(cells) if c.cell_type == "code"]
    for i, (_, _, cell) in zip(code, first):
        outputs[i] = cell.outputs
    plan = serving.reuse_plan(cells, lambda i: serving.reusable_outputs(outputs.get(i, [])))
    later = [c for c, how in zip(copy.deepcopy(cells), plan) if how != serving.REUSE]
    rows, (state, kinds) = run_cells(chapter, later)
    models = sum(r[0] for r in rows)
    cpu = sum(r[1] for r in rows)
    print(f"{chapter}: {len(rows)} cells run, {models} widget models, {cpu * 1000:.0f} ms kernel "
          f"CPU, {state / 1024:.1f} KiB of widget state ({plan.count(serving.REUSE)} cells "
          "shown from the kept outputs)")
    if verbose:
        for n, seconds, cell in rows:
            last = (cell.source.strip().splitlines() or [""])[-1][:72]
            print(f"  {n:4d} models {seconds * 1000:6.1f} ms  {last}")
        print("  commonest:", ", ".join(f"{k} {n}" for k, n in kinds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="+", help="e.g. range_bands/movement")
    parser.add_argument("-v", "--verbose", action="store_true", help="each cell's figures")
    args = parser.parse_args()
    for chapter in args.chapters:
        measure(chapter, args.verbose)


if __name__ == "__main__":
    main()
