"""A part of the engine's own tests, run inside Pyodide on every `make test` (the whole of
tests/rulescore runs there with `make test-pyodide`): the dice notation, the tables read
by the standard library's tomllib (there is no rtoml in WebAssembly), formulas, saved states,
and each system's main module."""

import re

from rulebook.wasm import node

from .conftest import ROOT

PART = ["tests/rulescore/test_toml_fallback.py", "tests/rulescore/test_tables.py",
        "tests/rulescore/test_dice_notation.py", "tests/rulescore/test_formulas.py",
        "tests/rulescore/test_saved.py", "tests/rulescore/test_veil_and_lead.py",
        "tests/rulescore/test_percentile.py", "tests/rulescore/test_tsl_rolls.py",
        "tests/rulescore/test_exploding_d6.py", "tests/rulescore/test_range_bands.py"]


def test_a_part_of_the_engines_tests_passes_inside_pyodide(bundle):
    run = node.run(bundle, node.engine_tests_args(ROOT, ["-q", *PART]), timeout=3600)
    tail = run.stdout[-4000:] + run.stderr[-2000:]
    assert run.code == 0, tail
    assert run.report["refused"] == [] and run.report["python_exit"] == 0, tail
    summary = run.stdout.strip().splitlines()
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error)",
                                                      "\n".join(summary[-4:])))
    assert counts.get("passed", 0) >= 500 and not counts.get("failed"), tail
