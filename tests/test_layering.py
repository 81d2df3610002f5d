"""The three packages and what may import what (DESIGN §1 and §2), read from the source.

- ``rulescore``, the engine, imports nothing of Jupyter, Voilà, Sphinx or the browser stack,
  runs no subprocess (npm, Sphinx), and imports neither the tools (``widgets``) nor the site
  (``rulebook``);
- ``widgets``, the tools, imports nothing of the site but its table of contents
  (``rulebook.toc``: the chapters' previous/next links);
- ``rulebook``, the site, may import both.

Every import statement is read with ``ast``, those inside functions too, relative imports
resolved; a failure names the file, the line and the import.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PUBLISHING = {"IPython", "ipywidgets", "ipykernel", "jupyter_client", "jupyter_core",
              "jupyter_server", "jupyterlab", "voila", "nbformat", "nbclient", "nbconvert",
              "traitlets", "tornado", "comm", "anywidget", "sphinx", "jupyter_book", "myst_nb",
              "playwright", "subprocess"}
RULES = {
    "rulescore": (PUBLISHING | {"widgets", "rulebook"}, set()),
    "widgets": ({"rulebook"}, {"rulebook.toc"}),
}


def imports(package: str):
    """(file, line, imported module) for every import in *package*, relative ones resolved."""
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        here = parts[:-1]                    # the package a relative import starts from
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, node.lineno, alias.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[:len(here) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                yield path, node.lineno, module
                for alias in node.names:             # "from rulebook import toc" names a module
                    yield path, node.lineno, f"{module}.{alias.name}"


def offends(module: str, forbidden: set[str], allowed: set[str]) -> bool:
    def under(name: str, roots: set[str]) -> bool:
        return any(name == r or name.startswith(r + ".") for r in roots)
    if under(module, allowed) or any(a.startswith(module + ".") for a in allowed):
        return False
    return under(module, forbidden)


@pytest.mark.parametrize("package", sorted(RULES))
def test_each_package_imports_only_what_its_layer_may(package):
    forbidden, allowed = RULES[package]
    found = sorted({f"{path.relative_to(ROOT)}:{line}: imports {module}"
                    for path, line, module in imports(package)
                    if offends(module, forbidden, allowed)})
    assert not found, f"{package} may not import these (DESIGN §1):\n" + "\n".join(found)


def test_the_check_sees_relative_and_nested_imports():
    """The reader of imports itself: relative imports resolve, imports inside functions count,
    and an allowed module does not allow its neighbours."""
    found = {(p.name, m) for p, _, m in imports("rulebook")}
    assert ("build.py", "rulebook.toc") in found                 # from .toc import ...
    assert ("cli.py", "rulebook.build") in found                 # inside cmd_build
    assert offends("rulebook.serving", {"rulebook"}, {"rulebook.toc"})
    assert not offends("rulebook.toc", {"rulebook"}, {"rulebook.toc"})
    assert not offends("rulebook", {"rulebook"}, {"rulebook.toc"})   # "from rulebook import toc"
    assert offends("voila.app", PUBLISHING, set())


def test_the_site_package_is_the_one_named_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'rulebook = "rulebook.cli:main"' in text
    for moved in ("book", "serving", "bookbuild", "cli"):
        assert not (ROOT / "rulescore" / f"{moved}.py").exists(), f"rulescore/{moved}.py is back"
