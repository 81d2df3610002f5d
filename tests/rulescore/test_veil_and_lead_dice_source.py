"""Every V&L function that reads dice takes them as the faces rolled or as ``dice=``, a
DiceSource (dice §Seeds and typed dice): the same faces give the same result either way, a seed
replays, both at once are refused naming both, and a wrong typed count names the count."""

from __future__ import annotations

import random

import pytest

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.systems import veil_and_lead as vl

CALEB = dict(attribute=3, skill=3, defense=9, weapon="Peacemaker", band="Far",
             cover="Hard Cover", aim_actions=2, roll_bonus=2, critical=1)


def test_calebs_shot_from_typed_dice_is_the_printed_5():
    """§VI The Complete Attack Example: [2, 3, 5, 6, 7, 8] → 15 + 5 = 20 against TN 15,
    margin 5, 1 Step + 1 Critical; WR 3 + 2 = 5 damage."""
    by_faces = vl.attack([2, 3, 5, 6, 7, 8], **CALEB)
    by_source = vl.attack(dice=DiceSource.typed([2, 3, 5, 6, 7, 8]), **CALEB)
    assert by_faces == by_source
    assert (by_source.final_sum, by_source.margin, by_source.steps, by_source.damage) == \
        (20, 5, 2, 5)


def test_a_seed_draws_the_pool_in_order():
    rng = random.Random(11)
    faces = [rng.randint(1, 8) for _ in range(6)]
    assert vl.attack(dice=DiceSource.seeded(11), **CALEB).dice == tuple(faces)
    assert vl.check(None, 11, dice=DiceSource.seeded(11), pool=6).dice == tuple(faces)


@pytest.mark.parametrize("call", [
    lambda src: vl.check([5, 4], 11, dice=src, pool=2),
    lambda src: vl.attack([5, 4, 3, 2, 1], attribute=3, skill=2, defense=10, dice=src),
    lambda src: vl.initiative([5, 4, 3, 2, 1], 3, 2, dice=src),
    lambda src: vl.stabilize([5, 4, 3], -1, dice=src, pool=3),
    lambda src: vl.grievous_wound(5, dice=src),
    lambda src: vl.resist([5, 4, 3], 2, 1, dice=src),
    lambda src: vl.grapple([5, 4, 3], 2, 1, 10, dice=src),
    lambda src: vl.first_aid([5, 4], 2, 3, dice=src, pool=2),
    lambda src: vl.treat_grievous([5, 4], "Flesh Wound", dice=src, pool=2),
    lambda src: vl.ride_check([5, 4, 3], 2, 1, dice=src),
    lambda src: vl.knit_flesh(2, 3, 2, dice=src),
    lambda src: vl.mount_fall(2, 6, 2, dice=src),
    lambda src: vl.stray_shot(2, 3, 1, dice=src),
    lambda src: vl.duel([5, 4], [5, 4], quick_a=1, awareness_a=1, quick_b=1, awareness_b=1,
                        dice=src),
])
def test_faces_and_a_source_together_are_refused_naming_both(call):
    with pytest.raises(RulesError, match=r"give .* or dice( \(a DiceSource\))?, not both"):
        call(DiceSource.seeded(3))


def test_one_call_each_through_a_source():
    """Each function with its dice typed through a source gives what its faces give."""
    src = DiceSource.typed
    assert vl.initiative(None, 3, 2, dice=src([2, 3, 5, 6, 7])).tick == 4      # 13: margin 2
    assert vl.stabilize(None, -1, medical_kit=True, dice=src([3, 5, 8]), pool=3).stabilized
    fumble = vl.stabilize(None, -1, dice=src([1, 1, 1]), pool=3)
    assert (fumble.outcome, fumble.value, fumble.dice) == ("Fumble", -2, (1, 1, 1))
    assert vl.grievous_wound(dice=src([8])).outcome == "Arterial Hit"
    assert vl.resist(None, 2, 1, dice=src([7, 5, 2])).outcome == "Resisted"      # 12 ≥ 11
    assert vl.grapple(None, 2, 1, 10, dice=src([8, 6, 1])).outcome == "Grappled"
    assert vl.first_aid(None, 2, 3, dice=src([6, 5, 2]), pool=3).value == 3      # 11 ≥ 11
    stare = vl.duel(None, None, quick_a=3, awareness_a=0, quick_b=3, awareness_b=0,
                    name_a="Ada", name_b="Bart", dice=src([8, 7, 1, 6, 6, 1]))
    assert (stare.outcome, stare.sums, stare.dice) == ("Ada", (15, 12), ((8, 7, 1), (6, 6, 1)))
    assert vl.escape(None, None, iron=1, brawl=1, grappler_iron=1, grappler_brawl=1,
                     dice=src([8, 7, 6, 6])).outcome == "Escaped"                # 15 > 12
    assert vl.mount_fall(None, 6, 2, dice=src([2])).value == 4
    assert vl.laudanum(None, 3, dice=src([2])).value == 1
    assert vl.wrong_target(None, dice=src([3])) and not vl.wrong_target(None, dice=src([4]))


def test_a_wrong_typed_count_names_the_count_it_wanted():
    with pytest.raises(RulesError, match=r"dice must be 6 d8 \(a pool of 6\), got 2 numbers"):
        vl.attack(dice=DiceSource.typed([5, 4]), **CALEB)
    with pytest.raises(RulesError, match=r"dice must be 6 d8 \(a pool of 6\), got 7 numbers"):
        vl.attack(dice=DiceSource.typed([5] * 7), **CALEB)
    with pytest.raises(RulesError, match="pool must say how many d8 to draw from dice"):
        vl.stabilize(None, -1, dice=DiceSource.seeded(1))
    with pytest.raises(RulesError, match="faces must be the d8 faces rolled, or give dice"):
        vl.stabilize(None, -1)
    with pytest.raises(RulesError, match="dice must be a DiceSource"):
        vl.grievous_wound(dice=[5])


def test_hardened_armour_negates_only_the_first_grievous_wound_of_the_scene():
    """§IX Grievous Wound Notes: Boiler Plate negates the first Grievous Wound of the scene;
    the damage still applies. WR 3 + 2 Steps + 1 Critical − AR 1 = 5."""
    first = vl.damage(3, 6, 1, 1, hardened=True)
    assert (first.value, first.grievous, first.grievous_negated) == (5, False, True)
    again = vl.damage(3, 6, 1, 1, hardened=True, hardened_spent=True)
    assert (again.value, again.grievous, again.grievous_negated) == (5, True, False)
    shot = vl.attack([2, 3, 5, 6, 7, 8], **{**CALEB, "critical": 2}, ar=1, hardened=True)
    assert shot.damage == 5 and shot.grievous_negated and not shot.grievous
    spent = vl.attack([2, 3, 5, 6, 7, 8], **{**CALEB, "critical": 2}, ar=1, hardened=True,
                      hardened_spent=True)
    assert spent.grievous and not spent.grievous_negated
    plan = vl.plan_attack(**{**CALEB, "critical": 2}, ar=1, hardened=True)
    assert plan.odds().p_grievous == 0
    assert vl.plan_attack(**{**CALEB, "critical": 2}, ar=1, hardened=True,
                          hardened_spent=True).odds().p_grievous > 0


def test_coup_de_grace_through_hardened_armour():
    """§XIII: 16 against TN 9 is margin 7, 2 Steps; WR 3 + 2 = 5, Grievous; through Boiler
    Plate 4 (not Grievous); with a Critical bonus of 1, 5 − the first negation of the scene."""
    assert vl.coup_de_grace(3, 9, 0).grievous
    negated = vl.coup_de_grace(3, 9, 1, critical=1, hardened=True)
    assert negated.value == 5 and negated.grievous_negated and not negated.grievous
    assert vl.coup_de_grace(3, 9, 1, critical=1, hardened=True, hardened_spent=True).grievous


def test_first_aid_odds_count_every_roll():
    """§XIV In-Combat Healing: Medicine against TN 11. Of the 8³ = 512 rolls of 3d8, those
    whose two highest make 11 or more number 300: 75/128."""
    from fractions import Fraction
    from itertools import product
    good = sum(1 for roll in product(range(1, 9), repeat=3)
               if sum(sorted(roll)[-2:]) >= 11)
    assert good == 300
    assert vl.first_aid_probability(3) == Fraction(good, 512) == Fraction(75, 128)
    assert vl.first_aid_probability(3, roll_bonus=2) == vl.stabilization_probability(
        3, 0, medical_kit=True)


def test_resist_and_grapple_odds_count_every_roll():
    """§XI Stunned (GRIT + Resilience against TN 11) and §III Grapple (IRON + Brawl against
    Defense), 3d8 each, counted over all 512 rolls: 11+ in 300, 10+ in 358 (179/256)."""
    from fractions import Fraction
    from itertools import product
    tops = [sum(sorted(roll)[-2:]) for roll in product(range(1, 9), repeat=3)]
    assert vl.resist_probability(2, 1) == Fraction(sum(t >= 11 for t in tops), 512)
    assert vl.grapple_probability(2, 1, 10) == Fraction(sum(t >= 10 for t in tops), 512) \
        == Fraction(179, 256)
    assert vl.resist_probability(2, 1, roll_bonus=1) == vl.grapple_probability(2, 1, 10)


def test_a_stray_shot_among_allies_draws_one_die_a_face_each():
    allies = ["Ada", "Bo", "Cy"]
    assert vl.stray_ally(allies, dice=DiceSource.typed([2])).value == "Bo"
    assert vl.stray_ally(allies, dice=DiceSource.seeded(5)) == vl.stray_ally(
        allies, dice=DiceSource.seeded(5))
    alone = DiceSource.typed([])
    assert vl.stray_ally(["Ada"], dice=alone).value == "Ada" and alone.used == 0
    with pytest.raises(RulesError, match=r"d3"):
        vl.stray_ally(allies, dice=DiceSource.typed([4]))
