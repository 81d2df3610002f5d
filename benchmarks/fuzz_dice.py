"""Fuzz the dice notation's exact distributions: every one returns or is refused within 1 s.

    .venv/bin/python benchmarks/fuzz_dice.py [--n 2500] [--seed S] [--calibrate]

Generates random *valid* notation covering every feature (1 to 3 terms, signs, constants,
1 to 100 dice, d2 to d1000 and d%, '!' and '!!', kh/kl/dh/dl/k with or without a count,
cs>=N, spaces and capitals), parses each and times ``distribution()`` with
the process's CPU time (``time.process_time``: on a shared machine wall time also counts
other people's work; it is printed beside). The cache is emptied before each expression, so every time is a first
computation (what a reader pays for a new input). Prints how many returned, were refused
(``DiceTooLargeError``), took over 1 s, raised anything else, the worst time, and the peak of
the cache's tracked size (the cache is also filled across the run, without emptying, in a
second pass over the allowed expressions). Exits 1 if any goal is missed: an exception other
than RulesError, or a call over 1 s.

``--calibrate`` instead times the counting of single terms with the budget set aside (each
under a 20 s alarm) and prints the measured time beside the estimate of
``rulescore.dice.budget`` for each kind of term: the coefficients there come from this table.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulescore import RulesError  # noqa: E402
from rulescore.dice import CACHE_MIB, DiceTooLargeError, parse  # noqa: E402
from rulescore.dice import budget, distribution as D  # noqa: E402
from rulescore.dice.notation import MAX_DICE, MAX_TERMS  # noqa: E402

LIMIT = 1.0  # seconds: the goal for every distribution()


def _log_int(rng: random.Random, low: int, high: int) -> int:
    """An int in low..high, spread evenly in log scale (small dice as often as large)."""
    return min(high, max(low, round(low * (high / low) ** rng.random())))


def random_term(rng: random.Random, dice_left: int) -> str:
    """One valid dice term (or a constant), at most *dice_left* dice."""
    if rng.random() < 0.15:
        return str(_log_int(rng, 1, 1000))
    n = _log_int(rng, 1, dice_left)
    if rng.random() < 0.05:
        die, x = "d%", 100
    else:
        x = _log_int(rng, 2, 1000)
        die = f"d{x}"
    count = "" if n == 1 and rng.random() < 0.3 else str(n)
    mods = []
    if rng.random() < 0.35:
        mods.append(rng.choice(["!", "!!"]))
    if rng.random() < 0.5:
        mode = rng.choice(["kh", "kl", "dh", "dl", "k"])
        if mode in ("kh", "kl", "k"):
            k = rng.randint(1, n)
        else:
            k = rng.randint(0, n - 1)
        written = "" if k == 1 and mode != "dh" and mode != "dl" and rng.random() < 0.3 else k
        mods.append(f"{mode}{written}")
    if rng.random() < 0.25:
        top = x * 3 if mods and mods[0].startswith("!") else x + 1
        mods.append(f"cs>={rng.randint(1, top)}")
    rng.shuffle(mods)
    text = f"{count}{die}{''.join(mods)}"
    return text.upper() if rng.random() < 0.1 else text


def random_expression(rng: random.Random) -> str:
    """A valid expression of 1 to 3 terms, at most MAX_DICE dice in all."""
    terms, left = [], MAX_DICE
    for i in range(rng.choice([1, 1, 1, 2, 2, 3])):
        if left < 1:
            break
        term = random_term(rng, left)
        if "d" in term.lower():
            left -= int(term.lower().split("d")[0] or 1)
        sign = rng.choice(["+", "+", "-"]) if i else rng.choice(["", "", "-", "+"])
        terms.append(sign + term)
    text = (" " if rng.random() < 0.1 else "").join(terms)
    assert len(terms) <= MAX_TERMS
    return text


def fuzz(n: int, seed: int) -> int:
    rng = random.Random(seed)
    exprs = [random_expression(rng) for _ in range(n)]
    returned = refused = slow = slow_wall = other = 0
    worst, worst_text, worst_wall = 0.0, "", 0.0
    allowed = []
    for text in exprs:
        expr = parse(text)              # every generated text is valid: a failure here is a bug
        D.clear_cache()
        start, wall = time.process_time(), time.perf_counter()
        try:
            expr.distribution()
            returned += 1
            allowed.append(expr)
        except DiceTooLargeError:
            refused += 1
        except RulesError as exc:
            other += 1
            print(f"  other RulesError: {text!r}: {exc}")
        except Exception as exc:        # noqa: BLE001 - counting what escapes is the point
            other += 1
            print(f"  {type(exc).__name__}: {text!r}: {exc}")
        took, took_wall = time.process_time() - start, time.perf_counter() - wall
        worst_wall = max(worst_wall, took_wall)
        slow_wall += took_wall > LIMIT
        if took > LIMIT:
            slow += 1
            print(f"  over {LIMIT:.0f} s: {text!r} took {took:.2f} s of CPU")
        if took > worst:
            worst, worst_text = took, text
    D.clear_cache()
    peak = 0
    for expr in allowed:
        expr.distribution()
        peak = max(peak, D.cache_bytes())
    print(f"Dice fuzz: {n} valid random expressions (seed {seed}), cache emptied before each")
    print(f"  returned {returned}, refused {refused} (DiceTooLargeError), over {LIMIT:.0f} s "
          f"{slow}, other exceptions {other}")
    print(f"  worst time {worst:.3f} s of CPU ({worst_text!r}); wall time: worst "
          f"{worst_wall:.3f} s, {slow_wall} over {LIMIT:.0f} s (machine load "
          f"{os.getloadavg()[0]:.1f} at the end)")
    print(f"  peak cache {peak / 2 ** 20:.1f} MiB of {CACHE_MIB} MiB, filling it with the "
          f"{len(allowed)} returned expressions in turn (the process's peak RSS: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")
    ok = slow == 0 and other == 0 and n >= 2500 and peak <= CACHE_MIB * 2 ** 20
    print("Goals (every call returns or refuses within 1 s, no other exception, cache within "
          f"its bound, at least 2,500 expressions): {'MET' if ok else 'NOT MET'}")
    return 0 if ok else 1


class _Late(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Late


def calibrate() -> int:
    """Measured time beside the estimate for terms of each kind (budget set aside)."""
    grid = [
        *[f"{n}d{x}" for n in (10, 50, 100) for x in (20, 200, 1000)],
        *[f"{n}d{x}kh{k}" for n, x, k in [(10, 100, 5), (20, 50, 10), (40, 100, 3), (100, 200, 1),
                                          (100, 20, 50), (20, 1000, 2), (100, 6, 50), (30, 30, 29)]],
        *[f"{n}d{x}!!" for n, x in [(5, 200), (9, 200), (20, 50), (50, 6), (100, 6), (3, 1000)]],
        *[f"{n}d{x}!!kh{k}" for n, x, k in [(2, 90, 1), (3, 90, 2), (5, 20, 2), (10, 6, 3)]],
        *[f"{n}d{x}!" for n, x in [(10, 10), (50, 10), (20, 100), (100, 6)]],
        *[f"{n}d{x}!{m}{k}" for n, x, m, k in [(100, 6, "kh", 3), (100, 6, "dl", 1),
                                               (50, 20, "dh", 3), (20, 100, "kl", 2),
                                               (30, 50, "kh", 10), (100, 6, "dh", 3)]],
        *[f"{n}d{x}!cs>=5" for n, x in [(100, 6), (100, 1000)]],
        "50d100+50d99", "30d300+30d299", "20d1000+10d999", "50d100kh2+50d100kh3",
    ]
    signal.signal(signal.SIGALRM, _alarm)
    print(f"{'expression':22s} {'estimate s':>10s} {'measured s':>10s} {'ratio':>6s}")
    for text in grid:
        terms = D._merged(tuple(D._normalised(t) for t in parse(text).terms))
        est, _ = budget.estimate(terms, D.DEFAULT_EXPLODE_DEPTH)
        signal.alarm(20)
        start = time.process_time()
        try:
            D._compute(terms, D.DEFAULT_EXPLODE_DEPTH)
            took = time.process_time() - start
            shown = f"{took:10.3f}"
        except _Late:
            took = 20.0
            shown = "    > 20"
        finally:
            signal.alarm(0)
        print(f"{text:22s} {est:10.3f} {shown} {took / est:6.2f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2500, help="expressions to try (default 2500)")
    ap.add_argument("--seed", type=int, default=18, help="random seed (default 18)")
    ap.add_argument("--calibrate", action="store_true",
                    help="print measured time beside the estimate instead")
    args = ap.parse_args()
    return calibrate() if args.calibrate else fuzz(args.n, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
