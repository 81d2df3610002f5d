"""The benchmark cases: our dice notation beside the direct icepool expression for the same roll.

Nothing here imports icepool or rulescore at module level, so a cold worker can time those
imports on their own. Each case computes usable probabilities: ours ``parse(text).distribution()``
(our exact Fraction ``Distribution``), icepool the die plus ``{outcome: Fraction}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

# Keep in step with rulescore.dice.distribution.DEFAULT_EXPLODE_DEPTH (the worker checks it).
EXPLODE_DEPTH = 10


@dataclass(frozen=True)
class Case:
    name: str            # label in the table
    ours: str            # our dice notation ("" for a system widget's odds call)
    icepool_expr: str    # the icepool expression, shown in the README / --list
    icepool_fn: Callable[[], dict]
    note: str = ""
    ours_fn: Callable[[], dict] | None = None   # a system widget's own odds call
    module: str = "rulescore.dice"              # what a cold worker imports (timed apart)

    def run_ours(self):
        """Our side as the widget computes it."""
        return self.ours_fn() if self.ours_fn is not None else ours(self.ours)


def _probs(die) -> dict[int, Fraction]:
    """icepool die -> {outcome: Fraction}, the same shape as our Distribution.items()."""
    return dict(zip(die.outcomes(), die.probabilities()))


def _top2(n: int) -> Callable[[], dict[int, Fraction]]:
    def run() -> dict[int, Fraction]:
        import icepool
        return _probs(icepool.d8.pool(n).highest(2).sum())
    return run


def _keep(k: int) -> Callable[[], dict[int, Fraction]]:
    def run() -> dict[int, Fraction]:
        import icepool
        return _probs(icepool.d6.pool(5).highest(k).sum())
    return run


def _compound_count(threshold: int, dice: int = 15,
                    depth: int = EXPLODE_DEPTH) -> Callable[[], dict[int, Fraction]]:
    """Successes among *dice* compounding d6, each chain exact up to *depth* explosions.

    ``d6.explode(depth=D)`` alone puts every chain longer than D explosions at its top outcome
    6*(D+1) (which would count as a success). We leave those chains out instead, as our
    Distribution does: map the top outcome to Reroll (conditioning each die on a chain of at
    most D explosions), count, sum the pool, then multiply by the chance that no die went past
    the depth, so the numbers are absolute probabilities like ours (ours reports the missing
    mass as ``truncated``).
    """
    def run() -> dict[int, Fraction]:
        import icepool
        top = 6 * (depth + 1)
        hit = icepool.d6.explode(depth=depth).map(
            lambda x: icepool.Reroll if x == top else int(x >= threshold))
        inside = (1 - Fraction(1, 6 ** (depth + 1))) ** dice
        return {v: p * inside for v, p in _probs(hit.pool(dice).sum()).items()}
    return run


def _d100() -> dict[int, Fraction]:
    import icepool
    return _probs(icepool.d100)


def build_cases() -> list[Case]:
    cases = []
    for n in range(1, 16):
        # kh2 of a single die is rejected by our parser (keep 1..count); top-2 of one die is
        # the die itself, i.e. 1d8kh1.
        ours = f"{n}d8kh2" if n >= 2 else "1d8kh1"
        note = "" if n >= 2 else "ours 1d8kh1: kh2 of 1 die is rejected by the parser"
        cases.append(Case(f"top2 {n:2d}d8", ours, f"icepool.d8.pool({n}).highest(2).sum()",
                          _top2(n), note))
    for k in (3, 4, 5):
        cases.append(Case(f"5d6 kh{k}", f"5d6kh{k}", f"icepool.d6.pool(5).highest({k}).sum()",
                          _keep(k)))
    for t in (5, 11):
        cases.append(Case(
            f"15d6!! cs>={t}", f"15d6!!cs>={t}",
            f"icepool.d6.explode(depth={EXPLODE_DEPTH}).map(Reroll if x == "
            f"{6 * (EXPLODE_DEPTH + 1)} else int(x >= {t})).pool(15).sum() × P(inside depth)",
            _compound_count(t)))
    cases.append(Case("d100", "d%", "icepool.d100", _d100))
    return cases


# --- each system widget's odds call beside the same distribution written in icepool ---------
# The icepool side may call our *rule* functions to name an outcome (a band, a success level),
# but the distribution itself is icepool's: its pools, keeps, sums and maps.

def _nonzero(d: dict) -> dict:
    return {k: p for k, p in d.items() if p}


def _vl_hit() -> dict:
    from rulescore.systems import veil_and_lead as vl
    p = vl.hit_probability(6, 12)
    return {True: p, False: 1 - p}


def _vl_hit_ice() -> dict:
    import icepool
    return _nonzero(_probs(icepool.d8.pool(6).highest(2).sum() >= 12))


def _vl_ticks() -> dict:
    from rulescore.systems import veil_and_lead as vl
    return _nonzero(vl.starting_tick_distribution(5))


def _vl_ticks_ice() -> dict:
    import icepool
    from rulescore.systems.veil_and_lead import starting_tick
    total = icepool.d8.pool(5).highest(2).sum()
    return _nonzero(_probs(total.map(lambda t: starting_tick(t - 11) if t >= 11
                                     else starting_tick(None))))


def _pc_levels() -> dict:
    from rulescore.systems import percentile as pc
    return _nonzero(pc.success_level_probabilities(65))


def _pc_levels_ice() -> dict:
    import icepool
    from rulescore.systems.percentile import success_level
    return _probs(icepool.d100.map(lambda r: success_level(r, 65)))


def _melee_key(r) -> tuple:
    return (r.outcome, r.stars)


def _pc_melee() -> dict:
    from rulescore.systems import percentile as pc
    return _nonzero(pc.melee_outcome_distribution(70, "Block", 60))


def _pc_melee_ice() -> dict:
    import icepool
    from rulescore.systems.percentile import melee_exchange
    return _probs(icepool.map(lambda a, d: _melee_key(melee_exchange(a, 70, "Block", d, 60)),
                              icepool.d100, icepool.d100))


def _tsl_bands() -> dict:
    from rulescore.systems import tsl
    return _nonzero(tsl.attack_odds("Proficient", target=11).raw)


def _tsl_bands_ice() -> dict:
    import icepool
    from rulescore.systems.tsl import band_for
    return _probs(icepool.d6.pool(5).highest(4).sum().map(lambda t: band_for(t - 11)))


def _x6_hits() -> dict:
    from rulescore.systems import exploding_d6 as x6
    return _nonzero(x6.hit_odds(8).pmf)


def _x6_hits_ice() -> dict:
    """Each compounding d6 misses (< 5), hits (5-10) or is critical (11+). Exploding twice
    settles every category (any deeper chain is already 11+), so depth 2 is exact here."""
    import icepool
    one = icepool.d6.explode(depth=2).map(lambda x: 100 if x >= 11 else 1 if x >= 5 else 0)
    return {(v % 100, v // 100): p for v, p in _probs(one.pool(8).sum()).items() if p}


def _rb_check() -> dict:
    from rulescore.systems import range_bands as rb
    return _nonzero(rb.check_odds(4, 3).margins)


def _rb_check_ice() -> dict:
    import icepool
    return _probs(icepool.d6.pool(4).sum() - icepool.d6.pool(3).sum())


SYSTEM_CASES = [
    Case("VL hit 6d8 vs TN 12", "", "(d8.pool(6).highest(2).sum() >= 12)", _vl_hit_ice,
         ours_fn=_vl_hit, module="rulescore.systems.veil_and_lead"),
    Case("VL start tick 5d8", "", "d8.pool(5).highest(2).sum().map(starting_tick)",
         _vl_ticks_ice, ours_fn=_vl_ticks, module="rulescore.systems.veil_and_lead"),
    Case("PC levels EML 65", "", "d100.map(success_level(r, 65))", _pc_levels_ice,
         ours_fn=_pc_levels, module="rulescore.systems.percentile"),
    Case("PC melee 70 Block 60", "", "icepool.map(melee_exchange(a, 70, Block, d, 60), d100, d100)",
         _pc_melee_ice, ours_fn=_pc_melee, module="rulescore.systems.percentile"),
    Case("TSL Proficient vs T11", "", "d6.pool(5).highest(4).sum().map(band_for(t - 11))",
         _tsl_bands_ice, ours_fn=_tsl_bands, module="rulescore.systems.tsl"),
    Case("x6 hits 8 dice", "", "d6.explode(depth=2).map(category).pool(8).sum()",
         _x6_hits_ice, ours_fn=_x6_hits, module="rulescore.systems.exploding_d6"),
    Case("RB 4D vs 3D check", "", "d6.pool(4).sum() - d6.pool(3).sum()", _rb_check_ice,
         ours_fn=_rb_check, module="rulescore.systems.range_bands"),
]

CASES = build_cases() + SYSTEM_CASES
BY_NAME = {c.name: c for c in CASES}


def ours(text: str):
    """Our computation as a widget makes it: parse, then the exact Fraction Distribution."""
    from rulescore.dice import parse
    return parse(text).distribution()
