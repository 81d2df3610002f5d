"""The fight page's Shock and healing panel keeps each fighter's injury record in the GM's hands:
the Treatment Roll of the injury picked, and an injury written in by mistake taken off the
record, both undoable with the page."""

from __future__ import annotations

from dataclasses import replace

from rulescore.systems import percentile as pc
from widgets.percentile_fight import fight_page


def _typed(entry, values) -> None:
    entry.my_dice.value = ", ".join(map(str, values))
    entry.use_dice_button.click()


def _wounded(page) -> None:
    """The brigand with two untreated injuries, as two strikes would have left him."""
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    record = brigand.record.add_injury("Abdomen", "Point", 2).add_injury("Thigh", "Edge", 1)
    page.apply("two injuries", state=fight.with_combatant(replace(brigand, record=record)))


def test_the_injury_menu_lists_the_fighter_s_record_and_picks_the_first_untreated():
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    assert after.injury.options == () and after.remove_button.disabled
    _wounded(page)
    assert [label for label, _ in after.injury.options] == [
        "1. S2P abdomen (untreated)", "2. M1E thigh (untreated)"]
    assert after.injury.value == 0 and not after.remove_button.disabled


def test_the_treatment_roll_is_for_the_injury_picked_and_its_replay_too():
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    _wounded(page)
    after.action.value, after.physician.value, after.injury.value = "treat", 50, 1
    _typed(after.entry, [33])
    first, second = page.state.combatant("Brigand").record.injuries
    assert first.hr is None and second.treatment == "S"
    assert after.injury.value == 0   # the treated one done, the next untreated is picked
    page.undo()
    after.injury.value = 0
    after.roll_log.children[0].children[0].click()   # the replay treats the thigh again
    first, second = page.state.combatant("Brigand").record.injuries
    assert first.hr is None and second.treatment == "S"


def test_an_injury_written_by_mistake_comes_off_the_record_and_back_with_undo():
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    _wounded(page)
    after.injury.value = 0
    after.remove_button.click()
    assert [i.code for i in page.state.combatant("Brigand").record.injuries] == ["M1E"]
    assert "Brigand: S2P abdomen removed from the record" in after.result.value
    assert "S2P" not in page.turns.table.value and "M1E thigh" in page.turns.table.value
    assert [label for label, _ in after.injury.options] == ["1. M1E thigh (untreated)"]
    page.undo()
    assert len(page.state.combatant("Brigand").record.injuries) == 2


def test_a_treated_injury_is_refused_in_the_reader_s_words():
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    _wounded(page)
    after.action.value, after.physician.value, after.injury.value = "treat", 50, 0
    _typed(after.entry, [33])
    after.injury.value = 0
    _typed(after.entry, [33])
    assert "“Injury” 1 of Brigand (S2P abdomen) is already treated" in after.entry.error.value


def test_removing_the_injury_behind_the_shock_state_says_so_and_lifts_it():
    """Injury 4: the S2P abdomen's own Shock Roll made the Brigand INC and nothing else on his
    record explains it; removing it leaves him fighting, and the page says why. The M1E thigh
    left made its Shock Roll with no effect."""
    import html
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    record = (brigand.record.add_injury("Abdomen", "Point", 2, shock="INC")
              .add_injury("Thigh", "Edge", 1, shock_rolled=True))
    page.apply("two injuries", state=fight.with_combatant(replace(brigand, record=record,
                                                                  shock="INC")))
    after.injury.value = 0
    after.remove_button.click()
    assert page.state.combatant("Brigand").status == "fighting"
    assert html.escape("The Shock state INC came from this injury alone: now no Shock state") \
        in after.explanation.value
    page.undo()
    assert page.state.combatant("Brigand").shock == "INC"


def test_five_minutes_of_bleeding_are_for_the_bleeder_picked_and_its_replay_too():
    """The thigh bleeds and the shoulder (the Bleeding example's G4E) too: choosing bleeding
    picks the first Bleeder; the GM picks the shoulder, and Strength ML60's 62 (F) puts its
    2 BP on the shoulder alone; the log's replay bleeds the shoulder again."""
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    record = brigand.record.add_injury("Abdomen", "Point", 2) \
        .add_injury("Thigh", "Edge", 2, bleeder=True) \
        .add_injury("Shoulder", "Edge", 4, bleeder=True)
    page.apply("three injuries", state=fight.with_combatant(replace(brigand, record=record)))
    assert [label for label, _ in after.injury.options] == [
        "1. S2P abdomen (untreated)", "2. S2E thigh (untreated, bleeding)",
        "3. G4E shoulder (untreated, bleeding)"]
    assert after.injury.value == 0
    after.action.value = "bleed"
    assert after.injury.value == 1                  # the first Bleeder
    after.injury.value = 2
    _typed(after.entry, [62])
    injuries = page.state.combatant("Brigand").record.injuries
    assert [i.blood_lost for i in injuries] == [0, 0, 2]
    assert "Brigand: G4E shoulder bleeding, 2 BP" in after.result.value
    page.undo()
    after.injury.value = 1
    after.roll_log.children[0].children[0].click()  # the replay bleeds the shoulder again
    assert [i.blood_lost for i in page.state.combatant("Brigand").record.injuries] == \
        [0, 0, 2]
    after.injury.value = 0                          # the abdomen does not bleed
    _typed(after.entry, [62])
    assert after.entry.error.message == ("“Injury” 1 of Brigand (S2P abdomen) is not "
                                         "bleeding: pick a Bleeder")


def test_a_healer_treats_the_bleeders_the_gm_says_and_the_replay_too():
    """Healing 1: each treated bleeder beyond one costs every Blood Stoppage Roll 10. The
    field shows only for a healer's five minutes of bleeding, filled with the open bleeders
    (2); treating both, the healer's EML60 Staunch is against 50 and 55 is a CF; lowered to
    1, against 60, the same 55 is a CS that stops the thigh, and the log's replay treats one
    again whatever the field says then. Three is more than the open bleeders: refused in the
    field's words."""
    from widgets.lean import is_shown
    page = fight_page()
    after = page.after
    after.who.value = "Brigand"
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    record = brigand.record.add_injury("Thigh", "Edge", 2, bleeder=True) \
        .add_injury("Shoulder", "Edge", 4, bleeder=True)
    page.apply("two bleeders", state=fight.with_combatant(replace(brigand, record=record)))
    assert not is_shown(after.treated)
    after.action.value = "bleed"
    assert not is_shown(after.treated)               # no healer: nothing is treated
    after.physician.value = 60
    assert is_shown(after.treated) and after.treated.value == 2
    _typed(after.entry, [55, 62])
    assert "Physician EML 60 → 50 (bleeders 2); roll 55: CF" in after.explanation.value
    page.undo()
    after.treated.value = 1
    _typed(after.entry, [55])
    assert "Physician EML 60 → 60 (bleeders 1); roll 55: CS" in after.explanation.value
    assert "Brigand: S2E thigh stopped, 0 BP" in after.result.value
    page.undo()
    after.treated.value = 2
    after.roll_log.children[0].children[0].click()   # the replay: one bleeder treated
    assert "(bleeders 1); roll 55: CS" in after.explanation.value
    page.undo()
    after.treated.value = 3
    _typed(after.entry, [55, 62])
    assert after.entry.error.message == "“Bleeders treated together” must be from 1 to 2, got 3"
