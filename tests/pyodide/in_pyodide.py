"""pytest plugin for the engine's tests inside Pyodide (``rulebook.wasm`` loads it with -p).

Before collecting, it checks that the engine and the tools come from the installed wheel, not
from the mounted checkout: the run tests what a reader's browser would run. A test that cannot
run in WebAssembly says so itself (``skipif(sys.platform == "emscripten")``, with why)."""

from __future__ import annotations

import sys

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
    import rulescore
    import widgets
    where = {m.__name__: m.__file__ for m in (rulescore, widgets)}
    if sys.platform != "emscripten" or any("site-packages" not in f for f in where.values()):
        raise pytest.UsageError(f"this plugin runs the engine's tests in Pyodide against the "
                                f"installed wheel; they came from {where} on {sys.platform}")
