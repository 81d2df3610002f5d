"""The percentile fight page before the roll with Grievous injuries on the records (Injury 5,
Tests with Grievous Injury): an attacker's or a shooter's test that needs an unusable zone is
an automatic CF, said on the line before the roll; a target with one counts as Still against
missiles, its test EML without the moving penalty."""

from __future__ import annotations

import html
from dataclasses import replace

from rulescore.systems import percentile as pc
from widgets.percentile_fight import fight_page


def _hurt(page, name: str, location: str) -> None:
    """Write a G4 Edge injury at *location* into *name*'s record, as a written blow would."""
    fight = pc.fight_for(page.roster, page.state)
    c = fight.combatant(name)
    page.apply(f"G4E {location}", state=fight.with_combatant(replace(
        c, record=c.record.add_injury(location, "Edge", 4))))


def _typed(entry, values) -> None:
    entry.my_dice.value = ", ".join(map(str, values))
    entry.use_dice_button.click()


def test_the_melee_line_before_the_roll_says_the_attack_is_an_automatic_cf():
    page = fight_page()
    melee = page.melee
    melee.first.value, melee.second.value = "Nolora", "Brigand"
    assert "Before the roll: EML 60 against Counterstrike EML 60" in melee.odds.value
    _hurt(page, "Nolora", "Shoulder")
    assert html.escape("Before the roll: Nolora's attack is an automatic CF, no roll (the "
                       "arms zone is unusable), against Counterstrike EML 60") \
        in melee.odds.value
    rows = page.roster
    odds = pc.melee_odds(melee.fight, rows.fighter("Nolora"), rows.fighter("Brigand")).odds
    assert all(melee.name(k) in melee.odds.value for k in odds)
    _typed(melee.entry, [95])            # the Brigand's d100 alone: F, both fail
    assert melee.error.message == ""
    assert "Dice: defender&#x27;s d100 95" in melee.result.value
    assert html.escape("Attacker's test: not rolled, the attack is an automatic CF: Nolora's "
                       "G4E Shoulder left the arms zone unusable") in melee.explanation.value


def test_the_missile_line_before_the_roll_for_a_grievous_shooter_and_target():
    page = fight_page()
    shot = page.missile
    assert (shot.first.value, shot.second.value) == ("Nolora", "Brigand")
    shot.range_ft.value = 30
    shot.moves.value = "moving"
    assert "Before the roll: Direct shot, test EML 65" in shot.odds.value
    _hurt(page, "Brigand", "Shoulder")                  # counts as Still: no -10
    assert "Before the roll: Direct shot, test EML 75" in shot.odds.value
    _hurt(page, "Nolora", "Hand")                       # Archery needs the arms
    assert html.escape("Before the roll: Nolora's shot is an automatic CF, no roll (the arms "
                       "zone is unusable): a mishap, no attack") in shot.odds.value
