"""The static book's ``_pyodide/`` folder: what a chapter page needs to run its tools itself.

:func:`write_site` fills ``<html>/_pyodide/`` after Jupyter Book has built the pages:

- ``runtime/``: the runtime files of the Pyodide bundle (rulebook/wasm/bundle.py), no more;
- ``wheels/`` and ``bundle.json``: every wheel of the bundle but the test group's;
- ``pages/<docname>.json`` for each chapter whose page shows a widget: the code cells' sources
  in page order, the wheel groups they need, the bytes a first visit fetches and the live
  chapter's address. The loader (``static/rulebook-wasm.js``) reads it.

A page's code cells and the cells its HTML shows are matched by order, so the counts must
agree; a page where they do not is refused here rather than run wrongly in a reader's browser.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from ..build import BookBuildError
from ..toc import Book
from .bundle import RUNTIME_FILES, build_bundle

LOADER = Path(__file__).with_name("static") / "rulebook-wasm.js"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SITE_DIR = "_pyodide"
LEFT_OUT_GROUPS = ("test",)
PAGE_GROUPS = ("engine", "widgets")
# A cell that renders a formula as LaTeX imports sympy (rulescore.formulas); the loader also
# fetches the formulas group when a cell asks for sympy on a page not marked here.
FORMULA_HINT = re.compile(r"\b(latex|sympy)\b")
_CELL = re.compile(r'<div class="cell(?: [^"]*)?"')


def code_cells(notebook: Path) -> list[str]:
    """The sources of *notebook*'s code cells, in order."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in data["cells"] if c["cell_type"] == "code"]


def page_spec(cells: list[str], sizes: dict[str, int], live: str | None) -> dict[str, Any]:
    """A page's JSON: its cells, wheel groups, bytes to fetch (runtime and wheels) and the
    live chapter's address."""
    groups = list(PAGE_GROUPS)
    if any(FORMULA_HINT.search(c) for c in cells):
        groups.append("formulas")
    total = sizes["runtime"] + sum(sizes.get(g, 0) for g in groups)
    return {"cells": cells, "groups": groups, "bytes": total, "live": live}


def write_site(project: Path, html: Path, book: Book, executed: Path) -> Path:
    """Write ``<html>/_pyodide`` (see the module's docstring) for the pages of *html*, built
    from the executed notebooks in *executed*; return it."""
    bundle = build_bundle(project)
    manifest = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))
    site = html / SITE_DIR
    if site.exists():
        shutil.rmtree(site)
    runtime = site / manifest["runtime"]
    runtime.mkdir(parents=True)
    sizes = {"runtime": 0}
    for name in RUNTIME_FILES:
        shutil.copy2(bundle / manifest["runtime"] / name, runtime / name)
        sizes["runtime"] += (runtime / name).stat().st_size
    wheels = [w for w in manifest["wheels"] if w["group"] not in LEFT_OUT_GROUPS]
    for w in wheels:
        (site / w["file"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundle / w["file"], site / w["file"])
        sizes[w["group"]] = sizes.get(w["group"], 0) + w["bytes"]
    (site / "bundle.json").write_text(json.dumps({**manifest, "wheels": wheels}, indent=1) + "\n",
                                      encoding="utf-8")
    write_pages(site, html, book, executed, sizes)
    return site


def write_pages(site: Path, html: Path, book: Book, executed: Path,
                sizes: dict[str, int]) -> list[Path]:
    """Write ``<site>/pages/<docname>.json`` for each chapter whose page shows a widget;
    *sizes* holds the bytes of the runtime and of each wheel group. Return the files written."""
    written = []
    for chapter in book.chapters:
        page = html / f"{chapter.file}.html"
        text = page.read_text(encoding="utf-8")
        if WIDGET_VIEW not in text:
            continue
        # The notebook as Jupyter Book executed it, which is what the page shows (the one
        # under book/ may have been edited since).
        cells = code_cells(executed / chapter.notebook)
        shown = len(_CELL.findall(text))
        if shown != len(cells):
            raise BookBuildError(f"{page.name} shows {shown} code cells but "
                                 f"{executed / chapter.notebook} has {len(cells)}: the page's "
                                 "tools could not be matched to its cells")
        live = f"{book.live_url}/{chapter.notebook}" if book.live_url else None
        out = site / "pages" / f"{chapter.file}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(page_spec(cells, sizes, live)) + "\n", encoding="utf-8")
        written.append(out)
    return written
