"""The engine contract under hostile input (issue 18 item 3), for every public function of
every system, found by ``tests/rulescore/contract.py``.

Quick run (part of the normal suite): a few examples per function. Deep run:
``CONTRACT_EXAMPLES=1000 .venv/bin/python -m pytest tests/rulescore/test_engine_contract.py``,
or ``benchmarks/fuzz_engine.py`` for the counts without stopping at the first failure.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from tests.rulescore import contract
from tests.rulescore.contract_examples import EXAMPLES, GUESSES

EXAMPLES_PER_FUNCTION = int(os.environ.get("CONTRACT_EXAMPLES", "10"))

#: Functions known to break the contract, "system.function" -> why. Remove an entry when the
#: function is fixed (one line each, so parallel edits do not collide).
XFAIL: dict[str, str] = {
}

TARGETS = {t.key: t for t in contract.targets()}


def _params(known: dict[str, str]) -> list:
    marked = []
    for key in TARGETS:
        marks = [pytest.mark.xfail(reason=known[key], strict=False)] if key in known else []
        marked.append(pytest.param(key, id=key, marks=marks))
    return marked


def test_every_system_is_found():
    systems = {t.system for t in TARGETS.values()}
    assert systems == set(contract.system_names())
    assert len(TARGETS) >= 300


def test_xfail_entries_name_real_functions():
    assert set(XFAIL) <= set(TARGETS)


@pytest.mark.parametrize("key", list(TARGETS), ids=list(TARGETS))
def test_valid_example_keeps_the_contract(key):
    """Each function has a valid call that returns a result of its declared kind (so the
    hostile calls change one argument of a call that works)."""
    target = TARGETS[key]
    base = contract.base_arguments(target, EXAMPLES, GUESSES)
    assert base is not None, f"{key}: no valid example call (add one to contract_examples.py)"
    outcome = contract.call(target, base, None)
    assert outcome.kind == "result" and outcome.problem is None, outcome.describe()


@pytest.mark.parametrize("key", _params(XFAIL))
def test_hostile_input_keeps_the_contract(key):
    target = TARGETS[key]
    base = contract.base_arguments(target, EXAMPLES, GUESSES)

    @settings(max_examples=EXAMPLES_PER_FUNCTION, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(contract.call_strategy(target, base))
    def hostile_call(drawn):
        arguments, hostile_name = drawn
        outcome = contract.call(target, arguments, hostile_name)
        assert outcome.problem is None, outcome.describe()

    hostile_call()


@pytest.mark.parametrize("key", list(TARGETS), ids=list(TARGETS))
def test_oversized_input_keeps_the_contract(key):
    """Each parameter given a 5,000-digit number, a 100,000-character string and a
    100,000-item list, one at a time: a result or a RulesError naming it, promptly."""
    target = TARGETS[key]
    base = contract.base_arguments(target, EXAMPLES, GUESSES)
    outcomes = [contract.call(target, arguments, name)
                for arguments, name in contract.oversized_calls(target, base)]
    problems = [o.describe() for o in outcomes if o.problem]
    assert not problems, "\n".join(problems[:5])
