"""Widgets hold no rules: they import the engine; the engine never imports them (DESIGN §1)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JUPYTER = {"ipywidgets", "IPython", "traitlets", "ipykernel", "widgets", "voila"}


def test_rulescore_never_imports_jupyter_or_widgets():
    for path in (ROOT / "rulescore").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in JUPYTER, f"{path} imports {name}"


def test_notebooks_hold_no_logic():
    """Code cells are imports, one-line widget calls, worked examples and their asserts."""
    import nbformat
    for path in (ROOT / "book").rglob("*.ipynb"):
        if "_build" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            assert not cell.outputs, f"{path} is stored with outputs"
            tree = ast.parse(cell.source)
            for node in ast.walk(tree):
                assert not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.For,
                                             ast.While, ast.If, ast.Try)), \
                    f"{path}: logic in a cell: {cell.source!r}"
