"""The served exploding-d6 chapters, used as a reader would: roll, replay, type dice, err."""

import re

from playwright.sync_api import Page, expect

CHAPTER = "exploding_d6/combat.ipynb"


def _tool(page: Page, book_url: str, css: str, first_label: str):
    page.goto(f"{book_url}/{CHAPTER}")
    tool = page.locator(css).first
    expect(tool.get_by_label(first_label, exact=True)).to_be_visible(timeout=60_000)
    return tool


def _type_dice(tool, faces: str) -> None:
    tool.get_by_label("My dice").fill(faces)
    tool.get_by_role("button", name="Use my dice").click()


def test_initiative_rogue_and_seeded_replay(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-initiative", "Combatants")
    field = tool.get_by_label("Combatants", exact=True)
    field.fill("Rogue 4 3; Robber 2 2")
    field.press("Enter")
    expect(tool.get_by_text("Rogue: 4 dice, 16.8 on average")).to_be_visible()
    _type_dice(tool, "4, 5, 1, 6, 6, 5, 3, 3")
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


def test_initiative_error_in_place(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-initiative", "Combatants")
    field = tool.get_by_label("Combatants", exact=True)
    field.fill("Rogue 4")
    field.press("Enter")
    expect(tool.get_by_role("alert")).to_contain_text(
        "entry 1 must be a name, Quickness and Deftness")


def test_attack_pipeline_recoil_and_typed_dice(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-attack", "Skill")
    setup = tool.locator(".rulebook-x6-setup")
    expect(setup).to_contain_text("Roll 5 dice: hit on 5+, critical on 11+")
    expect(tool.locator(".rulebook-headline")).to_contain_text("At least one hit")
    tool.get_by_role("button", name="Next attack this round").click()
    expect(setup).to_contain_text("hit on 7+, critical on 13+")
    tool.get_by_role("button", name="New round").click()
    expect(setup).to_contain_text("hit on 5+, critical on 11+")

    tool.get_by_label("Cover dice").fill("2, 6, 1")
    _type_dice(tool, "4, 5, 5, 6, 6, 2, 1")
    stages = tool.locator(".rulebook-x6-stages")
    expect(stages).to_contain_text("1 crit, 2 normal hits")
    expect(stages).to_contain_text("0 crit(s) and 1 normal hit(s) stopped")
    expect(tool.locator(".rulebook-total")).to_contain_text("Wounds 1")

    tool.get_by_label("Cover dice").fill("2")
    _type_dice(tool, "4, 5, 5, 6, 6, 2, 1")
    expect(tool.get_by_role("alert")).to_contain_text("cover_faces must hold one die a hit")


def test_attack_seeded_roll_fills_cover_dice(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-attack", "Skill")
    tool.get_by_label("Seed", exact=True).fill("21")
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("Wounds")
    text = tool.locator(".rulebook-total").inner_text()
    assert re.search(r"Wounds \d+", text)
    expect(tool.locator(".rulebook-trace")).to_contain_text("Cover 5+")


def test_reaction_helper_shield_parry(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-reaction", "Attacker's normal hits")
    expect(tool.locator(".rulebook-headline")).to_contain_text("1/27 (3.70%)")
    _type_dice(tool, "5, 5, 2")
    expect(tool.locator(".rulebook-total")).to_contain_text("Hits left 1")
    _type_dice(tool, "5, 9, 2")
    expect(tool.get_by_role("alert")).to_contain_text("die 2 must be a d6 face from 1 to 6")


def test_throw_deviation_picture(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-throw", "Throw dice")
    expect(tool.locator(".rulebook-headline")).to_contain_text("Chance to hit: 19/27")
    tool.get_by_label("d12 (clock)").fill("3")
    tool.get_by_label("d6 (metres)").fill("4")
    _type_dice(tool, "2, 4, 1")
    expect(tool.locator(".rulebook-total")).to_contain_text("lands 4 m right of the target")
    expect(tool.get_by_role("img", name="Lands 4 m towards 3 o'clock from the target")) \
        .to_be_visible()


def test_rulings_chapter_lists_assumptions(page: Page, book_url, external_requests):
    page.goto(f"{book_url}/exploding_d6/rulings.ipynb")
    expect(page.locator(".rulebook-assumption").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Which criticals cover and armour stop first")).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.goto(f"{book_url}/{CHAPTER}")
    expect(page.locator(".rulebook-x6-attack")).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    assert external_requests == []
