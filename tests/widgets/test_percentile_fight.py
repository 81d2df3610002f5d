"""The percentile fight page in plain pytest: the shot from one roster row at another, through
the injury into the target's record, undone and redone with the page; the melee exchange, the
Shock roll and a day of healing on the same page."""

from __future__ import annotations

from rulescore.roster import Roster
from rulescore.systems import percentile as pc
from widgets.common import RollRequest
from widgets.percentile_fight import fight_page

# The seed's Direct Missile example from Nolora's row: 45 (CS) at point blank, two Precision
# TAs, Zone Dice 4, 4, 6 (all Torso), Location Dice 6, 1, 9 (the abdomen), impact d12 7 + 4 + 2
# = 13P, less the brigand's AV4 = 9: S2P; Shock 75 against ML65: CF, SHK 8, Incapacitated.
SHOT = [45, 4, 4, 6, 6, 1, 9, 7, 75]


def _typed(entry, values) -> None:
    entry.my_dice.value = ", ".join(map(str, values))
    entry.use_dice_button.click()


def test_the_shot_is_filled_from_the_rows_and_written_into_the_target_s_record():
    page = fight_page()
    shot = page.missile
    assert (shot.first.value, shot.second.value) == ("Nolora", "Brigand")
    assert "Archery 75" in shot.filled.value and "Torso 4" in shot.filled.value
    shot.range_ft.value = 20
    shot.advantage.value = "precision"
    _typed(shot.entry, SHOT)
    assert "Brigand: Abdomen: S2P injury; shock 8 → INC" in shot.result.value
    assert shot.apply_button.description == "Write it into Brigand's record"
    shot.apply_button.click()
    brigand = page.state.combatant("Brigand")
    assert [i.code for i in brigand.record.injuries] == ["S2P"]
    assert brigand.shock == "INC"
    assert "S2P abdomen" in page.turns.table.value
    assert "Incapacitated" in page.turns.table.value
    assert shot.apply_button.disabled  # written once
    assert page.missile.roll_log.entries[0][0] == "missile shot: Nolora at Brigand"
    page.undo()
    assert pc.fight_for(page.roster, page.state).combatant("Brigand").record.injuries == ()
    page.redo()
    assert page.state.combatant("Brigand").shock == "INC"


def test_the_roll_log_replays_a_seeded_shot():
    page = fight_page()
    page.missile.entry.roll(11)
    first = page.missile.result.value
    assert len(page.missile.roll_log.entries) == 1
    page.missile.result.value = ""
    page.missile.roll_log.children[0].children[0].click()
    assert page.missile.result.value == first


def test_the_melee_exchange_and_the_shock_roll_after_it():
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Brigand", "Nolora"
    # Brigand (Melee 60) attacks; Nolora declares Block (Melee 60): 35 (CS) against 71 (F)
    # is two stars, the TA spent on Impact (+5E): the Block example. d6 Zone Die 1 → Skull,
    # Location Die 3; impact d10 5 + 3 + STR 1 + 5 = 14E on an unarmoured skull: S3E.
    # Shock 90 against ML65: CF, SHK 5 + 3 + 2 = 10: killed.
    _typed(melee.entry, [35, 71, 1, 3, 5, 90])
    assert "Nolora: Skull: S3E injury; shock 10 → KIA" in melee.result.value
    melee.apply_button.click()
    assert page.state.combatant("Nolora").dead and page.state.combatant("Nolora").record.dead
    assert "dead" in page.turns.table.value


def test_a_shock_roll_and_a_day_of_healing_change_the_fighter():
    page = fight_page()
    _typed(page.missile.entry, SHOT)
    page.missile.apply_button.click()
    after = page.after
    assert after.who.value == "Brigand"  # the fighter in a Shock state is offered first
    _typed(after.entry, [42])  # Shock Reroll: ML65 - 20 = 45; 42 is S: Stunned
    assert page.state.combatant("Brigand").shock == "STN"
    after.action.value = "heal"
    after.entry.roll(3)
    assert page.state.combatant("Brigand").record.day == 1
    assert "one day of healing" in page.history.lines[page.history.position]
    after.action.value = "bleed"
    after.entry.roll(5)
    assert "has no bleeding injury" in after.entry.error.message


def test_a_refused_input_names_the_field_as_the_reader_sees_it():
    page = fight_page()
    page.missile.range_ft.value = 500
    page.missile.entry.roll(1)
    assert "“Range (ft)” must be at most 160" in page.missile.entry.error.message


def test_a_roster_edit_reaches_the_panels_and_the_turn_order():
    page = fight_page()
    page.editor.set_roster(page.roster.add("Guard", initiative=90))
    assert "Guard" in page.missile.second.options
    assert page.turns.table.value.index("Guard") < page.turns.table.value.index("Nolora")
    page.turns.next_button.click()
    assert page.state.actor.name == "Nolora"
    assert isinstance(page.roster, Roster) and page.roster.names()[-1] == "Guard"


def test_the_written_shot_stays_shown_and_is_offered_again_after_undo():
    page = fight_page()
    shot = page.missile
    _typed(shot.entry, SHOT)
    shot.apply_button.click()
    assert "S2P injury" in shot.result.value
    assert (shot.apply_button.description, shot.apply_button.disabled) == (
        "Written into Brigand's record", True)
    page.undo()
    assert (shot.apply_button.description, shot.apply_button.disabled) == (
        "Write it into Brigand's record", False)
    page.turns.next_button.click()  # the record is as before the shot: still offered
    assert not shot.apply_button.disabled


def test_the_odds_before_the_roll_follow_the_rows_and_the_range():
    page = fight_page()
    odds = page.missile.odds.value
    assert "Before the roll: Direct PB shot, test EML 85" in odds
    assert "Critical: a strike, 2 stars</td><td>17.00%</td><td>17/100" in odds
    page.missile.range_ft.value = 100
    assert "Volley 3" in page.missile.odds.value
    melee = page.melee.odds.value
    assert "Before the roll: EML 60 against Counterstrike EML 60" in melee


def test_a_treatment_roll_from_the_page():
    page = fight_page()
    _typed(page.missile.entry, SHOT)
    page.missile.apply_button.click()
    after = page.after
    after.action.value = "treat"
    after.physician.value = 50
    _typed(after.entry, [33])  # Physician 50 + 0 (S2 projectile) = 50: 33 is S, HR5
    injury = page.state.combatant("Brigand").record.injuries[0]
    assert (injury.treatment, injury.hr) == ("S", 5)
    assert "S2P abdomen HR5" in after.result.value


def test_a_replay_from_the_log_rolls_the_shot_as_it_was():
    page = fight_page()
    shot = page.missile
    shot.range_ft.value = 20
    _typed(shot.entry, SHOT)
    first = shot.result.value
    shot.range_ft.value = 100
    shot.moves.value = "moving"
    page.missile.roll_log.children[0].children[0].click()
    assert (shot.range_ft.value, shot.moves.value) == (20, "still")
    assert shot.result.value == first


def test_the_next_turn_hands_the_shot_to_the_one_acting():
    page = fight_page()
    assert page.missile.first.value == "Nolora"
    page.turns.next_button.click()
    assert (page.missile.first.value, page.missile.second.value) == ("Brigand", "Nolora")
    assert page.melee.first.value == "Brigand"


def test_renaming_a_fighter_in_the_roster_keeps_their_record_and_shock():
    page = fight_page()
    shot = page.missile
    shot.range_ft.value = 20
    shot.advantage.value = "precision"
    _typed(shot.entry, SHOT)
    shot.apply_button.click()
    hurt = page.state
    row = page.roster.names().index("Brigand")
    page.editor.rows[row][0].value = "Grell"
    grell = pc.fight_for(page.roster, page.state).combatant("Grell")
    assert grell.shock == "INC" and [i.code for i in grell.record.injuries] == ["S2P"]
    assert "Grell" in page.turns.table.value and "S2P abdomen" in page.turns.table.value
    assert "Brigand" not in page.turns.table.value
    page.undo()
    assert page.roster.fighter("Brigand") and page.state == hurt


def test_each_panel_is_built_when_the_gm_first_opens_it_and_folds_again():
    page = fight_page()
    assert page._built == {}  # the page opens with the roster and the turn order only
    assert [b.description for b in page.openers.values()] == [
        "Missile shot", "Melee exchange", "Shock and healing"]
    page.openers["melee"].value = True
    melee = page._built["melee"]
    assert melee in page.children and melee.first.value == "Nolora"
    page.openers["missile"].value = True
    kids = list(page.children)
    assert kids.index(page.opener_row) < kids.index(page.missile) < kids.index(melee)
    page.openers["melee"].value = False
    assert melee.layout.display == "none" and page.panel("melee") is melee
    page.openers["melee"].value = True
    assert melee.layout.display != "none"


def test_an_unconscious_defender_is_offered_as_helpless():
    from dataclasses import replace
    page = fight_page()
    fight = pc.fight_for(page.roster, page.state)
    nolora = fight.combatant("Nolora")
    melee = page.melee
    assert not melee.helpless.value and not melee.helpless.disabled
    page.apply("Nolora knocked out", state=fight.with_combatant(replace(nolora, shock="UNC")))
    melee.first.value, melee.second.value = "Brigand", "Nolora"
    assert melee.helpless.value and melee.helpless.disabled
    assert "Nolora is helpless: a CS Ignore result, no roll" in melee.odds.value
    assert "100.00%" in melee.odds.value
    # No d100 at all: the broadsword's d6 Zone Die 1 and Location Die 3 (the skull), the d10
    # 5 + 3 + STR 1 + three Impact TAs of 5 = 24E, unarmoured: G5E; Shock 90.
    _typed(melee.entry, [1, 3, 5, 90])
    assert "Nolora: Skull: G5E injury" in melee.result.value
    melee.apply_button.click()
    assert page.state.combatant("Nolora").dead
    page.undo()
    assert melee.helpless.value and melee.helpless.disabled
    page.undo()  # awake again: the box is the GM's call once more, and empty
    assert not melee.helpless.value and not melee.helpless.disabled


def test_a_stray_arrow_goes_into_the_record_of_the_roster_fighter_it_finds():
    page = fight_page()
    page.editor.set_roster(page.roster.add("Swordsman", initiative=50))
    shot = page.missile
    assert shot.bystanders.options == ("Swordsman",)
    shot.range_ft.value = 30
    shot.bystanders.value = ("Swordsman",)
    assert shot.near.value == 1  # each one named near counts among the others near
    assert "Numbered for a stray or potential strike: 1 Swordsman." in shot.filled.value
    # 77 misses (EML 75); d20 1 finds number 1, d10 5 adds the arrow's 4P; d10 Zone Die 5 and
    # Location Die 6, the abdomen; d12 7 + 4 + 4 = 15P unarmoured: G4P; Shock 61: S, SHK 8.
    _typed(shot.entry, [77, 1, 5, 5, 6, 7, 61])
    assert "Swordsman: Abdomen: G4P injury; shock 8 → INC" in shot.result.value
    assert shot.apply_button.description == "Write it into Swordsman's record"
    shot.apply_button.click()
    assert [i.code for i in page.state.combatant("Swordsman").record.injuries] == ["G4P"]
    assert page.state.combatant("Brigand").record.injuries == ()
    assert "G4P abdomen (bleeding)" in page.turns.table.value
    shot.second.value = "Swordsman"  # the target is never one of those near it
    assert shot.bystanders.options == ("Brigand",) and shot.bystanders.value == ()
