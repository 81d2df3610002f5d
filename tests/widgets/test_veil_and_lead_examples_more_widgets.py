"""The tools beside the Veil & Lead worked examples that had none: rest and a doctor's care,
the fight's length, banked Aim, a leg wound's movement dice and a scoped rifle at Far range.
Each shows the engine's answer for the example's inputs, and a bad input in the field's words."""

from __future__ import annotations

from rulescore.systems import veil_and_lead as vl
from widgets.veil_and_lead_more import AimBank, FightLength, MovementAndRange
from widgets.veil_and_lead_table import RestAndCare


def test_rest_and_care_the_injury_chapters_example():
    tool = RestAndCare(iron=3, vitality=2)
    assert "Rested: Vitality 2 → 5" in tool.result.value
    assert tool.hours.disabled and tool.wounds.disabled
    tool.care.value = "doctor"
    tool.vitality.value = 0
    assert "Recovered: Vitality 0 → 11 after 24 hours" in tool.result.value
    tool.wounds.value = 1
    assert "Under care: still Vitality 0 after 24 hours" in tool.result.value
    tool.hours.value = 48
    assert "Recovered: Vitality 0 → 11 after 48 hours" in tool.result.value
    tool.vitality.value = 12
    assert tool.error.message.startswith("“Patient's Vitality” must be 11 or less")
    assert tool.result.value == ""
    tool.vitality.value = 3
    assert tool.error.message == ""


def test_fight_length_verdicts():
    tool = FightLength(25)
    assert "<b>Long</b> after 25 ticks; the fight has added 3 Tension dice" in tool.result.value
    tool.ticks.value = 31
    assert f"<b>{vl.combat_pacing(31).outcome}</b>" in tool.result.value
    tool.ticks.value = 0
    assert "added 1 Tension die." in tool.result.value


def test_aim_bank_caps_at_plus_4():
    tool = AimBank(3)
    assert "3 Aim actions: roll bonus <b>+4</b>" in tool.result.value
    tool.aims.value = 5
    assert "roll bonus <b>+4</b>" in tool.result.value
    tool.aims.value = 1
    assert "1 Aim action: roll bonus <b>+2</b>" in tool.result.value


def test_a_leg_wound_takes_two_movement_dice_and_a_scope_adds_two_at_far():
    tool = MovementAndRange(quick=3, athletics=1, check_dice=6)
    assert "A movement check rolls <b>6 dice</b>." in tool.moves.value
    tool.leg.value = True
    assert "Speed 7 m, 3 m as things stand" in tool.moves.value
    assert "A movement check rolls 6 dice → <b>4 dice</b>." in tool.moves.value
    tool.weapon.value = "Scoped Buffalo Rifle"
    tool.metres.value = 50
    assert "takes TN +0 and roll +2" in tool.shot.value
    tool.metres.value = 150
    assert "the range is <b>Extreme</b>" in tool.shot.value and "roll +0" in tool.shot.value


def test_treat_grievous_the_injury_chapters_broken_bone():
    """§XIV Long Rest: a doctor's 7, 6 and 2 set a Broken Bone at TN 13; a seeded roll gives
    what the engine gives with the same seed."""
    from widgets.common import RollRequest
    from widgets.veil_and_lead_table import TreatGrievous
    tool = TreatGrievous(wound="Broken Bone", pool=3)
    assert "against TN 13 the check treats the Broken Bone <b>33.79%</b> (173/512)" in \
        tool.odds.value
    tool.entry.my_dice.value = "7, 6, 2"
    tool.entry.use_dice()
    assert ("Treated: the Broken Bone is set and clears after 1 day of recovery (until then: "
            "affected limb is unusable) (margin +0; your dice)") in tool.result.value
    tool.wound.value = "Internal Bleeding"
    assert tool.result.value == tool.waiting
    tool.entry.roll(11)
    done = vl.treat_grievous(None, "Internal Bleeding", dice=RollRequest.seeded(11).dice,
                             pool=3)
    assert f"{done.headline} (margin {done.value:+d}; seed 11)" in tool.result.value
    tool.entry.my_dice.value = "7, 6"
    tool.entry.use_dice()
    assert tool.entry.error.message == "“My dice” must be 3 d8, got 2 numbers"
