"""The TSL fight page (DESIGN.md §5 "At the table"): the board and the attack on one page,
filled from the roster; Apply writes the engine's result; undo covers the page; no odds for an
attack that cannot be made; messages in the reader's words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulescore.dice import DiceSource
from rulescore.systems import tsl
from rulescore.systems.tsl.fight import gear_rarity
from widgets.common import RollRequest, chance_html, steps_html
from widgets.lean import is_shown
from widgets.tsl_fight import FightPanel, fight_page, starter


@pytest.fixture
def page():
    page = fight_page()
    panel = next(c for c in page.children if isinstance(c, FightPanel))
    return page, panel


def test_start_fills_the_board_and_the_attack_from_the_roster(page):
    page, panel = page
    assert "The fight has not started" in panel.board.value
    panel.start_button.click()
    assert "Vela is acting" in panel.board.value
    assert (panel.attacker.value, panel.target.value) == ("Vela", "Thug A")
    # Vela's sidearm fights at Near: the page picks its zone and its kind of attack
    assert (panel.distance.value, panel.attack_type.value) == ("Near", "Ranged weapon")
    assert "Chance to land at least a Mixed Success" in panel.odds.value
    assert not is_shown(panel.start_button) and is_shown(panel.next_button)


def test_an_attack_applied_is_the_engines_result(page):
    page, panel = page
    panel.start_button.click()
    dice = [6, 5, 4, 4, 2, 3, 2, 2, 1, 1]
    panel._attack(RollRequest.typed(dice))
    roster = starter()
    fight = tsl.Fight().start(list(roster.fighters)).fight
    setup = fight.attack_inputs(roster.fighter("Vela"), roster.fighter("Thug A"),
                                distance="Near", attack_type="Ranged weapon")
    expected = tsl.attack(DiceSource.typed(dice), **setup)
    assert f"{tsl.band_name(expected.band)}: {expected.stress} Stress" in panel.result.value
    assert not panel.apply_button.disabled
    panel.apply_button.click()
    assert page.state == fight.apply("Vela", "Thug A", expected).fight
    assert "Vela has used the Action this turn" in panel.odds.value
    assert panel.error.message == ""
    assert "<td class='body' style='color:#" in panel.board.value
    assert page.rolls.entries[0].what == "Vela attacks Thug A"
    # the Broken Thug A is not offered as a target, and Next turn passes over him
    assert "Thug A" not in panel.target.options
    panel.next_button.click()
    assert page.state.acting == "Thug B" and panel.attacker.value == "Thug B"
    assert panel.target.value == "Vela"
    page.undo()
    page.undo()
    assert page.state.of("Thug A").pools.stress("Body") == 0


def test_no_odds_when_the_attack_cannot_be_made(page):
    page, panel = page
    panel.start_button.click()
    fight = page.state
    page.apply("out of ammunition", state=fight._set(replace(fight.of("Vela"), uses=0)))
    assert panel.odds.value == ""
    assert panel.error.message == ("Vela's Sidearm weapon has 0 ammunition uses left: it "
                                   "cannot attack until it is restocked")
    panel._attack(RollRequest.typed([6, 6, 6, 6, 6, 1, 1, 1, 1, 1]))
    assert panel.entry.error.message == "" and panel.result.value == ""  # said once, above
    panel.who.value = "Vela"
    panel.restock_button.click()
    assert page.state.of("Vela").uses == 12 and "Chance to land" in panel.odds.value


def test_the_attacker_must_be_the_one_whose_turn_it_is(page):
    page, panel = page
    panel.start_button.click()
    panel.attacker.value = "Mar"
    panel._attack(RollRequest.typed([6, 5, 4, 4, 2, 3, 2, 2, 1, 1]))
    assert panel.entry.error.message.startswith("“Attacker” must be Vela, whose turn it is")


def test_other_moves_repair_and_set_stress(page):
    page, panel = page
    panel.start_button.click()
    panel.who.value = "Mar"
    panel.repair_armour.click()
    assert panel.repair_error.message == "Mar's armour is not spent"
    panel.pool.value, panel.stress.value = "Mind", 3
    panel.stress_button.click()
    assert page.state.of("Mar").pools.stress("Mind") == 3
    panel.who.value, panel.option.value = "Vela", "Movement"
    panel.spend_button.click()
    assert page.state.encounter.state("Vela").movement_used
    panel.who.value = "Mar"
    panel.spend_button.click()
    assert panel.error.message.startswith("“Fighter” must be Vela for Movement")


def test_a_repair_asks_the_rarity_and_only_rarer_gear_rolls(page):
    """§11 Ammunition: the Armour rarity and Weapon rarity menus start at the roster row's
    columns; Issued gear is mended with no dice (tsl.repair("Issued")), irreplaceable gear is
    lost with no dice and stays spent, and rarer gear asks for the Hand roll first (tsl.repair
    at T11 with the repairer's tier, the roster's Hand tier by default), the roll logged and
    explained beside the repair; whole gear is refused before any dice."""
    page, panel = page
    panel.start_button.click()
    fight = page.state
    spent = fight._set(replace(fight.of("Mar"), armour_spent=True))
    page.apply("Mar's armour spent", state=spent)
    panel.who.value = "Mar"
    assert panel.rarity["armour"].value == "Issued" == panel.rarity["weapon"].value
    assert panel.repair_tier.value == "Trained"
    panel.repair_weapon.click()
    assert panel.repair_error.message == "Mar's weapon is not broken"
    assert not is_shown(panel.repair_entry)
    # irreplaceable: gone for good, no dice, the armour lost on Mar (Undo takes it back)
    panel.who.value = "Mar"
    panel.irreplaceable["armour"].value = True
    panel.repair_armour.click()
    assert tsl.repair("Issued", irreplaceable=True).outcome == "lost"
    assert panel.repair_result.value.endswith("Mar&#x27;s armour is gone for good</b>")
    assert page.state.of("Mar").lost == ("armour",) and not is_shown(panel.repair_entry)
    page.undo()
    assert page.state.of("Mar").armour_spent and page.state.of("Mar").lost == ()
    # Salvaged: the Hand roll's dice first; Trained 6, 5, 1, 1, 1 is 12 against T11: mended
    panel.who.value = "Mar"
    panel.irreplaceable["armour"].value = False
    panel.rarity["armour"].value = "Salvaged"
    panel.repair_armour.click()
    assert is_shown(panel.repair_entry) and "Hand roll at T11" in panel.repair_note.value
    assert chance_html(tsl.repair_odds("Trained"), strong=True) in panel.repair_note.value
    assert page.state.of("Mar").armour_spent
    panel.repair_entry.my_dice.value = "6, 5, 1"
    panel.repair_entry.use_dice()
    assert panel.repair_entry.error.message and page.state.of("Mar").armour_spent
    mend = tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained")
    assert mend.outcome == "repaired"
    panel.repair_entry.my_dice.value = "6, 5, 1, 1, 1"
    panel.repair_entry.use_dice()
    assert not page.state.of("Mar").armour_spent
    assert "Mar&#x27;s armour is repaired by a Hand roll of 12" in panel.repair_result.value
    assert panel.repair_explanation.value == steps_html(spent.repair("Mar", "armour",
                                                                     mend).trace)
    assert panel.explanation.value == ""       # not under the attack, far from the repair
    assert page.rolls.entries[0].what == "Mar mends the armour"
    page.undo()
    assert page.state.of("Mar").armour_spent
    # Issued: mended at once with no dice
    panel.who.value = "Mar"
    assert panel.rarity["armour"].value == "Issued"
    panel.repair_armour.click()
    assert not page.state.of("Mar").armour_spent and not is_shown(panel.repair_entry)
    assert "Mar&#x27;s armour is repaired with tools and downtime" in panel.repair_result.value


def test_each_repair_starts_at_its_own_gears_rarity(page):
    """Armour and weapon are separate gear (§11 Weapons & Gear), each mended by its own rarity
    (§11 Ammunition): Mar's Salvaged armour asks for the Hand roll, his Issued weapon is mended
    at once with no dice, each menu filled from its own roster column."""
    page, panel = page
    panel.start_button.click()
    roster = page.roster.update("Mar", armour_rarity="Salvaged")
    fight = page.state
    fight = fight._set(replace(fight.of("Mar"), armour_spent=True, weapon_broken=True))
    page.apply("Mar's armour spent, weapon broken", roster=roster, state=fight)
    panel.who.value = "Mar"
    row = page.roster.fighter("Mar")
    assert (gear_rarity(row, "armour"), gear_rarity(row, "weapon")) == ("Salvaged", "Issued")
    assert panel.rarity["armour"].value == "Salvaged"
    assert panel.rarity["weapon"].value == "Issued"
    panel.repair_weapon.click()
    assert tsl.repair("Issued").outcome == "needs downtime"
    assert not page.state.of("Mar").weapon_broken and not is_shown(panel.repair_entry)
    assert "Mar&#x27;s weapon is repaired with tools and downtime" in panel.repair_result.value
    panel.who.value = "Mar"
    panel.repair_armour.click()
    assert tsl.repair_needs_roll("Salvaged")
    assert is_shown(panel.repair_entry)
    assert "Salvaged gear, Mar's armour. Mending it takes a Hand roll at T11" in \
        panel.repair_note.value
    assert page.state.of("Mar").armour_spent


def _spend_and_ask(page, panel, rarity="Salvaged"):
    """Mar's armour spent; the repair of it asked with the Armour rarity *rarity*."""
    panel.start_button.click()
    fight = page.state
    page.apply("Mar's armour spent", state=fight._set(replace(fight.of("Mar"),
                                                              armour_spent=True)))
    panel.who.value = "Mar"
    panel.rarity["armour"].value = rarity
    panel.repair_armour.click()
    return fight._set(replace(fight.of("Mar"), armour_spent=True))


def test_the_repair_roll_shows_its_odds_for_the_hand_tier(page):
    """Every roll shows its exact chance first: the Hand roll at T11 (tsl.REPAIR_TARGET) mends
    on Mixed Success or better, its chance tsl.repair_odds for the Repairer's Hand tier, which
    follows the tier while the roll waits."""
    page, panel = page
    _spend_and_ask(page, panel)
    assert (f"Hand roll at T{tsl.REPAIR_TARGET}: a Mixed Success or better mends it. Roll, or "
            "type the 5 faces.") in panel.repair_note.value
    for tier in tsl.TIERS:
        panel.repair_tier.value = tier
        assert is_shown(panel.repair_entry)
        assert (f"Chance to mend it ({tier} Hand): "
                f"{chance_html(tsl.repair_odds(tier), strong=True)}") in panel.repair_note.value
    panel.repair_entry.my_dice.value = "6, 5, 1, 1, 1"   # 6 + 5 + 1 = 12 kept by Proficient
    panel.repair_entry.use_dice()
    assert not page.state.of("Mar").armour_spent
    assert tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Proficient").value == 13


def test_a_repair_replayed_after_undo_repeats_the_same_repair(page):
    """Roll the repair with a seed, Undo, change the menus, Replay from the roll log: the same
    repair (Mar's Salvaged armour, the Trained Hand) with the same dice, mended again, the
    menus showing what it was made with; a Replay the fight refuses says so beside the repair."""
    page, panel = page
    spent = _spend_and_ask(page, panel)
    panel.repair_entry.roll(7)
    first = page.state
    expected = spent.repair("Mar", "armour", tsl.repair(
        "Salvaged", dice=DiceSource.seeded(7), tier="Trained"))
    assert first == expected.fight and not first.of("Mar").armour_spent
    line = panel.repair_result.value
    page.undo()
    assert page.state.of("Mar").armour_spent
    panel.who.value = "Vela"
    panel.rarity["armour"].value, panel.repair_tier.value = "Issued", "Untrained"
    panel.irreplaceable["armour"].value = True
    page.rolls.children[0].children[0].click()   # its Replay
    assert page.state == first and page.rolls.entries[0].what == "Mar mends the armour"
    assert panel.repair_result.value == line and panel.repair_error.message == ""
    assert (panel.who.value, panel.rarity["armour"].value, panel.repair_tier.value,
            panel.irreplaceable["armour"].value) == ("Mar", "Salvaged", "Trained", False)
    page.rolls.children[0].children[0].click()   # its Replay
    assert panel.repair_error.message == "Mar's armour is not spent"
    assert page.state == first


def test_gear_lost_for_good_shows_on_the_board_and_is_not_repaired(page):
    """Irreplaceable armour is gone for good: the board says "armour lost for good", a later
    Repair armour is refused beside the repair, and Undo brings the spent armour back."""
    page, panel = page
    _spend_and_ask(page, panel, rarity="Issued")      # Issued: mended with no dice
    page.undo()
    panel.who.value = "Mar"
    panel.irreplaceable["armour"].value = True
    panel.repair_armour.click()
    assert "armour lost for good" in panel.board.value
    assert "armour spent" not in panel.board.value
    panel.who.value = "Mar"
    panel.irreplaceable["armour"].value = False
    panel.repair_armour.click()
    assert panel.repair_error.message == "Mar's armour is lost for good: it cannot be repaired"
    assert page.state.of("Mar").lost == ("armour",)
    page.undo()
    assert "armour spent" in panel.board.value and page.state.of("Mar").lost == ()


def test_the_armour_switch_shows_only_for_worn_unspent_armour(page):
    page, panel = page
    panel.start_button.click()
    assert not is_shown(panel.armour)          # Thug A wears none
    panel.target.value = "Mar"                 # Mar wears armour
    assert is_shown(panel.armour)
    fight = page.state
    page.apply("Mar's armour spent", state=fight._set(replace(fight.of("Mar"),
                                                              armour_spent=True)))
    panel.target.value = "Mar"
    assert not is_shown(panel.armour)
    assert "armour spent" in panel.board.value


def test_the_other_moves_before_the_fight_name_the_empty_fighter_menu(page):
    page, panel = page
    for press in (panel.spend_button, panel.stress_button):
        press.click()
        assert panel.error.message == "Fighter is empty: start the fight first"
    panel.repair_armour.click()          # said beside the repair's buttons
    assert panel.repair_error.message == "Fighter is empty: start the fight first"


def test_armour_and_weapon_each_have_their_own_irreplaceable_box(page):
    """Whether gear can be replaced belongs to the item mended, as its rarity does (tsl.repair
    takes one rarity and one irreplaceable for one item): ticking Weapon irreplaceable leaves
    the armour's repair an ordinary one, and Armour irreplaceable loses only the armour."""
    page, panel = page
    from widgets.tsl_fight import IRREPLACEABLE
    assert [panel.irreplaceable[w].description for w in ("armour", "weapon")] == \
        [IRREPLACEABLE["armour"], IRREPLACEABLE["weapon"]] == \
        ["Armour irreplaceable", "Weapon irreplaceable"]
    _spend_and_ask(page, panel, rarity="Issued")
    page.undo()
    panel.who.value = "Mar"
    panel.irreplaceable["weapon"].value = True
    panel.repair_armour.click()
    assert page.state.of("Mar").lost == () and not page.state.of("Mar").armour_spent
    assert panel.repair_result.value.endswith(
        "Mar&#x27;s armour is repaired with tools and downtime</b>")
    page.undo()
    panel.who.value = "Mar"
    panel.irreplaceable["weapon"].value = False
    panel.irreplaceable["armour"].value = True
    panel.repair_armour.click()
    assert page.state.of("Mar").lost == ("armour",)


def test_the_repair_boxes_follow_the_fighter_picked(page):
    """The roster keeps each fighter's Armour rarity and Weapon rarity, and nothing keeps
    whether their gear is irreplaceable: picking another fighter fills the rarities from their
    row and clears both Irreplaceable boxes, so Thug A's weapon is mended, not lost, after
    Vela's was ticked; only Thug A's kit changes, and a Hand roll asked for Mar is put away."""
    page, panel = page
    page.apply("rarities", roster=page.roster.update("Vela", rarity="Salvaged").update(
        "Thug A", armour_rarity="Anomalous"))
    panel.start_button.click()
    fight = page.state
    page.apply("Thug A's weapon broken", state=fight._set(replace(fight.of("Thug A"),
                                                                  weapon_broken=True)))
    assert panel.who.value == "Vela"
    assert (panel.rarity["weapon"].value, panel.rarity["armour"].value) == ("Salvaged", "Issued")
    panel.irreplaceable["weapon"].value = True
    panel.irreplaceable["armour"].value = True
    panel.who.value = "Thug A"
    assert (panel.rarity["weapon"].value, panel.rarity["armour"].value) == ("Issued", "Anomalous")
    assert (panel.irreplaceable["weapon"].value, panel.irreplaceable["armour"].value) == \
        (False, False)
    before = page.state
    panel.repair_weapon.click()
    assert panel.repair_result.value.endswith(
        "Thug A&#x27;s weapon is repaired with tools and downtime</b>")
    assert page.state.kits == before._set(replace(before.of("Thug A"),
                                                  weapon_broken=False)).kits
    # a Hand roll asked for one fighter is put away when another is picked
    _spend_and_ask(page, panel)
    assert is_shown(panel.repair_entry)
    panel.who.value = "Vela"
    assert not is_shown(panel.repair_entry) and panel.repair_note.value == ""
    panel.repair_entry.my_dice.value = "6, 5, 1, 1, 1"
    panel.repair_entry.use_dice()
    assert panel.repair_entry.error.message == "press Repair armour or Repair weapon first"
    assert page.state.of("Mar").armour_spent


def test_the_repair_asks_as_many_dice_as_the_engine_says(page):
    """The Hand roll's dice are counted by tsl.repair_dice for the item's rarity: five for
    Salvaged armour, and four typed are refused in those words."""
    page, panel = page
    _spend_and_ask(page, panel, rarity="Salvaged")
    need = tsl.repair_dice("Salvaged")
    assert need == 5
    panel.repair_entry.my_dice.value = "6, 5, 1, 1"
    panel.repair_entry.use_dice()
    assert panel.repair_entry.error.message == f"“Repair dice” must be {need} faces, got 4 numbers"
    assert page.state.of("Mar").armour_spent
