"""Missile sequence: range type, the missile test EML, Direct and Volley results, stray strikes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...errors import RulesError, require_bool, require_choice, require_int, shown
from ...trace import Resolution, step
from ._system import DATA
from .terms import MAX_DIE
from ...dice import DiceSource
from .checks import DiceDraw, effective_eml, mishap_type, success_level
from .injury import grievous_zone_test, require_zone, zone_count

RANGE = "Missile 2 Missile Range"
TEST = "Missile 3 Missile Test"
DIRECT = "Direct Missile Attack"
VOLLEY = "Volley Missile Attack"
TARGETS = ("still", "moving", "evading")
THROWN = (None, "weapon", "object", "oblong object")
SPOILED_AS = ("auto_fail", "no_attack")
MAX_VOLLEY_D10 = 10  # a d10 for CS and one per level beyond it, which no table reaches


def _limit(name: str) -> int:
    return DATA.setting("missile", "missile_limits", name)


@dataclass(frozen=True)
class MissileRange:
    """One row of the missile range table: the attack type a range calls for."""

    attack_type: str
    modifier: int
    zone_die: int
    impact: int
    charge_impact: int | None
    area_ft: int
    max_range: Fraction

    @property
    def volley(self) -> bool:
        return self.attack_type.startswith("Volley")

    @property
    def zone_die_notation(self) -> str:
        return f"d{self.zone_die}"


def missile_actions(weapon: str) -> tuple[dict, ...]:
    """The missile actions of a weapon type ("Bow · Sling", "Crossbow", "Thrown")."""
    rows = DATA.table("missile", "missile_actions")
    kinds = sorted({r["weapon"] for r in rows})
    if weapon not in kinds:
        raise RulesError(f"weapon must be one of {', '.join(kinds)}, got {shown(weapon)}")
    return tuple(r.as_dict() for r in rows if r["weapon"] == weapon)


def missile_range(range_ft: int, base_range: int, *, thrown_pb_zone_die: int | None = None,
                  wet: bool = False, charge_ft: int = 0) -> MissileRange:
    """The range type for a shot at *range_ft* with a weapon of Base Range *base_range*.

    The type is the first whose multiple of Base Range (½, 1, 2, 3, 4) reaches the range.
    Beyond 4 × Base Range there is no shot. A thrown weapon at Direct PB uses its own Zone
    Die (the THROWN WEAPON table is not in the seed: pass it as *thrown_pb_zone_die*). Wet
    bows and crossbows (*wet*) have their Base Range halved. A throw after a Charge
    (*charge_ft* above 0) needs a target at least 5 feet away (Missile 1, Charge); after a
    Charge of at least 20 feet it takes the CHARGE impact modifier instead (its longer Volley
    ranges are on a page the seed lacks).
    """
    require_int("charge_ft", charge_ft, minimum=0)
    require_int("range_ft", range_ft, minimum=0)
    nearest = _limit("charge_min_target_ft")
    if charge_ft and range_ft < nearest:
        raise RulesError(f"range_ft must be at least {nearest} for a throw after a Charge "
                         f"(charge_ft {charge_ft}), got {shown(range_ft)}")
    require_int("base_range", base_range, minimum=1)
    require_bool("wet", wet)
    if thrown_pb_zone_die is not None:
        require_int("thrown_pb_zone_die", thrown_pb_zone_die, minimum=1, maximum=MAX_DIE)
    rows = DATA.table("missile", "missile_range")
    base = Fraction(base_range, 2) if wet else Fraction(base_range)
    for row in rows:
        reach = base * row["br_numerator"] / row["br_denominator"]
        if range_ft <= reach:
            zd = row["zone_die"]
            if thrown_pb_zone_die is not None and row is rows.rows[0]:
                zd = thrown_pb_zone_die
            charge = None if row["charge_impact"] == "" else row["charge_impact"]
            impact = row["impact"]
            if charge_ft >= _limit("charge_min_ft"):
                if charge is None:
                    raise RulesError(f"range_ft {shown(range_ft)} is {row['attack_type']} range, "
                                     "which no charging throw reaches")
                impact = charge
            return MissileRange(row["attack_type"], row["modifier"], zd, impact, charge,
                                row["area_ft"], reach)
    last = rows.rows[-1]
    far = base * last["br_numerator"] / last["br_denominator"]
    raise RulesError(f"range_ft must be at most {far} (4 × base range {base}), "
                     f"got {shown(range_ft)}: out of range")


@dataclass(frozen=True, kw_only=True)
class MissileEML(Resolution):
    """The missile test EML: value = the final adjusted EML (before the 05 floor)."""

    spoiled: bool
    test_eml: int | None


def missile_eml(ml: int, attack_type: str, target: str = "still", *,
                shooter_moving: bool = False, thrown: str | None = None,
                heft_penalty: int = 0, windforce: int = 0, trauma: int = 0,
                aimed: bool = False, tar: int = 1, dodge_index: int = 0,
                overhead_ft: int | None = None, launcher: str = "bow",
                eml_cap: int | None = None, target_grievous: bool = False) -> MissileEML:
    """Apply range and situational modifiers to a missile ML (step 3).

    *attack_type* is a range type ("Direct PB" … "Volley 4"); *target* still, moving or
    evading (then *dodge_index* sets the penalty); *thrown* None, "weapon", "object" or
    "oblong object"; *heft_penalty* and *trauma* are penalties as positive numbers. The Point
    Blank bonus is the range row's +10, counted once (assumption point_blank_once). A final EML
    of -40 or worse is spoiled; otherwise the test is rolled against at least 05. Under an
    overhead (*overhead_ft*) below 10 feet no Volley is possible, and a bow or crossbow
    (*launcher*) shooting Direct (not PB) under 5 feet takes -20. A target with a zone made
    unusable by a Grievous injury (*target_grievous*) counts as Still, whatever it is doing
    (Injury 5, Tests with Grievous Injury).
    """
    require_int("ml", ml)
    require_bool("target_grievous", target_grievous)
    require_bool("shooter_moving", shooter_moving)
    require_bool("aimed", aimed)
    if eml_cap is not None:
        require_int("eml_cap", eml_cap)
    rng = DATA.table("missile", "missile_range").find("attack_type", attack_type)
    mods = DATA.table("missile", "missile_modifiers")
    if target not in TARGETS:
        raise RulesError(f"target must be one of {', '.join(TARGETS)}, got {shown(target)}")
    if thrown not in THROWN:
        raise RulesError(f"thrown must be None, 'weapon', 'object' or 'oblong object', "
                         f"got {shown(thrown)}")
    require_int("heft_penalty", heft_penalty, minimum=0)
    require_int("trauma", trauma, minimum=0)
    require_int("windforce", windforce, minimum=0, maximum=_limit("windforce_max"))
    require_int("tar", tar, minimum=1)
    require_int("dodge_index", dodge_index, minimum=0)
    if launcher not in ("bow", "crossbow", "sling"):
        raise RulesError(f"launcher must be 'bow', 'crossbow' or 'sling', got {shown(launcher)}")
    volley = attack_type.startswith("Volley")
    if overhead_ft is not None:
        require_int("overhead_ft", overhead_ft, minimum=0)
        if volley and overhead_ft < _limit("overhead_volley_min"):
            raise RulesError(f"a {attack_type} attack is not possible with overhead_ft "
                             f"{overhead_ft} (a Volley needs {_limit('overhead_volley_min')} "
                             "ft of clear height or more)")
    trace = [step(f"Missile ML {ml}", DATA.rule(TEST), ml=ml)]
    total = ml
    if target_grievous and target != "still":
        trace.append(step(f"The target has a Grievous injury: it counts as Still, not "
                          f"{target}", DATA.rule("Injury 5 Tests with Grievous Injury")))
        target = "still"

    def add(label: str, amount: int, section: str = TEST) -> None:
        nonlocal total
        if amount:
            total += amount
            trace.append(step(f"{label}: {amount:+d} → {total}", DATA.rule(section), amount=amount,
                              eml=total))

    add(f"{attack_type} range", rng["modifier"], RANGE)
    if target == "moving":
        add("Moving target", mods.find("situation", "moving")["modifier"])
    elif target == "evading":
        add(f"Evading target, Dodge index {dodge_index}",
            mods.find("situation", "evading")["modifier"] * dodge_index)
    if shooter_moving and thrown is None:
        add("Moving shooter", mods.find("situation", "shooter_moving")["modifier"])
    if thrown is not None:
        add("Heft penalty", -heft_penalty)
    if thrown == "object":
        add("Thrown object", mods.find("situation", "thrown_object")["modifier"])
    elif thrown == "oblong object":
        add("Thrown oblong object", mods.find("situation", "thrown_object_oblong")["modifier"])
    if volley and windforce >= _limit("volley_windforce_min"):
        add(f"Crosswind, windforce {windforce}",
            mods.find("situation", "crosswind_volley")["modifier"] * windforce)
    elif not volley and windforce >= _limit("direct_windforce_min"):
        add(f"Crosswind, windforce {windforce}",
            mods.find("situation", "crosswind_direct")["modifier"] * windforce)
    if (overhead_ft is not None and attack_type == "Direct" and thrown is None
            and launcher in ("bow", "crossbow") and overhead_ft < _limit("overhead_direct_min")):
        add(f"Overhead {overhead_ft} ft, bow or crossbow at Direct range",
            _limit("overhead_direct_penalty"), RANGE)
    add("Trauma (fatigue and impairment)", -trauma)
    if aimed:
        add("Aimed the previous round", mods.find("situation", "aim")["modifier"])
    if not volley and tar >= _limit("massive_tar_min"):
        add(f"Massive target, TAR {tar}", mods.find("situation", "massive_target")["modifier"] * tar)
    if total <= _limit("spoiled_at"):
        trace.append(step(f"EML {total} is {_limit('spoiled_at')} or worse: the attack is "
                          "spoiled (no EML 05 floor)", DATA.rule(TEST), eml=total))
        return MissileEML(value=total, outcome="spoiled", trace=tuple(trace), spoiled=True,
                          test_eml=None)
    used = effective_eml(total, eml_cap=eml_cap)
    if used != total:
        trace.append(step(f"Tested as EML {used}", DATA.rule(TEST), eml=used))
    return MissileEML(value=total, outcome=f"EML {used}", trace=tuple(trace), spoiled=False,
                      test_eml=used)


@dataclass(frozen=True, kw_only=True)
class MissileAttack(Resolution):
    """A Direct or Volley missile test: value = victory stars, outcome = the result."""

    level: str | None
    stars: int
    tactical_advantages: int
    precision: int
    mishap: str | None
    stray_possible: bool
    deviation: int | None = None


def _missile_level(roll: int | None, eml: int, spoiled_as: str, section: str,
                   trace: list) -> str | None:
    require_int("eml", eml)
    require_choice("spoiled_as", spoiled_as, SPOILED_AS)
    spoiled = eml <= _limit("spoiled_at")
    if spoiled and spoiled_as == "no_attack":
        trace.append(step(f"EML {eml} spoils the attack: no attack takes place", DATA.rule(TEST)))
        return None
    if roll is None:
        raise RulesError("roll is missing: type the d100 roll (1-100)")
    if spoiled:
        level = success_level(roll, effective_eml(eml))  # the floor: EML 05
        if level in ("S", "CS"):
            level = "F"
        trace.append(step(f"EML {eml} spoils the attack: it fails; roll {roll} against EML 05 "
                          f"only checks for a CF: {level}", DATA.rule(TEST), roll=roll, level=level))
        return level
    used = effective_eml(eml)
    level = success_level(roll, used)
    trace.append(step(f"Roll {roll} against EML {used}: {level}", DATA.rule(section), roll=roll,
                      eml=used, level=level))
    return level


def direct_missile_attack(roll: int | None, eml: int, *, still: bool = True,
                          spoiled_as: str = "auto_fail") -> MissileAttack:
    """Resolve a Direct missile test against a single target (unopposed).

    CF: mishap (Fumble on a 0, Stumble on a 5), no attack. F: miss (a stray strike is possible
    if the EML was over 05, see :func:`stray_strike`). S: one star, a base impact strike. CS:
    two stars. A Still target gives a free Precision TA on a strike. *spoiled_as* says what a
    spoiled attack (EML -40 or worse) does: "auto_fail" (roll only for a CF) or "no_attack".
    """
    require_bool("still", still)
    trace: list = []
    level = _missile_level(roll, eml, spoiled_as, DIRECT, trace)
    if level is None:
        return MissileAttack(value=0, outcome="no attack", trace=tuple(trace), level=None,
                             stars=0, tactical_advantages=0, precision=0, mishap=None,
                             stray_possible=False)
    row = DATA.table("missile", "direct_missile_results").find("level", level)
    stars, mishap, precision = row["stars"], None, 0
    stray = False
    if row["result"] == "mishap":
        mishap = mishap_type("missile", roll)
        trace.append(step(f"CF: {mishap} roll; the attack does not take place", DATA.rule(DIRECT),
                          mishap=mishap))
    elif row["result"] == "miss":
        stray = effective_eml(eml) > _limit("stray_eml_above") and eml > _limit("spoiled_at")
        more = " it may strike another target within 5 feet" if stray else ""
        trace.append(step(f"F: the attack misses;{more}", DATA.rule(DIRECT)))
    else:
        trace.append(step(f"{level}: {stars} star{'s' if stars > 1 else ''}: a base impact "
                          f"strike and {stars - 1} tactical advantage(s) (impact or precision)",
                          DATA.rule(DIRECT), stars=stars))
        if still:
            precision = 1
            trace.append(step("Still target: one free Precision TA", DATA.rule(DIRECT)))
    return MissileAttack(value=stars, outcome=row["result"], trace=tuple(trace), level=level,
                         stars=stars, tactical_advantages=max(0, stars - 1),
                         precision=precision, mishap=mishap, stray_possible=stray)


def volley_missile_attack(roll: int | None, eml: int, *, spoiled_as: str = "auto_fail",
                          deviation_d8: int | None = None) -> MissileAttack:
    """Resolve a Volley missile test at a 15-foot area (unopposed).

    CF: mishap, no attack. F: deviation (if the EML was over 05 the missile lands in one of
    the eight neighbouring areas, d8; otherwise harmlessly). S: a potential strike, a d20 is
    rolled against the target count. CS: a potential strike with Volley Precision (d10 instead
    of d20): ``precision`` is the number of d10s rolled. *deviation_d8* names which of the
    eight neighbouring areas a deviating missile lands in (``deviation``).
    """
    if deviation_d8 is not None:
        require_int("deviation_d8", deviation_d8, minimum=1, maximum=8)
    trace: list = []
    level = _missile_level(roll, eml, spoiled_as, VOLLEY, trace)
    if level is None:
        return MissileAttack(value=0, outcome="no attack", trace=tuple(trace), level=None,
                             stars=0, tactical_advantages=0, precision=0, mishap=None,
                             stray_possible=False)
    row = DATA.table("missile", "volley_missile_results").find("level", level)
    stars, mishap, precision, stray = row["stars"], None, 0, False
    deviation = None
    if row["result"] == "mishap":
        mishap = mishap_type("missile", roll)
        trace.append(step(f"CF: {mishap} roll; the attack does not take place", DATA.rule(VOLLEY),
                          mishap=mishap))
    elif row["result"] == "deviation":
        stray = effective_eml(eml) > _limit("stray_eml_above") and eml > _limit("spoiled_at")
        trace.append(step("F: deviation; " + ("roll d8 for the neighbouring 15-foot area it "
                                              "lands in" if stray else "it lands harmlessly"),
                          DATA.rule(VOLLEY)))
        if stray and deviation_d8 is not None:
            deviation = deviation_d8
            trace.append(step(f"d8 {deviation}: it lands in neighbouring area {deviation}; "
                              "anyone there is a potential strike", DATA.rule(VOLLEY)))
    else:
        precision = 1 if level == "CS" else 0
        die = "d10 (Volley Precision)" if precision else "d20"
        trace.append(step(f"{level}: a potential strike in the area; roll {die} against the "
                          "target count", DATA.rule(VOLLEY), stars=stars))
    return MissileAttack(value=stars, outcome=row["result"], trace=tuple(trace), level=level,
                         stars=stars, tactical_advantages=max(0, stars - 1),
                         precision=precision, mishap=mishap, stray_possible=stray,
                         deviation=deviation)


@dataclass(frozen=True, kw_only=True)
class StrayStrike(Resolution):
    """Whether a stray or potential strike hits: value = the target number struck (0: none)."""

    hit: bool
    target: int
    impact_ta: bool
    zone_die: int | None = None


def stray_strike(target_rolls: list[int] | tuple[int, ...], impact_d10: int,
                 target_count: int, *, die: int = 20, pick: int | None = None,
                 volley: bool = False, body_zones: int | None = None) -> StrayStrike:
    """Does a missed Direct shot, or a Volley potential strike, hit someone?

    Roll *die* (d20; d10 for Volley Precision, one more d10 per step beyond CS) and pick one
    result: at or under the *target_count* it strikes that numbered target. A d10 *impact_d10*
    of 5 or 10 (the "0" face) adds the projectile's Impact TA bonus. *pick* is the index of the
    chosen roll; by default the first roll that hits. The one struck is located with a d10
    Zone Die, not the range's, or a die of as many sides as it has body zones (*body_zones*,
    by default the human table's) when that is larger: ``zone_die``.
    """
    require_bool("volley", volley)
    if body_zones is None:
        body_zones = zone_count()
    require_int("body_zones", body_zones, minimum=1, maximum=MAX_DIE)
    if type(die) is not int or die not in (10, 20):  # type(): a bool is no die
        raise RulesError(f"die must be 20 (d20) or 10 (Volley Precision d10), got {shown(die)}")
    section = VOLLEY if volley or die == 10 else DIRECT
    rolls = list(target_rolls) if isinstance(target_rolls, (list, tuple)) else None
    if not rolls:
        raise RulesError(f"target_rolls must list at least one d{die} roll, "
                         f"got {shown(target_rolls)}")
    if die == 20 and len(rolls) != 1:
        raise RulesError(f"target_rolls takes one d20 roll, got {len(rolls)}")
    if len(rolls) > MAX_VOLLEY_D10:
        raise RulesError(f"target_rolls takes at most {MAX_VOLLEY_D10} Volley Precision d10 "
                         f"rolls, got {len(rolls)}")
    for r in rolls:
        require_int("target_rolls", r, minimum=1, maximum=die)
    require_int("impact_d10", impact_d10, minimum=1, maximum=10)
    require_int("target_count", target_count, minimum=0)
    if pick is None:
        hits = [i for i, r in enumerate(rolls) if r <= target_count]
        pick = hits[0] if hits else 0
    require_int("pick", pick, minimum=0, maximum=len(rolls) - 1)
    chosen = rolls[pick]
    hit = chosen <= target_count
    trace = [step(f"Target count {target_count}; d{die} roll {chosen} "
                  f"{'≤' if hit else '>'} {target_count}: "
                  + (f"target {chosen} is struck" if hit else "no strike"),
                  DATA.rule(section), roll=chosen, target_count=target_count)]
    impact_ta = hit and impact_d10 in (5, 10)
    zone_die = None
    if hit:
        face = 0 if impact_d10 == 10 else impact_d10
        trace.append(step(f"Impact d10 shows {face}: " + ("add the projectile's Impact TA bonus"
                          if impact_ta else "no bonus Impact TA"), DATA.rule(section), d10=impact_d10))
        zone_die = max(_limit("stray_zone_die"), body_zones)
        trace.append(step(f"Locate the strike with a d{zone_die} Zone Die (a d10, or one side "
                          f"per body zone if the one struck has more; {body_zones} here)",
                          DATA.rule(section), zone_die=zone_die))
    return StrayStrike(value=chosen if hit else 0, outcome="strike" if hit else "miss",
                       trace=tuple(trace), hit=hit, target=chosen if hit else 0,
                       impact_ta=impact_ta, zone_die=zone_die)


MISSILE_SKILLS = {"bow": "Archery", "crossbow": "Archery", "sling": "Slings", "thrown": "Throwing"}
"""The skill each kind of missile weapon tests (Missile 3 Missile Skill)."""


def missile_skill(weapon: str, *, archery: int | None = None, archery_sb: int | None = None,
                  slings: int | None = None, throwing: int | None = None) -> int:
    """The ML a missile test starts from: a bow uses Archery; a crossbow Archery or Archery
    SB × 3, whichever is higher; a sling Slings; a thrown weapon or object Throwing
    (:data:`MISSILE_SKILLS`)."""
    needs = {kind: (skill.lower(),) + (("archery_sb",) if kind == "crossbow" else ())
             for kind, skill in MISSILE_SKILLS.items()}
    if not isinstance(weapon, str) or weapon not in needs:
        raise RulesError(f"weapon must be one of bow, crossbow, sling, thrown, got {shown(weapon)}")
    given = {"archery": archery, "archery_sb": archery_sb, "slings": slings,
             "throwing": throwing}
    for name, value in given.items():
        if value is not None:
            require_int(name, value, minimum=0)
    options = [given[name] * 3 if name == "archery_sb" else given[name]
               for name in needs[weapon] if given[name] is not None]
    if not options:
        raise RulesError(f"{' or '.join(needs[weapon])} is needed for a {weapon}")
    return max(options)


def missile_outcome_distribution(eml: int, *, volley: bool = False,
                                 spoiled_as: str = "auto_fail"
                                 ) -> dict[tuple[str, int], Fraction]:
    """Exact odds of each (result, stars) of a Direct (or *volley*) missile test at *eml*."""
    require_int("eml", eml)
    require_bool("volley", volley)
    require_choice("spoiled_as", spoiled_as, SPOILED_AS)
    attack = volley_missile_attack if volley else direct_missile_attack
    if eml <= _limit("spoiled_at") and spoiled_as == "no_attack":
        return {("no attack", 0): Fraction(1)}
    out: dict[tuple[str, int], Fraction] = {}
    for face in range(1, 101):
        r = attack(face, eml, spoiled_as=spoiled_as)
        key = (r.outcome, r.stars)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return out


SHOT_MODIFIERS = ("shooter_moving", "heft_penalty", "windforce", "trauma", "aimed", "tar",
                  "dodge_index", "overhead_ft", "eml_cap", "target_grievous")
"""The keywords missile_shot passes on to missile_eml (the weapon sets thrown and launcher)."""

LAUNCHERS = {"bow": (None, "bow"), "crossbow": (None, "crossbow"), "sling": (None, "sling"),
             "thrown weapon": ("weapon", "bow"), "thrown object": ("object", "bow"),
             "thrown oblong object": ("oblong object", "bow")}


@dataclass(frozen=True, kw_only=True)
class MissileShot(Resolution):
    """A whole missile shot: value = the number of the target struck (0: nobody), outcome a
    one-line summary. The parts are kept for a walker to show step by step."""

    range: MissileRange
    eml: MissileEML
    attack: MissileAttack | None
    strike: StrayStrike | None
    needs: tuple[str, ...]
    rolled: tuple[tuple[str, int], ...] = ()
    zone_die: int | None = None  # the Zone Die that locates the strike (None: nobody struck)


def missile_shot(ml: int, range_ft: int, base_range: int, *, weapon: str = "bow",
                 roll: int | None = None, target: str = "still", target_count: int = 1,
                 target_roll: int | None = None, impact_d10: int | None = None,
                 deviation_d8: int | None = None, wet: bool = False, charge_ft: int = 0,
                 spoiled_as: str = "auto_fail", body_zones: int | None = None,
                 dice: DiceSource | Sequence[int] = (), rng: random.Random | None = None,
                 shooter_moving: bool = False, heft_penalty: int = 0, windforce: int = 0,
                 trauma: int = 0, aimed: bool = False, tar: int = 1, dodge_index: int = 0,
                 overhead_ft: int | None = None, eml_cap: int | None = None,
                 target_grievous: bool = False,
                 shooter_unusable_zone: str | None = None) -> MissileShot:
    """Walk one shot through the missile sequence (steps 2-4): range type, test EML, the Direct
    or Volley result and, when the result calls for it, who is struck.

    *weapon* is a key of ``LAUNCHERS``; the situational modifiers go to :func:`missile_eml` (shooter_moving,
    heft_penalty, windforce, trauma, aimed, tar, dodge_index, overhead_ft, eml_cap,
    target_grievous). A Direct
    shot that strikes hits its target (value 1). A missed Direct shot with a stray possible, or
    a Volley potential strike, is settled by *target_roll* (d20, or d10 for Volley Precision)
    against *target_count*, the people within 5 feet of the target or in the 15-foot area;
    *impact_d10* checks its bonus Impact TA. ``zone_die`` is the Zone Die that then locates the
    strike: the range's for a Direct hit, a d10 (or one side per body zone of the one struck,
    *body_zones*, if larger) for a stray or volley strike. ``needs`` names the dice still to
    roll.

    A shooter whose missile test needs a zone a Grievous injury made unusable
    (*shooter_unusable_zone*: Archery, Slings and Throwing need every zone, the IMPAIRED
    TESTS table) rolls no d100: the test is an automatic CF with that zone's automatic mishap
    and the attack does not take place (Injury 5, Tests with Grievous Injury).

    Dice not given by keyword are drawn from *dice*, a :class:`~rulescore.dice.DiceSource`
    (typed in table order: d100, then the deviation d8 if asked, then the target die and the
    impact d10); ``rolled`` lists every die used, by name. Typed values as a list, then *rng*,
    are kept for existing callers.
    """
    draw = DiceDraw(dice, rng)
    if not isinstance(weapon, str) or weapon not in LAUNCHERS:
        raise RulesError(f"weapon must be one of {', '.join(LAUNCHERS)}, got {shown(weapon)}")
    modifiers = {"shooter_moving": shooter_moving, "heft_penalty": heft_penalty,
                 "windforce": windforce, "trauma": trauma, "aimed": aimed, "tar": tar,
                 "dodge_index": dodge_index, "overhead_ft": overhead_ft, "eml_cap": eml_cap,
                 "target_grievous": target_grievous}
    require_bool("wet", wet)
    require_choice("spoiled_as", spoiled_as, SPOILED_AS)
    require_int("target_count", target_count, minimum=0)
    if shooter_unusable_zone is not None:
        require_zone("shooter_unusable_zone", shooter_unusable_zone)
        if roll is not None:
            raise RulesError(f"roll must be empty when the shooter's {shooter_unusable_zone} "
                             f"zone is unusable (an automatic CF, no roll), got {shown(roll)}")
    if body_zones is not None:
        require_int("body_zones", body_zones, minimum=1, maximum=MAX_DIE)
    for name, value, sides in (("roll", roll, 100), ("target_roll", target_roll, 20),
                               ("impact_d10", impact_d10, 10), ("deviation_d8", deviation_d8, 8)):
        if value is not None:
            require_int(name, value, minimum=1, maximum=sides)
    thrown, launcher = LAUNCHERS[weapon]
    if thrown is None and charge_ft:
        raise RulesError(f"charge_ft applies to thrown weapons only, got {shown(charge_ft)} for a "
                         f"{weapon}")
    band = missile_range(range_ft, base_range, wet=wet and thrown is None, charge_ft=charge_ft)
    trace = [step(f"Range {range_ft} ft with Base Range {base_range}"
                  + (" (halved: wet string)" if wet and thrown is None else "")
                  + f" → {band.attack_type} (up to {band.max_range} ft): EML {band.modifier:+d}, "
                  f"Zone Die d{band.zone_die}, impact {band.impact:+d}", DATA.rule(RANGE),
                  attack_type=band.attack_type)]
    eml = missile_eml(ml, band.attack_type, target, thrown=thrown, launcher=launcher,
                      **modifiers)  # type: ignore[arg-type]
    trace += eml.trace
    if shooter_unusable_zone is not None:
        attack = _unusable_shot(shooter_unusable_zone, band.volley)
        trace += attack.trace
        shot = _settle(band, eml, attack, trace, target_count, draw, None, None, body_zones)
        draw.finish()
        return shot
    spoiled_skip = eml.spoiled and spoiled_as == "no_attack"
    roll = None if spoiled_skip else draw("shot roll (d100)", 100, roll)
    if roll is None and not spoiled_skip:
        return MissileShot(value=0, outcome=f"{band.attack_type}, {eml.outcome}: roll d100",
                           trace=tuple(trace), range=band, eml=eml, attack=None, strike=None,
                           needs=("d100",), rolled=tuple(draw.rolled))
    still = target == "still" or target_grievous is True
    attack = (direct_missile_attack(roll, eml.value, still=still,
                                    spoiled_as=spoiled_as) if not band.volley else
              volley_missile_attack(roll, eml.value, spoiled_as=spoiled_as))
    if attack.outcome == "deviation" and attack.stray_possible:
        deviation_d8 = draw("deviation (d8)", 8, deviation_d8)
        attack = volley_missile_attack(roll, eml.value, spoiled_as=spoiled_as,
                                       deviation_d8=deviation_d8)
    trace += attack.trace
    shot = _settle(band, eml, attack, trace, target_count, draw, target_roll, impact_d10,
                   body_zones)
    draw.finish()
    return shot


def _unusable_shot(zone: str, volley: bool) -> MissileAttack:
    """The missile test of a shooter with *zone* unusable: an automatic CF, no roll, the
    zone's automatic mishap; a CF's attack does not take place (Injury 5; Direct and Volley
    Missile Results, Mishap)."""
    forced = grievous_zone_test(zone, "Missile test")
    trace = (*forced.trace, step("CF: the attack does not take place",
                                 DATA.rule(VOLLEY if volley else DIRECT)))
    return MissileAttack(value=0, outcome="mishap", trace=trace, level="CF", stars=0,
                         tactical_advantages=0, precision=0, mishap=forced.mishap,
                         stray_possible=False)


def _settle(band: MissileRange, eml: MissileEML, attack: MissileAttack, trace: list,
            target_count: int, draw: DiceDraw, target_roll: int | None,
            impact_d10: int | None, body_zones: int | None) -> MissileShot:
    """Who a shot strikes: the target on a Direct hit, else a d20/d10 against the count."""
    def done(value: int, outcome: str, strike: StrayStrike | None = None,
             needs: tuple[str, ...] = (), zone_die: int | None = None) -> MissileShot:
        return MissileShot(value=value, outcome=outcome, trace=tuple(trace), range=band,
                           eml=eml, attack=attack, strike=strike, needs=needs,
                           rolled=tuple(draw.rolled), zone_die=zone_die)

    level = attack.level or "spoiled"
    if attack.outcome == "strike" and not band.volley:
        return done(1, f"{level}: the target is struck, {attack.stars} star(s)",
                    zone_die=band.zone_die)
    roll_for = ((band.volley and attack.outcome == "potential strike")
                or attack.stray_possible)
    if not roll_for:
        mishap = f"{attack.mishap}" + ("" if str(attack.mishap).startswith("Automatic")
                                       else " roll")  # an unusable zone's: no roll to make
        words = {"mishap": f"{mishap}, no attack", "no attack": "no attack",
                 "miss": "a clean miss", "deviation": "it lands harmlessly"}
        return done(0, f"{level}: {words.get(attack.outcome, attack.outcome)}")
    if band.volley and attack.outcome == "deviation" and attack.deviation is None:
        return done(0, f"{level}: deviation, roll d8 for the area", needs=("deviation d8",))
    die = 10 if attack.precision and band.volley else 20
    target_roll = draw(f"stray strike (d{die})", die, target_roll)
    impact_d10 = draw("Impact TA check (d10)", 10, impact_d10)
    if target_roll is None or impact_d10 is None:
        return done(0, f"{level}: roll d{die} against the target count", needs=(f"target d{die}", "impact d10"))
    hit = stray_strike([target_roll], impact_d10, target_count, die=die, volley=band.volley,
                       body_zones=body_zones)
    trace += hit.trace
    what = (f"target {hit.target} is struck" + (" with a bonus Impact TA" if hit.impact_ta
                                                 else "")
            + f", located with a d{hit.zone_die} Zone Die") if hit.hit else "nobody is struck"
    return done(hit.value, f"{level}: {what}", hit, zone_die=hit.zone_die)
