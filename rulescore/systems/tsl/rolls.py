"""The TSL roll: 5d6, keep the highest N by Effective Tier, read as an outcome band.

Every roll in the primer is the same: five six-sided dice, of which the highest few count. How
many count depends on the roller's proficiency tier, moved up or down by Effective Tier shifts.
The total is compared with a static T-number or with an opponent's total, and the margin
places it in one of five outcome bands (primer §11 Attacking, §11 Damage).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from rulescore.dice import DiceSource, Distribution, parse
from rulescore.dice.source import not_both
from rulescore.errors import (RulesError, TableError, require_int, require_text,
                              shown)
from rulescore.tables import Table
from rulescore.trace import Resolution, step

from ._system import DATA

BANDS = ("catastrophic", "failure", "mixed", "success", "crit")
HIT_BANDS = ("mixed", "success", "crit")
TIERS = ("Untrained", "Trained", "Proficient")
TIER_LIMITS = ("extend", "clamp")
DICE = 5
FACES = 6
CRIT_MARGIN = 7
MAX_SHIFT = 4
MAX_TARGET = 40
#: Past any margin a roll can make (5d6 kept against a T-number of at most 40).
MAX_MARGIN = 100
#: A name a caller gives for its own input in messages ("attacker_tier").
MAX_LABEL = 40



def check_band(band: object, name: str = "band") -> str:
    """*band* if it is one of the five outcome bands; a RulesError naming them if not."""
    if band not in BANDS:
        raise RulesError(f"{name} must be one of {', '.join(BANDS)}, got {shown(band)}")
    return band  # type: ignore[return-value]


def band_schemes() -> tuple[str, ...]:
    """The names of the band ladders in the data (``bands=`` option), default first."""
    names = [n[len("bands_"):] for n in DATA.tables("dice") if n.startswith("bands_")]
    return tuple(sorted(names, key=lambda n: (n != "standard", n)))


def band_table(bands: str = "standard") -> Table:
    """The band ladder *bands* (a data table), checked: five bands in order, Crit from +7."""
    if bands not in band_schemes():
        raise RulesError(f"bands must be one of {', '.join(band_schemes())}, got {shown(bands)}")
    table = DATA.table("dice", f"bands_{bands}")
    order = tuple(row["band"] for row in sorted(table, key=lambda r: r.span.low
                                                if r.span.low is not None else -10**9))
    if order != BANDS:
        raise TableError(f"table '{table.name}' must list the bands {', '.join(BANDS)} from "
                         f"the lowest margin up, got {', '.join(order)}")
    crit = table.find("band", "crit").span
    if crit.low != CRIT_MARGIN or crit.high is not None:
        raise TableError(f"table '{table.name}': Crit must start at a margin of "
                         f"+{CRIT_MARGIN} and be open above, got {crit}")
    return table


def band_for(margin: int, *, bands: str = "standard") -> str:
    """The outcome band of *margin* (total minus the number to beat) on the ladder *bands*."""
    require_int("margin", margin, minimum=-MAX_MARGIN, maximum=MAX_MARGIN)
    return band_table(bands).lookup(margin)["band"]


def check_tier(tier: object, name: str = "tier") -> str:
    if tier not in TIERS:
        raise RulesError(f"{name} must be one of {', '.join(TIERS)}, got {shown(tier)}")
    return tier  # type: ignore[return-value]


def check_limits(tier_limits: object) -> str:
    if tier_limits not in TIER_LIMITS:
        raise RulesError(f"tier_limits must be one of {', '.join(TIER_LIMITS)}, "
                         f"got {shown(tier_limits)}")
    return tier_limits  # type: ignore[return-value]


@dataclass(frozen=True)
class EffectiveTier:
    """A tier after its shifts: the rank on the ladder, its name and the dice it keeps."""

    tier: str
    shift: int
    rank: int
    name: str
    keep: int


def effective_tier(tier: str, shift: int = 0, *, tier_limits: str = "extend",
                   name: str = "tier") -> EffectiveTier:
    """Move *tier* by *shift* steps and read how many of the 5d6 it keeps.

    Untrained, Trained and Proficient keep 2, 3 and 4 dice. With ``tier_limits="extend"``
    a shift below Untrained keeps 1 die and above Proficient keeps all 5; with ``"clamp"`` the
    shift stops at the named tiers (ruling ``tsl:tier_limits``).
    """
    return _effective(tier, shift, tier_limits, require_text("name", name, max_length=MAX_LABEL))


def _effective(tier: object, shift: object, tier_limits: object, tier_name: str = "tier",
               shift_name: str = "shift") -> EffectiveTier:
    """effective_tier with the caller's names for the tier and the shift in messages."""
    check_tier(tier, tier_name)
    require_int(shift_name, shift, minimum=-MAX_SHIFT, maximum=MAX_SHIFT)
    check_limits(tier_limits)
    rank = TIERS.index(tier) + shift  # type: ignore[arg-type, operator]
    if tier_limits == "clamp":
        rank = max(0, min(len(TIERS) - 1, rank))
    row = DATA.table("dice", "tiers").lookup(rank)
    return EffectiveTier(tier, shift, rank, row["tier"], row["keep"])  # type: ignore[arg-type]


def keep_count(tier: str, shift: int = 0, *, tier_limits: str = "extend") -> int:
    """How many of the five dice count for *tier* moved by *shift* Effective Tiers."""
    return _effective(tier, shift, tier_limits).keep


def check_dice(dice: object, name: str = "dice") -> tuple[int, ...]:
    """Five faces of 1 to 6, as a tuple; a RulesError naming *name* otherwise."""
    return read_dice(dice, require_text("name", name, max_length=MAX_LABEL))


def read_dice(dice: object, name: str) -> tuple[int, ...]:
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise RulesError(f"{name} must be a list of {DICE} faces (5d6), got {shown(dice)}")
    if len(dice) != DICE:
        raise RulesError(f"{name} must be {DICE} faces (5d6), got {len(dice)}")
    for i, face in enumerate(dice, start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= FACES:
            raise RulesError(f"{name} face {i} must be a whole number from 1 to {FACES}, "
                             f"got {shown(face)}")
    return tuple(dice)


#: How a drawn die is named in an error ("defender's die 3 must be from 1 to 6").
_DIE = {"dice": "die", "attacker_dice": "attacker's die", "defender_dice": "defender's die"}


def faces_from(dice: object, *names: str) -> tuple[tuple[int, ...], ...]:
    """One set of five faces for each of *names* (the first names the input *dice*): read from
    *dice* when it holds the faces, or drawn from it, one five after another, when it is a
    :class:`~rulescore.dice.DiceSource` (dice §Seeds and typed dice; typed dice must all be
    used). A resolving function takes either alike."""
    if not isinstance(dice, DiceSource):
        return (read_dice(dice, names[0]),)
    drawn = tuple(dice.dice(DICE, FACES, _DIE[name]) for name in names)
    dice.finish()
    return drawn


def roll_dice(dice: DiceSource | int) -> tuple[int, ...]:
    """Five d6 from *dice*, a :class:`~rulescore.dice.DiceSource` (the same seed gives the same
    faces; a seed as a whole number is kept for existing callers)."""
    source = DiceSource.from_seed_or_source(dice)
    faces = source.dice(DICE, FACES, "die")
    source.finish()
    return faces


def roll_pair(dice: DiceSource | int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ten d6 from *dice* (a DiceSource; a seed is kept for existing callers): the
    attacker's five, then the defender's five."""
    source = DiceSource.from_seed_or_source(dice)
    faces = source.dice(DICE, FACES, "attacker's die"), source.dice(DICE, FACES, "defender's die")
    source.finish()
    return faces


@dataclass(frozen=True, kw_only=True)
class RollTotal(Resolution):
    """A 5d6 roll read for one tier: ``value`` is the sum of the kept dice."""

    dice: tuple[int, ...]
    keep: int
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    tier: EffectiveTier


def roll_total(dice: Sequence[int] | DiceSource, tier: str, shift: int = 0, *,
               tier_limits: str = "extend", who: str = "") -> RollTotal:
    """Keep the highest dice that *tier* (moved by *shift*) allows and add them up; *who*
    ("Attacker") labels the explanation's steps. *dice* is the five faces, or a DiceSource to
    draw them from."""
    who = require_text("who", who, max_length=MAX_LABEL)
    (faces,) = faces_from(dice, "dice")
    return _roll_total(faces, tier, shift, tier_limits, who)


def _roll_total(dice: object, tier: object, shift: object, tier_limits: object, who: str,
                side: str = "") -> RollTotal:
    """roll_total; *side* ("attacker_") prefixes the input names its messages use."""
    faces = read_dice(dice, f"{side}dice")
    et = _effective(tier, shift, tier_limits, f"{side}tier", f"{side}shift")
    ordered = sorted(faces, reverse=True)
    kept, dropped = tuple(ordered[:et.keep]), tuple(ordered[et.keep:])
    total = sum(kept)
    prefix = f"{who}: " if who else ""
    steps = []
    if shift:
        steps.append(step(f"{prefix}{tier} shifted {shift:+d} Effective Tier → {et.name}",
                          DATA.rule("Tags"), shift=shift, rank=et.rank))
    steps.append(step(f"{prefix}{et.name} keeps the highest {et.keep} of 5d6",
                      DATA.rule("Combat"), keep=et.keep))
    steps.append(step(f"{prefix}rolled {', '.join(map(str, faces))}; kept "
                      f"{' + '.join(map(str, kept))} = {total}"
                      + (f"; dropped {', '.join(map(str, dropped))}" if dropped else ""),
                      DATA.rule("Combat"), total=total))
    return RollTotal(value=total, outcome=et.name, trace=tuple(steps), dice=faces,
                     keep=et.keep, kept=kept, dropped=dropped, tier=et)


@dataclass(frozen=True, kw_only=True)
class StaticRoll(Resolution):
    """A roll against a static T-number: ``value`` is the total, ``outcome`` the band."""

    total: int
    target: int
    margin: int
    band: str
    keep: int
    kept: tuple[int, ...]

    @property
    def hit(self) -> bool:
        return self.band in HIT_BANDS


def _check_target(target: object, name: str = "target") -> int:
    return require_int(name, target, minimum=1, maximum=MAX_TARGET)


def static_roll(dice: Sequence[int] | DiceSource, tier: str, target: int, *, shift: int = 0,
                bands: str = "standard", tier_limits: str = "extend") -> StaticRoll:
    """Roll against a T-number the GM sets: the margin over it gives the band. *dice* is the
    five faces, or a DiceSource to draw them from.

    To hit you must beat the number (primer §11 Attacking); Crit is beating it by 7 or more.
    """
    _check_target(target)
    band_table(bands)
    (faces,) = faces_from(dice, "dice")
    rolled = roll_total(faces, tier, shift, tier_limits=tier_limits)
    margin = rolled.value - target
    band = band_for(margin, bands=bands)
    steps = rolled.trace + (
        step(f"Static T-number {target}: margin {rolled.value} − {target} = {margin:+d}",
             DATA.rule("Attacking"), target=target, margin=margin),
        step(f"Margin {margin:+d} is {band.capitalize()} on the {bands} band ladder",
             DATA.rule("Damage"), band=band),
    )
    return StaticRoll(value=rolled.value, outcome=band, trace=steps, total=rolled.value,
                      target=target, margin=margin, band=band, keep=rolled.keep,
                      kept=rolled.kept)


@dataclass(frozen=True, kw_only=True)
class OpposedRoll(Resolution):
    """Both sides roll: ``value`` is the attacker's total, ``outcome`` the attacker's band.

    ``defence_catastrophic`` is true when the defender's own margin over the attacker falls in
    the Catastrophic band (it spends armour, §11 Armour).
    """

    total: int
    defender_total: int
    margin: int
    band: str
    winner: str
    defence_catastrophic: bool
    keep: int
    defender_keep: int

    @property
    def hit(self) -> bool:
        return self.band in HIT_BANDS


def opposed_band(margin: int, *, bands: str = "standard") -> str:
    """The attacker's band for an opposed *margin*: the defender wins ties (and any loss)."""
    band = band_for(margin, bands=bands)
    if margin <= 0 and band in HIT_BANDS:
        return "failure"
    return band


def opposed_roll(attacker_dice: Sequence[int] | DiceSource, attacker_tier: str,
                 defender_dice: Sequence[int] | None, defender_tier: str, *,
                 attacker_shift: int = 0, defender_shift: int = 0,
                 bands: str = "standard", tier_limits: str = "extend") -> OpposedRoll:
    """Both sides roll 5d6 for their tiers; the higher total wins and the defender wins ties.

    The attacker's margin (attacker − defender) gives the band on the same ladder as a static
    roll, so Crit is beating the defender's total by 7 or more. *attacker_dice* may be a
    DiceSource: both sides' faces are then drawn from it, the attacker's first
    (*defender_dice* None; faces given there as well are refused, naming both).
    """
    if isinstance(attacker_dice, DiceSource):
        not_both("defender_dice", defender_dice, attacker_dice)
        attacker_dice, defender_dice = faces_from(attacker_dice, "attacker_dice",
                                                  "defender_dice")
    band_table(bands)
    att = _roll_total(attacker_dice, attacker_tier, attacker_shift, tier_limits, "Attacker",
                      "attacker_")
    dfn = _roll_total(defender_dice, defender_tier, defender_shift, tier_limits, "Defender",
                      "defender_")
    margin = att.value - dfn.value
    band = opposed_band(margin, bands=bands)
    winner = "attacker" if margin > 0 else "defender"
    why = ("the defender wins ties" if margin == 0 else
           "the attacker is higher" if margin > 0 else "the defender is higher")
    defence_cat = band_for(-margin, bands=bands) == "catastrophic"
    steps = att.trace + dfn.trace + (
        step(f"Opposed: {att.value} against {dfn.value}, margin {margin:+d}; {why}",
             DATA.rule("Attacking"), margin=margin, winner=winner),
        step(f"Margin {margin:+d} is {band.capitalize()} on the {bands} band ladder"
             + (" (a tie or loss is never a hit)" if margin <= 0 else ""),
             DATA.rule("Damage"), band=band),
    )
    if defence_cat:
        steps += (step(f"The defence fell {margin} short: a Catastrophic defence roll",
                       DATA.rule("Armour"), defence_margin=-margin),)
    return OpposedRoll(value=att.value, outcome=band, trace=steps, total=att.value,
                       defender_total=dfn.value, margin=margin, band=band, winner=winner,
                       defence_catastrophic=defence_cat, keep=att.keep,
                       defender_keep=dfn.keep)


def keep_distribution(keep: int) -> Distribution:
    """The exact distribution of the highest *keep* of 5d6."""
    return _keep_distribution(require_int("keep", keep, minimum=1, maximum=DICE))


@lru_cache(maxsize=DICE)
def _keep_distribution(keep: int) -> Distribution:
    return parse(f"5d6kh{keep}").distribution()


def _empty() -> dict[str, Fraction]:
    return {b: Fraction(0) for b in BANDS}


def band_odds(tier: str, target: int, *, shift: int = 0, bands: str = "standard",
              tier_limits: str = "extend") -> dict[str, Fraction]:
    """Exact chance of each band for *tier* (moved by *shift*) against T-number *target*."""
    _check_target(target)
    table = band_table(bands)
    keep = keep_count(tier, shift, tier_limits=tier_limits)
    out = _empty()
    for total, p in keep_distribution(keep).items():
        out[table.lookup(total - target)["band"]] += p
    return out


def opposed_margin_odds(attacker_tier: str, defender_tier: str, *, attacker_shift: int = 0,
                        defender_shift: int = 0,
                        tier_limits: str = "extend") -> dict[int, Fraction]:
    """Exact chance of each margin (attacker total − defender total) of an opposed roll."""
    a = _effective(attacker_tier, attacker_shift, tier_limits, "attacker_tier",
                   "attacker_shift").keep
    d = _effective(defender_tier, defender_shift, tier_limits, "defender_tier",
                   "defender_shift").keep
    out: dict[int, Fraction] = {}
    for ta, pa in keep_distribution(a).items():
        for td, pd in keep_distribution(d).items():
            out[ta - td] = out.get(ta - td, Fraction(0)) + pa * pd
    return dict(sorted(out.items()))


def opposed_odds(attacker_tier: str, defender_tier: str, *, attacker_shift: int = 0,
                 defender_shift: int = 0, bands: str = "standard",
                 tier_limits: str = "extend") -> dict[str, Fraction]:
    """Exact chance of each attacker band in an opposed roll (defender wins ties)."""
    band_table(bands)
    out = _empty()
    for margin, p in opposed_margin_odds(attacker_tier, defender_tier,
                                         attacker_shift=attacker_shift,
                                         defender_shift=defender_shift,
                                         tier_limits=tier_limits).items():
        out[opposed_band(margin, bands=bands)] += p
    return out
