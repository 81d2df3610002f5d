"""The served percentile table chapter, used as a reader would: the test roller's odds, seeded
roll and replay, typed roll, tens and ones dice, errors; the melee exchange's odds and rolls."""

import random

from playwright.sync_api import Page, expect

from rulescore.dice import DiceSource
from rulescore.systems import percentile as pc
from rulescore.text import percent
from tests.browser.reader import open_chapter, set_value, use_my_dice

CHAPTER = "percentile/table.ipynb"


def _open(page: Page, book_url: str, css: str):
    open_chapter(page, f"{book_url}/{CHAPTER}")
    tool = page.locator(css)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def test_test_roller(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-pc-test")
    odds = tool.locator(".rulebook-odds")
    expect(odds.get_by_role("row", name="Critical Success (CS) 13.00% 13/100")).to_be_visible()
    set_value(tool.get_by_label("EML"), "40")
    expect(odds.get_by_role("row", name="Critical Success (CS) 8.00% 2/25")).to_be_visible()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    result = tool.locator(".rulebook-pc-result")
    expect(result).to_be_visible()
    seed = int(tool.get_by_label("Seed").input_value())
    roll = random.Random(seed).randint(1, 100)
    expect(result).to_contain_text(f"Rolled {roll} against EML 40")
    first = result.inner_text()
    use_my_dice(tool, "40")
    expect(result).to_contain_text("Rolled 40 against EML 40: Critical Success (CS)")
    tool.get_by_label("Tens die (00–90)").fill("90")
    tool.get_by_label("Ones die (0–9)").fill("5")
    tool.get_by_role("button", name="Use tens and ones").click()
    expect(result).to_contain_text("Rolled 95 against EML 40: Critical Failure (CF)")
    expect(result).to_contain_text("Stumble")
    tool.get_by_label("Kind of test").select_option("dodge")
    use_my_dice(tool, "100")
    expect(result).to_contain_text("Stumble")
    expect(tool.locator(".rulebook-trace")).to_contain_text("100")
    use_my_dice(tool, "3, 4")
    expect(tool.get_by_role("alert")).to_contain_text("My dice must be one d100, got 2 numbers")
    tool.get_by_label("Kind of test").select_option("attack")  # the kind the first roll used
    tool.get_by_label("Seed").fill(str(seed))
    tool.get_by_role("button", name="Replay seed").click()
    expect(result).to_have_text(first)


def test_melee_exchange(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-pc-melee")
    p = pc.melee_outcome_distribution(70, "Block", 60)[("strike", 2)]
    expect(tool.locator(".rulebook-odds").get_by_role(
        "row", name=f"The attacker strikes, 2 stars {percent(p)} {p}")).to_be_visible()
    set_value(tool.get_by_label("Attacker's ML"), "60")
    use_my_dice(tool, "35, 71")
    result = tool.locator(".rulebook-pc-result")
    expect(result).to_contain_text("Rolls 35, 71 (attacker CS, defender F): the attacker strikes, "
                                   "2 victory stars")
    tool.get_by_label("Defence").select_option("Counterstrike")
    set_value(tool.get_by_label("Defender's ML"), "60")
    use_my_dice(tool, "36, 51")
    expect(result).to_contain_text("the attacker strikes, 1 victory star")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    seed = int(tool.get_by_label("Seed").input_value())
    rng = random.Random(seed)
    a, d = rng.randint(1, 100), rng.randint(1, 100)
    expect(result).to_contain_text(f"Rolls {a}, {d}")
    use_my_dice(tool, "36")
    expect(tool.get_by_role("alert")).to_contain_text("My dice must be 2 d100")


def test_blow_walker(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-pc-blow")
    set_value(tool.get_by_label("Aimed zone (ZN)"), "4")
    set_value(tool.get_by_label("Impact modifier"), "4")
    set_value(tool.get_by_label("Armour value there"), "4")
    tool.get_by_label("Aspect").select_option(label="Edge (E)")
    tool.get_by_label("Impact die").select_option("d10")
    tool.get_by_label("Zone Die").select_option("d6")
    set_value(tool.get_by_label("Shock EML"), "65")
    p = pc.injury_level_distribution(10, 4, 4, aspect="E")["S2"]
    expect(tool.locator(".rulebook-odds").nth(1).get_by_role(
        "row", name=f"S2 {percent(p)} {p}")).to_be_visible()
    use_my_dice(tool, "2, 7, 8, 75")
    result = tool.locator(".rulebook-pc-blow-result")
    expect(result).to_contain_text("Abdomen: S2E injury; shock 8 → Incapacitated (INC)")
    expect(tool.locator(".rulebook-trace")).to_contain_text("Zone Dice 2 → ZN5 (aimed at ZN4)")
    tool.get_by_label("Rigid armour (glancing blows)").check()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    seed = int(tool.get_by_label("Seed").input_value())
    walk = pc.injury_sequence(aim_zone=4, impact_modifier=4, armour=4, aspect="E",
                              rigid_armour=True, shock_eml=65, dice=DiceSource.seeded(seed))
    expect(result).to_contain_text(f"Dice {', '.join(str(v) for _, v in walk.rolled)}:")
    use_my_dice(tool, "1, 11")
    expect(tool.get_by_role("alert")).to_contain_text("Location Die 1 (d10) must be from 1 to 10")


def test_melee_modifiers_and_advantages(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-pc-melee")
    emls = tool.locator(".rulebook-pc-emls")
    set_value(tool.get_by_label("Attacker's ML"), "60")
    set_value(tool.get_by_label("Defender's ML"), "60")
    tool.get_by_label("Attacker aims at a non-default zone").check()
    set_value(tool.get_by_label("Defender's reach"), "5")
    set_value(tool.get_by_label("Foes on the defender"), "2")
    set_value(tool.get_by_label("Attacker's weapon heft"), "12")
    set_value(tool.get_by_label("Attacker's Strength"), "10")
    set_value(tool.get_by_label("Attacker's trauma"), "5")
    tool.get_by_label("Defender prone").check()
    # 60 - 10 heft - 10 reach - 5 trauma: standing over a prone defender, the aim is free
    expect(emls).to_contain_text("The attacker tests at EML 35, the defender's Block at EML 30")
    for label in ("Attacker's reach", "Defender's weapon heft", "Defender's Strength",
                  "Defender's trauma"):
        set_value(tool.get_by_label(label), "3")
    for label in ("Attacker thrusts", "Defender thrusts", "Attacker prone", "In Close"):
        tool.get_by_label(label).check()
    told = pc.declare_melee(60, pc.Weapon("a", reach=3, thrust=True, heft=12), "Block",
                            defender_ml=60, defender_weapon=pc.Weapon("d", reach=5, thrust=True,
                                                                      heft=3),
                            aim_zone=2, outnumbered=2, close=True, attacker_prone=True,
                            defender_prone=True, strength=10, defender_strength=3,
                            attacker_trauma=5, defender_trauma=3)
    expect(emls).to_contain_text(f"EML {told.attack_eml}, the defender's Block at EML "
                                 f"{told.defence_eml}")
    tool.get_by_label("Defence").select_option("Ignore")
    expect(emls).to_contain_text("(unopposed)")
    use_my_dice(tool, "5")
    expect(tool.locator(".rulebook-pc-result")).to_contain_text("tactical advantage")
    tool.get_by_label("Advantages to take").fill("setup")
    tool.get_by_role("button", name="Spend them").click()
    expect(tool.get_by_role("alert").filter(has_text="Advantages to take")).to_contain_text(
        "must name")
    tool.get_by_label("Advantages to take").fill("impact, precision, precision")
    tool.get_by_role("button", name="Spend them").click()
    expect(tool.locator(".rulebook-trace").last).to_contain_text("1 × impact")


def test_the_chapters_dodge_and_ignore_examples_in_the_melee_resolver(page: Page, book_url):
    """The chapter's Dodge (36 against 51, both S: the higher roll, the defender, wins) and
    Ignore (36 alone: three stars, two TAs) examples, ML 60 each."""
    tool = _open(page, book_url, ".rulebook-pc-melee")
    set_value(tool.get_by_label("Attacker's ML"), "60")
    tool.get_by_label("Defence").select_option("Dodge")
    set_value(tool.get_by_label("Defender's ML"), "60")
    use_my_dice(tool, "36, 51")
    result = tool.locator(".rulebook-pc-result")
    expect(result).to_contain_text("Rolls 36, 51 (attacker S, defender S): dodged, 1 victory "
                                   "star")
    tool.get_by_label("Defence").select_option("Ignore")
    use_my_dice(tool, "36")
    expect(result).to_contain_text("Rolls 36 (attacker S): the attacker strikes, 3 victory "
                                   "stars; 2 tactical advantage(s)")
