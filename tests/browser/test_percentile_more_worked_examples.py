"""More of the percentile chapters' worked examples, each entered into the tool on its page as a
reader would and read back as the chapter prints it (DESIGN.md §5): the missile chapter's
range checks, the table chapter's mishap types, the injury chapter's impairment and impaled
arrow, the rulings' hand row and equal Dodge rolls given to the attacker, the healing chapter's
several healers on one wound and what breaks concentration, and the rulings' two healers at an
Extended Shock bedside."""

from playwright.sync_api import Page, expect

from rulescore.systems import percentile as pc
from tests.browser.reader import open_tool, set_value, use_my_dice
from tests.browser.test_percentile_fight import SHOTS, open_panel


def test_the_missile_chapter_s_range_checks_in_the_walker(page: Page, book_url):
    """Missile 2: against Base Range 40, 20 ft is Direct PB, 40 ft still Direct, 41 ft Volley 2,
    160 ft Volley 4; a wet string halves the Base Range, so 40 ft becomes Volley 2."""
    tool = open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    setup = tool.locator(".rulebook-pc-missile-setup")
    set_value(tool.get_by_label("Base Range (ft)"), "40")
    for feet, kind in (("20", "Direct PB"), ("40", "Direct"), ("41", "Volley 2"),
                       ("160", "Volley 4")):
        set_value(tool.get_by_label("Range to target (ft)"), feet)
        assert pc.missile_range(int(feet), 40).attack_type == kind
        expect(setup).to_contain_text(f"{kind} attack, test EML")
    set_value(tool.get_by_label("Range to target (ft)"), "40")
    tool.get_by_label("Wet bow or crossbow string").check()
    expect(setup).to_contain_text("Volley 2 attack, test EML")
    expect(tool.locator(".rulebook-row-used")).to_contain_text("Volley 2")


def test_the_mishap_a_critical_failure_names_in_the_test_roller(page: Page, book_url):
    """Tests: against EML 65, 13 rolls in 100 are critical successes, 52 plain successes and 7
    critical failures. A 70 is a critical failure; its ones digit 0 sends an attack to the
    Fumble roll, while a failed Dodge always stumbles."""
    tool = open_tool(page, book_url, "percentile/table", ".rulebook-pc-test")
    result = tool.locator(".rulebook-pc-result")
    set_value(tool.get_by_label("EML"), "65")
    odds = tool.locator(".rulebook-odds")
    for row in ("Critical Success (CS) 13.00% 13/100", "Success (S) 52.00% 13/25",
                "Critical Failure (CF) 7.00% 7/100"):
        expect(odds.get_by_role("row", name=row)).to_be_visible()
    for kind, mishap in (("attack", "Fumble"), ("dodge", "Stumble")):
        assert pc.mishap_type(kind, 70) == mishap
        tool.get_by_label("Kind of test").select_option(kind)
        use_my_dice(tool, "70")
        expect(result).to_contain_text(
            f"Rolled 70 against EML 65: Critical Failure (CF) — roll on the {mishap} table")


def _walk(tool, dice: str) -> None:
    use_my_dice(tool, dice)


def test_impairment_and_an_impaled_arrow_in_the_injury_walker(page: Page, book_url):
    """Injury 5: a Minor wound whose Shock test passed costs nothing for ten minutes, then 5; a
    Serious one 10; an arrow doing S3 stays impaled, one doing S2 does not. Aimed at zone 4,
    the d6 shows 1 and the Location Die 5: the abdomen, through armour 2."""
    tool = open_tool(page, book_url, "percentile/injury", ".rulebook-pc-injury")
    set_value(tool.get_by_label("Aimed zone (ZN)"), "4")
    set_value(tool.get_by_label("Armour value there"), "2")
    tool.get_by_label("Roll the Shock Reroll if INC/UNC").uncheck()
    summary = tool.locator(".rulebook-pc-injury-result")
    effect = tool.locator(".rulebook-pc-stage").filter(has_text="5 Effect")
    show_all = tool.get_by_role("button", name="Show every step")
    _walk(tool, "1, 5, 1, 50")                           # 1 + 3 - 2 = 2: M1E, Shock CS
    expect(summary).to_contain_text("Abdomen: M1E injury")
    show_all.click()
    expect(effect).to_contain_text("No impairment for ten minutes (Minor, Shock test passed), "
                                   "then 5 to the torso zone")
    _walk(tool, "1, 5, 6, 50")                           # 6 + 3 - 2 = 7: S2E
    expect(summary).to_contain_text("Abdomen: S2E injury")
    show_all.click()
    expect(effect).to_contain_text("10 impairment to the torso zone")
    tool.get_by_label("Aspect", exact=True).select_option(label="Point (P)")
    tool.get_by_label("An arrow or bolt").check()
    for dice, code, stays in (("1, 5, 9, 50", "S3P", True), ("1, 5, 6, 50", "S2P", False)):
        level = code[:2]
        assert pc.impaled(level, projectile=True) is stays
        _walk(tool, dice)
        expect(summary).to_contain_text(f"Abdomen: {code} injury")
        show_all.click()
        impaled = effect.get_by_text("The missile stays impaled: it needs Extraction")
        if stays:
            expect(impaled).to_be_visible()
        else:
            expect(effect).to_contain_text("10 impairment to the torso zone")
            expect(impaled).to_have_count(0)


def test_the_rulings_hand_row_in_the_injury_walker(page: Page, book_url):
    """Rulings: this book files the hand as location 10 of the arms, location shock 2. Aimed at
    the arms (ZN2), Zone Die 1 and Location Die 10 find the hand; its shock counts 2."""
    hand = pc.location_row("Hand")
    assert (hand["zone"], hand["ln"], hand["location_shock"]) == ("Arms", 10, 2)
    tool = open_tool(page, book_url, "percentile/injury", ".rulebook-pc-injury")
    set_value(tool.get_by_label("Aimed zone (ZN)"), "2")
    tool.get_by_label("Roll the Shock Reroll if INC/UNC").uncheck()
    _walk(tool, "1, 10, 1, 50")
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text("Hand: M1E injury")
    tool.get_by_role("button", name="Show every step").click()
    stages = tool.locator(".rulebook-pc-stage")
    where = stages.filter(has_text="1 Location")
    expect(where).to_contain_text("ZN2 is in the Arms zone")
    expect(where).to_contain_text("Location Die 10: right hand (location shock 2)")
    expect(where.locator(".rulebook-row-used").filter(has_text="Hand")).to_be_visible()
    expect(stages.filter(has_text="4 Shock")).to_contain_text("SHK = location 2 + injury 1")
    # Rulings: at the shoulder's grey circle a G4 edge wound bleeds where a blunt one does
    # not: Zone Die 1, Location Die 3 and d10 10 + 6 = 16E, G4E.
    assert pc.bleeder("Shoulder", "G4", "E") is True
    set_value(tool.get_by_label("Impact modifier"), "6")
    _walk(tool, "1, 3, 10, 50")
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text("Shoulder: G4E injury")
    tool.get_by_role("button", name="Show every step").click()
    expect(stages.filter(has_text="3 Injury").first).to_contain_text(
        "Shoulder has a grey bleeding circle: G4E is a Bleeder")


def test_equal_dodge_rolls_go_to_the_attacker_when_switched(page: Page, book_url):
    """Rulings: equal Dodge rolls (40 and 40, ML 60 each) go to the defender in this book; a
    table that gives them to the attacker switches “Equal Dodge rolls go to” and the blow
    lands with one star."""
    tool = open_tool(page, book_url, "percentile/table", ".rulebook-pc-melee")
    set_value(tool.get_by_label("Attacker's ML"), "60")
    set_value(tool.get_by_label("Defender's ML"), "60")
    tool.get_by_label("Defence").select_option("Dodge")
    result = tool.locator(".rulebook-pc-result")
    switch = tool.get_by_label("Equal Dodge rolls go to")
    expect(switch).to_be_enabled()
    for side, menu, told in (("defender", "the defender (this book's reading)", "dodged"),
                             ("attacker", "the attacker", "the attacker strikes, 1 victory star")):
        switch.select_option(label=menu)
        assert pc.melee_exchange(40, 60, "Dodge", 40, 60, dodge_equal_rolls=side).outcome == \
            ("dodged" if side == "defender" else "strike")
        use_my_dice(tool, "40, 40")
        expect(result).to_contain_text(f"Rolls 40, 40 (attacker CS, defender CS): {told}")
    tool.screenshot(path=str(SHOTS / "percentile_dodge_switch.png"))
    tool.get_by_label("Defence").select_option("Block")
    expect(switch).to_be_disabled()


def test_several_healers_on_one_wound_and_what_breaks_concentration(page: Page, book_url):
    """Healing 5: the best of several Treatment Rolls applies, but a critical failure replaces
    them all: S, CF and CS (Physician Index 2, 3, 4) leave a CF; a later healer needs a higher
    index. Healing 8: Stunned breaks concentration, Prone does not."""
    assert pc.combined_treatment_level(["S", "CF", "CS"]) == "CF"
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healers")
    result = tool.locator(".rulebook-pc-combined")
    for n, (name, index, level) in enumerate((("Ana", "2", "Success (S)"),
                                              ("Bo", "3", "Critical Failure (CF)"),
                                              ("Cy", "4", "Critical Success (CS)")), start=1):
        set_value(tool.get_by_label(f"Healer {n}", exact=True), name)
        set_value(tool.get_by_label(f"Healer {n}'s Physician Index"), index)
        tool.get_by_label(f"Healer {n}'s result").select_option(label=level)
    expect(result).to_have_text("The wound is treated as a Critical Failure (CF) of the "
                                "Treatment Roll.")
    expect(tool.locator(".rulebook-trace")).to_contain_text(
        "A CF among them replaces every other result: CF")
    tool.get_by_label("Healer 2's result").select_option(label="no roll")
    expect(result).to_contain_text("Critical Success (CS)")
    set_value(tool.get_by_label("Healer 3's Physician Index"), "2")
    expect(tool.get_by_role("alert")).to_contain_text(
        "Cy (Physician Index 2) may not follow a healer of Physician Index 2")
    set_value(tool.get_by_label("Healer 3's Physician Index"), "4")
    expect(tool.get_by_role("alert")).to_have_count(0)
    assert pc.concentration_broken(["STN"]) and not pc.concentration_broken(["Prone"])
    held = page.locator(".rulebook-pc-concentration")
    held.scroll_into_view_if_needed()
    answer = held.locator(".rulebook-pc-concentration-result")
    held.get_by_label("The fighter is").select_option(label="Stunned (STN)")
    expect(answer).to_contain_text("Concentration is broken")
    expect(held.locator(".rulebook-row-used")).to_contain_text("STN")
    held.screenshot(path=str(SHOTS / "percentile_concentration.png"))
    held.get_by_label("The fighter is").select_option(label="Prone")
    expect(answer).to_contain_text("Concentration holds: nothing picked breaks it.")
    tool.screenshot(path=str(SHOTS / "percentile_healers.png"))


def test_two_healers_at_an_extended_shock_bedside(page: Page, book_url):
    """Rulings: only the best healer's Physician stars count, 5 each: healers with one and two
    stars give +10. HB 13 × HR 5 - 15 fatigue + 10 = EML 60; 93 fails: HR 4."""
    assert pc.extended_shock_healer_bonus([1, 2]) == 10
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    tool.get_by_label("Shock state now").select_option(label="Incapacitated (INC)")
    set_value(tool.get_by_label("Fatigue", exact=True), "15")
    set_value(tool.get_by_label("Best healer's Physician stars"), "2")
    expect(tool.locator(".rulebook-pc-es-odds").get_by_role(
        "row", name="HR 6: recovers 48.00% 12/25")).to_be_visible()
    use_my_dice(tool, "93", name="Extended Shock")
    expect(tool.get_by_label("Extended Shock HR")).to_have_value("4")
    expect(tool.locator(".rulebook-trace").filter(has_text="Extended Shock Course Roll")) \
        .to_contain_text("HB 13 × HR 5 - fatigue 15 + bonus 10 = EML 60; roll 93: F")


def test_a_round_lining_up_the_blow_on_a_bound_defender_picks_the_spot(page: Page, book_url):
    """Injury 1, Helpless targets: the brigand spends a round on Nolora, bound, and picks
    location 3 of the aimed zone 1, the skull: no d100, no Zone or Location Die; d10 5 + 3 +
    STR 1 + three Impact TAs of 5 = 24E, unarmoured: G5E; Shock 90: killed."""
    melee = open_panel(page, book_url, "Melee exchange", ".rulebook-pc-fight-melee")
    melee.get_by_label("Attacker", exact=True).select_option("Brigand")
    melee.get_by_label("Defender", exact=True).select_option("Nolora")
    line_up = melee.get_by_label("Attacker spends a round lining up the blow")
    expect(line_up).to_be_disabled()
    melee.get_by_label("Defender is helpless (a CS, no roll)").check()
    line_up.check()
    set_value(melee.get_by_label("Picked location number (LN)"), "3")
    use_my_dice(melee, "5, 90", name="exchange")
    expect(melee.locator(".rulebook-pc-fight-result")).to_have_text(
        "Nolora: Skull: G5E injury; shock 12 → KIA")
    expect(melee.locator(".rulebook-trace")).to_contain_text("ZN1")
    melee.screenshot(path=str(SHOTS / "percentile_fight_line_up.png"))
