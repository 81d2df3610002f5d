"""The served exploding-d6 chapters, used as a reader would: every worked example a chapter
prints, entered in the tool beside it, gives the printed result; rolls replay; errors show in
place in the reader's words."""

import re

from playwright.sync_api import Page, expect

from tests.browser.reader import open_chapter, open_tool, set_fields, set_value, use_my_dice

CHAPTER = "exploding_d6/combat"     # initiative, hits, cover and wounds
CLOSE = "exploding_d6/close"        # close combat, special attacks and throwing
RULINGS = "exploding_d6/rulings"


def test_rogue_initiative_from_the_roster_and_seeded_replay(page: Page, book_url):
    open_chapter(page, f"{book_url}/{CHAPTER}.ipynb")
    roster = page.locator(".rulebook-roster").first
    expect(roster).to_be_visible(timeout=60_000)
    tool = page.locator(".rulebook-x6-initiative").first
    expect(tool).to_contain_text("No fighters yet")
    for name in ("Rogue", "Robber"):
        roster.get_by_label("New fighter").fill(name)
        roster.get_by_role("button", name="Add fighter").click()
        expect(roster.get_by_label(f"Quickness of {name}", exact=True)).to_be_visible()
    set_value(roster.get_by_label("Quickness of Rogue", exact=True), "4")
    set_value(roster.get_by_label("Quickness of Robber", exact=True), "2")
    expect(tool.get_by_text("Rogue: 4 dice, 16.8 on average")).to_be_visible()
    use_my_dice(tool, "4, 5, 1, 6, 6, 5, 3, 3")
    order = tool.locator(".rulebook-x6-order")
    expect(order).to_contain_text("6→6→5 = 17")
    expect(order.locator("tbody tr").first).to_contain_text("Rogue")
    expect(order.locator("tbody tr").first).to_contain_text("27")

    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed", exact=True)).to_have_value(re.compile(r"^\d+$"))
    seed = tool.get_by_label("Seed", exact=True).input_value()
    expect(tool).to_contain_text(f"(seed {seed})")
    first = tool.locator(".rulebook-x6-order").inner_text()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool).not_to_contain_text(f"(seed {seed})")
    tool.get_by_label("Seed", exact=True).fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool).to_contain_text(f"(seed {seed})")
    assert tool.locator(".rulebook-x6-order").inner_text() == first


def test_combat_worked_examples_hagen_and_maragas(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-x6-attack")
    total = tool.locator(".rulebook-total")
    # Hagen's shield parry (§Reactions): 1 wound.
    set_fields(tool, **{"Skill": "4", "Weapon dice": "0", "Attack mode": "Hand-to-hand",
                     "Target's cover": "None", "Protection pool": "0",
                     "Reaction": "Shield parry"})
    use_my_dice(tool, "5, 5, 5, 2, 5, 5, 2")
    expect(total).to_have_text("1 wound")
    expect(tool.locator(".rulebook-x6-stages")).to_contain_text(
        "Shield parry, cover 5+: 0 crits, 1 normal hit left")
    # Maragas (§Critical hits): 4, 5, 5 and 14 against a pool of 2: 1 wound, the pool 2 → 0.
    set_fields(tool, **{"Reaction": "None", "Skill": "2", "Weapon dice": "2",
                     "Protection pool": "2"})
    use_my_dice(tool, "4, 5, 5, 6, 6, 2")
    expect(total).to_have_text("1 wound")
    stages = tool.locator(".rulebook-x6-stages")
    expect(stages).to_contain_text("1 crit, 2 normal hits")
    expect(stages).to_contain_text("Protection: 2 units spent, pool 2 → 0")
    tool.get_by_role("button", name="Carry the pool left (0)").click()
    expect(tool.get_by_label("Protection pool", exact=True)).to_have_value("0")


def test_attack_recoil_seeded_replay_and_a_shortage_named(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    expect(setup).to_contain_text("Roll 5 dice: hit on 5+, critical on 11+")
    expect(tool.locator(".rulebook-headline")).to_contain_text("At least one hit")
    tool.get_by_role("button", name="Next attack this round").click()
    expect(setup).to_contain_text("hit on 7+, critical on 13+")
    tool.get_by_role("button", name="Special attacks, range, recoil").click()
    tool.get_by_label("Weapon recoils (untick for a bow)").uncheck()
    expect(setup).to_contain_text("hit on 5+, critical on 11+")
    tool.get_by_label("Weapon recoils (untick for a bow)").check()
    tool.get_by_role("button", name="New round").click()
    expect(setup).to_contain_text("hit on 5+, critical on 11+")

    use_my_dice(tool, "4, 5, 5, 6, 6, 2, 1")
    expect(tool.get_by_role("alert")).to_contain_text(
        "more dice needed: 3 hits still stand, so the terrain cover roll needs 3 d6 next")
    use_my_dice(tool, "4, 5, 5, 6, 6, 2, 1, 2, 6, 1")
    expect(tool.locator(".rulebook-total")).to_have_text("1 wound")

    tool.get_by_label("Seed", exact=True).fill("21")
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool).to_contain_text("(seed 21)")
    first = tool.locator(".rulebook-total").inner_text()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool).not_to_contain_text("(seed 21)")
    tool.get_by_label("Seed", exact=True).fill("21")
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.locator(".rulebook-total")).to_have_text(first)
    tool.get_by_text("How it was worked out, step by step").click()
    expect(tool.locator(".rulebook-trace")).to_contain_text("Cover 5+")


def test_close_combat_worked_examples_dodge_and_parry(page: Page, book_url):
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-attack")
    total = tool.locator(".rulebook-total")
    set_fields(tool, **{"Skill": "2", "Reaction": "Dodge", "Dodge or parry dice": "2"})
    use_my_dice(tool, "5, 5, 6, 1, 4")
    expect(total).to_have_text("Dodged: no wounds")
    expect(tool.locator(".rulebook-x6-stages")).to_contain_text("Dodge on 7+")
    set_fields(tool, **{"Skill": "4", "Reaction": "Parry", "Dodge or parry dice": "3"})
    use_my_dice(tool, "5, 5, 5, 6, 5, 5, 6, 5, 2")
    expect(total).to_have_text("2 wounds")
    expect(tool.locator(".rulebook-x6-stages")).to_contain_text(
        "Parry on 5+: 1 crit, 1 normal hit left")


def test_rulings_worked_examples_both_readings_and_recoil(page: Page, book_url):
    tool = open_tool(page, book_url, RULINGS, ".rulebook-x6-attack")
    total = tool.locator(".rulebook-total")
    use_my_dice(tool, "6, 6, 6, 5, 6, 5, 6, 1")
    expect(total).to_have_text("1 wound")
    set_fields(tool, **{"Crits stopped first": "the lightest"})
    use_my_dice(tool, "6, 6, 6, 5, 6, 5, 6, 1")
    expect(total).to_have_text("3 wounds, a megacritical among them (+2 wounds)")
    set_fields(tool, **{"Crits stopped first": "the heaviest", "Attack mode": "Single shot",
                     "Attack in a row": "2", "Target's cover": "None"})
    expect(tool.locator(".rulebook-x6-setup")).to_contain_text("hit on 7+, critical on 13+")
    use_my_dice(tool, "6, 6, 6, 1, 6, 6, 5")
    expect(total).to_have_text("3 wounds, a megacritical among them (+1 wound)")


def test_throw_deviation_picture(page: Page, book_url):
    tool = open_tool(page, book_url, CLOSE, ".rulebook-x6-throw")
    expect(tool.locator(".rulebook-headline")).to_contain_text("Chance to hit: 70.37% (19/27)")
    tool.get_by_label("d12 (clock)").fill("3")
    tool.get_by_label("d6 (metres)").fill("4")
    use_my_dice(tool, "2, 4, 1")
    expect(tool.locator(".rulebook-total")).to_contain_text("lands 4 m right of the target")
    expect(tool.get_by_role("img", name="Lands 4 m towards 3 o'clock from the target")) \
        .to_be_visible()


def test_rulings_chapter_lists_assumptions(page: Page, book_url, external_requests):
    open_chapter(page, f"{book_url}/{RULINGS}.ipynb")
    expect(page.locator(".rulebook-assumption").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Which criticals cover and armour stop first")).to_be_visible()
    expect(page.get_by_text("“Shield behind cover” in the attack tool")).to_be_visible()
    page.wait_for_load_state("networkidle")
    open_chapter(page, f"{book_url}/{CHAPTER}.ipynb")
    expect(page.locator(".rulebook-x6-attack")).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    assert external_requests == []
