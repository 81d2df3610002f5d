"""Which cells the live book runs when Voilà serves a chapter.

A chapter's worked-example checks (``assert`` cells) keep the book honest: nbval and the static
build run them. A reader of the live page sees nothing of them, yet each delays the page, so the live book leaves
them out.

A cell is a check only when it provably shows nothing and changes no tool: it holds at least one
``assert``; its other statements are imports of the rules engine or of ``fractions``/``math``
and assignments to plain names; and every name it reads is engine data — a name imported from
those modules, a safe builtin, or a name bound by this cell or by an earlier check. The engine
imports nothing from Jupyter and never prints, so such a cell cannot display. A cell that reads
a name bound by a shown cell (a tool, a worked example) always runs.

``tests/book/test_serving.py`` runs every chapter whole and checks that no cell the live book
leaves out showed anything, and that no live cell needs a name only a left-out check defines.

**Shown once, served to every reader.** Most of a chapter's cells show something no reader can
change: a printed table, a worked example, the previous/next links. Their output is the same for
every reader, yet each delays every page before it becomes interactive. The live book
runs such a cell for the first reader of a chapter and keeps its output in the server's memory
(:data:`SHOWN_ONCE`); later readers are shown the kept output and their kernel skips the cell.

- A cell is a candidate (:func:`candidate_flags`) when it imports nothing but the rules engine,
  ``fractions`` or ``math``, defines and deletes nothing, stores into no attribute or item, and
  reads no name bound by a cell that is not a candidate (a tool, say), imports apart.
- A candidate is skipped only when no later cell that runs reads a name it binds
  (:func:`reuse_plan`, decided for each page before it runs), and only once its output is kept;
  an output is kept only when it is plain display output: no widget, no error, nothing on
  stderr (:func:`reusable_outputs`).
- The key of a kept output holds the chapter's folder, the source of every cell, the cell's
  place and a fingerprint of the book's code and data (:func:`code_fingerprint`), so an edited
  chapter, rules table or widget runs afresh.

**Warmed up at start.** So that a chapter's first reader is served like every later one, the
live server opens every page of the book once when it starts (:func:`warm_up`, wired in
:mod:`rulebook.live`): one page at a time, in book order, each page's kernel shut
down as soon as its page is rendered. ``RULEBOOK_WARM_UP=0`` turns it off.

Reading the source cannot prove that a call changes nothing (a function could set a module's
option), so the test module runs every chapter as a first and as a later reader and checks that
every kept output equals the full run's and that skipping the kept cells changes no other
cell's output.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import functools
import hashlib
import json
import os
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_MODULES = frozenset({"rulescore", "fractions", "math"})
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "frozenset",
    "int", "isinstance", "len", "list", "map", "max", "min", "range", "reversed", "round",
    "set", "sorted", "str", "sum", "tuple", "zip"})


def _body(cell: Any) -> list[ast.stmt] | None:
    """A code cell's statements (read-only: shared by every page that serves the cell)."""
    if cell.get("cell_type") != "code":
        return None
    return _parsed(cell.get("source", ""))


@functools.lru_cache(maxsize=4096)
def _parsed(source: str) -> list[ast.stmt] | None:
    """Parse each cell's source once per server, not on every page: the hook reads each
    cell's statements several times."""
    try:
        return ast.parse(source).body
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
    for node in ast.walk(ast.Module(body=list(_body(cell) or []), type_ignores=[])):
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


def _read_names(body: list[ast.stmt]) -> set[str]:
    return {n.id for stmt in body for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def is_check_cell(cell: Any, data: set[str] | frozenset[str] = frozenset()) -> bool:
    """True for a cell that asserts and provably shows nothing: see the module docstring.
    *data* holds the names already known to be engine data (imports, earlier checks)."""
    body = _body(cell)
    if not body or not any(isinstance(stmt, ast.Assert) for stmt in body):
        return False
    if not all(_quiet_statement(stmt) for stmt in body):
        return False
    return _read_names(body) <= set(data) | bound_names(cell) | SAFE_BUILTINS


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


def _changes_state(stmt: ast.stmt) -> bool:
    """Whether *stmt* could change something a later cell sees other than by binding a name:
    an import of anything but the rules engine, ``fractions`` or ``math`` (modules that only
    define things), a definition, a global, a deletion, or a store into an attribute or an
    item."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return not _module_root(stmt) <= DATA_MODULES
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global,
                         ast.Nonlocal, ast.Delete)):
        return True
    return any(isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, ast.Store)
               for n in ast.walk(stmt))


def _import_names(body: list[ast.stmt]) -> set[str]:
    return {name for stmt in body if isinstance(stmt, (ast.Import, ast.ImportFrom))
            for name in _imported(stmt)}


def candidate_flags(cells: list) -> list[bool]:
    """For each cell, whether its output could be kept for other readers: a code cell that
    changes no state (:func:`_changes_state`) and reads no name bound by a cell that is not a
    candidate, except names bound by imports (a tool built by an earlier cell is never read)."""
    tainted: set[str] = set()
    flags = []
    for cell in cells:
        body = _body(cell)
        ok = bool(body) and not any(_changes_state(stmt) for stmt in body) \
            and not _read_names(body) & tainted
        if body and not ok:
            tainted |= bound_names(cell) - _import_names(body)
        flags.append(ok)
    return flags


RUN, KEEP, REUSE = "run", "keep", "reuse"


def reuse_plan(cells: list, kept: Callable[[int], bool]) -> list[str]:
    """How the live page treats each cell: ``"reuse"`` shows the output kept from an earlier
    reader (``kept(i)`` says there is one) and skips the cell, ``"keep"`` runs it and keeps its
    output, ``"run"`` runs it. A candidate (:func:`candidate_flags`) is reused when its output
    is kept and no later cell that runs reads a name it binds, else kept; every other cell runs.
    Found from the last cell backwards."""
    needed: set[str] = set()
    plan = [RUN] * len(cells)
    candidates = candidate_flags(cells)
    for i in reversed(range(len(cells))):
        body = _body(cells[i])
        if not body:
            continue
        if candidates[i]:
            if kept(i) and not bound_names(cells[i]) & needed:
                plan[i] = REUSE
                continue
            plan[i] = KEEP
        needed |= _read_names(body)
    return plan


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def reusable_outputs(outputs: list) -> bool:
    """Whether a cell's outputs may be shown to another reader: at least one, each a display
    or result without a widget in it, or text on stdout."""
    def plain(out: Any) -> bool:
        kind = out.get("output_type")
        if kind in ("display_data", "execute_result"):
            return WIDGET_VIEW not in out.get("data", {})
        return kind == "stream" and out.get("name") == "stdout"
    return bool(outputs) and all(plain(o) for o in outputs)


def code_fingerprint(root: Path | None = None) -> str:
    """A digest of the name, size and modification time of every file the book's output can
    depend on: the ``rulescore`` and ``widgets`` packages (code and data tables), the table of
    contents (``rulebook/toc.py``) and ``jupyter_book.yml``: one ``stat`` call a file."""
    root = root or Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    toc = root / "rulebook" / "toc.py"
    if toc.is_file():
        st = toc.stat()
        digest.update(f"{toc}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    for folder in (root / "rulescore", root / "widgets"):
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                st = os.stat(os.path.join(dirpath, name))
                digest.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    book = Path(os.environ.get("RULEBOOK_HOME") or root) / "jupyter_book.yml"
    if book.is_file():
        st = book.stat()
        digest.update(f"{book}:{st.st_size}:{st.st_mtime_ns}".encode())
    return digest.hexdigest()


class ShownOnce:
    """Outputs kept from a first reader's run, one entry per (page, cell place): the page is
    the chapter's URL path (its folder where no URL is known): the chapters of one folder
    share the folder, and would evict each other's kept cells."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, int], tuple[str, list]] = {}

    @staticmethod
    def keys(cells: list, cwd: str, fingerprint: str) -> list[tuple[str, int, str]]:
        """The key of each cell: page (*cwd*: the page's URL path, or its folder), place, and
        a digest of every cell's source."""
        digest = hashlib.sha256(fingerprint.encode())
        for cell in cells:
            digest.update(b"\0" + cell.get("cell_type", "").encode() + b"\0")
            digest.update(cell.get("source", "").encode())
        whole = digest.hexdigest()
        return [(cwd, i, whole) for i in range(len(cells))]

    def get(self, key: tuple[str, int, str]) -> list | None:
        """A copy of the outputs kept under *key*, or None."""
        kept = self._kept.get(key[:2])
        return copy.deepcopy(kept[1]) if kept and kept[0] == key[2] else None

    def put(self, key: tuple[str, int, str], outputs: list) -> bool:
        """Keep *outputs* under *key* if another reader may be shown them; whether kept."""
        if not reusable_outputs(outputs):
            return False
        self._kept[key[:2]] = (key[2], copy.deepcopy(outputs))
        return True

    def __len__(self) -> int:
        return len(self._kept)


SHOWN_ONCE = ShownOnce()
MARK = "rulebook_reuse"      # cell metadata: the kept output to show, or the key to keep it under


def mark_reuse(cells: list, cwd: str, fingerprint: str | None = None,
               shown: ShownOnce = SHOWN_ONCE) -> list[str]:
    """Plan the page (:func:`reuse_plan`) and write the plan into the cells' metadata for
    :func:`run_or_reuse`: a reused cell carries its kept outputs, a kept cell its key. The plan
    is final here, so an output kept by another page meanwhile cannot change it."""
    keys = ShownOnce.keys(cells, cwd, fingerprint or code_fingerprint())
    outputs: dict[int, list | None] = {}

    def kept(i: int) -> bool:          # reuse_plan asks only about candidate cells
        outputs[i] = shown.get(keys[i])
        return outputs[i] is not None

    plan = reuse_plan(cells, kept)
    for i, how in enumerate(plan):
        if how == REUSE:
            cells[i].setdefault("metadata", {})[MARK] = {"outputs": outputs[i]}
        elif how == KEEP:
            cells[i].setdefault("metadata", {})[MARK] = {"key": list(keys[i])}
    return plan


async def run_or_reuse(execute: Any, cell: Any, *args: Any,
                       shown: ShownOnce = SHOWN_ONCE, **kwargs: Any) -> Any:
    """Voilà's ``execute(cell, …)`` for a cell :func:`mark_reuse` planned: show its kept outputs
    instead of running it, or run it and keep its outputs, or just run it."""
    mark = cell.get("metadata", {}).pop(MARK, None) or {}
    if "outputs" in mark:
        cell["outputs"] = mark["outputs"]
        return cell
    result = await execute(cell, *args, **kwargs)
    if "key" in mark:
        shown.put(tuple(mark["key"]), cell.get("outputs", []))
    return result


def page_identity(handler: Any, cwd: str) -> str:
    """What tells one served page from another: the URL path Voilà was asked for (two chapters
    of one folder share their *cwd*), or *cwd* when there is no request."""
    path = getattr(getattr(handler, "request", None), "path", None)
    return path if isinstance(path, str) and path else cwd


def prelaunch_hook(handler: Any, notebook: Any, cwd: str) -> Any:
    """Voilà's prelaunch hook (set by :mod:`rulebook.live`): serve the live
    cells only, and mark the cells whose output a first reader's run may keep for later readers."""
    notebook.cells = live_cells(notebook.cells)
    mark_reuse(notebook.cells, page_identity(handler, cwd))
    return notebook


WARM_UP_VAR = "RULEBOOK_WARM_UP"   # "0" turns the warm-up off
# The JupyterLab page configuration Voilà's lab template writes into each page: a JSON object
# holding, among others, the page's kernel id (rulebook.patches: voila-page-kernel-id).
_PAGE_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)'
                          r'</script>', re.DOTALL)
NO_KERNEL_ID = ("no kernel id in the page (rulebook.patches: voila-page-kernel-id), so its "
                "kernel is left running until the idle culler stops it")


def warm_up_enabled(environ: Any = os.environ) -> bool:
    """Whether the live server warms its pages up when it starts (``RULEBOOK_WARM_UP``)."""
    return environ.get(WARM_UP_VAR, "1").strip().lower() not in ("0", "false", "no", "off")


def page_kernel_id(page_html: str) -> str | None:
    """The kernel id a rendered Voilà page carries in its page configuration, or None."""
    found = _PAGE_CONFIG.search(page_html)
    if not found:
        return None
    try:
        kernel_id = json.loads(found.group(1)).get("kernelId")
    except (ValueError, AttributeError):
        return None
    return kernel_id if isinstance(kernel_id, str) and kernel_id else None


@dataclass(frozen=True)
class WarmUp:
    """What a warm-up did: pages rendered, pages that failed (with why), outputs kept, seconds."""

    rendered: tuple[str, ...]
    failed: tuple[tuple[str, str], ...]
    kept: int
    seconds: float

    def summary(self) -> str:
        text = (f"warm-up: {len(self.rendered)} pages rendered in {self.seconds:.1f} s, "
                f"{self.kept} outputs kept for their readers")
        if self.failed:
            text += "; failed: " + ", ".join(f"{p} ({why})" for p, why in self.failed)
        return text


async def warm_up(pages: list[str], fetch: Callable[[str], Awaitable[str]],
                  shutdown: Callable[[str], Awaitable[Any]],
                  shown: ShownOnce = SHOWN_ONCE) -> WarmUp:
    """Render each page once, as its first reader would, so that its kept outputs are ready
    before any reader arrives: ``fetch(page)`` returns the page's HTML (raising ``OSError`` or
    a ``ValueError`` when the page cannot be had), and ``shutdown(kernel_id)`` stops the kernel
    the page started, which no reader will ever connect to. One page at a time, so that a
    reader who arrives meanwhile shares the server with one warm-up page at most. A page whose
    kernel id cannot be read is reported as failed (:data:`NO_KERNEL_ID`), never passed over."""
    start = time.perf_counter()
    before = len(shown)
    rendered: list[str] = []
    failed: list[tuple[str, str]] = []
    for page in pages:
        try:
            page_html = await fetch(page)
        except (OSError, ValueError) as exc:
            failed.append((page, str(exc) or type(exc).__name__))
            continue
        kernel_id = page_kernel_id(page_html)
        if kernel_id is None:
            failed.append((page, NO_KERNEL_ID))
            continue
        await shutdown(kernel_id)
        rendered.append(page)
        await asyncio.sleep(0)       # let a waiting reader's request go first
    return WarmUp(tuple(rendered), tuple(failed), len(shown) - before,
                  time.perf_counter() - start)
