"""The Pyodide bundle (rulebook.wasm.bundle), built once per session: fetched from npm and PyPI
the first time, then kept in _build/pyodide."""

from pathlib import Path

import pytest

from rulebook.wasm import node
from rulebook.wasm.bundle import build_bundle

ROOT = Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line("markers", "pyodide: runs Python in WebAssembly under Node.js")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/pyodide/" in item.nodeid:
            item.add_marker(pytest.mark.pyodide)


@pytest.fixture(scope="session")
def bundle() -> Path:
    node.node()                     # Node.js first: a clear message before any download
    return build_bundle(ROOT)


@pytest.fixture(scope="session")
def in_pyodide(bundle):
    """Run a piece of Python in a fresh Pyodide with the engine's wheels; return the Run."""
    def run(code: str, *extra: str) -> node.Run:
        return node.run(bundle, [*extra, "--python", code], timeout=600)
    return run
