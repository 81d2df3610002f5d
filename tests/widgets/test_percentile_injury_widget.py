"""The injury sequence walker in plain pytest."""

import re

from widgets.percentile_injury import InjuryWalker


def sword() -> InjuryWalker:
    w = InjuryWalker()
    w.aim.value = 4
    w.armour.value = 4
    w.strength.value = 1
    w.reroll.value = False
    return w


def test_odds_follow_the_inputs():
    w = sword()
    assert "<td>Thorax</td><td>26.67%</td><td>4/15</td>" in w.odds.value
    w.aim.value = 1
    assert "<td>Skull</td>" in w.odds.value


def test_the_seeds_blow_typed_shows_one_step_at_a_time_with_the_rows_used():
    w = sword()
    w.entry.my_dice.value = "2, 7, 8, 75"
    w.entry.use_dice()
    assert "Abdomen: S2E injury; shock 8 → INC" in w.summary.value
    assert w.shown == 1 and "1 Location" in w.stage_view.value
    assert "2 Impact" not in w.stage_view.value
    used = re.findall(r"<tr class='rulebook-row-used'[^>]*>(.*?)</tr>", w.stage_view.value)
    assert any("Abdomen" in row for row in used)
    w.next_step.click()
    assert "Strike impact 8 + 3 + STR 1 = 12E" in w.stage_view.value
    w.all_steps.click()
    assert "5 Effect" in w.stage_view.value and w.next_step.disabled
    used = re.findall(r"<tr class='rulebook-row-used'[^>]*>(.*?)</tr>", w.stage_view.value)
    assert any("Incapacitated" in row for row in used)          # the shock state row


def test_adding_dice_one_at_a_time_names_the_next_die():
    w = sword()
    for die, asks in (("2", "Location Die"), ("7", "impact d10"), ("8", "Shock d100")):
        w.next_die.value = die
        w.add_die.click()
        assert f"next: roll the {asks}" in w.summary.value
    w.next_die.value = "500"
    w.add_die.click()
    assert "Shock test (d100) must be from 1 to 100, got 500" in w.entry.error.message
    assert w.typed == [2, 7, 8]
    w.next_die.value = "x"
    w.add_die.click()
    assert "Next die must be a whole number" in w.entry.error.message


def test_seeded_walk_replays_and_reroll_switch_adds_a_die():
    w = sword()
    w.reroll.value = True
    w.entry.roll(seed=4)
    first = w.summary.value
    w.entry.replay()
    assert w.summary.value == first
    w.entry.my_dice.value = "2, 7, 8, 75, 42"
    w.entry.use_dice()
    assert "after the reroll STN" in w.summary.value


def test_earlier_injuries_compound_and_bad_codes_are_refused_in_place():
    w = sword()
    w.existing.value = "S2E"
    w.armour.value = 0
    w.strength.value = 0
    w.entry.my_dice.value = "2, 7, 8, 3, 1"
    w.entry.use_dice()
    assert "G4E" in w.summary.value
    w.existing.value = "S9X"
    assert "“Earlier injuries there” must be an injury code" in w.error.message
    w.existing.value = ""
    w.precision.value = 1
    assert w.zone_pick.max == 2


def test_hard_cover_and_a_helpless_victim_reach_the_walk():
    """Injury 1 Location: a spot behind hard cover makes the strike fail; a helpless victim's
    spot is picked, not rolled. The seed's blow (aim ZN4, d6 2 → ZN5, LD 7) lands on the
    abdomen; with the abdomen behind a wall it fails. Picking ZN5, LN7 on a helpless victim,
    the impact die (8 + 3 + STR 1 - AV 4 = 8E, S2) and the Shock d100 are the only dice."""
    w = sword()
    w.cover.value = "Abdomen, Pelvis"
    # a d6 aimed at ZN4 lands in the torso (ZN4-7) on 1-4: abdomen LN5-7 and pelvis LN8-10
    # are 6 of those 10 Location Die faces: 4/6 × 6/10 = 2/5
    assert "<td>Behind hard cover: fails</td><td>40.00%</td><td>2/5</td>" in w.odds.value
    w.entry.my_dice.value = "2, 7"
    w.entry.use_dice()
    assert "the abdomen is behind hard cover: the strike fails" in w.summary.value
    w.cover.value = ""
    w.helpless.value = True
    w.aim.value = 5
    w.spot.value = 7
    assert "<td>Abdomen</td><td>100.00%</td>" in w.odds.value
    w.entry.my_dice.value = "8, 61"
    w.entry.use_dice()
    assert "Abdomen: S2E injury; shock 6 → no effect" in w.summary.value


def nolora_shot():
    """Missile 4a: Archery ML75 from point blank (+10, EML 85, Zone Die d6, impact +2): the
    roll 45 is CS, a strike with one Precision TA and one TA of choice."""
    from widgets.percentile_missile import MissileWalker
    shot = MissileWalker(ml=75, base_range=60, range_ft=20)
    walker = InjuryWalker(source=shot)
    shot.entry.my_dice.value = "45"
    shot.entry.use_dice()
    return shot, walker


def test_a_struck_shot_fills_the_injury_walker_with_one_press():
    shot, w = nolora_shot()
    assert not shot.send_button.disabled
    shot.send_button.click()
    assert (w.zone_die.value, w.precision.value, w.impact_tas.value, w.range_mod.value,
            w.aspect.value, w.projectile.value) == (6, 1, 0, 2, "P", True)
    assert w.zone_pick.max == 2
    assert "1 tactical advantage of your choice" in w.taken.value
    # two d6 Zone Dice (aim ZN1: 3 → ZN3 arms; 1 → ZN1 skull), use the first, its Location
    # Die 4; impact d10 6 + 3 + 2 range = 11P: S3
    w.entry.my_dice.value = "3, 1, 4, 6, 50"
    w.entry.use_dice()
    assert "S3P injury" in w.summary.value
    assert "+ range 2" in w.walk.impact.trace[0].text


def test_a_miss_cannot_be_sent_and_says_so_in_place():
    shot, _ = nolora_shot()
    shot.entry.my_dice.value = "100"
    shot.entry.use_dice()
    assert shot.send_button.disabled
    shot.send_strike()
    assert shot.entry.error.message == "Roll a shot that strikes someone first"


def test_the_walked_injury_goes_onto_the_linked_record_with_one_press():
    from widgets.percentile_healing import HealingWalker
    w, healing = sword(), HealingWalker()
    w.record_to(healing)
    assert w.write_button.disabled
    w.entry.my_dice.value = "2, 7, 8, 75"
    w.entry.use_dice()
    assert not w.write_button.disabled
    w.write_button.click()
    (inj,) = healing.record.injuries
    assert (inj.location, inj.code) == ("Abdomen", "S2E")
    assert "<td>S2E</td>" in healing.sheet.value and "Written: <b>S2E abdomen</b>" in \
        w.record_note.value
    assert w.write_button.disabled          # one strike, one injury


def test_without_a_linked_record_the_injury_goes_to_the_one_kept_in_the_browser():
    from rulescore.systems import percentile as pc
    w = sword()
    saved = []
    w.store.save = saved.append
    w.entry.my_dice.value = "2, 7, 8, 75"
    w.entry.use_dice()
    w.write_record()
    assert "has not arrived yet" in w.record_error.message and not saved
    kept = pc.InjuryRecord("Bo").add_injury("Thorax", "Blunt", 1)
    w.store.stored, w.store.ready = kept.to_json(), True
    w.write_record()
    record = pc.InjuryRecord.from_json(saved[-1])
    assert record.name == "Bo" and [i.code for i in record.injuries] == ["M1B", "S2E"]


def test_a_landed_melee_blow_fills_the_injury_walker_with_its_spent_advantages():
    """Melee Ignore example: 36 against ML60, no defence roll: three stars, two TAs, spent
    on one Precision (an extra Zone Die) and one Impact (+5E for an edge weapon)."""
    from widgets.percentile_table import MeleeExchange
    melee = MeleeExchange(60, "Ignore")
    walker = InjuryWalker(source=melee)
    melee.a_zone.value, melee.a_aspect.value = 8, "E"
    melee.entry.my_dice.value = "36"
    melee.entry.use_dice()
    assert not melee.send_button.disabled
    melee.spend_text.value = "precision, impact"
    melee.spend_button.click()
    melee.send_button.click()
    assert (walker.zone_die.value, walker.precision.value, walker.impact_tas.value,
            walker.aspect.value, walker.projectile.value) == (8, 1, 1, "E", False)
    assert "strike, 3 star(s)" in walker.taken.value


def test_a_blow_that_did_not_land_is_not_sent():
    from widgets.percentile_table import MeleeExchange
    melee = MeleeExchange(60, "Dodge", 60)
    InjuryWalker(source=melee)
    melee.entry.my_dice.value = "36, 51"           # the Dodge wins the tie on the higher roll
    melee.entry.use_dice()
    assert melee.send_button.disabled
    melee.send_strike()
    assert melee.spend_error.message == "Roll an exchange in which a blow lands first"


def test_a_fighter_from_the_fight_is_struck_on_their_own_record():
    """Bo, wounded on the fight page (S2E abdomen, INC), opened by name: the sword's S2E to the
    same abdomen compounds with the earlier wound (its d10 comes before the Shock test), and
    the written record holds both, with the Shock state the walk ended in."""
    import dataclasses
    import json
    from rulescore.roster import Roster
    from rulescore.systems import percentile as pc
    fight = pc.fight_for(Roster(pc.ROSTER).add("Bo"))
    bo = fight.combatant("Bo")
    fight = fight.with_combatant(dataclasses.replace(
        bo, record=bo.record.add_injury("Abdomen", "Edge", 2), shock="INC", extended_hr=5))
    w = sword()
    w.from_fight.found(json.dumps({"format": "rulebook/fight-page", "version": 1,
                                   "fight": fight.to_json(), "rolls": []}))
    w.from_fight.open_button.click()
    assert w.state.value == "INC" and w.existing.disabled
    saved = []
    w.store.save = saved.append
    w.store.ready = True
    w.entry.my_dice.value = "2, 7, 8, 3, 75"
    w.entry.use_dice()
    walk = pc.injury_sequence(zone_die=6, aim_zone=4, impact_die=10, impact_modifier=3,
                              strength_modifier=1, armour=4, shock_eml=65, current_state="INC",
                              record=w.victim, dice=[2, 7, 8, 3, 75])
    assert walk.compound is not None
    assert walk.outcome in w.summary.value
    w.write_record()
    record = pc.InjuryRecord.from_json(saved[-1])
    assert record.name == "Bo" and record.injuries == walk.record.injuries
    assert record.shock == walk.state
