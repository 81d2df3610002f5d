"""Conditions, Aim, Grappled, the Duel and the scene's end on the tracked encounter."""

import json

import pytest

from rulescore.errors import RulesError
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead.encounter import Encounter, EncounterHistory


def two() -> Encounter:
    enc = Encounter().join("Ada", pc=True, quick=3, margin=10)       # Tick 0
    return enc.join("Bart", pc=False, quick=2, margin=10)            # Tick 0, after Ada


def test_aim_banks_up_to_three_and_is_lost_by_moving_or_shooting():
    enc = two().act("Ada", 2, action="Aim")
    assert enc.fighter("Ada").aim == 1
    enc, _ = enc.next_turn()                   # Bart at 0
    enc = enc.act("Bart", 5, action="Strike")
    enc, _ = enc.next_turn()                   # Ada at 2
    enc = enc.act("Ada", 2, action="Shift")    # a Shift keeps the Aim
    assert enc.fighter("Ada").aim == 1
    for _ in range(3):
        enc, turn = enc.next_turn()
        who = turn.order[0][0]
        enc = enc.act(who, 2, action="Aim")
    assert enc.fighter("Ada").aim <= 3 and enc.fighter("Ada").aim >= 2
    enc, turn = enc.next_turn()
    who = turn.order[0][0]
    enc = enc.act(who, 4, action="Scramble" if who == "Ada" else "Strike")
    if who == "Ada":
        assert enc.fighter("Ada").aim == 0
    assert vl.aim_bonus(3) == 4


def test_a_ranged_attack_uses_the_aim_and_damage_loses_it():
    enc = two().act("Ada", 2, action="Aim")
    assert enc.lose_aim("Ada").fighter("Ada").aim == 0
    enc, _ = enc.next_turn()
    enc = enc.act("Bart", 4, action="Strike")
    enc, _ = enc.next_turn()
    assert enc.act("Ada", 4, action="Steady Shot").fighter("Ada").aim == 0


def test_conditions_are_set_and_cleared_by_their_actions():
    enc = two().set_condition("Ada", "Prone").set_condition("Ada", "Suppressed")
    assert enc.fighter("Ada").conditions == ("Prone", "Suppressed")
    stood = enc.act("Ada", 3, action="Stand Up")
    assert stood.fighter("Ada").conditions == ("Suppressed",)
    recovered = enc.act("Ada", 6, action="Recover")        # Suppressed goes first
    assert recovered.fighter("Ada").conditions == ("Prone",)
    chosen = enc.act("Ada", 6, action="Recover", clears="Prone")
    assert chosen.fighter("Ada").conditions == ("Suppressed",)
    mettle = enc.set_condition("Ada", "Suppressed", on=False)   # 1 Mettle, no action
    assert mettle.fighter("Ada").conditions == ("Prone",)
    with pytest.raises(RulesError, match="condition must be one of"):
        enc.set_condition("Ada", "Exposed")
    with pytest.raises(RulesError, match="clears: Ada is not Blinded"):
        enc.act("Ada", 6, action="Recover", clears="Blinded")
    with pytest.raises(RulesError, match="clears is for Recover"):
        enc.act("Ada", 3, action="Stand Up", clears="Prone")


def test_grappled_cannot_move_and_strikes_only_light():
    enc = two().set_condition("Ada", "Grappled")
    with pytest.raises(RulesError, match="Grappled and cannot move"):
        enc.act("Ada", 4, action="Scramble")
    with pytest.raises(RulesError, match="tempo 3 at most"):
        enc.act("Ada", 5, action="Strike")
    assert enc.act("Ada", 3, action="Strike").fighter("Ada").tick == 3
    freed = enc.set_condition("Ada", "Grappled", on=False)
    assert freed.act("Ada", 4, action="Scramble").fighter("Ada").tick == 4


def test_duel_releases_both_holds_winner_first_and_refuses_non_holders():
    enc = two().hold("Ada", "when Bart draws")
    enc, _ = enc.next_turn()
    enc = enc.hold("Bart", "when Ada draws")
    d = vl.duel([8, 7, 1], [6, 6], quick_a=3, awareness_a=0, quick_b=2, awareness_b=0,
                name_a="Ada", name_b="Bart")
    assert d.outcome == "Ada"
    after = enc.duel("Ada", "Bart", 4, 4)
    assert after.fighter("Ada").tick == 4 and after.fighter("Bart").tick == 4
    assert after.fighter("Ada").holding is None
    with pytest.raises(RulesError, match="not holding an action"):
        after.duel("Ada", "Bart", 4, 4)
    with pytest.raises(RulesError, match="two different fighters"):
        enc.duel("Ada", "Ada", 4, 4)


def test_the_scene_end_loses_every_hold():
    enc = two().hold("Ada", "door opens").act("Bart", 2, action="Aim")
    ended = enc.end_scene()
    ada = ended.fighter("Ada")
    assert ada.holding is None and ada.tick == enc.hammer
    assert ended.fighter("Bart").aim == 0


def test_old_files_without_conditions_still_load_and_new_ones_round_trip():
    enc = two().set_condition("Bart", "Engaged").act("Ada", 2, action="Aim")
    text = EncounterHistory().push(enc, "x").to_json()
    assert EncounterHistory.from_json(text).encounter == enc
    data = json.loads(text)
    for state in data["states"]:
        for f in state["encounter"]["fighters"]:
            f.pop("conditions")
            f.pop("aim")
    old = EncounterHistory.from_json(json.dumps(data)).encounter
    assert old.fighter("Bart").conditions == ()
    data["states"][1]["encounter"]["fighters"][0]["conditions"] = ["Drunk"]
    with pytest.raises(RulesError, match=r"fighters\[1\]\.conditions\[1\] must be one of 'Suppressed'"):
        EncounterHistory.from_json(json.dumps(data))


def test_a_horde_shrinks_and_breaks_into_two_npcs_at_its_tick():
    enc = Encounter().join("Posse", pc=False, quick=2, margin=4, horde=6)
    assert enc.fighter("Posse").horde == 6 and vl.horde_pool(4, 6) == 10
    hit = vl.horde_casualties(3, 4, 6)            # the seed's Caleb: 1 + 1 Step + 1 WR 4 = 3
    enc, line = enc.hit_horde("Posse", hit.value)
    assert enc.fighter("Posse").horde == 3 and line == "Posse is down to 3"
    broken, line = enc.hit_horde("Posse", 1)
    assert [f.name for f in broken.fighters] == ["Posse 1", "Posse 2"]
    assert {f.tick for f in broken.fighters} == {enc.fighter("Posse").tick}
    assert all(f.horde == 0 and not f.pc for f in broken.fighters)
    with pytest.raises(RulesError, match="horde"):
        Encounter().join("Two", pc=False, quick=2, margin=4, horde=2)
    with pytest.raises(RulesError, match="not a Horde"):
        broken.hit_horde("Posse 1", 1)
