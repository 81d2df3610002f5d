"""The served missile, injury and healing chapters, used as a reader would: every input
changed, a seeded roll replayed, dice typed, bad input answered in place; the injury record
downloaded, kept across a reload and uploaded again."""

import json
import random
import re

from playwright.sync_api import Page, expect

from tests.browser.percentile_steps import add_injury
from tests.browser.reader import SHOTS, open_tool, set_value, use_my_dice

from rulescore.systems import percentile as pc

KEY = "rulebook/percentile/injury-record"


def test_missile_walker(page: Page, book_url):
    tool = open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    setup = tool.locator(".rulebook-pc-missile-setup")
    expect(setup).to_contain_text("Direct attack, test EML 60")
    expect(tool.locator(".rulebook-row-used")).to_contain_text("Direct")
    set_value(tool.get_by_label("Range to target (ft)"), "100")
    expect(setup).to_contain_text("Volley 3 attack, test EML 40")
    expect(tool.locator(".rulebook-row-used")).to_contain_text("Volley 3")
    for label, value in (("Missile ML", "70"), ("Base Range (ft)", "60"),
                         ("Crosswind (windforce)", "1"), ("Trauma penalty", "5"),
                         ("Target size (TAR)", "1"), ("People near the target", "3")):
        set_value(tool.get_by_label(label), value)
    tool.get_by_label("Target is").select_option(label="Moving")
    tool.get_by_label("The shooter moves this turn").check()
    tool.get_by_label("Aimed the previous round").check()
    expected = pc.missile_shot(70, 100, 60, target="moving", windforce=1, trauma=5,
                               shooter_moving=True, aimed=True, target_count=3)
    expect(setup).to_contain_text(f"{expected.range.attack_type} attack, test EML "
                                  f"{expected.eml.test_eml}")
    tool.get_by_label("Wet bow or crossbow string").check()
    wet = pc.missile_shot(70, 100, 60, target="moving", windforce=1, trauma=5,
                          shooter_moving=True, aimed=True, wet=True)
    expect(setup).to_contain_text(f"{wet.range.attack_type} attack")
    tool.get_by_label("Wet bow or crossbow string").uncheck()
    tool.get_by_label("Weapon").select_option(label="thrown object")
    set_value(tool.get_by_label("Heft penalty (thrown)"), "5")
    tool.get_by_label("Target is").select_option(label="Evading (dodging)")
    set_value(tool.get_by_label("Target's Dodge index"), "2")
    set_value(tool.get_by_label("Low ceiling (ft)"), "8")
    expect(tool.get_by_role("alert")).to_contain_text("not possible with “Low ceiling (ft)” 8 ")
    set_value(tool.get_by_label("Low ceiling (ft)"), "0")
    set_value(tool.get_by_label("Range to target (ft)"), "40")
    tool.get_by_label("Weapon").select_option(label="bow")
    tool.get_by_label("Target is").select_option(label="Still")
    tool.get_by_label("A spoiled attack").select_option(label="does not happen")
    result = tool.locator(".rulebook-pc-missile-result")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    seed = int(tool.get_by_label("Seed").input_value())
    shot = _shot_now(seed)
    expect(result).to_contain_text(shot.outcome)
    first = result.inner_text()
    tool.get_by_label("Seed").fill(str(seed))
    tool.get_by_role("button", name="Replay seed").click()
    expect(result).to_have_text(first)
    use_my_dice(tool, "66, 2, 10")
    expect(result).to_contain_text("F: target 2 is struck with a bonus Impact TA")
    expect(tool.locator(".rulebook-trace")).to_contain_text("Target count 3; d20 roll 2 ≤ 3")
    use_my_dice(tool, "33, 4")
    expect(tool.get_by_role("alert")).to_contain_text("1 more typed than this shot uses")


def _shot_now(seed: int) -> pc.MissileShot:
    return pc.missile_shot(70, 40, 60, windforce=1, trauma=5, shooter_moving=True, aimed=True,
                           target_count=3, spoiled_as="no_attack", rng=random.Random(seed))


def test_injury_walker(page: Page, book_url):
    tool = open_tool(page, book_url, "percentile/injury", ".rulebook-pc-injury")
    odds = tool.locator(".rulebook-odds").first
    set_value(tool.get_by_label("Aimed zone (ZN)"), "4")
    expect(odds.get_by_role("row", name="Thorax 26.67% 4/15")).to_be_visible()
    set_value(tool.get_by_label("Armour value there"), "4")
    set_value(tool.get_by_label("Strength modifier"), "1")
    tool.get_by_label("Roll the Shock Reroll if INC/UNC").uncheck()
    summary = tool.locator(".rulebook-pc-injury-result")
    for die, asks in (("2", "Location Die"), ("7", "impact d10"), ("8", "Shock d100")):
        tool.get_by_label("Next die").fill(die)
        tool.get_by_role("button", name="Add this die").click()
        expect(summary).to_contain_text(f"next: roll the {asks}")
    tool.get_by_label("Next die").fill("75")
    tool.get_by_role("button", name="Add this die").click()
    expect(summary).to_contain_text("Abdomen: S2E injury; shock 8 → INC")
    stages = tool.locator(".rulebook-pc-stage")
    expect(stages).to_have_count(5)              # die by die: every step so far is shown
    expect(tool.get_by_role("button", name="Show every step")).to_be_disabled()
    used = tool.locator(".rulebook-row-used")
    expect(used.filter(has_text="Abdomen")).to_be_visible()
    expect(used.filter(has_text="Incapacitated")).to_be_visible()
    tool.get_by_label("Roll the Shock Reroll if INC/UNC").check()
    use_my_dice(tool, "2, 7, 8, 75, 42")
    expect(summary).to_contain_text("after the reroll STN")
    expect(stages).to_have_count(1)
    tool.get_by_role("button", name="Next step ▸").click()
    expect(stages).to_have_count(2)
    tool.get_by_role("button", name="Show every step").click()
    expect(stages).to_have_count(6)
    for label, value in (("Precision TAs", "1"), ("Impact TAs", "1"), ("Fatigue", "5"),
                         ("Shock ML", "70"), ("Strength EML (amputation)", "50"),
                         ("Impact modifier", "4"), ("Use Zone Die number", "2")):
        set_value(tool.get_by_label(label), value)
    tool.get_by_label("Aspect", exact=True).select_option(label="Point (P)")
    tool.get_by_label("Zone Die", exact=True).select_option(label="d8")
    tool.get_by_label("Impact die", exact=True).select_option(label="d6")
    tool.get_by_label("Shock state now").select_option(label="Stunned (STN)")
    tool.get_by_label("Rigid armour (glancing blows)").check()
    tool.get_by_label("An arrow or bolt").check()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    first = summary.inner_text()
    seed = tool.get_by_label("Seed").input_value()
    tool.get_by_label("Seed").fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(summary).to_have_text(first)
    set_value(tool.get_by_label("Earlier injuries there"), "S9X")
    expect(tool.get_by_role("alert").first).to_contain_text("“Earlier injuries there” must be an injury code")


def _upload(page: Page, tool, content: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        tool.get_by_role("button", name=re.compile("Upload injury record")).click()
    chooser.value.set_files(files=[{"name": "record.json", "mimeType": "application/json",
                                    "buffer": content}])


def test_healing_walker_treat_heal_keep(page: Page, book_url):
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    sheet = tool.locator(".rulebook-pc-sheet")
    add_injury(tool, location="Abdomen", aspect="Edge", injury="S2")
    expect(sheet.get_by_role("row", name=re.compile("1 Abdomen S2E Edge 0"))).to_be_visible()
    odds = tool.locator(".rulebook-pc-treat-odds")
    expect(odds.get_by_role("row", name="Critical Success: HR6 14.00% 7/50")).to_be_visible()
    set_value(tool.get_by_label("Days of delay"), "2")
    expect(odds.get_by_role("row", name="Critical Success: HR6 12.00% 3/25")).to_be_visible()
    set_value(tool.get_by_label("Days of delay"), "0")
    for label, value in (("Physician EML", "60"), ("Healer's DEX modifier", "0"),
                         ("Physician Index", "3")):
        set_value(tool.get_by_label(label), value)
    tool.get_by_label("A broadhead arrow").check()
    tool.get_by_label("A broadhead arrow").uncheck()
    use_my_dice(tool, "99", name="treatment")
    expect(sheet.get_by_role("row", name=re.compile("S2E Edge 0 F HR4 10 healing"))).to_be_visible()
    nxt = tool.locator(".rulebook-pc-next")
    expect(nxt).to_contain_text("Day 5: Healing Roll (S2E abdomen, HB × HR4), EML 52")
    use_my_dice(tool, "62, 24, 95", name="recovery")
    expect(nxt).to_contain_text("Infection Course Roll (HB × Infection HR5), EML 65")
    use_my_dice(tool, "101", name="recovery")
    expect(tool.get_by_role("alert")).to_contain_text("Recovery dice")
    expect(tool.get_by_role("alert")).to_contain_text("must be from 1 to 100")
    use_my_dice(tool, "42, 42", name="recovery")
    expect(sheet).to_contain_text("healed on day 21")
    expect(tool.get_by_role("img", name="Recovery timeline of Ana")).to_be_visible()
    set_value(tool.get_by_label("Blood loss (BP)"), "2")
    set_value(tool.get_by_label("Endurance EML"), "55")
    set_value(tool.get_by_label("Healing Base (HB)"), "12")
    set_value(tool.get_by_label("Character"), "Bram")
    expect(nxt).to_contain_text("Blood Loss Healing Roll (Endurance), EML 55")
    link = tool.get_by_role("link", name="Download injury record (JSON)")
    expect(link).to_have_attribute("href", re.compile("Bram"))  # the link holds the new record
    with page.expect_download() as download:
        link.click()
    saved = open(download.value.path()).read()
    assert json.loads(saved)["record"]["name"] == "Bram"
    page.wait_for_function(f"() => (localStorage.getItem('{KEY}') || '').includes('Bram')")
    page.reload()
    tool = page.locator(".rulebook-pc-healing")
    expect(tool.get_by_text("A saved injury record was found in this browser")).to_be_visible(
        timeout=60_000)
    tool.get_by_role("button", name="Restore saved injury record").click()
    expect(tool.locator(".rulebook-pc-sheet")).to_contain_text("healed on day 21")
    tool.get_by_role("button", name="Start a new record").click()
    expect(tool.get_by_text("No injuries on the record.")).to_be_visible()
    _upload(page, tool, saved.encode())
    expect(tool.locator(".rulebook-pc-sheet")).to_contain_text("healed on day 21")
    _upload(page, tool, b'{"format": "rulebook/vl-encounter", "version": 1}')
    expect(tool.get_by_role("alert").filter(has_text="changed nothing")).to_contain_text(
        "not an injury record")
    expect(tool.locator(".rulebook-pc-sheet")).to_contain_text("healed on day 21")
    set_value(tool.get_by_label("Stop on day"), "30")
    tool.get_by_role("button", name="Roll the recovery", exact=True).click()
    expect(tool.locator(".rulebook-pc-next")).to_contain_text("Day 31: Blood Loss Healing Roll")


def test_untreated_and_seeded_recovery(page: Page, book_url):
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    tool.get_by_role("button", name="Add injury").click()
    add_injury(tool, location="Thigh", bleeder=True)
    tool.get_by_label("Injury to treat").select_option(label="2. S2E thigh")
    tool.get_by_role("button", name="Leave it untreated").click()
    sheet = tool.locator(".rulebook-pc-sheet")
    expect(sheet.get_by_role("row", name=re.compile("2 Thigh S2E Edge 0 CF"))).to_be_visible()
    tool.get_by_role("button", name="Leave it untreated").click()
    expect(sheet).to_contain_text("CF")
    tool.get_by_role("button", name="Roll the recovery", exact=True).click()
    expect(tool.locator(".rulebook-pc-next")).to_contain_text("Nothing left to roll")


# -- the chapters' worked examples entered into the tool on their page (DESIGN.md §5) --------

def test_nolora_s_arrow_goes_from_the_shot_through_the_injury_onto_the_record(page: Page,
                                                                             book_url):
    """Missile 4a: Nolora, Archery ML75, shoots from point blank (BR 60, 20 ft): 45 is CS, a
    strike with a d6 Zone Die, one Precision TA and impact +2. Sent to the injury walker on
    the same page, the arrow is walked and written onto the record, which the healing
    chapter then offers."""
    open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    page.evaluate(f"() => localStorage.removeItem('{KEY}')")   # a record no other test kept
    shot = open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    for label, value in (("Missile ML", "75"), ("Base Range (ft)", "60"),
                         ("Range to target (ft)", "20")):
        set_value(shot.get_by_label(label), value)
    expect(shot.locator(".rulebook-pc-missile-setup")).to_contain_text(
        "Direct PB attack, test EML 85")
    use_my_dice(shot, "45")
    expect(shot.locator(".rulebook-pc-missile-result")).to_contain_text(
        "CS: the target is struck, 2 star(s)")
    shot.get_by_role("button", name="Send to the injury walker").click()
    hurt = page.locator(".rulebook-pc-injury")
    expect(hurt.locator(".rulebook-pc-taken")).to_contain_text(
        "Zone Die d6, 1 Precision TA, 0 Impact TA, range impact +2. 1 tactical advantage of "
        "your choice")
    expect(hurt.get_by_label("Impact from range")).to_have_value("2")
    expect(hurt.get_by_label("An arrow or bolt")).to_be_checked()
    walk = pc.injury_sequence(zone_die=6, precision=1, impact_die=10, impact_modifier=3,
                              range_modifier=2, aspect="P", projectile=True, shock_eml=65,
                              reroll=True, dice=[3, 1, 4, 6, 50])
    use_my_dice(hurt, "3, 1, 4, 6, 50")
    expect(hurt.locator(".rulebook-pc-injury-result")).to_contain_text(walk.outcome)
    hurt.get_by_role("button", name="Write to the injury record").click()
    code = pc.record_injury(pc.InjuryRecord(), walk).injuries[0]
    expect(hurt.locator(".rulebook-pc-written")).to_contain_text(
        f"Written: {code.code} {code.where.lower()}")
    page.wait_for_function(f"() => (localStorage.getItem('{KEY}') || '').includes("
                           f"'{code.location}')")
    record = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    expect(record.get_by_text("A saved injury record was found in this browser")).to_be_visible(
        timeout=60_000)
    record.get_by_role("button", name="Restore saved injury record").click()
    expect(record.locator(".rulebook-pc-sheet")).to_contain_text(code.code)


def test_the_bleeding_and_extended_shock_examples_in_the_healing_walker(page: Page, book_url):
    """Healing 1: a G4E shoulder Bleeder, INC; nobody staunching, Strength 60 rolls 62: 2 BP,
    UNC; the ally's Staunch (40) 33 and the last Blood Loss roll 33: stopped at 3 BP, 15
    fatigue. Healing 2: HR 5, 15 fatigue, a one-star healer: 93, 41, 13: recovered. The 3 BP
    are the shoulder's: removing it takes them back."""
    tool = open_tool(page, book_url, "percentile/healing", ".rulebook-pc-healing")
    add_injury(tool, location="Shoulder", injury="G4", bleeder=True)
    tool.get_by_label("Shock state now").select_option(label="Incapacitated (INC)")
    tool.get_by_label("No one is staunching yet").check()
    expect(tool.get_by_label("Bleeding injury").locator("option:checked")).to_have_text(
        "1. G4E shoulder (bleeding)")
    tool.get_by_label("Bleeding injury").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "percentile_healing_bleeding.png"))
    odds = tool.locator(".rulebook-pc-bleed-odds")
    expect(odds.get_by_role("row", name="still bleeding, 2 BP in all 32.00% 8/25")).to_be_visible()
    use_my_dice(tool, "62", name="bleeding")
    expect(tool.locator(".rulebook-pc-who")).to_contain_text("blood loss 2 BP")
    expect(tool.get_by_label("Shock state now")).to_have_value(re.compile("."))
    tool.get_by_label("No one is staunching yet").uncheck()
    use_my_dice(tool, "33, 33", name="bleeding")
    expect(tool.locator(".rulebook-pc-bleeding")).to_contain_text(
        "Bleeding stopped: 3 BP, UNC, 15 weakness fatigue from anaemia")
    set_value(tool.get_by_label("Fatigue", exact=True), "15")
    set_value(tool.get_by_label("Best healer's Physician stars"), "1")
    expect(tool.locator(".rulebook-pc-es-odds").get_by_role(
        "row", name="HR 6: recovers 44.00% 11/25")).to_be_visible()
    for roll, hr in (("93", "4"), ("41", "5"), ("13", None)):
        use_my_dice(tool, roll, name="Extended Shock")
        if hr:
            expect(tool.get_by_label("Extended Shock HR")).to_have_value(hr)
    expect(tool.locator(".rulebook-pc-course").first).to_contain_text(
        "HR 6, the patient recovers")
    # the 3 BP were the shoulder's own bleeding: removing it takes them back
    tool.get_by_role("button", name="Remove injury").click()
    expect(tool.locator(".rulebook-pc-who")).to_contain_text("blood loss 0 BP")
    expect(tool.locator(".rulebook-pc-log li").last).to_have_text(
        "Day 0: removed G4E shoulder; the 3 BP its bleeding cost are taken back: blood loss "
        "3 → 0 BP")


def test_nolora_s_volley_into_the_brigands_in_the_missile_walker(page: Page, book_url):
    """Missile 4b: 500 ft at Base Range 200 is Volley 3 (-20); with the light crosswind ML75
    comes to the chapter's EML 35. 25 is a CS (Volley Precision); target count 7: the d10 7
    strikes the horse (target 7), the other d10 2 adds no Impact TA."""
    tool = open_tool(page, book_url, "percentile/missile", ".rulebook-pc-missile")
    for label, value in (("Missile ML", "75"), ("Base Range (ft)", "200"),
                         ("Range to target (ft)", "500"), ("Crosswind (windforce)", "1"),
                         ("People near the target", "7")):
        set_value(tool.get_by_label(label), value)
    expect(tool.locator(".rulebook-pc-missile-setup")).to_contain_text(
        "Volley 3 attack, test EML 35")
    use_my_dice(tool, "25, 7, 2")
    volley = pc.missile_shot(75, 500, 200, windforce=1, target_count=7, dice=[25, 7, 2])
    expect(tool.locator(".rulebook-pc-missile-result")).to_contain_text(volley.outcome)
    assert volley.value == 7
