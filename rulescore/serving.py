"""Which cells the live book runs when Voilà serves a chapter.

A chapter's worked-example checks (``assert`` cells) keep the book honest: nbval and the static
build run them. A reader of the live page sees nothing of them, yet each costs the page about
5 ms before it becomes interactive, so the live book leaves them out.

A cell is a check only when it provably shows nothing and changes no tool: it holds at least one
``assert``; its other statements are imports of the rules engine or of ``fractions``/``math``
and assignments to plain names; and every name it reads is engine data — a name imported from
those modules, a safe builtin, or a name bound by this cell or by an earlier check. The engine
imports nothing from Jupyter and never prints, so such a cell cannot display. A cell that reads
a name bound by a shown cell (a tool, a worked example) always runs.

``tests/book/test_serving.py`` runs every chapter whole and checks that no cell the live book
leaves out showed anything, and that no live cell needs a name only a left-out check defines.
"""

from __future__ import annotations

import ast
from typing import Any

DATA_MODULES = frozenset({"rulescore", "fractions", "math"})
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "frozenset",
    "int", "isinstance", "len", "list", "map", "max", "min", "range", "reversed", "round",
    "set", "sorted", "str", "sum", "tuple", "zip"})


def _body(cell: Any) -> list[ast.stmt] | None:
    if cell.get("cell_type") != "code":
        return None
    try:
        return ast.parse(cell.get("source", "")).body
    except SyntaxError:
        return None


def _module_root(stmt: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(stmt, ast.ImportFrom):
        return {(stmt.module or "").split(".")[0]}
    return {a.name.split(".")[0] for a in stmt.names}


def _imported(stmt: ast.Import | ast.ImportFrom) -> set[str]:
    return {(a.asname or a.name).split(".")[0] for a in stmt.names}


def widget_names(cells: list) -> set[str]:
    """Names the notebook imports from the ``widgets`` package: the code that displays."""
    names: set[str] = set()
    for cell in cells:
        for stmt in _body(cell) or ():
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and _module_root(stmt) == {"widgets"}:
                names |= _imported(stmt)
    return names


def data_names(cells: list) -> set[str]:
    """Names the notebook imports from the rules engine, ``fractions`` or ``math``."""
    names: set[str] = set()
    for cell in cells:
        for stmt in _body(cell) or ():
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and _module_root(stmt) <= DATA_MODULES:
                names |= _imported(stmt)
    return names


def bound_names(cell: Any) -> set[str]:
    """Every name a cell binds: assignment and loop targets, lambda arguments, imports."""
    names: set[str] = set()
    for node in ast.walk(ast.Module(body=_body(cell) or [], type_ignores=[])):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= _imported(node)
    return names


def _plain_target(target: ast.expr) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_plain_target(t) for t in target.elts)
    return isinstance(target, ast.Name)


def _quiet_statement(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return _module_root(stmt) <= DATA_MODULES
    if isinstance(stmt, ast.Assign):
        return all(_plain_target(t) for t in stmt.targets)
    return False


def is_check_cell(cell: Any, data: set[str] | frozenset[str] = frozenset()) -> bool:
    """True for a cell that asserts and provably shows nothing: see the module docstring.
    *data* holds the names already known to be engine data (imports, earlier checks)."""
    body = _body(cell)
    if not body or not any(isinstance(stmt, ast.Assert) for stmt in body):
        return False
    if not all(_quiet_statement(stmt) for stmt in body):
        return False
    read = {n.id for stmt in body for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return read <= set(data) | bound_names(cell) | SAFE_BUILTINS


def check_flags(cells: list) -> list[bool]:
    """For each cell in order, whether it is a check the live book leaves out."""
    data = data_names(cells)
    flags = []
    for cell in cells:
        check = is_check_cell(cell, data)
        if check:
            data |= bound_names(cell)
        flags.append(check)
    return flags


def live_cells(cells: list) -> list:
    """The cells the live page runs: every cell but the worked-example checks."""
    return [c for c, check in zip(cells, check_flags(cells)) if not check]


def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
    """Voilà's prelaunch hook (share/jupyter/config/voila.py): serve the live cells only."""
    notebook.cells = live_cells(notebook.cells)
    return notebook
