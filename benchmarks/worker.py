"""One measurement in its own process; run.py starts it and reads one JSON line from stdout.

    worker.py cold ours|icepool CASE   import the library (timed apart), time one computation
    worker.py warm ours|icepool [CASE ...]   first call, then the median of repeated calls
    worker.py check [CASE ...]          exact equality of our probabilities and icepool's

A cold worker is a fresh interpreter, so every cache (our lru_caches, icepool's evaluator and
sum caches, math.comb rows) starts empty.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import time
from fractions import Fraction

import cases as C

WARM_MIN_REPS = 7
WARM_MAX_REPS = 300
WARM_BUDGET_S = 0.25     # per case and side: repeat until this much time is spent (>= min reps)


def _import(side: str, module: str = "rulescore.dice") -> float:
    t0 = time.perf_counter()
    if side == "ours":
        importlib.import_module(module)
        # The engine loads icepool with its first exact distribution (a chapter that never
        # needs one never pays for it); import it here too so that, on both sides, the library
        # is timed apart and the cold figure is the computation alone.
        import icepool  # noqa: F401
    else:
        import icepool  # noqa: F401
        if module != "rulescore.dice":  # the icepool side names outcomes with our rules
            importlib.import_module(module)
    return time.perf_counter() - t0


def _call(side: str, case: C.Case):
    return case.run_ours() if side == "ours" else case.icepool_fn()


def cold(side: str, name: str) -> dict:
    case = C.BY_NAME[name]
    import_s = _import(side, case.module)
    t0 = time.perf_counter()
    _call(side, case)
    return {"import_ms": import_s * 1e3, "ms": (time.perf_counter() - t0) * 1e3}


def warm(side: str, names: list[str]) -> dict:
    out = {}
    for name in names:
        case = C.BY_NAME[name]
        _import(side, case.module)
        t0 = time.perf_counter()
        _call(side, case)
        first = time.perf_counter() - t0
        times: list[float] = []
        spent = 0.0
        while len(times) < WARM_MIN_REPS or (spent < WARM_BUDGET_S
                                             and len(times) < WARM_MAX_REPS):
            t0 = time.perf_counter()
            _call(side, case)
            dt = time.perf_counter() - t0
            times.append(dt)
            spent += dt
        out[name] = {"first_ms": first * 1e3, "ms": statistics.median(times) * 1e3,
                     "reps": len(times)}
    return out


def _first_difference(a: dict, b: dict) -> str:
    for v in sorted(set(a) | set(b)):
        if a.get(v, Fraction(0)) != b.get(v, Fraction(0)):
            return f"at total {v}: ours {a.get(v)} vs icepool {b.get(v)}"
    return ""


def check(names: list[str]) -> dict:
    from rulescore.dice import DEFAULT_EXPLODE_DEPTH
    out: dict = {}
    if DEFAULT_EXPLODE_DEPTH != C.EXPLODE_DEPTH:
        out["_depth"] = {"ok": False, "detail": (
            f"benchmarks/cases.py EXPLODE_DEPTH = {C.EXPLODE_DEPTH} but our "
            f"DEFAULT_EXPLODE_DEPTH = {DEFAULT_EXPLODE_DEPTH}: the compounding cases "
            f"compare different things")}
    for name in names:
        case = C.BY_NAME[name]
        if case.ours_fn is not None:
            mine, theirs = case.run_ours(), case.icepool_fn()
            ok = mine == theirs and all(isinstance(p, Fraction) for p in mine.values())
            out[name] = {"ok": ok, "detail": "" if ok else f"ours {mine} vs icepool {theirs}",
                         "outcomes": len(mine)}
            continue
        dist = C.ours(case.ours)
        mine = {int(v): p for v, p in dist.items()}
        theirs = {int(v): p for v, p in case.icepool_fn().items() if p}
        problems = []
        if not all(isinstance(p, Fraction) for p in mine.values()):
            problems.append("our probabilities are not all Fractions")
        if mine != theirs:
            problems.append(_first_difference(mine, theirs)
                            or "different outcomes with zero probability")
        # The mass we leave out must be exactly the chance that some die explodes past depth.
        if "!!" in case.ours:
            count = int(case.ours.split("d")[0])
            expected = 1 - (1 - Fraction(1, 6 ** (C.EXPLODE_DEPTH + 1))) ** count
            if dist.truncated != expected:
                problems.append(f"truncated {dist.truncated} != 1 - (1 - 6^-(D+1))^{count}")
        elif dist.truncated != 0:
            problems.append(f"truncated {dist.truncated} on a roll that cannot explode")
        out[name] = {"ok": not problems, "detail": "; ".join(problems),
                     "outcomes": len(mine)}
    return out


def main(argv: list[str]) -> None:
    mode = argv[0]
    if mode == "cold":
        result = cold(argv[1], argv[2])
    elif mode == "warm":
        result = warm(argv[1], argv[2:] or list(C.BY_NAME))
    elif mode == "check":
        result = check(argv[1:] or list(C.BY_NAME))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
