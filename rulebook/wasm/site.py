"""The static book's ``_pyodide/`` folder: what a chapter page needs to run its tools itself.

:func:`write_site` fills ``<html>/_pyodide/`` after Jupyter Book has built the pages:

- ``runtime-<version>/``: the runtime files of the Pyodide bundle (rulebook/wasm/bundle.py), no
  more, in a folder named by Pyodide's version;
- ``archives/<group>-<digest>.zip``: each group's archive of installed modules with their
  bytecode (named by the digest of its bytes), and ``bundle.json``, what the folder holds;
- ``pages/<docname>.json`` for each chapter whose page shows a widget: the code cells' sources
  in page order, the groups they need, the runtime's folder and every group's archive, the bytes
  a first visit fetches and the live chapter's address. The loader
  (``static/rulebook-wasm.js``) reads it and nothing else before it starts Python.

Every file of ``runtime-<version>/`` and ``archives/`` has a name that changes with its content,
so a server may let browsers keep them for a year (rulebook/static_server.py, docs/deploy.md).

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


def runtime_folder(version: str) -> str:
    """The site's runtime folder for Pyodide *version*: a new version, a new address."""
    return f"runtime-{version}"


def page_spec(cells: list[str], sizes: dict[str, int], live: str | None,
              runtime: str = "runtime", archives: dict[str, str] | None = None) -> dict[str, Any]:
    """A page's JSON: its cells, groups, the runtime's folder and each group's archive (paths
    from ``_pyodide/``), the bytes to fetch (runtime and archives) and the live chapter's
    address."""
    groups = list(PAGE_GROUPS)
    if any(FORMULA_HINT.search(c) for c in cells):
        groups.append("formulas")
    total = sizes["runtime"] + sum(sizes.get(g, 0) for g in groups)
    return {"cells": cells, "groups": groups, "runtime": runtime, "archives": archives or {},
            "bytes": total, "live": live}


def write_site(project: Path, html: Path, book: Book, executed: Path) -> Path:
    """Write ``<html>/_pyodide`` (see the module's docstring) for the pages of *html*, built
    from the executed notebooks in *executed*; return it."""
    bundle = build_bundle(project)
    manifest = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))
    site = html / SITE_DIR
    if site.exists():
        shutil.rmtree(site)
    folder = runtime_folder(manifest["pyodide"])
    runtime = site / folder
    runtime.mkdir(parents=True)
    sizes = {"runtime": 0}
    for name in RUNTIME_FILES:
        shutil.copy2(bundle / manifest["runtime"] / name, runtime / name)
        sizes["runtime"] += (runtime / name).stat().st_size
    archives = {}
    for a in manifest["archives"]:
        (site / a["file"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundle / a["file"], site / a["file"])
        sizes[a["group"]] = a["bytes"]
        archives[a["group"]] = a["file"]
    listed = {"pyodide": manifest["pyodide"], "python": manifest["python"], "runtime": folder,
              "archives": manifest["archives"]}
    (site / "bundle.json").write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")
    write_pages(site, html, book, executed, sizes, folder, archives)
    return site


def write_pages(site: Path, html: Path, book: Book, executed: Path, sizes: dict[str, int],
                runtime: str = "runtime", archives: dict[str, str] | None = None) -> list[Path]:
    """Write ``<site>/pages/<docname>.json`` for each chapter whose page shows a widget;
    *sizes* holds the bytes of the runtime and of each group's archive, *runtime* the runtime's
    folder and *archives* each group's archive. Return the files written."""
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
        spec = page_spec(cells, sizes, live, runtime, archives)
        out.write_text(json.dumps(spec) + "\n", encoding="utf-8")
        written.append(out)
    return written
