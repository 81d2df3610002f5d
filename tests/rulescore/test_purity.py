"""The rules engine imports nothing from Jupyter, Voilà, Sphinx, the tools or the site, and no
sympy until a formula is rendered (DESIGN §1 and §3). Checked in a fresh interpreter, so other tests' imports cannot hide it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = ["rulescore", "rulescore.dice", "rulescore.tables", "rulescore.formulas",
            "rulescore.trace", "rulescore.errors", "rulescore.rules_index"]
FORBIDDEN = ["ipywidgets", "IPython", "traitlets", "ipykernel", "sympy", "voila",
             "jupyter_server", "jupyter_book", "sphinx", "widgets", "rulebook", "nbformat"]

CODE = f"""
import importlib, json, pkgutil, sys
import rulescore
names = ["rulescore"] + [m.name for m in pkgutil.walk_packages(rulescore.__path__, "rulescore.")]
for name in names:
    importlib.import_module(name)
from rulescore.dice import parse
e = parse("6d8kh2+5")
assert e.roll(dice=[2, 3, 5, 6, 7, 8]).total == 20
e.distribution().p_at_least(15)
print(json.dumps({{"imported": names,
                  "forbidden": sorted(m for m in {FORBIDDEN!r} if m in sys.modules)}}))
"""


@pytest.mark.skipif(sys.platform == "emscripten",
                    reason="WebAssembly has no processes to start; "
                    "tests/pyodide/test_in_pyodide.py runs the same code in a fresh Pyodide")
def test_importing_the_engine_loads_no_jupyter_and_no_sympy():
    out = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(REQUIRED) <= set(result["imported"])
    assert result["forbidden"] == []
