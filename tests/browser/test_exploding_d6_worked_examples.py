"""The close-combat chapter's worked examples that have a tool of their own beside them (DESIGN.md
§5): the unarmed attack and the coup de grâce, entered as a reader would, give what the
engine gives for the example's own call."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import exploding_d6 as x6
from tests.browser.reader import SHOTS, open_tool, set_value, use_my_dice
from widgets.exploding_d6 import CoupDeGraceRoller, UnarmedAttack

CLOSE = "exploding_d6/close"


def test_unarmed_attack_example_in_its_tool(page: Page, book_url):
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-unarmed")
    total = tool.locator(".rulebook-x6-fists")
    for label in ("Hand-to-hand", "Strength", "Quickness"):
        set_value(tool.get_by_label(label, exact=True), "3")
    fists = x6.unarmed_attack(hand_to_hand=3, strength=3, quickness=3)
    expect(total).to_have_text(UnarmedAttack.headline(fists))
    expect(total).to_have_text("Roll 4 dice, Piercing 1, reach 1 m")
    set_value(tool.get_by_label("Quickness", exact=True), "2")
    expect(total).to_have_text(UnarmedAttack.headline(x6.unarmed_attack(3, 3, 2)))
    set_value(tool.get_by_label("Quickness", exact=True), "3")
    use_my_dice(tool, "5, 6, 6, 5, 1, 3")
    expect(tool.locator(".rulebook-total")).to_have_text(
        UnarmedAttack.blow(x6.hit_roll([5, 17, 1, 3])))
    tool.screenshot(path=SHOTS / "x6_unarmed_rolled.png")
    set_value(tool.get_by_label("Hand-to-hand", exact=True), "99")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ “Hand-to-hand” must be from 0 to 40, got 99")
    tool.screenshot(path=SHOTS / "x6_unarmed.png")


def test_coup_de_grace_examples_in_its_tool(page: Page, book_url):
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-coup")
    total = tool.locator(".rulebook-total")
    set_value(tool.get_by_label("Attack dice", exact=True), "3")
    tool.get_by_label("The victim is").select_option(label="unconscious")
    use_my_dice(tool, "5, 5, 1")
    expect(total).to_have_text(CoupDeGraceRoller.headline(
        x6.coup_de_grace(2, "unconscious")))
    expect(total).to_have_text("2 successes: dead at level 2")
    tool.get_by_label("The victim is").select_option(label="dying")
    set_value(tool.get_by_label("Dying level", exact=True), "1")
    use_my_dice(tool, "5, 5, 5")
    expect(total).to_have_text(CoupDeGraceRoller.headline(
        x6.coup_de_grace(3, "dying", dying_level=1)))
    tool.get_by_label("The victim is").select_option(label="sleeping")
    expect(tool.get_by_label("Dying level", exact=True)).to_be_hidden()
    use_my_dice(tool, "1, 2, 3")
    expect(total).to_have_text(CoupDeGraceRoller.headline(x6.coup_de_grace(0, "sleeping")))
    expect(total).to_contain_text("wake")


def test_cover_roll_and_grenade_examples_in_the_attack_tool(page: Page, book_url):
    tool = open_tool(page, book_url, "exploding_d6/combat", ".rulebook-x6-attack")
    total, stages = tool.locator(".rulebook-total"), tool.locator(".rulebook-x6-stages")
    fields = {"Skill": "3", "Weapon dice": "0", "Protection pool": "0"}
    for label, value in fields.items():
        set_value(tool.get_by_label(label, exact=True), value)
    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    # §Cover: two normal hits and a critical behind 5+ cover; the critical's die shows 5, the
    # normal hits' 4 and 6: one normal hit is left.
    covered = x6.cover_roll(hits=2, criticals=1, normal_faces=[4, 6], critical_faces=[5], cover=5)
    tool.get_by_label("Target's cover").select_option(label="5+ (half)")
    use_my_dice(tool, "5, 5, 6, 5, 5, 4, 6")
    expect(stages).to_contain_text(f"Cover 5+: {covered.criticals} crits, {covered.hits} normal "
                                   "hit left")
    expect(total).to_have_text("1 wound")
    # §Wounds and Piercing: three hits of two wounds each
    grenade = x6.wounds(hits=3, wounds_per_hit=2)
    tool.get_by_label("Target's cover").select_option(label="None")
    set_value(tool.get_by_label("Wounds a hit", exact=True), "2")
    use_my_dice(tool, "5, 5, 5")
    expect(total).to_have_text(f"{grenade.value} wounds")


def test_special_attack_examples_in_the_attack_tool(page: Page, book_url):
    """§Special Attacks, each example's minimum roll or dice on the tool's setup line (Skill 3,
    Weapon dice 1, hand-to-hand, as the disarming example's attack_setup(3, 1))."""
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    set_value(tool.get_by_label("Skill", exact=True), "3")
    set_value(tool.get_by_label("Weapon dice", exact=True), "1")
    tool.get_by_label("Reaction").select_option(label="None")
    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    special = tool.get_by_label("Special attack")
    # Accurate: two actions with Perception 3 take 5+ to 3+
    special.select_option(label="Accurate")
    set_value(tool.get_by_label("Extra actions", exact=True), "2")
    set_value(tool.get_by_label("Perception", exact=True), "3")
    expect(setup).to_contain_text(f"hit on {x6.accurate_min_roll(5, 2, 3)}+")
    # Massive: two more actions with Strength 4 add 4 dice
    special.select_option(label="Massive")
    set_value(tool.get_by_label("Strength", exact=True), "4")
    expect(setup).to_contain_text(f"Roll {4 + x6.massive_dice(2, 4)} dice")
    # Disarming: the minimum roll 3 higher
    special.select_option(label="Disarming")
    expect(setup).to_contain_text(f"hit on {x6.attack_setup(3, 1, special='disarm').min_roll}+")
    special.select_option(label="None")
    # Two-handed fighting: the off-hand weapon hits on 6+
    tool.get_by_label("Off-hand weapon (+1)").check()
    pair = x6.two_weapons(one_handed=True, same_type=True)
    expect(setup).to_contain_text(f"hit on {pair.off_hand_min_roll}+")
    tool.get_by_label("Off-hand weapon (+1)").uncheck()
    # Support weapon: a supported single shot hits on 4+
    tool.get_by_label("Attack mode").select_option(label="Single shot")
    tool.get_by_label("Weapon supported (−1)").check()
    expect(setup).to_contain_text(f"hit on {x6.supported_min_roll(5)}+")


def test_ko_examples_in_the_attack_tool(page: Page, book_url):
    """§K.O. Attack: three hits against two resistance successes knock out; against three,
    the target stays conscious."""
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-attack")
    total = tool.locator(".rulebook-total")
    for label, value in {"Skill": "3", "Weapon dice": "0", "Protection pool": "0"}.items():
        set_value(tool.get_by_label(label, exact=True), value)
    tool.get_by_label("Reaction").select_option(label="None")
    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    tool.get_by_label("Special attack").select_option(label="K.O.")
    set_value(tool.get_by_label("Resistance dice", exact=True), "3")
    assert x6.ko_attack(hits=3, resistance_successes=2).success
    use_my_dice(tool, "5, 5, 5, 5, 5, 1")
    expect(total).to_contain_text("Knocked out")
    assert not x6.ko_attack(hits=3, resistance_successes=3).success
    use_my_dice(tool, "5, 5, 5, 5, 5, 5")
    expect(total).to_contain_text("Stays conscious")
