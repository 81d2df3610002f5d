"""pytest plugin for the engine's tests inside Pyodide (``rulebook.wasm`` loads it with -p).

- Before collecting, it checks that the engine comes from the installed wheel, not from the
  mounted checkout: the run tests what a reader's browser would run.
- A test that starts another Python process cannot run in WebAssembly, which has none, and two
  use the tools (ipywidgets, IPython); each is listed here with why (and what covers it in
  Pyodide), and the list fails loudly if a name goes stale.
"""

from __future__ import annotations

import sys

import pytest

ELSEWHERE = {
    "tests/rulescore/test_purity.py::test_importing_the_engine_loads_no_jupyter_and_no_sympy":
        "starts another Python; tests/pyodide/test_in_pyodide.py runs the same code in a "
        "fresh Pyodide",
    "tests/rulescore/test_formulas.py::test_evaluation_does_not_import_sympy":
        "starts another Python; tests/pyodide/test_in_pyodide.py checks evaluation without "
        "sympy in a fresh Pyodide",
    "tests/rulescore/test_veil_and_lead_fight.py::"
    "test_every_field_of_a_saved_fight_refuses_a_wrong_value_by_name":
        "borrows the tools' test helpers, which import ipywidgets (not installed for the "
        "engine's tests in Pyodide); it runs under CPython only",
    "tests/rulescore/test_adding_a_system.py::test_the_book_shows_its_rulings_and_tables":
        "renders with the tools (widgets.book imports IPython, not installed for the engine's "
        "tests in Pyodide); it runs under CPython only",
}


def pytest_sessionstart(session: pytest.Session) -> None:
    import rulescore
    if sys.platform != "emscripten" or "site-packages" not in rulescore.__file__:
        raise pytest.UsageError(f"this plugin runs the engine's tests in Pyodide against the "
                                f"installed wheel; rulescore came from {rulescore.__file__} "
                                f"on {sys.platform}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    collected = {item.nodeid for item in items}
    files = {nodeid.split("::")[0] for nodeid in collected}
    stale = [n for n in ELSEWHERE if n.split("::")[0] in files and n not in collected]
    if stale:
        raise pytest.UsageError(f"tests/pyodide/in_pyodide.py names tests that are gone: {stale}")
    for item in items:
        if item.nodeid in ELSEWHERE:
            item.add_marker(pytest.mark.skip(reason=f"in Pyodide: {ELSEWHERE[item.nodeid]}"))
