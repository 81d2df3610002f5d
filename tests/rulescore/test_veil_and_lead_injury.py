"""The Veil & Lead: damage (§VIII), grievous wounds (§IX), downed and death (§X), healing (§XIV)."""

import pytest

from rulescore import RulesError
from rulescore.systems import veil_and_lead as vl


def test_damage_worked_example():
    # §VI step 9: Peacemaker WR 3 + 1 Step + 1 (Critical bonus) = 5 before armour.
    r = vl.damage(3, 5, 0, critical=1)
    assert isinstance(r, vl.DamageResolution)
    assert (r.value, r.steps, r.grievous, r.outcome) == (5, 2, True, "Grievous")
    assert r.trace[0].rule.section == "VIII Calculating Damage"


@pytest.mark.parametrize("margin, steps", [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (8, 2),
                                           (9, 3), (30, 10)])
def test_steps_round_down(margin, steps):
    assert vl.damage(2, margin, 0).steps == steps
    assert vl.steps(margin) == steps
    assert vl.STEPS.evaluate(Margin=margin, Critical=0) == steps


def test_damage_floor_and_grievous_threshold():
    assert vl.damage(2, 0, 3).value == 0 and vl.damage(2, 0, 3).outcome == "No damage"
    assert vl.damage(4, 3, 0).value == 5 and vl.damage(4, 3, 0).grievous      # exactly 5
    assert vl.damage(4, 2, 0).value == 4 and not vl.damage(4, 2, 0).grievous
    assert not vl.damage(4, 3, 1).grievous                                   # armour first
    assert vl.damage(3, 0, 0, step_modifier=-1).value == 2                    # Shiv
    assert vl.damage(3, 0, 0, damage_bonus=2).value == 5                      # mounted Charge
    assert vl.DAMAGE.evaluate(WR=2, Steps=0, AR=3) == 0


def test_hardened_negates_only_the_grievous_wound():
    r = vl.damage(5, 6, 1, hardened=True)
    assert (r.value, r.grievous, r.grievous_negated) == (6, False, True)
    assert vl.damage(3, 0, 1, hardened=True).grievous_negated is False


@pytest.mark.parametrize("args, message", [
    ((3, -1, 0), "margin must be 0 or more, got -1"), ((-1, 2, 0), "wr must be 0 or more"),
    ((3, 2, -1), "ar must be 0 or more"), ((3, 2, 0, -1), "critical must be 0 or more"),
])
def test_damage_rejects_bad_input(args, message):
    with pytest.raises(RulesError, match=message):
        vl.damage(*args)


@pytest.mark.parametrize("vitality, state", [
    (11, "Healthy"), (6, "Healthy"), (5, "Wounded"), (1, "Wounded"), (0, "Downed"),
    (-4, "Downed"), (-5, "Dead"), (-50, "Dead"),
])
def test_health_state_iron_3_example(vitality, state):
    # §VIII: IRON 3 → 11 Vitality; Healthy above 5, Wounded at 5 or below, Downed 0, Dead −5.
    assert vl.health_state(vitality, 3) == state


def test_health_state_odd_half_and_errors():
    assert vl.health_state(5, 1) == "Healthy" and vl.health_state(4, 1) == "Wounded"   # 9 / 2
    assert vl.health_state(5, 2) == "Wounded" and vl.health_state(6, 2) == "Healthy"   # 10 / 2
    assert vl.wounded_penalty(5, 3) == 1 and vl.wounded_penalty(6, 3) == 0
    with pytest.raises(RulesError, match=r"vitality must be 11 or less \(full Vitality for iron 3\), got 12"):
        vl.health_state(12, 3)
    with pytest.raises(RulesError, match="iron must be from 1 to 5"):
        vl.health_state(3, 6)


@pytest.mark.parametrize("iron, death", [(1, -3), (2, -4), (3, -5), (4, -6), (5, -7)])
def test_death_threshold_table(iron, death):
    assert vl.death_threshold(iron) == death
    assert vl.health_state(death, iron) == "Dead"
    assert vl.health_state(death + 1, iron) == "Downed"


def test_bleeding_out_example_iron_1():
    # §X: IRON 1, Downed at 0: −1, −2, −3 and dead; the allies had 3 turns.
    assert vl.turns_to_death(0, 1) == 3
    seen = []
    v = 0
    while vl.health_state(v, 1) != "Dead":
        r = vl.bleed_out_turn(v, 1)
        v = r.value
        seen.append((v, r.state, r.turns_left))
    assert seen == [(-1, "Downed", 2), (-2, "Downed", 1), (-3, "Dead", 0)]
    with pytest.raises(RulesError, match="already dead"):
        vl.bleed_out_turn(-3, 1)
    assert vl.turns_to_death(-3, 1) == 0


@pytest.mark.parametrize("vitality, tn", [(0, 11), (-1, 12), (-2, 13), (-3, 14), (-6, 17),
                                          (4, 11)])
def test_stabilization_tn(vitality, tn):
    assert vl.stabilization_tn(vitality) == tn


def test_stabilize():
    ok = vl.stabilize([6, 5, 2], -1, medical_kit=True)        # 11 + 2 vs 12
    assert (ok.stabilized, ok.value, ok.outcome, ok.tn) == (True, -1, "Stabilized", 12)
    bad = vl.stabilize([6, 4], -1)
    assert (bad.stabilized, bad.value, bad.outcome) == (False, -1, "Still bleeding")
    fumble = vl.stabilize([6, 4], -1, fumble=True)
    assert (fumble.value, fumble.fumble, fumble.outcome) == (-2, True, "Fumble")
    ones = vl.stabilize([1, 1, 1], 0, fumble_rule="all_ones")
    assert ones.fumble and ones.value == -1
    assert not vl.stabilize([1, 1, 2], 0, fumble_rule="all_ones").fumble
    assert not vl.stabilize([8, 8], 0, fumble=True).fumble    # a success is never a fumble
    with pytest.raises(RulesError, match="fumble_rule must be one of"):
        vl.stabilize([8, 8], 0, fumble_rule="nat1")


@pytest.mark.parametrize("roll, wound, bleeding", [
    (1, "Flesh Wound", False), (2, "Flesh Wound", False), (3, "Broken Bone", False),
    (4, "Broken Bone", False), (5, "Internal Bleeding", False), (6, "Internal Bleeding", False),
    (7, "Concussion", False), (8, "Arterial Hit", True),
])
def test_grievous_wound_table(roll, wound, bleeding):
    r = vl.grievous_wound(roll)
    assert (r.outcome, r.bleeding_out, r.value) == (wound, bleeding, roll)


def test_grievous_wound_limb_and_errors():
    assert vl.grievous_wound(3, called_limb="Leg").limb == "Leg"
    assert vl.grievous_wound(1, called_limb="Leg").limb is None
    assert vl.grievous_wound(1).wound.pool_penalty == 1
    assert vl.grievous_wound(7).wound.penalty_on == "mental"
    with pytest.raises(RulesError, match="roll must be from 1 to 8, got 9"):
        vl.grievous_wound(9)
    with pytest.raises(RulesError, match="called_limb must be one of"):
        vl.grievous_wound(3, called_limb="Head")


def test_first_aid_and_long_rest():
    assert vl.first_aid([6, 5], 3, 3).value == 4
    assert vl.first_aid([6, 4], 3, 3).value == 3
    assert vl.first_aid([8, 8], 11, 3).value == 11
    with pytest.raises(RulesError, match="once a scene"):
        vl.first_aid([8, 8], 3, 3, already_treated=True)
    assert vl.long_rest(2, 3) == 5 and vl.long_rest(10, 3) == 11 and vl.long_rest(-2, 4) == 2


def test_formulas_agree_with_the_engine():
    for margin in range(0, 13):
        for critical in (0, 1, 2):
            steps = vl.STEPS.evaluate(Margin=margin, Critical=critical)
            assert steps == vl.steps(margin, critical)
            for wr in range(2, 6):
                for ar in range(0, 4):
                    assert vl.DAMAGE.evaluate(WR=wr, Steps=steps, AR=ar) == \
                        vl.damage(wr, margin, ar, critical).value
    for v in range(-6, 6):
        assert vl.STABILIZATION_TN.evaluate(Vitality=v) == vl.stabilization_tn(v)
    for iron in range(1, 6):
        assert vl.DEATH_AT.evaluate(IRON=iron) == vl.death_threshold(iron)
        assert vl.VITALITY.evaluate(IRON=iron) == vl.vitality(iron)
    assert len(vl.FORMULAS) == 12 and all(f.latex() for f in vl.FORMULAS)
