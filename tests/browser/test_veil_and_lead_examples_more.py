"""The Veil & Lead worked examples whose tools came last, each entered in the tool beside it as a
reader would (chromium), reading the result the chapter prints; the chapters' asserts hold the
same numbers against the engine."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from rulescore.systems import veil_and_lead as vl
from tests.browser.reader import open_tool, set_value

SHOTS = Path(__file__).resolve().parents[2] / "_build" / "screenshots"


def _shot(tool, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tool.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_long_rest_and_a_doctors_care_in_the_injury_chapter(page: Page, book_url):
    """§XIV Long Rest: IRON 3 at Vitality 2 gets back IRON, 2 + 3 = 5 of 11. §XIV Medical
    Attention: from 0 to full 11 after 24 hours; 48 with a Grievous Wound (assumption
    medical_hours)."""
    tool = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-rest")
    result = tool.locator(".rulebook-vl-rest-result")
    set_value(tool.get_by_label("Patient's IRON"), "3")
    set_value(tool.get_by_label("Patient's Vitality"), "2")
    tool.get_by_label("Care", exact=True).select_option(label="Long rest (8 hours)")
    expect(result).to_have_text(f"Rested: Vitality 2 → {vl.long_rest(2, 3)}")
    expect(tool.locator(".rulebook-trace")).to_contain_text("Vitality 2 + IRON 3 = 5 of 11")
    _shot(tool, "vl_rest_long")
    tool.get_by_label("Care", exact=True).select_option(label="A doctor's care")
    set_value(tool.get_by_label("Patient's Vitality"), "0")
    set_value(tool.get_by_label("Hours under a doctor's care"), "24")
    expect(result).to_have_text("Recovered: Vitality 0 → 11 after 24 hours")
    set_value(tool.get_by_label("Grievous Wounds"), "1")
    expect(result).to_have_text("Under care: still Vitality 0 after 24 hours")
    set_value(tool.get_by_label("Hours under a doctor's care"), "48")
    expect(result).to_have_text("Recovered: Vitality 0 → 11 after 48 hours")
    _shot(tool, "vl_rest_doctor")
    set_value(tool.get_by_label("Patient's Vitality"), "12")
    expect(tool.get_by_role("alert")).to_contain_text("“Patient's Vitality” must be 11 or less")
    set_value(tool.get_by_label("Patient's Vitality"), "0")
    expect(tool.get_by_role("alert")).to_have_count(0)


def test_the_fight_length_verdict_in_the_conditions_chapter(page: Page, book_url):
    """§XV: a fight 25 ticks old is Long (ideal 10–20, dragging past 30) and has added 3
    Tension dice (1 at the start, 1 each 10 ticks)."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-pacing")
    result = tool.locator(".rulebook-vl-pacing-result")
    set_value(tool.get_by_label("Ticks so far"), "25")
    expect(result).to_have_text("Long after 25 ticks; the fight has added 3 Tension dice.")
    assert vl.combat_pacing(25).value == 3
    _shot(tool, "vl_fight_length")
    set_value(tool.get_by_label("Ticks so far"), "31")
    expect(result).to_contain_text("Dragging after 31 ticks")


def test_a_scope_adds_two_at_far_in_the_movement_chapter(page: Page, book_url):
    """§V Range and Weapons: a Scoped Buffalo Rifle at 50 m (Far) takes roll +2; at 150 m
    (Extreme) nothing (assumption scoped_rifles: any rifle may carry a scope)."""
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    shot = tool.locator(".rulebook-vl-shot")
    tool.get_by_label("Weapon", exact=True).select_option("Scoped Buffalo Rifle")
    set_value(tool.get_by_label("Distance (m)"), "50")
    expect(shot).to_have_text("At 50 m the range is Far: Scoped Buffalo Rifle (scoped rifle) "
                              "takes TN +0 and roll +2.")
    set_value(tool.get_by_label("Distance (m)"), "150")
    expect(shot).to_contain_text("the range is Extreme")
    expect(shot).to_contain_text("roll +0")


def test_a_leg_wound_halves_speed_and_takes_two_movement_dice(page: Page, book_url):
    """§III Called Shot, Leg: QUICK 3 + Athletics 1 + 3 = Speed 7, halved to 3 (assumption
    leg_speed); a movement check of 6 dice rolls 4."""
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    moves = tool.locator(".rulebook-vl-moves")
    set_value(tool.get_by_label("QUICK", exact=True), "3")
    set_value(tool.get_by_label("Athletics"), "1")
    set_value(tool.get_by_label("Movement check dice"), "6")
    expect(tool.locator(".rulebook-vl-move-check")).to_have_text(
        "A movement check rolls 6 dice.")
    tool.get_by_label("Leg wound").check()
    expect(tool.get_by_text("Speed 7 m, 3 m as things stand")).to_be_visible()
    expect(tool.locator(".rulebook-vl-move-check")).to_have_text(
        "A movement check rolls 6 dice → 4 dice.")
    expect(moves.get_by_role("row", name="Sprint 4 9 m")).to_be_visible()
    _shot(tool, "vl_movement_leg_scope")


def test_three_aims_bank_plus_4_in_the_actions_chapter(page: Page, book_url):
    """§III Aim: 1 Aim +2, 2 Aims +3, 3 or more +4 (the most)."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-aim")
    result = tool.locator(".rulebook-vl-aim-result")
    for aims, bonus in (("3", "+4"), ("5", "+4"), ("2", "+3"), ("1", "+2")):
        set_value(tool.get_by_label("Aim actions banked"), aims)
        expect(result).to_contain_text(f"roll bonus {bonus} on the next ranged attack")
    set_value(tool.get_by_label("Aim actions banked"), "3")
    expect(result).to_have_text("3 Aim actions: roll bonus +4 on the next ranged attack at "
                                "the same target (§III Aim).")
    _shot(tool, "vl_aim_bank")


def test_three_aims_and_a_scope_in_the_attack_calculator(page: Page, book_url):
    """§VI step 6 in the table chapter's calculator: a Scoped Repeater at Far after three Aim
    actions adds 4 (Aim) + 2 (scope) = 6 to the roll; TN 10 + 0 (Far, scoped rifle)."""
    tool = open_tool(page, book_url, "veil_and_lead/table", ".rulebook-vl-attack")
    set_value(tool.get_by_label("Attribute (QUICK or IRON)"), "3")
    set_value(tool.get_by_label("Skill", exact=True), "3")
    set_value(tool.get_by_label("Target's Defense"), "10")
    tool.get_by_label("Weapon", exact=True).select_option("Scoped Repeater")
    tool.get_by_label("Range band").select_option("Far")
    set_value(tool.get_by_label("Aim actions banked"), "3")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text(
        "Roll 6d8, keep the two highest, +6, against TN 10")
    tool.get_by_label("My dice").fill("7, 6, 2, 1, 1, 1")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-vl-result")).to_contain_text("→ 19 against TN 10, margin +9")
    _shot(tool, "vl_attack_scope_aim")
