"""Melee sequence: the opposed Melee test, victory stars by defence option, and its odds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from collections.abc import Sequence
from fractions import Fraction

from ...errors import RulesError, require_bool, require_int, shown
from ...trace import Resolution, Step, step
from ._system import DATA
from .terms import DEFENCES, LEVELS, MAX_DIE
from ...dice import DiceSource
from .checks import (TestResolution, effective_eml, mishap_type, rolled, shift_level,
                     success_level)
from .injury import grievous_zone_test, require_zone, zone_count

OUTCOME = "Melee 3 Outcome"
RESULTS = "Melee Test Results"
MODIFIERS = "Melee 2 Melee Test"
DODGE_EQUAL = ("defender", "attacker")
GRIPS = ("one-handed", "two-handed", "off-handed")
TA_CHOICES = ("impact", "precision", "action", "setup")
MAX_PRESS_ROLLS = 10  # free Press Rolls after one strike: far more than a fight produces


@dataclass(frozen=True, kw_only=True)
class MeleeResolution(Resolution):
    """A melee exchange: value = the winner's victory stars, outcome = what happened.

    outcome is "strike" (the attacker's blow lands), "counterstrike" (the defender's lands),
    "blocked", "dodged" or "no strike".
    """

    defence: str
    attack_level: str
    defence_level: str | None
    winner: str | None
    stars: int
    striker: str | None
    tactical_advantages: int
    ta_choices: tuple[str, ...]
    attacker_mishap: str | None
    defender_mishap: str | None
    weapon_damage: bool
    unused_setups: int = 0  # the defender's Setup TAs left unused: no test of theirs to lift


def _defence_arg(defence: object) -> str:
    if isinstance(defence, str):
        for d in DEFENCES:
            if defence.strip().lower() == d.lower():
                return d
    raise RulesError(f"defence must be one of {', '.join(DEFENCES)}, got {shown(defence)}")


_INDEX: dict[int, tuple[object, dict]] = {}


def _cell(defence: str, attack: str, defend: str):
    matrix = DATA.table("melee", "melee_matrix")
    held = _INDEX.get(id(matrix))
    if held is None or held[0] is not matrix:  # index the (validated) matrix once
        held = (matrix, {(r["defence"], r["attack"], r["defend"]): r for r in matrix})
        _INDEX[id(matrix)] = held
    try:
        return held[1][(defence, attack, defend)]
    except KeyError:
        raise RulesError(f"the melee matrix has no cell {defence}/{attack}/{defend}") from None


def _decide(defence: str, attack_level: str, defence_level: str | None, attack_roll: int,
            defence_roll: int | None, dodge_equal_rolls: str) -> tuple[str | None, int, bool, str]:
    """(winner, stars, weapon damage, how) for one pair of results, from the data tables."""
    row = _cell(defence, attack_level, defence_level or "none")
    winner = row["winner"]
    if winner == "neither":
        return None, 0, False, "both failed" if defence != "Ignore" else "attacker CF"
    if winner != "tie":
        return winner, row["stars"], False, "matrix"
    tie = DATA.table("melee", "tied_success").find("defence", defence)
    who = tie["winner"]
    if who == "higher roll":
        if attack_roll != defence_roll:
            who = "attacker" if attack_roll > defence_roll else "defender"
        else:
            who = dodge_equal_rolls
    return who, tie["stars"], bool(tie["weapon_damage"]), "tie"


def melee_exchange(attack_roll: int | None, attack_eml: int, defence: str,
                   defence_roll: int | None = None, defence_eml: int | None = None, *,
                   dodge_equal_rolls: str = "defender", eml_cap: int | None = None,
                   defender_unusable_zone: str | None = None, helpless: bool = False,
                   attack_setups: int = 0, defence_setups: int = 0,
                   attacker_unusable_zone: str | None = None,
                   dice: DiceSource | None = None) -> MeleeResolution:
    """Resolve one melee attack against a Block, Dodge, Counterstrike or Ignore defence.

    Both sides roll d100 against their EML (at least 05); the MELEE TEST matrix (data) gives the
    winner and the victory stars. Tied successes: a Block wins them (and weapon damage is
    checked), a Counterstrike loses them, a Dodge goes to the higher roll (equal rolls: see
    *dodge_equal_rolls*, assumption dodge_equal_rolls). Against Ignore only the attacker rolls.
    Every CF brings a mishap roll named by its ones die.

    A defender whose Block, Dodge or Counterstrike needs a zone left unusable by a Grievous
    injury (*defender_unusable_zone*: Head, Arms, Torso or Legs) makes no roll: the test is an
    automatic CF with that zone's automatic mishap (Injury 5, Tests with Grievous Injury). Such
    a defender may choose Ignore instead. An attacker whose Melee test needs a zone so lost
    (*attacker_unusable_zone*) makes no roll either: the attack is an automatic CF with that
    zone's automatic mishap (Injury 5: any other action needing the zone is an automatic CF),
    whatever the defence, and their Setup TAs have no test to lift.

    A *helpless* defender (Unconscious, Injury 4 Shock states) Ignores and the attack is a CS
    Ignore result without a roll: *attack_roll*, *defence_roll* and *defence_eml* stay empty
    and no die is drawn.

    *attack_setups* and *defence_setups* are the Setup TAs a side took within the last round
    (Melee Test Results, Setup): each lifts that side's test one success level, never past CS
    (:func:`setup_level`); the lifted level is the test's result, so a CF lifted to F brings
    no mishap. A defender who makes no roll (Ignore, helpless, an unusable zone) has no test
    to lift: their Setup TAs do not apply to this exchange, ``unused_setups`` counts them and
    the trace says so (assumption setup_without_test).

    With *dice* (and *attack_roll* None) the attacker's d100 is drawn from it, then the
    defender's when the defender rolls (not against Ignore nor with an unusable zone).
    """
    defence = _defence_arg(defence)
    require_bool("helpless", helpless)
    _setups_arg(attack_setups, defence_setups)
    if attacker_unusable_zone is not None:
        require_zone("attacker_unusable_zone", attacker_unusable_zone)
    if helpless and attacker_unusable_zone is None:
        return _helpless_exchange(attack_roll, attack_eml, defence, defence_roll, defence_eml,
                                  defence_setups)
    if helpless and defence != "Ignore":
        raise RulesError(f"defence must be Ignore for a helpless defender (unaware, no "
                         f"defence), got {shown(defence)}")
    if dodge_equal_rolls not in DODGE_EQUAL:
        raise RulesError(f"dodge_equal_rolls must be 'defender' or 'attacker', "
                         f"got {shown(dodge_equal_rolls)}")
    if defender_unusable_zone is not None:
        require_zone("defender_unusable_zone", defender_unusable_zone)
    if attacker_unusable_zone is None:
        attack_roll = rolled("attack_roll", attack_roll, dice, what="the attacker's d100")
    if dice is not None and defence != "Ignore" and defender_unusable_zone is None:
        defence_roll = rolled("defence_roll", defence_roll, dice, what="the defender's d100")
    a_eml = effective_eml(require_int("attack_eml", attack_eml), eml_cap=eml_cap)
    if attacker_unusable_zone is not None:
        a_forced, trace = _attack_unusable(attacker_unusable_zone, attack_roll, attack_setups)
        a_level = a_forced.level
    else:
        require_int("attack_roll", attack_roll, minimum=1, maximum=100)
        a_level = success_level(attack_roll, a_eml)
        trace = [step(f"Attacker rolls {attack_roll} against EML {a_eml}: {a_level}",
                      DATA.rule(OUTCOME), roll=attack_roll, eml=a_eml, level=a_level)]
        a_level = _lifted(a_level, attack_setups, "Attacker", trace)
    d_level = None
    rolls_none = defence == "Ignore" or defender_unusable_zone is not None
    if defence == "Ignore":
        if defence_roll is not None or defence_eml is not None:
            raise RulesError("defence_roll and defence_eml must be empty for the Ignore "
                             f"defence (no roll), got {shown(defence_roll)} and "
                             f"{shown(defence_eml)}")
        trace.append(step("The defender Ignores: the attacker's test is unopposed",
                          DATA.rule("Melee Defence Result — Ignore")))
        trace += setups_unused(defence_setups, "the defender Ignores")
    elif defender_unusable_zone is not None:
        if defence_roll is not None:
            raise RulesError(f"defence_roll must be empty when the defender's "
                             f"{defender_unusable_zone} zone is unusable (an automatic CF, no "
                             f"roll), got {shown(defence_roll)}")
        forced = grievous_zone_test(defender_unusable_zone, defence)
        d_level = forced.level
        trace += forced.trace
        trace += setups_unused(defence_setups, f"the {defender_unusable_zone} zone is "
                               "unusable, an automatic CF")
    else:
        if defence_roll is None or defence_eml is None:
            raise RulesError(f"defence_roll and defence_eml are needed for a {defence}")
        require_int("defence_roll", defence_roll, minimum=1, maximum=100)
        d_eml = effective_eml(require_int("defence_eml", defence_eml), eml_cap=eml_cap)
        d_level = success_level(defence_roll, d_eml)
        trace.append(step(f"Defender's {defence} roll {defence_roll} against EML {d_eml}: "
                          f"{d_level}", DATA.rule(OUTCOME), roll=defence_roll, eml=d_eml,
                          level=d_level))
        d_level = _lifted(d_level, defence_setups, "Defender", trace)
    winner, stars, damage, how = _decide(defence, a_level, d_level, attack_roll, defence_roll,
                                         dodge_equal_rolls)
    if how == "tie":
        rule = {"Block": "a Block wins tied successes",
                "Counterstrike": "a Counterstrike loses tied successes",
                "Dodge": f"a Dodge tie goes to the higher roll ({attack_roll} against "
                         f"{defence_roll})"}[defence]
        trace.append(step(f"Tied successes ({a_level}): {rule}: the {winner} wins one star",
                          DATA.rule(OUTCOME), winner=winner, stars=stars))
    elif winner is None:
        text = ("Both tests failed: no strike" if how == "both failed"
                else "Attacker's CF against Ignore: no strike")
        trace.append(step(text, DATA.rule(OUTCOME)))
    else:
        trace.append(step(f"{a_level} against {d_level or 'no roll'}: the {winner} wins "
                          f"{stars} star{'s' if stars > 1 else ''}", DATA.rule(RESULTS),
                          winner=winner, stars=stars))
    striker = None
    if winner == "attacker":
        striker, outcome, option = "attacker", "strike", "Ignore" if defence == "Ignore" \
            else "Attack"
    elif winner == "defender":
        option = defence
        if defence == "Counterstrike":
            striker, outcome = "defender", "counterstrike"
        else:
            outcome = "blocked" if defence == "Block" else "dodged"
    else:
        outcome, option = "no strike", None
    tas = max(0, stars - 1)
    choices = tuple(DATA.table("melee", "tactical_advantages").find("option", option)["choices"]
                    ) if option else ()
    if striker:
        trace.append(step(f"The {striker}'s blow lands with base impact: go to the Injury "
                          "Sequence", DATA.rule(RESULTS)))
    if tas:
        trace.append(step(f"{tas} tactical advantage(s), each one of: {', '.join(choices)}",
                          DATA.rule(RESULTS), tactical_advantages=tas))
    if damage:
        trace.append(step("Block wins the tie: check for weapon damage", DATA.rule(OUTCOME)))
    a_mishap = None
    if a_level == "CF":
        a_mishap = a_forced.mishap if attacker_unusable_zone is not None else \
            mishap_type("ignore" if defence == "Ignore" else "attack", attack_roll)
    d_mishap = None
    if d_level == "CF":
        d_mishap = forced.mishap if defender_unusable_zone is not None \
            else mishap_type(defence.lower(), defence_roll)
    for who, m, roll in (("Attacker", a_mishap, attack_roll), ("Defender", d_mishap,
                                                                defence_roll)):
        if m:
            if roll is None:  # the automatic CF of an unusable zone: already explained
                continue
            trace.append(step(f"{who} CF (ones die {roll % 10}): {m} roll, whatever the other "
                              "result", DATA.rule(RESULTS), mishap=m))
    return MeleeResolution(value=stars, outcome=outcome, trace=tuple(trace), defence=defence,
                           attack_level=a_level, defence_level=d_level, winner=winner,
                           stars=stars, striker=striker, tactical_advantages=tas,
                           ta_choices=choices, attacker_mishap=a_mishap,
                           defender_mishap=d_mishap, weapon_damage=damage,
                           unused_setups=defence_setups if rolls_none else 0)


#: Setup TAs that can lift a test: three take a CF to a CS, and no level lies beyond CS
#: (assumption beyond_cs).
MAX_SETUPS = len(LEVELS) - 1


def _setups_arg(attack_setups: object, defence_setups: object) -> None:
    """Check the number of Setup TAs each side brings (0 to MAX_SETUPS)."""
    require_int("attack_setups", attack_setups, minimum=0, maximum=MAX_SETUPS)
    require_int("defence_setups", defence_setups, minimum=0, maximum=MAX_SETUPS)


def _attack_unusable(zone: str, attack_roll: int | None, attack_setups: int
                     ) -> tuple[TestResolution, list]:
    """The attacker's automatic CF with *zone* unusable (Injury 5, Tests with Grievous
    Injury): no roll, so none may be typed, and no test for their Setup TAs to lift."""
    if attack_roll is not None:
        raise RulesError(f"attack_roll must be empty when the attacker's {zone} zone is "
                         f"unusable (an automatic CF, no roll), got {shown(attack_roll)}")
    forced = grievous_zone_test(zone, "Attack")
    return forced, list(forced.trace) + setups_unused(
        attack_setups, f"the attacker's {zone.lower()} zone is unusable, an automatic CF",
        who="Attacker")


def setups_unused(setups: int, why: str, who: str = "Defender") -> list:
    """The step saying *who*'s Setup TAs do not apply when they make no test (Melee Test
    Results, Setup lifts a Melee or Dodge test; assumption setup_without_test)."""
    if not setups:
        return []
    many = setups > 1
    return [step(f"{who}'s Setup TA{'s' if many else ''} from the last round "
                 f"({setups}) {'do' if many else 'does'} not apply: {why}, so there is no "
                 f"Melee or Dodge test to lift", DATA.rule(RESULTS), unused_setups=setups)]


def _lifted(level: str, setups: int, who: str, trace: list) -> str:
    """*level* lifted by *who*'s Setup TAs, with the step that says so (Melee Test Results,
    Setup: one success level better on a Melee or Dodge test within the next round)."""
    if not setups:
        return level
    up = setup_level(level, setups)
    trace.append(step(f"{who}'s Setup TA{'s' if setups > 1 else ''} from the last round: "
                      f"{level} lifted {setups} level{'s' if setups > 1 else ''} to {up}",
                      DATA.rule(RESULTS), setups=setups, level=up))
    return up


def _helpless_exchange(attack_roll: int | None, attack_eml: int, defence: str,
                       defence_roll: int | None, defence_eml: int | None,
                       defence_setups: int) -> MeleeResolution:
    """A melee attack on a helpless defender: a CS Ignore result, no die rolled (Injury 4,
    Unconscious: helpless; the Ignore table's CS, assumption ignore_stars)."""
    require_int("attack_eml", attack_eml)
    if defence != "Ignore":
        raise RulesError(f"defence must be Ignore for a helpless defender (unaware, no "
                         f"defence), got {shown(defence)}")
    if attack_roll is not None or defence_roll is not None or defence_eml is not None:
        raise RulesError("attack_roll, defence_roll and defence_eml must be empty against a "
                         "helpless defender (no roll: a CS Ignore result), got "
                         f"{shown(attack_roll)}, {shown(defence_roll)} and {shown(defence_eml)}")
    winner, stars, _, _ = _decide("Ignore", "CS", None, 0, None, "defender")
    tas = max(0, stars - 1)
    choices = tuple(DATA.table("melee", "tactical_advantages").find("option", "Ignore")
                    ["choices"])
    trace = (step("The defender is helpless: a CS Ignore result, no roll",
                  DATA.rule("Injury 4 Shock — states"), level="CS"),
             *setups_unused(defence_setups, "the defender is helpless"),
             step(f"CS against no roll: the {winner} wins {stars} stars", DATA.rule(RESULTS),
                  winner=winner, stars=stars),
             step("The attacker's blow lands with base impact: go to the Injury Sequence",
                  DATA.rule(RESULTS)),
             step(f"{tas} tactical advantage(s), each one of: {', '.join(choices)}",
                  DATA.rule(RESULTS), tactical_advantages=tas))
    return MeleeResolution(value=stars, outcome="strike", trace=trace, defence="Ignore",
                           attack_level="CS", defence_level=None, winner=winner, stars=stars,
                           striker="attacker", tactical_advantages=tas, ta_choices=choices,
                           attacker_mishap=None, defender_mishap=None, weapon_damage=False,
                           unused_setups=defence_setups)


def melee_outcome_distribution(attack_eml: int, defence: str, defence_eml: int | None = None,
                               *, dodge_equal_rolls: str = "defender",
                               eml_cap: int | None = None,
                               defender_unusable_zone: str | None = None,
                               attack_setups: int = 0, defence_setups: int = 0,
                               attacker_unusable_zone: str | None = None
                               ) -> dict[tuple[str, int], Fraction]:
    """Exact odds of each (outcome, stars) of a melee exchange, over every pair of d100 rolls.

    outcome is as in :func:`melee_exchange` ("strike", "counterstrike", "blocked", "dodged",
    "no strike"); stars is the winner's victory stars (0 for no strike). With
    *defender_unusable_zone* a Block, Dodge or Counterstrike is an automatic CF: only the
    attacker's d100 varies. With *attacker_unusable_zone* the attack is an automatic CF
    whatever its EML. *attack_setups* and *defence_setups* lift each side's level as in
    :func:`melee_exchange`.
    """
    defence = _defence_arg(defence)
    _setups_arg(attack_setups, defence_setups)  # a defender without a test leaves them unused
    if dodge_equal_rolls not in DODGE_EQUAL:
        raise RulesError(f"dodge_equal_rolls must be 'defender' or 'attacker', "
                         f"got {shown(dodge_equal_rolls)}")
    if defender_unusable_zone is not None:
        require_zone("defender_unusable_zone", defender_unusable_zone)
    a_eml = effective_eml(require_int("attack_eml", attack_eml), eml_cap=eml_cap)
    if attacker_unusable_zone is not None:  # an automatic CF: no test for a Setup to lift
        require_zone("attacker_unusable_zone", attacker_unusable_zone)
        a_levels = ["CF"] * 100
    else:
        a_levels = [setup_level(success_level(r, a_eml), attack_setups) for r in range(1, 101)]
    labels = {"attacker": "strike", None: "no strike",
              "defender": {"Block": "blocked", "Dodge": "dodged",
                           "Counterstrike": "counterstrike", "Ignore": "no strike"}[defence]}
    counts: Counter = Counter()
    if defence == "Ignore":
        if defence_eml is not None:
            raise RulesError(f"defence_eml must be empty for the Ignore defence, "
                             f"got {shown(defence_eml)}")
        for a, al in enumerate(a_levels, start=1):
            w, s, _, _ = _decide(defence, al, None, a, None, dodge_equal_rolls)
            counts[(labels[w], s)] += 1
        return {k: Fraction(n, 100) for k, n in sorted(counts.items(), key=str)}
    if defender_unusable_zone is not None:  # an automatic CF whatever the defender's EML
        d_levels = ["CF"] * 100
    elif defence_eml is None:
        raise RulesError(f"defence_eml is needed for a {defence}")
    else:
        d_eml = effective_eml(require_int("defence_eml", defence_eml), eml_cap=eml_cap)
        d_levels = [setup_level(success_level(r, d_eml), defence_setups)
                    for r in range(1, 101)]
    if defence != "Dodge":  # only the levels matter: 16 level pairs
        ca, cd = Counter(a_levels), Counter(d_levels)
        for al in LEVELS:
            for dl in LEVELS:
                if ca[al] and cd[dl]:
                    w, s, _, _ = _decide(defence, al, dl, 0, 0, dodge_equal_rolls)
                    counts[(labels[w], s)] += ca[al] * cd[dl]
    else:
        for a, al in enumerate(a_levels, start=1):
            for d, dl in enumerate(d_levels, start=1):
                w, s, _, _ = _decide(defence, al, dl, a, d, dodge_equal_rolls)
                counts[(labels[w], s)] += 1
    return {k: Fraction(n, 10000) for k, n in sorted(counts.items(), key=str)}


def heft_penalty(strength: int, heft: int, *, grip: str = "one-handed",
                 shield_block: bool = False) -> int:
    """The Heft penalty (a number ≤ 0): -5 per point of HFT above STR.

    Two-handed use counts HFT 5 lower; off-handed use 5 higher with at least -10, except a
    shield in a Block or Press Attack.
    """
    require_int("strength", strength)
    require_int("heft", heft, minimum=0)
    require_bool("shield_block", shield_block)
    if grip not in GRIPS:
        raise RulesError(f"grip must be 'one-handed', 'two-handed' or 'off-handed', "
                         f"got {shown(grip)}")
    row = DATA.table("melee", "melee_modifiers").find("modifier", "heft")
    hft = heft - 5 if grip == "two-handed" else heft + 5 if grip == "off-handed" and \
        not shield_block else heft
    penalty = row["amount"] * max(0, hft - strength)
    if grip == "off-handed" and not shield_block:
        penalty = min(penalty, -10)
    return penalty


def reach_modifier(reach: int, opponent_reach: int, *, thrust: bool = False,
                   close: bool = False) -> int:
    """Reach penalty or Thrust bonus for a Melee Strike (difference × 5).

    Shorter reach: -5 per point of difference; a Thrust weapon with longer reach: +5 per
    point. In Close the roles swap (the longer weapon is penalised, the shorter thrust gains).
    """
    require_int("reach", reach, minimum=0)
    require_int("opponent_reach", opponent_reach, minimum=0)
    require_bool("thrust", thrust)
    require_bool("close", close)
    rows = DATA.table("melee", "melee_modifiers")
    diff = reach - opponent_reach
    if close:
        diff = -diff
    if diff < 0:
        return rows.find("modifier", "reach")["amount"] * -diff
    if diff > 0 and thrust:
        return rows.find("modifier", "thrust")["amount"] * diff
    return 0


def melee_eml(ml: int, *, defence: bool = False, aim: bool = False, heft: int = 0,
              outnumbered: int = 1, prone: bool = False, reach: int = 0, trauma: int = 0
              ) -> Resolution:
    """Step 2: a Melee (or Dodge) test EML from ML and the modifiers. *heft* and *reach* are
    the results of :func:`heft_penalty` and :func:`reach_modifier`; *outnumbered* is how many
    foes threaten a defender (-10 each beyond one, defence tests only); *aim* -10 for a
    non-default zone, for any Melee Strike (an attack or a counterstrike); prone -20; *trauma*
    is fatigue plus impairment (a positive number)."""
    require_int("ml", ml)
    for name, flag in (("defence", defence), ("aim", aim), ("prone", prone)):
        require_bool(name, flag)
    require_int("heft", heft, maximum=0)
    require_int("outnumbered", outnumbered, minimum=1)
    require_int("reach", reach)
    require_int("trauma", trauma, minimum=0)
    rows = DATA.table("melee", "melee_modifiers")
    total = ml
    trace = [step(f"Melee ML {ml}", DATA.rule(MODIFIERS), ml=ml)]
    parts = [("Aim at a non-default zone", rows.find("modifier", "aim")["amount"] if aim
              else 0),
             ("Heft penalty", heft),
             (f"Outnumbered by {outnumbered}", rows.find("modifier", "outnumbered")["amount"]
              * (outnumbered - 1) if defence else 0),
             ("Prone", rows.find("modifier", "prone")["amount"] if prone else 0),
             ("Reach penalty / Thrust bonus", reach),
             ("Trauma (fatigue and impairment)", -trauma)]
    for label, amount in parts:
        if amount:
            total += amount
            trace.append(step(f"{label}: {amount:+d} → {total}", DATA.rule(MODIFIERS),
                              amount=amount, eml=total))
    return Resolution(value=total, outcome=f"EML {total}", trace=tuple(trace))


DECLARATION = "Melee 2 Attack & Defence Declaration"
AIM = "Injury 1 Location — Aim Penalty"
ASPECT_CODES = ("B", "E", "P", "F")


@dataclass(frozen=True)
class Weapon:
    """A readied weapon in a declaration: its Reach, whether the strike mode is a Thrust, its
    Heft, how it is held, its Zone Die and the aspect of the strike mode."""

    name: str
    reach: int = 3
    thrust: bool = False
    heft: int = 0
    grip: str = "one-handed"
    zone_die: int = 6
    aspect: str = "E"


def _weapon_arg(name: str, weapon: object) -> Weapon:
    """A Weapon whose every field is of its kind; the message names *name* and the field."""
    if not isinstance(weapon, Weapon):
        raise RulesError(f"{name} must be a Weapon, got {shown(weapon)}")
    if weapon.aspect not in ASPECT_CODES:
        raise RulesError(f"{name} aspect must be one of B, E, P, F, got {shown(weapon.aspect)}")
    if weapon.grip not in GRIPS:
        raise RulesError(f"{name} grip must be one of {', '.join(GRIPS)}, got {shown(weapon.grip)}")
    require_int(f"{name} reach", weapon.reach, minimum=0)
    require_int(f"{name} heft", weapon.heft, minimum=0)
    require_int(f"{name} zone_die", weapon.zone_die, minimum=1, maximum=MAX_DIE)
    require_bool(f"{name} thrust", weapon.thrust)
    return weapon


@dataclass(frozen=True, kw_only=True)
class MeleeDeclaration(Resolution):
    """Both sides' declared options turned into test EMLs: value = the attacker's EML."""

    attack_eml: int
    defence: str | None
    defence_eml: int | None
    zone_die: int
    aim_zone: int
    aspect: str
    counter_zone_die: int | None = None


def declare_melee(attacker_ml: int, weapon: Weapon, defence: str | None, *,
                  defender_ml: int | None = None, defender_weapon: Weapon | None = None,
                  aim_zone: int = 1, counter_aim_zone: int = 1, strength: int = 10,
                  defender_strength: int = 10, outnumbered: int = 1, close: bool = False,
                  attacker_prone: bool = False, defender_prone: bool = False,
                  attacker_trauma: int = 0, defender_trauma: int = 0,
                  area: bool = False) -> MeleeDeclaration:
    """Melee steps 1-2: check the declarations and give each side's test EML.

    The attacker names a readied *weapon* (its strike mode sets the aspect and Zone Die) and the
    zone aimed at (a non-default zone costs -10). The defender declares Block, Dodge,
    Counterstrike or Ignore; Block, Dodge and Counterstrike name a readied *defender_weapon*
    (for a Dodge only its Reach and Thrust count, for the attacker's Reach penalty or Thrust
    bonus); a Counterstrike also declares its own zone aim and, being a Melee Strike, pays the
    same -10 for a non-default zone. A striker standing over a prone target may aim at any zone
    with no penalty (Injury 1 Location, Aim Penalty). Targets of an *area* attack declare no
    defence (None). Heft counts for strikes and Blocks; outnumbering only for the defence.
    """
    _weapon_arg("weapon", weapon)
    if defender_weapon is not None:
        _weapon_arg("defender_weapon", defender_weapon)
    require_int("attacker_ml", attacker_ml)
    if defender_ml is not None:
        require_int("defender_ml", defender_ml)
    for name, value in (("aim_zone", aim_zone), ("counter_aim_zone", counter_aim_zone)):
        require_int(name, value, minimum=1, maximum=zone_count())
    for name, value in (("strength", strength), ("defender_strength", defender_strength)):
        require_int(name, value)
    for name, value in (("attacker_trauma", attacker_trauma),
                        ("defender_trauma", defender_trauma)):
        require_int(name, value, minimum=0)
    require_int("outnumbered", outnumbered, minimum=1)
    for name, flag in (("close", close), ("attacker_prone", attacker_prone),
                       ("defender_prone", defender_prone), ("area", area)):
        require_bool(name, flag)
    trace = [step(f"Attacker strikes with {weapon.name} ({weapon.aspect}, Zone Die "
                  f"d{weapon.zone_die}, reach {weapon.reach}) aimed at ZN{aim_zone}",
                  DATA.rule(DECLARATION))]
    if area:
        if defence is not None:
            raise RulesError(f"defence must be None for an area attack (its targets declare "
                             f"no defence), got {shown(defence)}")
        eml = melee_eml(attacker_ml, trauma=attacker_trauma, prone=attacker_prone)
        trace += [step("Area attack: no defence is declared; the attack engulfs its area",
                       DATA.rule(DECLARATION))] + list(eml.trace)
        return MeleeDeclaration(value=eml.value, outcome=eml.outcome, trace=tuple(trace),
                                attack_eml=eml.value, defence=None, defence_eml=None,
                                zone_die=weapon.zone_die, aim_zone=aim_zone,
                                aspect=weapon.aspect)
    defence = _defence_arg(defence)
    if defence == "Ignore":
        other = None
    elif defender_weapon is None:
        raise RulesError(f"defender_weapon must be a Weapon for a {defence} (its Reach and "
                         f"Thrust set the attacker's modifier), got None")
    elif defender_ml is None:
        raise RulesError(f"defender_ml is needed for a {defence}, got None")
    else:
        other = defender_weapon
    free_aim = defender_prone and not attacker_prone
    if aim_zone != 1 and free_aim:
        trace.append(step(f"The attacker stands over a prone defender: aiming at ZN{aim_zone} "
                          "costs nothing", DATA.rule(AIM)))
    attack = melee_eml(
        attacker_ml, aim=aim_zone != 1 and not free_aim,
        heft=heft_penalty(strength, weapon.heft, grip=weapon.grip),
        prone=attacker_prone, trauma=attacker_trauma,
        reach=reach_modifier(weapon.reach, other.reach, thrust=weapon.thrust, close=close)
        if other else 0)
    trace += _tagged("Attacker's test: ", attack.trace, "attacker")
    defence_eml = None
    if other is not None:
        blocking_or_striking = defence in ("Block", "Counterstrike")
        heft = (heft_penalty(defender_strength, other.heft, grip=other.grip)
                if blocking_or_striking else 0)
        reach = (reach_modifier(other.reach, weapon.reach, thrust=other.thrust, close=close)
                 if defence == "Counterstrike" else 0)
        counter_aims = defence == "Counterstrike" and counter_aim_zone != 1
        counter_free = attacker_prone and not defender_prone
        if counter_aims and counter_free:
            trace.append(step(f"The defender stands over a prone attacker: the counterstrike "
                              f"may aim at ZN{counter_aim_zone} at no cost", DATA.rule(AIM)))
        d = melee_eml(defender_ml, defence=True, aim=counter_aims and not counter_free,
                      heft=heft, outnumbered=outnumbered,
                      prone=defender_prone, reach=reach, trauma=defender_trauma)
        trace.append(step(f"Defender declares {defence} with {other.name}", DATA.rule(DECLARATION)))
        trace += _tagged("Defender's test: ", d.trace, "defender")
        defence_eml = d.value
    else:
        trace.append(step("Defender Ignores: the attacker's test is unopposed",
                          DATA.rule(DECLARATION)))
    return MeleeDeclaration(value=attack.value, outcome=f"EML {attack.value} against "
                            + (f"{defence} EML {defence_eml}" if other else "Ignore"),
                            trace=tuple(trace), attack_eml=attack.value, defence=defence,
                            defence_eml=defence_eml, zone_die=weapon.zone_die,
                            aim_zone=aim_zone, aspect=weapon.aspect,
                            counter_zone_die=other.zone_die if defence == "Counterstrike"
                            and other else None)


def _tagged(prefix: str, steps: Sequence[Step], side: str) -> list[Step]:
    """*steps* of one side's test EML, worded for the declaration and tagged with that side
    (value ``test``), so a caller who leaves an unrolled test out finds its steps by the tag,
    not the wording (Injury 5 Tests with Grievous Injury)."""
    return [Step(prefix + s.text, s.rule, s.values + (("test", side),)) for s in steps]


@dataclass(frozen=True, kw_only=True)
class AdvantagesSpent(Resolution):
    """Tactical advantages spent: value = how many; the effects to apply."""

    impact_tas: int
    precision_dice: int
    bonus_actions: int
    setup: int


def spend_advantages(result: MeleeResolution, choices: list[str] | tuple[str, ...]
                     ) -> AdvantagesSpent:
    """Spend a melee victory's tactical advantages: one choice per TA, each among the ones the
    winning option allows. Impact adds the weapon's impact TA bonus (see :func:`impact`
    impact_tas=), Precision an extra Zone Die, Action a bonus action after the injury and any
    mishaps, Setup one success level on a Melee or Dodge test within the next round
    (:func:`setup_level`)."""
    if not isinstance(result, MeleeResolution):
        raise RulesError(f"result must be a melee exchange result, got {shown(result)}")
    # A result edited by hand is checked like any input before its fields are used.
    most = max(r["stars"] for r in DATA.table("melee", "melee_matrix")) - 1
    require_int("result tactical_advantages", result.tactical_advantages, minimum=0,
                maximum=most)
    if not isinstance(result.ta_choices, tuple) or any(c not in TA_CHOICES
                                                       for c in result.ta_choices):
        raise RulesError(f"result ta_choices must be a tuple of {', '.join(TA_CHOICES)}, "
                         f"got {shown(result.ta_choices)}")
    if isinstance(choices, str) or not isinstance(choices, (list, tuple)):
        raise RulesError(f"choices must be a list such as ['impact'], got {shown(choices)}")
    if len(choices) != result.tactical_advantages:
        raise RulesError(f"choices must name {result.tactical_advantages} tactical "
                         f"advantage(s), got {len(choices)}")
    for c in choices:
        if c not in result.ta_choices:
            raise RulesError(f"choices: {c} is not open to this victory (allowed: "
                             f"{', '.join(result.ta_choices) or 'none'})")
    count = Counter(choices)
    words = {"impact": "extra impact", "precision": "one more Zone Die",
             "action": "a bonus action (after injury and mishaps)",
             "setup": "one success level better on a Melee or Dodge test next round"}
    trace = [step(f"{n} × {c}: {words[c]}", DATA.rule(RESULTS)) for c, n in count.items()]
    return AdvantagesSpent(value=len(choices), outcome=", ".join(choices) or "none",
                           trace=tuple(trace), impact_tas=count["impact"],
                           precision_dice=count["precision"], bonus_actions=count["action"],
                           setup=count["setup"])


def setup_level(level: str, setups: int = 1) -> str:
    """The success level after *setups* Setup TAs: each lifts a later Melee or Dodge test
    (one taken before the coming round is out) a level higher, never past CS (assumption
    beyond_cs). Melee Test Results, Setup."""
    require_int("setups", setups, minimum=0)
    return shift_level(level, setups)



AFTER_INJURY = "Melee 3 Outcome — Injuries"


def after_injury(result: MeleeResolution, spent: AdvantagesSpent | None = None, *,
                 free_press_rolls: int = 0) -> Resolution:
    """What follows a melee strike once its injury is settled, in the order the rule fixes:
    first any Mishap rolls (attacker's, then defender's), then the Free Press Rolls, then the
    bonus actions the victory's Action TAs bought. value = how many things follow.

    How many Free Press Rolls are earned, and what they do, is on a page the seed lacks: the
    caller says how many (*free_press_rolls*); the engine only puts them in their place.
    """
    if not isinstance(result, MeleeResolution):
        raise RulesError(f"result must be a melee exchange result, got {shown(result)}")
    if spent is not None and not isinstance(spent, AdvantagesSpent):
        raise RulesError(f"spent must be the advantages spent (spend_advantages) or None, "
                         f"got {shown(spent)}")
    require_int("free_press_rolls", free_press_rolls, minimum=0, maximum=MAX_PRESS_ROLLS)
    order: list[str] = []
    for who, mishap in (("attacker", result.attacker_mishap),
                        ("defender", result.defender_mishap)):
        if mishap is not None and not isinstance(mishap, str):
            raise RulesError(f"result's {who} mishap must be text or None, got {shown(mishap)}")
        if mishap:
            order.append(f"the {who}'s {mishap.lower()}"
                         + ("" if mishap.lower().startswith("automatic") else " roll"))
    order += ["a Free Press Roll"] * free_press_rolls
    order += ["a bonus action (Action TA)"] * (spent.bonus_actions if spent else 0)
    trace = [step("After the injury: " + ("; then ".join(f"{i}) {what}" for i, what in
                                                          enumerate(order, start=1))
                                          if order else "nothing more follows"),
                  DATA.rule(AFTER_INJURY), count=len(order))]
    return Resolution(value=len(order), outcome=", ".join(order) or "nothing",
                      trace=tuple(trace))
