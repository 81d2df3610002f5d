"""The served exploding-d6 chapters, used as a reader would: roll, replay, type dice, err."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import exploding_d6 as x6
from tests.browser.reader import controls, open_chapter, roll_and_replay, ROLL_INPUTS, set_value

CHAPTER = "exploding_d6/combat.ipynb"    # initiative, hits, cover and wounds
CLOSE = "exploding_d6/close.ipynb"       # close combat, special attacks and throwing


def _tool(page: Page, book_url: str, css: str, first_label: str):
    open_chapter(page, f"{book_url}/{CLOSE if css == '.rulebook-x6-throw' else CHAPTER}")
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
    expect(tool.get_by_role("alert")).to_contain_text("“Cover dice” must hold one die a hit")


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
    expect(tool.get_by_role("alert")).to_contain_text("shield die 2 must be from 1 to 6, got 9")


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
    open_chapter(page, f"{book_url}/exploding_d6/rulings.ipynb")
    expect(page.locator(".rulebook-assumption").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Which criticals cover and armour stop first")).to_be_visible()
    page.wait_for_load_state("networkidle")
    open_chapter(page, f"{book_url}/{CHAPTER}")
    expect(page.locator(".rulebook-x6-attack")).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    assert external_requests == []


# -- every input of every tool in the chapter ---------------------------------------------------


def _roll_and_replay(tool) -> str:
    """Roll, roll again, replay the first seed: the result says "(seed N)"."""
    return roll_and_replay(tool, lambda seed: tool.get_by_text(f"(seed {seed})"))


def test_every_input_has_a_label(page: Page, book_url):
    _tool(page, book_url, ".rulebook-x6-initiative", "Combatants")
    assert controls(page.locator(".rulebook-x6-initiative")) == [
        ("textbox", "Combatants"), *ROLL_INPUTS]
    assert controls(page.locator(".rulebook-x6-attack")) == [
        ("textbox", "Skill"), ("textbox", "Weapon dice"), ("combobox", "Attack mode"),
        ("textbox", "Attack in a row"), ("textbox", "Recoil compensation"),
        ("textbox", "Aim actions"), ("textbox", "Perception"), ("combobox", "Target's cover"),
        ("textbox", "Protection pool"), ("textbox", "Of it against crits"),
        ("textbox", "Wounds a hit"), ("textbox", "Piercing"), ("combobox", "Special attack"),
        ("checkbox", "Walking (+1 min. roll)"), ("checkbox", "Weapon supported (−1)"),
        ("combobox", "Criticals stopped first"),
        ("button", "Next attack this round"), ("button", "New round"), *ROLL_INPUTS,
        ("textbox", "Cover dice")]
    assert controls(page.locator(".rulebook-x6-reaction")) == [
        ("combobox", "Reaction"), ("textbox", "Attacker's normal hits"),
        ("textbox", "Attacker's criticals"), ("textbox", "Your dice"),
        ("textbox", "Your minimum roll"), *ROLL_INPUTS]
    assert controls(_tool(page, book_url, ".rulebook-x6-throw", "Throw dice")) == [
        ("textbox", "Throw dice"), ("textbox", "Minimum roll"), *ROLL_INPUTS,
        ("textbox", "d12 (clock)"), ("textbox", "d6 (metres)")]


def test_initiative_bad_combatants_and_dice_in_place(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-initiative", "Combatants")
    field = tool.get_by_label("Combatants", exact=True)
    set_value(field, "Rogue 41 3")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ Quickness of Rogue must be from 0 to 40, got 41")
    set_value(field, "Rogue x 3")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ Quickness of Rogue must be a whole number, got 'x'")
    set_value(field, " ; ")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ Combatants is empty: type e.g. Rogue 4 3; Robber 3 2")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_role("alert").last).to_have_text("⚠ Fix the combatants first.")
    set_value(field, "Rogue 2 3; Robber 1 2")
    expect(tool.get_by_text("Robber: 1 dice, 4.2 on average")).to_be_visible()
    _type_dice(tool, "4, 5, 9")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ faces: die 3 must be a d6 face from 1 to 6, got 9")
    _type_dice(tool, "4, 5")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ My dice must hold 3 dice (as chains), got 2")
    _type_dice(tool, "4, 5, 3")
    expect(tool.get_by_role("row", name=re.compile("^1 Rogue"))).to_contain_text("9")
    expect(tool.get_by_role("row", name=re.compile("^2 Robber"))).to_contain_text("3")
    tool.get_by_label("Seed", exact=True).fill("soon")
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.get_by_role("alert")).to_have_text("⚠ Seed must be a whole number, got 'soon'")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_attack_pipeline_every_setup_input(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-attack", "Skill")
    setup = tool.locator(".rulebook-x6-setup")
    expect(setup).to_have_text("Roll 5 dice: hit on 5+, critical on 11+.")
    set_value(tool.get_by_label("Skill", exact=True), "4")
    expect(setup).to_have_text("Roll 6 dice: hit on 5+, critical on 11+.")
    set_value(tool.get_by_label("Weapon dice"), "3")
    expect(setup).to_have_text("Roll 7 dice: hit on 5+, critical on 11+.")
    tool.get_by_label("Attack mode").select_option(label="Burst")
    expect(setup).to_have_text("Roll 9 dice: hit on 5+, no criticals (burst).")
    tool.get_by_label("Attack mode").select_option(label="Hand-to-hand")
    set_value(tool.get_by_label("Skill", exact=True), "3")
    set_value(tool.get_by_label("Weapon dice"), "2")
    expect(setup).to_have_text("Roll 5 dice: hit on 5+, critical on 11+.")
    tool.get_by_label("Attack mode").select_option(label="Single shot")
    set_value(tool.get_by_label("Attack in a row"), "2")
    expect(setup).to_have_text("Roll 5 dice: hit on 7+, critical on 13+.")
    set_value(tool.get_by_label("Recoil compensation"), "1")
    expect(setup).to_have_text("Roll 5 dice: hit on 6+, critical on 12+.")
    tool.get_by_role("button", name="New round").click()
    expect(tool.get_by_label("Attack in a row")).to_have_value("1")
    set_value(tool.get_by_label("Recoil compensation"), "0")
    set_value(tool.get_by_label("Aim actions"), "1")
    expect(setup).to_have_text("Roll 5 dice: hit on 5+, critical on 9+.")
    set_value(tool.get_by_label("Perception", exact=True), "1")
    expect(setup).to_have_text("Roll 5 dice: hit on 5+, critical on 10+.")
    set_value(tool.get_by_label("Aim actions"), "0")
    set_value(tool.get_by_label("Perception", exact=True), "3")
    tool.get_by_label("Walking (+1 min. roll)").check()
    expect(setup).to_have_text("Roll 5 dice: hit on 6+, critical on 11+.")
    tool.get_by_label("Walking (+1 min. roll)").uncheck()
    tool.get_by_label("Weapon supported (−1)").check()
    expect(setup).to_have_text("Roll 5 dice: hit on 4+, critical on 11+.")
    tool.get_by_label("Weapon supported (−1)").uncheck()
    tool.get_by_label("Special attack").select_option(label="Disarming attack")
    expect(setup).to_have_text(
        "Roll 5 dice: hit on 8+, critical on 11+. This attack deals no wounds.")
    tool.get_by_label("Special attack").select_option(label="K.O. attack")
    expect(setup).to_have_text(
        "Roll 5 dice: hit on 5+, critical on 11+. This attack deals no wounds.")
    tool.get_by_label("Special attack").select_option(label="None")

    wounds = tool.locator(".rulebook-x6-wound-odds")
    expect(wounds).to_contain_text("at least one wound 21.47%; 0.27 wounds on average")
    tool.get_by_label("Target's cover").select_option(label="No cover")
    expect(wounds).to_contain_text("at least one wound 36.47%; 0.49 wounds on average")
    set_value(tool.get_by_label("Protection pool"), "0")
    expect(wounds).to_contain_text("at least one wound 86.77%; 1.72 wounds on average")
    set_value(tool.get_by_label("Wounds a hit"), "2")
    expect(wounds).to_contain_text("at least one wound 86.77%; 3.39 wounds on average")
    set_value(tool.get_by_label("Of it against crits"), "1")
    expect(tool.get_by_role("alert")).to_have_text("⚠ “Of it against crits” must be from 0 to 0, got 1")
    set_value(tool.get_by_label("Protection pool"), "3")
    set_value(tool.get_by_label("Wounds a hit"), "1")
    tool.get_by_label("Target's cover").select_option(label="5+ half hidden / shield")
    expect(wounds).to_contain_text("at least one wound 2.13%; 0.02 wounds on average")
    tool.get_by_label("Cover dice").fill("2, 6, 1")
    _type_dice(tool, "4, 5, 5, 6, 6, 2, 1")
    expect(tool.locator(".rulebook-x6-stages")).to_contain_text(
        "Protection: 2 unit(s) spent, 1 left")
    expect(tool.locator(".rulebook-total")).to_have_text("Wounds 0")

    for label, bad, message in [("Wounds a hit", "0", "Wounds a hit must be 1 or more, got 0"),
                                ("Skill", "-1", "Skill must be 0 or more, got -1"),
                                ("Weapon dice", "x", "Weapon dice must be a whole number, "
                                                     "got 'x'")]:
        field = tool.get_by_label(label, exact=True)
        good = field.input_value()
        set_value(field, bad)
        expect(tool.get_by_role("alert")).to_have_text(f"⚠ {message}")
        set_value(field, good)
        expect(tool.get_by_role("alert")).to_have_count(0)
    _type_dice(tool, "4, 5")
    expect(tool.get_by_role("alert")).to_have_text("⚠ My dice must hold 5 dice (as chains), got 2")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_attack_pipeline_roll_replays_with_cover_dice(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-attack", "Skill")
    tool.get_by_label("Cover dice").fill("")
    seed = _roll_and_replay(tool)
    rolled = x6.roll_attack(int(seed), 5, min_roll=5, crit_at=11, burst=False, cover=5)
    expect(tool.get_by_label("Cover dice")).to_have_value(", ".join(map(str, rolled.plain)))
    expect(tool.locator(".rulebook-x6-stages")).to_contain_text("Hit roll:")


def test_reaction_helper_every_input(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-reaction", "Attacker's normal hits")
    headline = tool.locator(".rulebook-headline")
    tool.get_by_label("Reaction").select_option(label="Dodge")
    expect(tool.get_by_text(re.compile("^Roll your Dodge value in exploding d6"))).to_be_visible()
    expect(headline).to_have_text("Chance that nothing gets through: 756095/1679616 (45.02%)")
    set_value(tool.get_by_label("Attacker's normal hits"), "1")
    expect(headline).to_contain_text("671/1296 (51.77%)")
    set_value(tool.get_by_label("Your dice", exact=True), "2")
    expect(headline).to_contain_text("11/36 (30.56%)")
    set_value(tool.get_by_label("Your minimum roll"), "4")
    expect(headline).to_contain_text("5/9 (55.56%)")
    _type_dice(tool, "6, 1, 4")
    expect(tool.locator(".rulebook-total")).to_have_text("Hits left 0 (0 critical)")
    expect(tool.get_by_text("6→1 = 7")).to_be_visible()
    _type_dice(tool, "4")
    expect(tool.get_by_role("alert")).to_have_text("⚠ My dice must hold 2 dice (as chains), got 1")
    _roll_and_replay(tool)

    tool.get_by_label("Reaction").select_option(label="Parry")
    set_value(tool.get_by_label("Attacker's normal hits"), "3")
    set_value(tool.get_by_label("Attacker's criticals"), "1")
    set_value(tool.get_by_label("Your dice", exact=True), "3")
    set_value(tool.get_by_label("Your minimum roll"), "5")
    expect(headline).to_have_text("Chance that nothing gets through: 0 (0.00%)")
    _type_dice(tool, "5, 6, 5, 2")
    expect(tool.locator(".rulebook-total")).to_have_text("Hits left 2 (1 critical)")
    expect(tool.locator(".rulebook-trace")).to_be_visible()
    set_value(tool.get_by_label("Attacker's criticals"), "x")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ Attacker's criticals must be a whole number, got 'x'")
    set_value(tool.get_by_label("Attacker's criticals"), "0")
    set_value(tool.get_by_label("Your minimum roll"), "0")
    expect(tool.get_by_role("alert")).to_have_text("⚠ Your minimum roll must be 1 or more, got 0")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_throw_every_input_seed_and_errors(page: Page, book_url):
    tool = _tool(page, book_url, ".rulebook-x6-throw", "Throw dice")
    headline = tool.locator(".rulebook-headline")
    set_value(tool.get_by_label("Throw dice"), "2")
    expect(headline).to_have_text("Chance to hit: 5/9 (55.56%)")
    set_value(tool.get_by_label("Minimum roll"), "4")
    expect(headline).to_have_text("Chance to hit: 3/4 (75.00%)")
    tool.get_by_label("d12 (clock)").fill("12")
    tool.get_by_label("d6 (metres)").fill("6")
    _type_dice(tool, "1, 2")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Missed: lands 6 m beyond (straight past the target) of the target")
    expect(tool.get_by_role("img", name="Lands 6 m towards 12 o'clock from the target")) \
        .to_be_visible()
    tool.get_by_label("d12 (clock)").fill("13")
    _type_dice(tool, "1, 2")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ “d12 (clock)” must be from 1 to 12, got 13")
    tool.get_by_label("d12 (clock)").fill("x")
    _type_dice(tool, "1, 2")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ d12 (clock) must be a whole number, got 'x'")

    tool.get_by_label("d12 (clock)").fill("")
    tool.get_by_label("d6 (metres)").fill("")
    set_value(tool.get_by_label("Throw dice"), "0")  # no dice: a sure miss, so it deviates
    _roll_and_replay(tool)
    expect(tool.get_by_label("d12 (clock)")).to_have_value(re.compile(r"^\d+$"))
    expect(tool.get_by_label("d6 (metres)")).to_have_value(re.compile(r"^[1-6]$"))

    set_value(tool.get_by_label("Minimum roll"), "0")
    expect(tool.get_by_role("alert")).to_have_text("⚠ Minimum roll must be 1 or more, got 0")
    set_value(tool.get_by_label("Minimum roll"), "5")
    set_value(tool.get_by_label("Throw dice"), "x")
    expect(tool.get_by_role("alert")).to_have_text("⚠ Throw dice must be a whole number, got 'x'")
    expect(page.get_by_text("Traceback")).to_have_count(0)
