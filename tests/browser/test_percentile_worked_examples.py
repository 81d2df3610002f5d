"""The percentile chapters' worked examples that had no browser test yet (DESIGN.md §5),
each entered into the tool on its own page and read back as the chapter prints it: the table
chapter's Block, Counterstrike and the defender's equal Dodge roll, its melee declaration and
the spent advantages; the rulings' critical digit at the edges in the test roller; the injury chapter's compound injury; the healing chapter's coma HR, its
grievous-cap treatment with the permanent impairment it leaves, and the aggravation check."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import percentile as pc
from tests.browser.percentile_steps import add_injury
from tests.browser.reader import open_tool, set_value, use_my_dice


def _exchange(tool, defence: str, dice: str) -> None:
    tool.get_by_label("Defence").select_option(defence)
    use_my_dice(tool, dice)


def test_the_table_chapter_s_exchanges_declaration_and_advantages(page: Page, book_url):
    """Melee: ML 60 against ML 60. Block 35 (CS) against 71 (F): a strike, two stars, one
    tactical advantage. Counterstrike 36 against 51: the attacker wins the tie with one star.
    Equal Dodge rolls 40 and 40 go to the defender (rulings). Ignore 36: three stars, spent on
    precision and impact. The declaration: broadsword (reach 3, heft 5) aimed off its default
    zone against a spear (reach 5, thrust): the attack tests at 40, the Block at 55."""
    tool = open_tool(page, book_url, "percentile/table", ".rulebook-pc-melee")
    set_value(tool.get_by_label("Attacker's ML"), "60")
    set_value(tool.get_by_label("Defender's ML"), "60")
    result = tool.locator(".rulebook-pc-result")
    _exchange(tool, "Block", "35, 71")
    expect(result).to_contain_text("Rolls 35, 71 (attacker CS, defender F): the attacker "
                                   "strikes, 2 victory stars; 1 tactical advantage(s)")
    _exchange(tool, "Counterstrike", "36, 51")
    expect(result).to_contain_text("Rolls 36, 51 (attacker S, defender S): the attacker "
                                   "strikes, 1 victory star")
    _exchange(tool, "Dodge", "40, 40")
    expect(result).to_contain_text("Rolls 40, 40 (attacker CS, defender CS): dodged")
    _exchange(tool, "Ignore", "36")
    expect(result).to_contain_text("3 victory stars; 2 tactical advantage(s)")
    tool.get_by_label("Advantages to take").fill("precision, impact")
    tool.get_by_role("button", name="Spend them").click()
    spent = pc.spend_advantages(pc.melee_exchange(36, 60, "Ignore"), ["precision", "impact"])
    assert (spent.precision_dice, spent.impact_tas) == (1, 1)
    expect(tool.locator(".rulebook-trace").last).to_contain_text(spent.trace[-1].text)
    tool.get_by_label("Defence").select_option("Block")
    set_value(tool.get_by_label("Defender's ML"), "55")
    set_value(tool.get_by_label("Attacker's weapon heft"), "5")
    set_value(tool.get_by_label("Defender's reach"), "5")
    set_value(tool.get_by_label("Defender's weapon heft"), "4")
    tool.get_by_label("Defender thrusts").check()
    tool.get_by_label("Attacker aims at a non-default zone").check()
    expect(tool.locator(".rulebook-pc-emls")).to_contain_text(
        "The attacker tests at EML 40, the defender's Block at EML 55")


def test_the_critical_digit_at_the_edges_in_the_test_roller(page: Page, book_url):
    """Rulings: a roll equal to EML 65 is a CS, 66 an F; at EML 5 a 5 is still critical and a
    1 a plain success; an EML of -30 is tested as 05; 100 against EML 150 is a CS."""
    tool = open_tool(page, book_url, "percentile/table", ".rulebook-pc-test")
    result = tool.locator(".rulebook-pc-result")
    for eml, roll, level in (("65", "65", "Critical Success (CS)"), ("65", "66", "Failure (F)"),
                             ("5", "5", "Critical Success (CS)"), ("5", "1", "Success (S)"),
                             ("150", "100", "Critical Success (CS)")):
        set_value(tool.get_by_label("EML"), eml)
        use_my_dice(tool, roll)
        expect(result).to_contain_text(f"Rolled {roll} against EML {eml}: {level}")
    set_value(tool.get_by_label("EML"), "-30")
    expect(tool).to_contain_text("EML -30 is tested as 5")


def test_the_injury_chapter_s_compound_injury_in_the_walker(page: Page, book_url):
    """Injury 3.1: a G4 blunt blow lands on a shoulder that holds an M1 edge wound; the d10
    against their total 5 shows 4 and the G4 becomes a G5. Aimed at the arms (ZN2), the Zone
    Die 1 and Location Die 3 find the shoulder; d10 10 + 6 = 16 is G4."""
    tool = open_tool(page, book_url, "percentile/injury", ".rulebook-pc-injury")
    set_value(tool.get_by_label("Aimed zone (ZN)"), "2")
    set_value(tool.get_by_label("Impact modifier"), "6")
    tool.get_by_label("Aspect", exact=True).select_option(label="Blunt (B)")
    set_value(tool.get_by_label("Earlier injuries there"), "M1E")
    use_my_dice(tool, "1, 3, 10, 4, 50")
    expect(tool.locator(".rulebook-pc-injury-result")).to_contain_text("Shoulder: G5B injury")
    tool.get_by_role("button", name="Show every step").click()
    expect(tool.locator(".rulebook-pc-stage").filter(has_text="3.1 Compound injury")) \
        .to_contain_text("d10 4 ≤ total IL 5: the IL4 injury (the new one) compounds to IL5")
    expect(tool.locator(".rulebook-pc-stage").filter(has_text="3 Injury").first) \
        .to_contain_text("Shoulder has a grey bleeding circle: G4B is not a Bleeder")


def test_the_healing_chapter_s_coma_treatment_cap_and_aggravation(page: Page, book_url):
    """Healing 3: a coma's HR is 12 - location shock - injury level: a G4 to the skull
    (location shock 5) gives 3. Healing 5: a Physician Index 3 healer's CS on a G4 edge wound
    to the shoulder is capped at HR 3; Healing 8: healing down to Minor on day 25 leaves 5
    permanent impairment. The optional aggravation check: Shock ML 65 rolls 80 on an HR 4
    wound: aggravated, HR 3."""
    assert pc.coma_healing_rate(pc.location_shock("Skull"), 4) == 3
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    sheet = tool.locator(".rulebook-pc-sheet")
    add_injury(tool, location="Skull", aspect="Blunt", injury="G4")
    tool.get_by_label("Injury that caused the coma").select_option(label="1. G4B skull")
    expect(tool.get_by_label("Coma HR")).to_have_value("3")
    tool.get_by_role("button", name="Start a new record").click()
    add_injury(tool, location="Shoulder", aspect="Edge")
    set_value(tool.get_by_label("Physician Index"), "3")
    use_my_dice(tool, "5", name="treatment")
    expect(sheet.get_by_role("row", name=re.compile("Shoulder G4E Edge 0 CS HR3"))) \
        .to_be_visible()
    use_my_dice(tool, "62, 62, 24, 24, 24", name="recovery")
    expect(sheet.get_by_role("row", name=re.compile("Shoulder M1E Edge 0 CS HR3 5 "))) \
        .to_be_visible()
    expect(tool.locator(".rulebook-trace").first).to_contain_text(
        "Minor after 25 days: 5 permanent impairment to its zone")
    tool.get_by_role("button", name="Start a new record").click()
    add_injury(tool, location="Abdomen", injury="S2")
    use_my_dice(tool, "99", name="treatment")        # F: HR4
    tool.get_by_label("Serious-injury aggravation option").check()
    use_my_dice(tool, "80", name="aggravation")
    expect(tool.locator(".rulebook-pc-aggravation")).to_contain_text("aggravated: HR4 → HR3")
    expect(sheet.get_by_role("row", name=re.compile("Abdomen S2E Edge 0 F HR3"))).to_be_visible()
