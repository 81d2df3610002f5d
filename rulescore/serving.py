"""Which cells the live book runs when Voilà serves a chapter.

A chapter's worked-example checks (code cells made only of ``assert`` statements) keep the book
honest: nbval and the static build run them. A reader of the live page
sees nothing of them, yet each costs the page about 10 ms before it becomes interactive, so the
live book leaves them out. ``tests/book/test_serving.py`` checks that no cell the live book runs
needs a name that only a left-out check defines.
"""

from __future__ import annotations

import ast
from typing import Any


def _body(cell: Any) -> list[ast.stmt] | None:
    if cell.get("cell_type") != "code":
        return None
    try:
        return ast.parse(cell.get("source", "")).body
    except SyntaxError:
        return None


def widget_names(cells: list) -> set[str]:
    """Names the notebook imports from the ``widgets`` package: the only code that displays
    (the rules engine imports nothing from Jupyter)."""
    names: set[str] = set()
    for cell in cells:
        for stmt in _body(cell) or ():
            if isinstance(stmt, ast.ImportFrom) and (stmt.module or "").split(".")[0] == "widgets":
                names.update(a.asname or a.name for a in stmt.names)
    return names


def is_check_cell(cell: Any, displays: set[str] = frozenset()) -> bool:
    """True for a code cell made only of ``assert`` statements (and imports) that calls none
    of the names in *displays*: it cannot show anything. A cell that also runs a statement of
    another kind (``r = worked(...)``) may display through it, so it always runs."""
    body = _body(cell)
    if not body or not any(isinstance(stmt, ast.Assert) for stmt in body):
        return False
    if not all(isinstance(stmt, (ast.Assert, ast.Import, ast.ImportFrom)) for stmt in body):
        return False
    used = {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    return not used & displays


def live_cells(cells: list) -> list:
    """The cells the live page runs: every cell but the worked-example checks."""
    displays = widget_names(cells)
    return [c for c in cells if not is_check_cell(c, displays)]


def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
    """Voilà's prelaunch hook (share/jupyter/config/voila.py): serve the live cells only."""
    notebook.cells = live_cells(notebook.cells)
    return notebook
