"""The range-band fight page (DESIGN.md §5 "At the table"), driven by setting values as a reader
would: a shot filled from the two fighters and recorded with its margin, positions changed by
the GM and by moves, hiding, a fall and its damage roll, undo over all of it."""

from __future__ import annotations

import html

from rulescore.dice import DiceSource
from rulescore.systems import range_bands as rb
from widgets.common import RollRequest
from widgets.range_bands import FALL_NOTE_STYLE, fall_note
from widgets.range_bands_fight import HIT_MEANS, first_fight, headline, starter
from widgets.range_bands_fight import fight_page

SHOT = [6, 6, 6, 5, 4, 1, 1, 1, 1, 1]


def _page():
    page = fight_page()
    assert page.roster == starter() and page.state == first_fight()
    return page


def _expected(shooter: str, target: str, dice: list[int]):
    """The shot rulescore resolves for the starting fighters with *dice*."""
    roster, fight = starter(), first_fight()
    setup = fight.shot_inputs(roster.fighter(shooter), roster.fighter(target), shooter, target)
    plan = rb.plan_shot(**setup)
    return plan, rb.shot(plan.difficulty.value, setup["skill_pool"], roll_bonus=plan.roll_bonus,
                         dice=DiceSource.typed(dice))


def test_the_shot_is_filled_from_the_two_fighters_and_recorded_with_its_margin():
    page = _page()
    panel = page.shot
    assert (panel.shooter.value, panel.target.value) == ("Mara", "Raider")
    plan, expected = _expected("Mara", "Raider", SHOT)
    assert "Raider is <b>distant</b> from Mara, light cover" in panel.filled.value
    assert f"Difficulty <b>{plan.difficulty.value}D</b>" in panel.odds.value
    assert "chance to hit <b>53.63%</b> (112607/209952)" in panel.odds.value  # percent first
    panel.roll(RollRequest.typed(SHOT))
    assert headline(expected) in panel.result.value
    assert html.escape(HIT_MEANS) in panel.means.value
    assert panel.apply_button.description == "Record the hit on Raider"
    panel.apply()
    hits = page.state.of("Raider").hits
    assert hits == (rb.Hit("Mara", expected.margin, critical=expected.outcome == "critical hit"),)
    assert "hit by" in page.positions.board.value
    assert panel.apply_button.disabled and panel.apply_button.description == "Recorded on Raider"
    page.undo()
    assert page.state.of("Raider").hits == () and not panel.apply_button.disabled
    assert page.rolls.entries[0].what == "shot: Mara at Raider"


def test_positions_change_the_next_shot():
    page = _page()
    pos, panel = page.positions, page.shot
    pos.who.value, pos.other.value = "Raider", "Mara"
    pos.between.value = "close"
    assert page.state.band_between("Mara", "Raider") == "close"
    pos.cover.value = "heavy"
    assert page.state.of("Raider").cover == "heavy"
    assert "Raider is <b>close</b> from Mara, heavy cover" in panel.filled.value
    pos.hidden.value = True
    assert panel.error.message.startswith("“Hidden”: a hidden character can only be targeted "
                                          "by area fire (turn “Area fire (+2D)” on")
    page.undo()
    assert panel.error.message == "" and not page.state.of("Raider").hidden


def test_a_move_and_a_fall_are_written_into_the_fight():
    page = _page()
    move = page.move
    move.who.value, move.other.value = "Raider", "Mara"
    move.kind.value = "move"
    move.roll(RollRequest.seeded(1))
    assert page.state.band_between("Mara", "Raider") == "close"
    assert page.state.of("Raider").movement == "move"
    move.kind.value = "dash"
    move.terrain.value = "very_hard"
    # Raider's 3 Athletics dice, then the 5D difficulty: a critical failure
    move.roll(RollRequest.typed([1, 1, 1, 6, 6, 6, 6, 6]))
    raider = page.state.of("Raider")
    assert raider.prone and raider.falls == (rb.Fall(3),) and raider.movement == "dash"
    assert "falls prone, 3D damage" in move.result.value
    pos = page.positions
    pos.who.value = "Raider"
    assert pos.fall_note.value == (f"<div class='rulebook-fall-note' style='{FALL_NOTE_STYLE}'>"
                                   f"Raider's 3D fall. {fall_note(3)}</div>")
    assert (pos.fall_entry.roll_button.description, pos.fall_entry.my_dice.description) == \
        ("Roll the fall", "Fall dice")
    pos.roll_fall(RollRequest.typed([2, 3]))                # one die short: in its own words
    assert pos.fall_entry.error.message == "“Fall dice”: type 3 d6 (3 for the damage), got 2"
    pos.roll_fall(RollRequest.typed([2, 3, 4]))
    assert page.state.of("Raider").falls == (rb.Fall(3, 9),)
    page.positions.new_turn()
    assert page.state.of("Raider").movement == "still"


def test_hiding_against_the_other_fighters_perception():
    page = _page()
    move = page.move
    move.who.value, move.other.value = "Mara", "Raider"
    move.kind.value = "stealth"
    assert "4 for Stealth" in move.dice_order.value and "3 for Perception" in \
        move.dice_order.value
    move.roll(RollRequest.typed([6, 6, 6, 6, 1, 1, 1]))
    assert page.state.of("Mara").hidden and page.state.of("Mara").streak == 1


def test_errors_name_the_fields_as_the_reader_sees_them():
    page = _page()
    move = page.move
    move.who.value, move.other.value = "Mara", "Raider"
    move.kind.value = "move"
    move.roll(RollRequest.typed([3]))
    assert move.entry.error.message and "dice" in move.entry.error.message
    page.shot.target.value = "Mara"
    assert page.shot.error.message == "Shooter and Target must be two fighters"


def test_chapter_tools_fill_from_a_roster_fighter():
    """The chapters' tools take a fighter's numbers from the shared roster (FighterPick)."""
    from rulescore.roster import Roster
    from widgets.range_bands import DashHelper, QuickLoadHelper, ShotBuilder, StealthHelper
    from widgets.roster import forget_shared_rosters, shared_roster
    forget_shared_rosters()
    try:
        shot, dash, load, hide = ShotBuilder(), DashHelper(), QuickLoadHelper(), StealthHelper()
        shared_roster("range_bands").set_roster(
            Roster(rb.ROSTER).add("Vel", shooting=6, shot_bonus=1, weapon="crossbow",
                                  optimal="distant", optimal2="far", stealth=5, perception=2,
                                  athletics=4), notify=True, line="Vel added")
        shot.pick.menu.value = "Vel"
        assert (shot.pool.value, shot.bonus.value, shot.weapon.value, shot.optimal.value,
                shot.optimal2.value) == ("6", "1", "crossbow", "distant", "far")
        plan = rb.plan_shot("distant", ("distant", "far"), "light", skill_pool=6, roll_bonus=1,
                            weapon="crossbow")
        assert f"Difficulty <b>{plan.difficulty.value}D</b>" in shot.summary.value
        dash.pick.menu.value = "Vel"
        load.pick.menu.value = "Vel"
        hide.pick.menu.value = "Vel"
        hide.observer.menu.value = "Vel"
        assert (dash.pool.value, load.pool.value, load.weapon.value) == ("4", "6", "crossbow")
        assert (hide.pool.value, hide.perception.value) == ("5", "2")
    finally:
        forget_shared_rosters()


def test_with_nobody_to_move_the_move_panel_says_whom_to_pick_and_asks_no_dice():
    """An empty roster leaves Who empty: the panel says to pick who moves, in the reader's
    words, and shows no dice entry or count; a roll is refused with the same words."""
    from rulescore.roster import Roster
    page = _page()
    move = page.move
    page.apply("everyone removed", roster=Roster(rb.ROSTER))
    said = ("Pick who moves in Who (add fighters to the roster first if it is empty), then the "
            "fighter they move toward or away from.")
    for kind in ("move", "dash", "stealth"):
        move.kind.value = kind
        assert move.who.value is None
        assert move.dice_order.value == f"<small>{said}</small>"
        assert move.entry.layout.display == "none"
        move.roll(RollRequest.typed([3]))
        assert move.entry.error.message == said
    page.apply("Mara back", roster=starter())
    assert move.who.value == "Mara" and move.entry.layout.display != "none"
    assert "for Stealth" in move.dice_order.value


def test_a_check_that_needs_no_dice_says_so_when_dice_are_typed():
    """A dash over open ground has no check: typed dice are refused in words, not as
    "type 0 d6"."""
    import pytest
    from rulescore.errors import RulesError
    with pytest.raises(RulesError) as refused:
        rb.roll_groups({"skill_dice": 0, "difficulty_dice": 0}, dice=[4])
    assert str(refused.value) == "dice: this roll needs no dice, got 1: leave the dice empty"
