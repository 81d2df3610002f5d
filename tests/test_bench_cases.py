"""The odds benchmark compares like with like: for every system widget case, our odds call and
the icepool expression give exactly the same probabilities (no timing here)."""

import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rulescore.systems import names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import cases as C  # noqa: E402

SYSTEM = [c for c in C.CASES if c.ours_fn is not None]


def test_every_system_has_a_widget_case():
    covered = {c.module.removeprefix("rulescore.systems.") for c in SYSTEM}
    missing = sorted(set(names()) - covered)
    assert not missing, f"add an odds case to benchmarks/cases.py for {missing}"


@pytest.mark.parametrize("case", SYSTEM, ids=lambda c: c.name)
def test_both_sides_agree_exactly(case):
    ours, theirs = case.run_ours(), case.icepool_fn()
    assert ours == theirs
    assert all(isinstance(p, Fraction) for p in ours.values())
    assert sum(ours.values()) == 1
