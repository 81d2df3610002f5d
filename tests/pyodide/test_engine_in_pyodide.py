"""The engine's whole test suite (tests/rulescore) inside Pyodide on every `make test`, in one
run, against the installed wheels: the runtime a reader's browser runs and the one the live
book runs cannot drift. A test that cannot run in WebAssembly (it starts another Python) is
skipped there by its own ``skipif``, naming what covers it; every other test must pass, and
both runtimes must collect the same tests."""

import re
import subprocess
import sys

from rulebook.wasm import node

from .conftest import ROOT

SUITE = "tests/rulescore"
#: tests/rulescore's tests that skip themselves in WebAssembly (they start another Python)
SKIPPED_IN_PYODIDE = 2


def counts(output: str) -> dict[str, int]:
    """pytest's closing summary as {"passed": n, "skipped": n, ...}."""
    summary = "\n".join(output.strip().splitlines()[-4:])
    return {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|errors?|xfailed|"
                                              r"xpassed|tests collected)", summary)}


def test_the_engines_whole_test_suite_passes_inside_pyodide(bundle):
    collected = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only",
                                "-p", "no:cacheprovider", SUITE], cwd=ROOT, capture_output=True,
                               text=True, timeout=600)
    in_cpython = counts(collected.stdout).get("tests collected")
    assert in_cpython, collected.stdout[-2000:] + collected.stderr[-2000:]

    run = node.run(bundle, node.engine_tests_args(ROOT, ["-q", SUITE]), timeout=3600)
    tail = run.stdout[-4000:] + run.stderr[-2000:]
    assert run.code == 0, tail
    assert run.report["refused"] == [] and run.report["python_exit"] == 0, tail
    found = counts(run.stdout)
    assert found.get("skipped", 0) <= SKIPPED_IN_PYODIDE, tail
    assert found.get("passed", 0) + found.get("skipped", 0) == in_cpython, (found, in_cpython)
