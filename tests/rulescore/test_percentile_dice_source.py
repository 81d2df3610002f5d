"""Every percentile roll takes its d100 as a value or from a DiceSource (dice §Seeds and typed
dice): the same die gives the same result either way; both, or neither, is refused."""

import pytest

from rulescore import RulesError
from rulescore.dice import DiceSource
from rulescore.systems.percentile.healing import blood_regeneration, healing_roll, infection_course
from rulescore.systems.percentile.injury import amputation_test, shock, shock_reroll

CALLS = {
    "shock": lambda roll, **kw: shock(4, 3, roll, 65, **kw),
    "shock_reroll": lambda roll, **kw: shock_reroll(roll, 70, "UNC", fatigue=5, **kw),
    "infection_course": lambda roll, **kw: infection_course(roll, 13, 4, **kw),
    "healing_roll": lambda roll, **kw: healing_roll(roll, 13, 4, 3, **kw),
    "blood_regeneration": lambda roll, **kw: blood_regeneration(roll, 60, 3, **kw),
    "amputation_test": lambda roll, **kw: amputation_test(roll, 60, "Forearm", **kw),
}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("roll", [1, 5, 37, 66, 100])
def test_a_typed_die_gives_what_the_value_gives(name, roll):
    call = CALLS[name]
    assert call(None, dice=DiceSource.typed([roll])) == call(roll)


@pytest.mark.parametrize("name", CALLS)
def test_a_seed_replays(name):
    call = CALLS[name]
    assert call(None, dice=DiceSource.seeded(7)) == call(None, dice=DiceSource.seeded(7))


@pytest.mark.parametrize("name", CALLS)
def test_a_value_and_dice_together_are_refused_naming_both(name):
    with pytest.raises(RulesError, match=r"give roll or dice, not both: got roll 40 and dice "
                                         r"\(your dice\)"):
        CALLS[name](40, dice=DiceSource.typed([40]))


@pytest.mark.parametrize("name", CALLS)
def test_neither_is_refused_naming_the_die(name):
    with pytest.raises(RulesError, match=r"roll is needed: give the d100 rolled, or dice"):
        CALLS[name](None)


def test_a_typed_00_reads_100_as_players_read_it():
    assert shock(4, 3, None, 65, dice=DiceSource.typed([0])) == shock(4, 3, 100, 65)


def test_a_typed_die_out_of_range_is_refused_naming_the_roll():
    with pytest.raises(RulesError, match=r"Healing Roll \(d100\)"):
        healing_roll(None, 13, 4, 3, dice=DiceSource.typed([101]))


def test_evasion_and_compounding_draw_their_dice():
    from rulescore.systems.percentile.injury import compound_injury, evade_area_attack
    assert evade_area_attack(None, 60, dice=DiceSource.typed([7])) == evade_area_attack(7, 60)
    src = DiceSource.typed([4])
    assert compound_injury(["S2E"], "S3E", dice=src) == compound_injury(["S2E"], "S3E", 4)
    assert src.used == 1
    untouched = DiceSource.typed([4])
    assert compound_injury([], "S3E", dice=untouched).outcome == "no compound roll"
    assert untouched.used == 0
    with pytest.raises(RulesError, match="give d10 or dice, not both"):
        compound_injury(["S2E"], "S3E", 4, dice=DiceSource.typed([4]))
