"""The percentile tools read a struck fighter's armour on the zone the dice strike, not only
on the zone aimed at (Injury 2: the AV at the location struck); the melee resolver's switch
for equal Dodge rolls; the healing chapter's several healers and concentration tools."""

import pytest

from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from widgets.common import RollRequest
from widgets.percentile_care import Concentration, SeveralHealers
from widgets.percentile_injury import InjuryWalker
from widgets.percentile_table import BlowWalker, MeleeExchange
from widgets.roster import forget_shared_rosters, shared_roster


@pytest.fixture(autouse=True)
def brigand():
    """A brigand with no armour on the torso and greaves worth 12 against edge on the legs."""
    forget_shared_rosters()
    shared_roster("percentile").set_roster(
        Roster(pc.ROSTER).add("Brigand", shock=70, av_legs_e=12, rigid_legs=True))
    yield
    forget_shared_rosters()


def _aimed_at_the_torso(tool):
    if isinstance(tool, InjuryWalker):
        tool.reroll.value = False                 # the walk ends at the Shock test
    tool.aim.value = 4
    tool.struck_pick.menu.value = "Brigand"
    assert (tool.armour.value, tool.rigid.value) == (0, False)
    assert "torso against edge (the aimed zone" in tool.armour_note.value


@pytest.mark.parametrize("kind", [InjuryWalker, BlowWalker])
def test_a_strike_that_lands_on_the_legs_meets_the_greaves(kind):
    """Aimed at zone 4, the d6 shows 6: zone 9, the legs; the d10+3 blow of 11 meets AV 12."""
    tool = kind()
    _aimed_at_the_torso(tool)
    tool.roll(RollRequest.typed([6, 3, 8]))
    expected = pc.injury_sequence(aim_zone=4, impact_modifier=3, armour=12, rigid_armour=True, shock_eml=70,
                                  dice=[6, 3, 8])
    walk = tool.walk if kind is InjuryWalker else None
    shown = tool.summary.value if kind is InjuryWalker else tool.result.value
    assert "the armour takes it" in expected.outcome and expected.outcome.split(":")[0] in shown
    assert (tool.armour.value, tool.rigid.value) == (12, True)
    assert "legs against edge (the zone struck)" in tool.armour_note.value
    if walk is not None:
        assert walk.outcome == expected.outcome and walk.injury.injury is None


def test_the_same_dice_on_the_torso_keep_the_aimed_zone_s_armour():
    tool = InjuryWalker()
    _aimed_at_the_torso(tool)
    tool.roll(RollRequest.typed([2, 7, 8, 75]))
    assert tool.walk.outcome == pc.injury_sequence(aim_zone=4, impact_modifier=3, shock_eml=70,
                                                   dice=[2, 7, 8, 75]).outcome
    assert tool.armour.value == 0


def test_a_seeded_strike_on_the_legs_replays_the_same():
    tool = InjuryWalker()
    _aimed_at_the_torso(tool)
    for seed in range(40):
        tool.aim.value = 1
        tool.aim.value = 4                        # back to the aimed zone's armour
        tool.roll(RollRequest.seeded(seed))
        if tool.walk.location is not None and tool.walk.location.zone == "Legs":
            break
    else:
        pytest.fail("no seed struck the legs")
    first = tool.walk.outcome
    assert tool.armour.value == 12 and not tool.roll_error.message
    tool.roll(RollRequest.seeded(seed))          # now against AV 12 from the start
    assert tool.walk.outcome == first


def test_an_armour_the_reader_typed_stays_theirs():
    tool = InjuryWalker()
    _aimed_at_the_torso(tool)
    tool.armour.value = 3
    tool.roll(RollRequest.typed([6, 3, 8, 50]))
    assert tool.armour.value == 3
    assert tool.walk.outcome == pc.injury_sequence(aim_zone=4, impact_modifier=3, armour=3, shock_eml=70,
                                                   dice=[6, 3, 8, 50]).outcome


def test_equal_dodge_rolls_follow_the_switch():
    tool = MeleeExchange(60, "Dodge", 60)
    tool.roll(RollRequest.typed([40, 40]))
    assert tool.last.outcome == "dodged"
    tool.dodge_ties.value = "attacker"
    tool.roll(RollRequest.typed([40, 40]))
    assert tool.last.outcome == "strike"
    tool.defence.value = "Block"
    assert tool.dodge_ties.disabled


def test_several_healers_and_concentration():
    healers = SeveralHealers()
    for level, row in zip(("S", "CF", "CS"), healers.levels):
        row.value = level
    assert "Critical Failure (CF)" in healers.result.value
    healers.indices[2].value = 1
    assert healers.error.message.startswith("“The healers”: Healer 3 (Physician Index 1)")
    healers.indices[2].value = 4
    assert healers.error.message == ""
    held = Concentration()
    held.conditions.value = ("STN",)
    assert "broken" in held.result.value and "rulebook-row-used" in held.table.value
    held.conditions.value = ("Prone",)
    assert "holds" in held.result.value and "rulebook-row-used" not in held.table.value
