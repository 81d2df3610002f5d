"""Which cells the live book runs when Voilà serves a chapter.

A chapter's worked-example checks (code cells that end in an ``assert`` and print or show
nothing) keep the book honest: nbval and the static build run them. A reader of the live page
sees nothing of them, yet each costs the page about 10 ms before it becomes interactive, so the
live book leaves them out. ``tests/book/test_serving.py`` checks that no cell the live book runs
needs a name that only a left-out check defines.
"""

from __future__ import annotations

import ast
from typing import Any


def is_check_cell(cell: Any) -> bool:
    """True for a code cell whose last statement is an ``assert`` and that shows nothing."""
    if cell.get("cell_type") != "code":
        return False
    try:
        body = ast.parse(cell.get("source", "")).body
    except SyntaxError:
        return False
    shows = any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("print", "display")
                for stmt in body for node in ast.walk(stmt))
    return bool(body) and isinstance(body[-1], ast.Assert) and not shows


def live_cells(cells: list) -> list:
    """The cells the live page runs: every cell but the worked-example checks."""
    return [c for c in cells if not is_check_cell(c)]


def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
    """Voilà's prelaunch hook (share/jupyter/config/voila.py): serve the live cells only."""
    notebook.cells = live_cells(notebook.cells)
    return notebook
