"""A fighter's injury record kept by the fight page, corrected and treated injury by injury:
the Treatment Roll of the injury the GM picks (Healing 5) and an injury written in by mistake
taken off the record, with the injuries after it keeping their infection and timeline."""

from dataclasses import replace

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import percentile as pc

ROSTER = Roster(pc.ROSTER).add("Ann", archery=75).add("Bo", shock=65)


def _fight_with(*wounds: tuple[str, str, int]) -> pc.Fight:
    fight = pc.fight_for(ROSTER)
    record = fight.combatant("Bo").record
    for where, aspect, level in wounds:
        record = record.add_injury(where, aspect, level)
    return fight.with_combatant(replace(fight.combatant("Bo"), record=record))


def test_the_picked_injury_is_treated_not_the_first():
    fight = _fight_with(("Abdomen", "Edge", 2), ("Thigh", "Blunt", 1))
    done = pc.treat(fight, ROSTER.fighter("Bo"), physician_eml=60, injury=1,
                    dice=DiceSource.typed([99]))
    first, second = done.fight.combatant("Bo").record.injuries
    assert first.hr is None and second.treatment == "F"
    assert second.hr == pc.treatment_roll(99, 60, "Blunt", "M1").healing_rate
    assert pc.treat(fight, ROSTER.fighter("Bo"), physician_eml=60,
                    dice=DiceSource.typed([99])).fight.combatant("Bo").record.injuries[0].hr


def test_a_treated_injury_is_not_treated_twice():
    fight = _fight_with(("Abdomen", "Edge", 2))
    once = pc.treat(fight, ROSTER.fighter("Bo"), injury=0, dice=DiceSource.typed([]))
    with pytest.raises(RulesError, match=r"injury 1 of Bo \(S2E abdomen\) is already treated"):
        pc.treat(once.fight, ROSTER.fighter("Bo"), injury=0, dice=DiceSource.typed([50]))


@pytest.mark.parametrize("bad", [True, -1, 2, "1", 1.5])
def test_the_injury_is_a_place_on_the_record(bad):
    fight = _fight_with(("Abdomen", "Edge", 2), ("Thigh", "Blunt", 1))
    with pytest.raises(RulesError, match="injury"):
        pc.remove_injury(fight, ROSTER.fighter("Bo"), bad)
    with pytest.raises(RulesError, match="injury"):
        pc.treat(fight, ROSTER.fighter("Bo"), injury=bad, dice=DiceSource.typed([50]))


def test_an_empty_record_has_nothing_to_remove():
    with pytest.raises(RulesError, match="Ann's record holds no injury"):
        pc.remove_injury(pc.fight_for(ROSTER), ROSTER.fighter("Ann"), 0)


def test_an_injury_written_by_mistake_comes_off_and_the_rest_keep_their_place():
    fight = _fight_with(("Abdomen", "Edge", 2), ("Thigh", "Blunt", 3))
    gone = pc.remove_injury(fight, ROSTER.fighter("Bo"), 0)
    record = gone.fight.combatant("Bo").record
    assert [i.code for i in record.injuries] == ["S3B"]
    assert gone.outcome == "Bo: S2E abdomen removed from the record"
    assert all(len(s.levels) == 1 for s in record.timeline)
    assert record.timeline[-1].levels == (3,)
    assert gone.fight.combatant("Ann") == fight.combatant("Ann")


def test_an_infection_follows_its_injury_or_goes_with_it():
    record = (pc.InjuryRecord("Bo").add_injury("Abdomen", "Edge", 2)
              .add_injury("Thigh", "Edge", 2))
    infected = replace(record, infection=(1, 3), healing_done=(0, 1))
    kept = infected.remove_injury(0)
    assert kept.infection == (0, 3) and kept.healing_done == (0,)
    ended = infected.remove_injury(1)
    assert ended.infection is None and ended.healing_done == (0,)
    assert pc.InjuryRecord.from_json(kept.to_json()) == kept
