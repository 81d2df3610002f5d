"""The Veil & Lead worked examples whose tools came last, each entered in the tool beside it as a
reader would (chromium), reading the result the chapter prints; the chapters' asserts hold the
same numbers against the engine."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from rulescore.systems import veil_and_lead as vl
from tests.browser.reader import SHOTS, open_tool, set_value
from tests.browser.vl_count_steps import act, add_fighter, mark_condition



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


# --- the chapters' other worked examples that no browser test entered yet ----------------------

def test_the_actions_chapters_fixed_tempos_and_exposure_in_the_tempo_calculator(page: Page,
                                                                                book_url):
    """§III and §IV, the actions chapter's asserts: a Steady Shot with a Peacemaker is its base 4
    and does not expose, a Quick Shot with it 4 − 1 = 3 and does; Aim 2 and Draw Weapon 2
    expose; Reload (Speed) 4, Grapple 5, Recover 6 and Reload (Manual) 6 do not; a Strike with
    a Bowie Knife (a light weapon, tempo 3) exposes."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    cases = (("Steady Shot", "Peacemaker", 4, False), ("Quick Shot", "Peacemaker", 3, True),
             ("Aim", "Peacemaker", 2, True), ("Draw Weapon", "Peacemaker", 2, True),
             ("Reload (Speed)", "Peacemaker", 4, False), ("Grapple", "Peacemaker", 5, False),
             ("Recover", "Peacemaker", 6, False), ("Reload (Manual)", "Peacemaker", 6, False),
             ("Strike", "Bowie Knife", 3, True))
    tool.get_by_label("Exposure rule").select_option(label="By tempo (3 or less exposes)")
    for action, weapon, tempo, exposed in cases:
        tool.get_by_label("Weapon", exact=True).select_option(weapon)
        tool.get_by_label("Action", exact=True).select_option(action)
        named = f"{action} with {weapon}" if vl.uses_weapon(action) else action
        expect(result).to_contain_text(f"{named}: tempo {tempo} (")
        expect(result).to_contain_text("Exposed until the fighter's next turn" if exposed
                                       else "not Exposed")
        assert vl.tempo(action, None if vl.action(action).tempo_rule == "fixed" else weapon) \
            == tempo


def test_prone_stands_up_and_the_downed_only_crawl_in_the_count_tracker(page: Page, book_url):
    """§XI Prone, the conditions chapter's example: Ada (tick 0) marked Prone stands up (tempo
    3) and is no longer Prone; Downed, she may only Crawl, tempo 6 (§X Bleeding Out)."""
    tool = open_tool(page, book_url, "veil_and_lead/count", ".rulebook-vl-count")
    add_fighter(tool, "Ada", "10")
    board = tool.locator(".rulebook-vl-board")
    expect(board.get_by_role("row", name="Ada Tick 0 PC")).to_be_visible()
    mark_condition(tool, "Ada", "Prone")
    expect(board.get_by_role("row", name="Ada Tick 0 PC, Prone")).to_be_visible()
    act(tool, "Stand Up")
    expect(board.get_by_role("row", name=re.compile(r"^Ada Tick 3 PC(?!.*Prone)"))) \
        .to_be_visible()                    # tempo 3: Exposed now, but no longer Prone
    tool.get_by_label("Condition", exact=True).select_option("Downed")
    tool.get_by_role("button", name="Mark condition").click()
    tool.get_by_role("button", name="Next turn (turn the Hammer)").click()
    act(tool, "Crawl")
    expect(board.get_by_role("row", name=re.compile(r"^Ada Tick 9 PC.*Downed"))).to_be_visible()
    assert vl.advance(3, vl.tempo("Crawl")) == 9


def test_one_ally_in_the_melee_and_a_scatter_gun_in_the_stray_shot_tool(page: Page, book_url):
    """§VII Firing into Melee: with one ally, a d6 of 1–3 finds them (1/2); a Scatter weapon's
    1–4 does (2/3, §VII Scatter Weapons)."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-stray")
    odds = tool.locator(".rulebook-odds")
    set_value(tool.get_by_label("Allies in the melee"), "Ada")
    tool.get_by_label("Weapon", exact=True).select_option("Peacemaker")
    expect(odds.get_by_role("row", name="Ada 50.00% 1/2")).to_be_visible()
    tool.get_by_label("Weapon", exact=True).select_option("Coach Gun")
    expect(odds.get_by_role("row", name="Ada 66.67% 2/3")).to_be_visible()
    assert [vl.wrong_target(d, scatter=True) for d in range(1, 7)].count(True) == 4


def test_the_movement_chapters_cover_values_in_its_tool(page: Page, book_url):
    """§V Cover: Light +2, Hard +4, Fortified +6; caught in the open, Exposed, −1."""
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    cover = tool.locator(".rulebook-vl-cover")
    for name, tn in (("Light Cover", "+2"), ("Fortified", "+6"), ("Exposed", "-1")):
        tool.get_by_label("Target's cover").select_option(name)
        expect(cover).to_have_text(f"{name}: TN {tn}.")
        assert vl.cover(name) == (int(tn), True)


def test_the_stabilisation_tn_two_below_zero_in_the_downed_walker(page: Page, book_url):
    """§X Stabilization: two points below 0 the healer rolls against TN 11 + 2 = 13."""
    tool = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-downed")
    set_value(tool.get_by_label("IRON", exact=True), "1")
    set_value(tool.get_by_label("Vitality now"), "-2")
    expect(tool.locator(".rulebook-vl-stab-odds")).to_contain_text("against TN 13")
    assert vl.stabilization_tn(-2) == 13


def test_treating_a_broken_bone_in_the_injury_chapter(page: Page, book_url):
    """§IX table, §XIV Long Rest: a doctor's 7, 6 and 2 set a Broken Bone at TN 13 (3d8
    succeed 173/512); a seeded roll for Internal Bleeding reads what the engine reads with
    that seed."""
    from rulescore.dice import DiceSource
    tool = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-treat")
    result = tool.locator(".rulebook-vl-treat-result")
    tool.get_by_label("Grievous Wound", exact=True).select_option(label="Broken Bone")
    set_value(tool.get_by_label("Doctor's Medicine dice"), "3")
    expect(tool.locator(".rulebook-vl-treat-odds")).to_have_text(
        "With 3d8 against TN 13 the check treats the Broken Bone 33.79% (173/512).")
    tool.get_by_label("My dice").fill("7, 6, 2")
    tool.get_by_role("button", name="Use my dice").click()
    expect(result).to_have_text("Treated: the Broken Bone is set and clears after 1 day of "
                                "recovery (until then: affected limb is unusable) "
                                "(margin +0; your dice)")
    expect(tool.locator(".rulebook-trace")).to_contain_text("7 + 6 = 13")
    _shot(tool, "vl_treat_grievous")
    tool.get_by_label("Grievous Wound", exact=True).select_option(label="Internal Bleeding")
    tool.get_by_label("Seed", exact=True).fill("11")
    tool.get_by_role("button", name="Replay seed").click()
    done = vl.treat_grievous(None, "Internal Bleeding", dice=DiceSource.seeded(11), pool=3)
    expect(result).to_have_text(f"{done.headline} (margin {done.value:+d}; seed 11)")
