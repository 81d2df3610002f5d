"""The table of contents travels with the package (rulebook.toc.find_project_dir's last place):
an installed wheel or Python in the browser has no project folder to find it in. Reading it
there is checked inside Pyodide by tests/pyodide/test_in_pyodide.py."""

import tomllib
from pathlib import Path

from rulebook import toc

ROOT = Path(__file__).resolve().parents[2]
PACKAGED = ROOT / "rulebook" / toc.BOOK_FILE


def test_the_packaged_copy_is_the_project_file_itself():
    assert PACKAGED.is_symlink(), "a link, so chapter order still lives in one file"
    assert PACKAGED.resolve() == (ROOT / toc.BOOK_FILE).resolve()


def test_pyproject_ships_it_as_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert toc.BOOK_FILE in data["tool"]["setuptools"]["package-data"]["rulebook"]


def test_a_checkout_is_still_found_before_the_packaged_copy(tmp_path, monkeypatch):
    monkeypatch.delenv("RULEBOOK_HOME", raising=False)
    monkeypatch.chdir(tmp_path)                 # no jupyter_book.yml above the working folder
    assert toc.find_project_dir() == ROOT
    assert toc.load_book().chapters[0].file == "00_dice/dice"
