"""The Veil & Lead worked examples that the chapters' newer tools do: a long rest and a doctor's
care (§XIV), how long a fight has run (§XV), a scope at Far range (§V), banked Aim (§III) and a
Leg Hit's movement pool (§III Called Shot), each with the numbers the rules give."""

from __future__ import annotations

import pytest

from rulescore.errors import RulesError
from rulescore.systems import veil_and_lead as vl


def test_a_long_rest_gives_back_iron_up_to_full_vitality():
    rest = vl.long_rest_recovery(2, 3)                  # IRON 3: 2 + 3 = 5 of 11
    assert (rest.value, rest.outcome) == (5, "Rested")
    assert rest.value == vl.long_rest(2, 3)
    assert rest.trace[0].text == "Long Rest (8 hours): Vitality 2 + IRON 3 = 5 of 11"
    assert {s.rule.section for s in rest.trace} == {"XIV Long Rest"}
    assert "Flesh Wound 9, Broken Bone 13, Internal Bleeding 15" in rest.trace[2].text
    assert vl.long_rest_recovery(9, 3).value == 11     # 12 is past full Vitality 11
    assert vl.long_rest_recovery(0, 1).value == 1


@pytest.mark.parametrize("vitality, iron", [(True, 3), (2, True), (12, 3), (2, 0), (2.0, 3)])
def test_a_long_rest_refuses_what_is_not_a_character(vitality, iron):
    with pytest.raises(RulesError):
        vl.long_rest_recovery(vitality, iron)


def test_a_doctors_care_restores_full_vitality_in_24_or_48_hours():
    assert vl.medical_attention(0, 3, 24).value == 11
    assert vl.medical_attention(0, 3, 24, grievous_wounds=1).outcome == "Under care"
    assert vl.medical_attention(0, 3, 48, grievous_wounds=1).outcome == "Recovered"
    with pytest.raises(RulesError):
        vl.medical_attention(0, 3, True)


def test_how_long_a_fight_has_run():
    verdicts = {t: vl.combat_pacing(t).outcome for t in (9, 10, 20, 21, 30, 31)}
    assert verdicts == {9: "Short", 10: "Ideal", 20: "Ideal", 21: "Long", 30: "Long",
                        31: "Dragging"}
    long = vl.combat_pacing(25)
    assert (long.outcome, long.value) == ("Long", 3)      # 1 at the start + 2 for 20 ticks


def test_a_scoped_rifle_adds_2_to_the_roll_at_far_range_only():
    scoped = vl.weapon("Scoped Repeater")
    assert (scoped.range_class, scoped.wr, scoped.base_tempo) == ("scoped rifle", 4, 5)
    far = vl.attack([7, 6, 2, 1, 1, 1], attribute=3, skill=3, defense=10,
                    weapon="Scoped Repeater", band="Far")
    plain = vl.attack([7, 6, 2, 1, 1, 1], attribute=3, skill=3, defense=10,
                      weapon="Repeater", band="Far")
    assert (far.final_sum, plain.final_sum) == (15, 13)
    near = vl.attack([7, 6, 2, 1, 1, 1], attribute=3, skill=3, defense=10,
                     weapon="Scoped Repeater", band="Near")
    assert near.final_sum == 13
    assert "Gatling Gun" in vl.weapons() and "Scoped Gatling Gun" not in vl.weapons()


def test_three_aims_are_worth_4_and_no_more():
    assert [vl.aim_bonus(n) for n in (0, 1, 2, 3, 4)] == [0, 2, 3, 4, 4]
    with pytest.raises(RulesError):
        vl.aim_bonus(True)


def test_a_leg_hit_costs_two_dice_on_movement_checks_only():
    assert vl.pool_with_conditions(6, ["Leg Hit"], kind="movement").value == 4
    assert vl.pool_with_conditions(6, ["Leg Hit"], kind="ranged").value == 6
    assert vl.effective_speed(vl.speed(3, 1), leg_hit=True) == 3
    with pytest.raises(RulesError):
        vl.pool_with_conditions(True, ["Leg Hit"], kind="movement")
