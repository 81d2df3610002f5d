"""Deep run of the engine contract (issue 18 item 3): every public function of every system,
called with hostile input, counted instead of stopping at the first failure.

    .venv/bin/python benchmarks/fuzz_engine.py [--examples N] [--only PREFIX ...] [--show K]

Prints the number of functions and calls, how the calls ended (results, RulesErrors, other
exceptions by function), results of the wrong kind, wrong types accepted, calls over 2 s and
messages that do not name the parameter, with a few reproducible calls for each failing
function. Timings are reported, never asserted. Exit status 1 when any call broke the contract.
The checks are those of tests/rulescore/test_engine_contract.py (tests/rulescore/contract.py).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.rulescore import contract  # noqa: E402
from tests.rulescore.contract_examples import EXAMPLES, GUESSES  # noqa: E402


def fuzz(target: contract.Target, examples: int) -> list[contract.Outcome]:
    """Every outcome of up to *examples* hostile calls of *target*, then of its oversized
    calls (each parameter given each of contract.OVERSIZED once)."""
    outcomes: list[contract.Outcome] = []
    base = contract.base_arguments(target, EXAMPLES, GUESSES)

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(contract.call_strategy(target, base))
    def record(drawn: tuple[dict[str, object], str | None]) -> None:
        arguments, hostile_name = drawn
        outcomes.append(contract.call(target, arguments, hostile_name))

    record()
    outcomes += [contract.call(target, arguments, name)
                 for arguments, name in contract.oversized_calls(target, base)]
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000,
                        help="hostile calls per function (default 1000)")
    parser.add_argument("--only", nargs="*", default=[],
                        help="keys starting with these, e.g. range_bands or tsl.attack")
    parser.add_argument("--show", type=int, default=3,
                        help="failing calls shown per function (default 3)")
    args = parser.parse_args(argv)

    targets = [t for t in contract.targets()
               if not args.only or any(t.key.startswith(p) for p in args.only)]
    kinds: collections.Counter[str] = collections.Counter()
    problems: dict[str, collections.Counter[str]] = {c: collections.Counter()
                                                     for c in contract.CATEGORIES}
    shown: dict[str, list[str]] = collections.defaultdict(list)
    slow: collections.Counter[str] = collections.Counter()
    no_base = []
    started = time.perf_counter()
    for number, target in enumerate(targets, 1):
        if contract.base_arguments(target, EXAMPLES, GUESSES) is None:
            no_base.append(target.key)
        for outcome in fuzz(target, args.examples):
            kinds[outcome.kind] += 1
            if outcome.seconds > contract.SLOW_SECONDS:
                slow[target.key] += 1
            if outcome.category:
                problems[outcome.category][target.key] += 1
                if len(shown[target.key]) < args.show:
                    shown[target.key].append(outcome.describe())
        print(f"\r{number}/{len(targets)} {target.key:<50}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    calls = sum(kinds.values())
    print(f"functions: {len(targets)} ({len(no_base)} without a valid example: all-hostile calls)")
    print(f"calls: {calls} in {time.perf_counter() - started:.0f} s "
          f"(up to {args.examples} per function)")
    print(f"results: {kinds['result']}")
    print(f"RulesErrors: {kinds['rules_error']}")
    print(f"calls over {contract.SLOW_SECONDS:.0f} s: {sum(slow.values())} "
          f"in {len(slow)} functions")
    for key, count in slow.most_common():
        print(f"    {key}: {count}")
    for category, label in contract.CATEGORIES.items():
        counter = problems[category]
        print(f"{label}: {sum(counter.values())} in {len(counter)} functions")
        for key, count in counter.most_common():
            print(f"    {key}: {count}")
    if shown:
        print("\nexamples (function(arguments): problem [detail]):")
        for key in sorted(shown):
            for line in shown[key]:
                print(f"  {line}")
    return 1 if shown else 0


if __name__ == "__main__":
    sys.exit(main())
