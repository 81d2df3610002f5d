"""The served percentile fight page, used as a GM would: a shot from one roster fighter at
another, through the injury, written into the target's record, read back in the turn order,
undone and redone; the page screenshotted for a person to look at."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.reader import SHOTS, open_chapter, set_value, use_my_dice

# The seed's Direct Missile example from the starter roster: Nolora (Archery 75, a bow of d12+4)
# shoots the brigand (AV4 on the torso) at 20 ft, point blank: 45 is a CS; Zone Dice 4, 4, 6
# and Location Dice 6, 1, 9 put it in the abdomen; d12 7 + 4 + 2 - 4 = 9: S2P; Shock 75
# against ML65 is a CF: SHK 8, Incapacitated.
SHOT = "45, 4, 4, 6, 6, 1, 9, 7, 75"


def open_panel(page: Page, book_url: str, label: str, css: str, load: bool = True):
    """Open the fight page (unless already open) and the panel the button *label* opens; each
    panel is built the first time the GM opens it."""
    if load:
        open_chapter(page, f"{book_url}/percentile/fight.ipynb")
    page.locator(".rulebook-fight").first.get_by_role("button", name=label,
                                                      exact=True).click()
    panel = page.locator(css).first
    expect(panel).to_be_visible(timeout=60_000)
    return panel


def test_a_shot_goes_into_the_target_s_record(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1400})
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    order = page.locator(".rulebook-pc-fight-order")
    brigand = order.locator("tr[data-fighter='Brigand']")
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("none")
    expect(shot.get_by_label("Shooter", exact=True)).to_have_value("Nolora")  # the acting fighter
    expect(shot.get_by_label("Target", exact=True)).to_have_value("Brigand")
    expect(shot).to_contain_text("Archery 75")
    interactions = 1  # the panel opened
    set_value(shot.get_by_label("Range (ft)"), "20")
    interactions += 1
    use_my_dice(shot, SHOT, name="shot")
    interactions += 2
    expect(shot.locator(".rulebook-pc-fight-result")).to_have_text(
        "Brigand: Abdomen: S2P injury; shock 8 → INC")
    shot.get_by_role("button", name="Write it into Brigand's record").click()
    interactions += 1
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("S2P abdomen")
    expect(brigand.locator(".rulebook-pc-state")).to_have_text("Incapacitated")
    assert interactions <= 8
    expect(page.locator(".rulebook-roll-log")).to_contain_text("missile shot: Nolora at Brigand")
    page.locator(".rulebook-fight").screenshot(path=str(SHOTS / "percentile_fight.png"))
    page.locator(".rulebook-fight h3").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "percentile_fight_top.png"))
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("none")
    page.get_by_role("button", name="Redo", exact=True).click()
    expect(brigand.locator(".rulebook-pc-injuries")).to_have_text("S2P abdomen")


def test_the_shock_roll_and_a_melee_blow_on_the_same_page(page: Page, book_url):
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    order = page.locator(".rulebook-pc-fight-order")
    use_my_dice(shot, SHOT, name="shot")
    shot.get_by_role("button", name="Write it into Brigand's record").click()
    # The Shock Reroll at the end of the brigand's next turn: ML65 - 20 = 45, 42 is S.
    after = open_panel(page, book_url, "Shock and healing", ".rulebook-pc-fight-after",
                       load=False)
    expect(after.get_by_label("Fighter", exact=True)).to_have_value("Brigand")
    use_my_dice(after, "42")
    brigand = order.locator("tr[data-fighter='Brigand']")
    expect(brigand.locator(".rulebook-pc-state")).to_have_text("Stunned")
    # Stunned, the brigand attacks; Nolora Blocks (Block example: 35 CS against 71 F, two
    # stars, Impact): d6 1 and Location Die 3 put it on her skull, d10 5 + 3 + 1 + 5 = 14E,
    # S3E; Shock 90 against ML65 is a CF: SHK 10, killed.
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee",
                       load=False)
    melee.get_by_label("Attacker", exact=True).select_option("Brigand")
    melee.get_by_label("Defender", exact=True).select_option("Nolora")
    use_my_dice(melee, "35, 71, 1, 3, 5, 90", name="exchange")
    expect(melee.locator(".rulebook-pc-fight-result")).to_have_text(
        "Nolora: Skull: S3E injury; shock 10 → KIA")
    melee.get_by_role("button", name="Write it into Nolora's record").click()
    expect(order.locator("tr[data-fighter='Nolora'] .rulebook-pc-state")).to_have_text("dead")
    melee.screenshot(path=str(SHOTS / "percentile_fight_melee.png"))
    after.screenshot(path=str(SHOTS / "percentile_fight_after.png"))


def test_the_roster_folds_and_its_columns_come_a_group_at_a_time(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    fight = page.locator(".rulebook-fight").first
    expect(fight.get_by_text("Fighters: Nolora, Brigand —")).to_be_visible()
    page.locator(".rulebook-fight h3").evaluate("h => h.scrollIntoView()")
    top = page.locator(".rulebook-fight h3").bounding_box()["y"]
    for part in (page.locator(".rulebook-pc-fight-order"), shot):
        box = part.bounding_box()
        assert box["y"] - top < 900, f"a panel starts {box['y'] - top:.0f}px below the title"
    page.screenshot(path=str(SHOTS / "percentile_fight_1280x900.png"))
    fight.get_by_role("button", name="edit", exact=True).click()
    editor = fight.locator(".rulebook-roster")
    # a row reads on one screen: the skills of each fighter, under their names, no sideways scroll
    expect(editor.get_by_label("Archery of Nolora")).to_be_visible()
    grid = editor.locator(".rulebook-roster-grid")
    wide = grid.evaluate("g => [g.scrollWidth, g.clientWidth]")
    assert wide[0] <= wide[1] + 1, f"the skills scroll sideways: {wide}"
    editor.screenshot(path=str(SHOTS / "percentile_roster_skills.png"))
    editor.get_by_role("button", name="Armour: Torso", exact=True).click()
    expect(editor.get_by_label("Torso AV Edge of Brigand")).to_be_visible()
    expect(editor.get_by_label("Archery of Nolora")).to_be_hidden()
    editor.screenshot(path=str(SHOTS / "percentile_roster_armour.png"))


def test_a_stray_arrow_and_a_blow_on_a_helpless_defender(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 1400})
    open_chapter(page, f"{book_url}/percentile/fight.ipynb")
    fight = page.locator(".rulebook-fight").first
    fight.get_by_role("button", name="edit", exact=True).click()
    editor = fight.locator(".rulebook-roster")
    editor.get_by_label("New fighter").fill("Guard")
    editor.get_by_role("button", name="Add fighter").click()
    order = page.locator(".rulebook-pc-fight-order")
    expect(order.locator("tr[data-fighter='Guard']")).to_be_visible()
    # 77 misses Nolora's EML 75 at 30 ft; the d20 1 finds number 1 near the brigand, the
    # guard: d10 5 adds the arrow's 4P, d10 Zone Die 5 and Location Die 6 the abdomen, d12 7
    # + 4 + 4 = 15P unarmoured: G4P; Shock 61 against ML65: S, SHK 8, Incapacitated.
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile", load=False)
    set_value(shot.get_by_label("Range (ft)"), "30")
    shot.get_by_label("Near the target, on the roster").select_option(["Guard"])
    expect(shot.get_by_label("Others near the target")).to_have_value("1")
    use_my_dice(shot, "77, 1, 5, 5, 6, 7, 61", name="shot")
    expect(shot.locator(".rulebook-pc-fight-result")).to_have_text(
        "Guard: Abdomen: G4P injury; shock 8 → INC")
    shot.get_by_role("button", name="Write it into Guard's record").click()
    guard = order.locator("tr[data-fighter='Guard']")
    expect(guard.locator(".rulebook-pc-injuries")).to_have_text("G4P abdomen (bleeding)")
    expect(guard.locator(".rulebook-pc-state")).to_have_text("Incapacitated")
    expect(order.locator("tr[data-fighter='Brigand'] .rulebook-pc-injuries")).to_have_text("none")
    shot.screenshot(path=str(SHOTS / "percentile_fight_stray.png"))
    # The guard's abdomen bleeds (Healing 1): Strength ML60 rolls 62, F: 2 BP, INC while INC
    # is UNC. The BP are that injury's own: removing it takes them back.
    after = open_panel(page, book_url, "Shock and healing", ".rulebook-pc-fight-after",
                       load=False)
    after.get_by_label("Fighter", exact=True).select_option("Guard")
    after.get_by_label("Roll for").select_option(label="Five minutes of bleeding")
    expect(after.get_by_label("Injury", exact=True).locator("option:checked")).to_have_text(
        "1. G4P abdomen (untreated, bleeding)")
    use_my_dice(after, "62")
    expect(after.locator(".rulebook-pc-fight-after-result")).to_have_text(
        "Guard: G4P abdomen bleeding, 2 BP (Unconscious)")
    after.screenshot(path=str(SHOTS / "percentile_fight_bleeding.png"))
    after.get_by_role("button", name="Remove this injury").click()
    expect(after).to_contain_text("The 2 BP its bleeding cost are taken back: blood loss "
                                  "2 → 0 BP")
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(guard.locator(".rulebook-pc-injuries")).to_have_text("G4P abdomen (bleeding)")
    # The brigand strikes Nolora, named helpless (bound): a CS Ignore result with no d100. The
    # broadsword's d6 Zone Die 1 and Location Die 3, the skull; d10 5 + 3 + STR 1 + three
    # Impact TAs of 5 = 24E, unarmoured: G5E; Shock 90.
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee", load=False)
    melee.get_by_label("Attacker", exact=True).select_option("Brigand")
    melee.get_by_label("Defender", exact=True).select_option("Nolora")
    melee.get_by_label("Defender is helpless (a CS, no roll)").check()
    expect(melee.locator(".rulebook-pc-fight-odds")).to_contain_text(
        "Nolora is helpless: a CS Ignore result, no roll")
    use_my_dice(melee, "1, 3, 5, 90", name="exchange")
    expect(melee.locator(".rulebook-pc-fight-result")).to_have_text(
        "Nolora: Skull: G5E injury; shock 12 → KIA")
    melee.screenshot(path=str(SHOTS / "percentile_fight_helpless.png"))


def test_the_defender_s_setup_field_greys_while_the_defender_makes_no_test(page: Page,
                                                                           book_url):
    page.set_viewport_size({"width": 1280, "height": 1400})
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee")
    melee.get_by_label("Attacker", exact=True).select_option("Nolora")
    melee.get_by_label("Defender", exact=True).select_option("Brigand")
    setups = melee.get_by_label("Defender's Setup advantages")
    why = melee.locator(".rulebook-pc-defender-setup-why")
    expect(setups).to_be_enabled()                      # the brigand Counterstrikes
    expect(why).to_have_text("")
    melee.get_by_label("Defence", exact=True).select_option("Ignore")
    expect(setups).to_be_disabled()
    expect(why).to_have_text("Not used: Brigand Ignores the attack, so makes no test.")
    melee.screenshot(path=str(SHOTS / "percentile_fight_setup_unused.png"))
    melee.get_by_label("Defence", exact=True).select_option("Block")
    expect(setups).to_be_enabled()
    expect(why).to_have_text("")
    melee.get_by_label("Defender is helpless (a CS, no roll)").check()
    expect(setups).to_be_disabled()
    expect(why).to_have_text("Not used: Brigand is helpless, so makes no test.")
    # nor does the attacker against a helpless defender: a CS with no roll (Injury 4)
    expect(melee.get_by_label("Attacker's Setup advantages")).to_be_disabled()
    expect(melee.locator(".rulebook-pc-attacker-setup-why")).to_have_text(
        "Not used: Brigand is helpless: the attack is a CS with no roll.")


def _arrow_in_the_brigands_right_hand(page: Page, book_url: str) -> None:
    """Nolora's arrow at 20 ft, its advantage on Impact, dice 75, 3, 4, 10, 10, 59: a G4P to
    the Brigand's right hand, written into his record."""
    page.set_viewport_size({"width": 1280, "height": 1400})
    shot = open_panel(page, book_url, "Missile shot", ".rulebook-pc-fight-missile")
    set_value(shot.get_by_label("Range (ft)"), "20")
    shot.get_by_label("Tactical advantage", exact=True).select_option(
        "Impact: the weapon's Impact TA bonus")
    use_my_dice(shot, "75, 3, 4, 10, 10, 59", name="shot")
    expect(shot.locator(".rulebook-pc-fight-result")).to_have_text(
        "Brigand: Hand: G4P injury; shock 6 → no effect")
    shot.get_by_role("button", name="Write it into Brigand's record").click()


def test_a_block_with_a_grievous_arm_is_an_automatic_cf(page: Page, book_url):
    """Injury 5, Tests with Grievous Injury: Nolora's arrow (75, a CS at EML85, its advantage
    on Impact; Zone Dice 3 and 4, Location Die 10: the hand; 10 + 4 + Impact TA 4 + range 2
    = 20P, less AV4: G4P; Shock 59, no effect; Location Die 10 is even: the right hand)
    leaves the Brigand's right arm, his weapon arm, unusable. His Block is then an automatic
    CF with no roll: one d100, Nolora's 71 (F), and neither blow lands; his Setup field is
    greyed with the reason."""
    _arrow_in_the_brigands_right_hand(page, book_url)
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee",
                       load=False)
    melee.get_by_label("Attacker", exact=True).select_option("Nolora")
    melee.get_by_label("Defender", exact=True).select_option("Brigand")
    melee.get_by_label("Defence", exact=True).select_option("Block")
    expect(melee).to_contain_text("Brigand's right arm is unusable (Grievous injury): the "
                                  "Block is an automatic CF, no test")
    expect(melee).to_contain_text("Before the roll: EML 60 against a Block that is an "
                                  "automatic CF (the arms zone is unusable)")
    use_my_dice(melee, "71", name="exchange")
    expect(melee.locator(".rulebook-pc-fight-result")).to_contain_text("nobody is struck")
    expect(melee).to_contain_text("Block with the arms zone unusable (Grievous injury): an "
                                  "automatic CF, no roll; automatic fumble")
    melee.screenshot(path=str(SHOTS / "percentile_fight_grievous_block.png"))
    # his own attack needs the arms too: an automatic CF, no roll; only Nolora's Block (35, S)
    melee.get_by_label("Attacker", exact=True).select_option("Brigand")
    melee.get_by_label("Defender", exact=True).select_option("Nolora")
    expect(melee).to_contain_text("Before the roll: Brigand's attack is an automatic CF, no "
                                  "roll (the arms zone is unusable), against Block EML 60")
    use_my_dice(melee, "35", name="exchange")
    expect(melee.locator(".rulebook-pc-fight-result")).to_contain_text("nobody is struck")
    expect(melee).to_contain_text("Attacker's test: not rolled, the attack is an automatic "
                                  "CF: Brigand's G4P right hand left the arms zone unusable")
    melee.screenshot(path=str(SHOTS / "percentile_fight_grievous_attack.png"))


def test_a_grievous_wound_to_the_other_arm_leaves_the_block_rolled(page: Page, book_url):
    """IMPAIRED ACTIONS AND MOVEMENT, Example 1: the same G4P to the Brigand's right hand,
    and the Brigand made left-handed on the roster: his Block uses the left arm and is rolled.
    Switching A Grievous arm injury stops to either arm makes it an automatic CF again
    (assumption grievous_arm_defence)."""
    _arrow_in_the_brigands_right_hand(page, book_url)
    fight = page.locator(".rulebook-fight").first
    fight.get_by_role("button", name="edit", exact=True).click()
    editor = fight.locator(".rulebook-roster")
    editor.get_by_role("button", name="Melee weapon: Zone Die–Strength impact",
                       exact=True).click()
    editor.get_by_label("Weapon arm of Brigand").select_option("left")
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee",
                       load=False)
    melee.get_by_label("Attacker", exact=True).select_option("Nolora")
    melee.get_by_label("Defender", exact=True).select_option("Brigand")
    melee.get_by_label("Defence", exact=True).select_option("Block")
    expect(melee).to_contain_text("Brigand declares Counterstrike (Melee 60, Dodge 45), "
                                  "broadsword d10+3E, Zone Die d6, in the left hand.")
    expect(melee).to_contain_text("Before the roll: EML 60 against Block EML 60")
    expect(melee).not_to_contain_text("automatic CF")
    melee.get_by_label("A Grievous arm injury stops", exact=True).select_option("either arm")
    expect(melee).to_contain_text("Brigand's right arm is unusable (Grievous injury): the "
                                  "Block is an automatic CF, no test")
    expect(melee).to_contain_text("Before the roll: EML 60 against a Block that is an "
                                  "automatic CF (the arms zone is unusable)")
    melee.screenshot(path=str(SHOTS / "percentile_fight_grievous_other_arm.png"))
