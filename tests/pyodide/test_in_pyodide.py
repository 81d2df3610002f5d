"""The engine in WebAssembly: Pyodide under Node.js, installed from the local wheels only.

What the engine's own tests check in a fresh CPython process (tests/rulescore/test_purity.py,
test_formulas.py) is checked here in a fresh Pyodide, which has no processes to start. One
Pyodide answers the checks in turn (each prints one JSON line), the import check first, while
the interpreter is fresh; a second one shows that a request to another host is refused."""

import json

import pytest

from rulebook.toc import load_book
from rulebook.wasm import node
from tests.rulescore import test_purity

from .conftest import ROOT

FORMULA = """
import json, sys
from rulescore.formulas import Formula
from rulescore.trace import RuleRef
f = Formula('Defense', '8 + max(QUICK, SAVVY) + equipment', RuleRef('x', 'y'))
print(json.dumps({'value': f.evaluate(QUICK=3, SAVVY=2, equipment=1),
                  'platform': sys.platform, 'sympy': 'sympy' in sys.modules}))
"""
TOC = """
import json, os, rulebook.toc as toc
book = toc.load_book()
print(json.dumps({'cwd': os.getcwd(), 'from': str(book.project_dir),
                  'chapters': [c.file for c in book.chapters]}))
"""
REFUSED = """
from js import fetch
try:
    await fetch('http://rulebook.invalid/')
except Exception as exc:
    print('refused:', 'refused a request' in str(exc))
"""


@pytest.fixture(scope="module")
def checks(in_pyodide):
    run = in_pyodide("\n".join([test_purity.CODE, FORMULA, TOC]))
    assert run.code == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = [json.loads(ln) for ln in run.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == 3, run.stdout[-3000:]
    return run, lines


def test_importing_every_engine_module_loads_no_sympy_and_no_jupyter(checks):
    result = checks[1][0]
    assert set(test_purity.REQUIRED) <= set(result["imported"])
    assert result["forbidden"] == []


def test_a_formula_evaluates_without_sympy(checks):
    assert checks[1][1] == {"value": 12, "platform": "emscripten", "sympy": False}


def test_the_tools_find_the_table_of_contents_with_no_project_folder(checks):
    result = checks[1][2]
    assert result["from"].endswith("site-packages/rulebook"), result
    assert result["chapters"] == [c.file for c in load_book(ROOT).chapters]


def test_no_request_left_for_another_host(checks):
    run = checks[0]
    assert run.report["refused"] == []
    if node.isolation_prefix():
        assert run.isolated and run.report["interfaces"] == []


def test_a_request_to_another_host_is_refused_and_counted(in_pyodide):
    """The fence is real: a fetch from Python fails, is listed, and fails the run."""
    run = in_pyodide(REFUSED)
    assert "refused: True" in run.stdout
    assert run.report["refused"] == ["fetch http://rulebook.invalid/"]
    assert run.code == 3
