"""The served Veil & Lead table chapter, used as a reader would: initiative odds, a seeded roll
and its replay, typed dice, errors in place; the attack calculator's odds, dice and errors."""

import json
import random

from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from tests.browser.reader import open_chapter, set_value, use_my_dice
from widgets.roster import EMPTY_HINT, store_key

CHAPTER = "veil_and_lead/table.ipynb"
INJURY = "veil_and_lead/injury.ipynb"


def _open(page: Page, book_url: str, css: str, chapter: str = CHAPTER):
    open_chapter(page, f"{book_url}/{chapter}")
    tool = page.locator(css)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def keep_roster(page: Page, roster: Roster) -> None:
    """Put *roster* in the browser's keeping before the page opens, as an earlier chapter
    would have left it."""
    page.add_init_script(f"window.localStorage.setItem({json.dumps(store_key(vl.ROSTER.system))}, "
                         f"{json.dumps(roster.to_json())})")


PARTY = Roster(vl.ROSTER).add("Ada", pc=True, quick=3, awareness=2).add("Bo", quick=2,
                                                                         awareness=1)


def test_initiative_reads_the_roster_odds_seed_replay_and_typed_dice(page: Page, book_url):
    keep_roster(page, PARTY)
    tool = _open(page, book_url, ".rulebook-vl-initiative")
    fighters = page.locator(".rulebook-roster").first
    expect(fighters).to_contain_text("Fighters: Ada, Bo —", timeout=20_000)
    tool.get_by_label("Situation of Bo").select_option("Caught off-guard (−2)")
    ada = vl.plan_initiative(3, 2).odds()
    expect(tool.locator(".rulebook-vl-init-odds")).to_contain_text(
        f"Tick 4 Slow: {percent(ada[(4, 'Slow')])}")
    expect(tool.locator(".rulebook-vl-init-odds")).to_contain_text("Bo (3d8, -2)")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    table = tool.locator(".rulebook-vl-start")
    expect(table).to_be_visible()
    first = table.text_content()
    seed = tool.get_by_label("Seed").input_value()
    rng = random.Random(int(seed))
    ada_dice = [rng.randint(1, 8) for _ in range(5)]
    ada = vl.initiative(ada_dice, 3, 2)
    expect(table.get_by_role("row", name=f"Ada {' '.join(map(str, ada_dice))} "
                             f"{ada.margin:+d} Tick {ada.tick} {ada.state}")).to_be_visible()
    use_my_dice(tool, "2 3 5 6 7 | 8 8 1")
    expect(table.get_by_role("row", name="Bo 8 8 1 +3 Tick 4 Slow")).to_be_visible()
    expect(table.get_by_role("row", name="Ada 2 3 5 6 7 +2 Tick 4 Slow")).to_be_visible()
    expect(tool.locator(".rulebook-trace")).to_contain_text("Ada: Pool: QUICK 3 + Awareness 2 = 5")
    tool.get_by_label("Seed").fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(table).to_have_text(first)


def test_initiative_errors_in_place_and_an_empty_roster_is_named(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-vl-initiative")
    expect(tool.get_by_text(EMPTY_HINT)).to_be_visible()
    fighters = page.locator(".rulebook-roster").first
    field = fighters.get_by_label("New fighter")
    field.fill("Ada")
    field.press("Enter")
    expect(tool.locator(".rulebook-vl-init-odds")).to_contain_text("Ada (4d8)")
    use_my_dice(tool, "1 2 3")
    expect(tool.get_by_role("alert")).to_contain_text("Ada rolls 4d8, got 3 dice")


def test_attack_calculator_odds_dice_and_errors(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-vl-attack")
    plan = vl.plan_attack(attribute=3, skill=2, defense=10)
    expect(tool.locator(".rulebook-vl-odds")).to_contain_text(
        f"Hit: {percent(plan.odds().p_hit)} ({plan.odds().p_hit})")
    set_value(tool.get_by_label("Attribute (QUICK or IRON)"), "3")
    set_value(tool.get_by_label("Skill", exact=True), "3")
    set_value(tool.get_by_label("Target's Defense"), "9")
    tool.get_by_label("Range band").select_option("Far")
    tool.get_by_label("Target's cover").select_option("Hard Cover")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Roll 6d8, keep the two highest, against TN 15")
    tool.get_by_label("Target's armour").select_option("Duster")
    tool.get_by_label("Weapon", exact=True).select_option("Peacemaker")
    tool.get_by_label("Action", exact=True).select_option("Quick Shot")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Exposed afterwards")
    tool.get_by_label("Action", exact=True).select_option("Steady Shot")
    tool.get_by_label("Aim actions banked").fill("0")
    tool.get_by_label("Firing into a melee with allies").uncheck()
    use_my_dice(tool, "2, 3, 5, 6, 7, 8")
    duster = vl.armour("Duster").ar
    expected = vl.attack([2, 3, 5, 6, 7, 8], attribute=3, skill=3, defense=9, band="Far",
                         cover="Hard Cover", ar=duster, hardened=vl.armour("Duster").hardened)
    expect(tool.locator(".rulebook-vl-result")).to_contain_text(
        f"15 against TN 15, margin +0, 0 Steps, {expected.damage} damage")
    expect(tool.locator(".rulebook-trace")).to_contain_text("Defense 9 +4 (Hard Cover)")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    seed = tool.get_by_label("Seed").input_value()
    from rulescore.dice import parse
    rolled = [d.value for d in parse("6d8").roll(random.Random(int(seed))).dice]
    expect(tool.locator(".rulebook-vl-result")).to_contain_text(
        f"dice {', '.join(map(str, rolled))} →")
    first = tool.locator(".rulebook-vl-result").inner_text()
    use_my_dice(tool, "1")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“My dice” must be 6 d8 (a pool of 6), got 1 number")
    tool.get_by_label("Seed").fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.locator(".rulebook-vl-result")).to_have_text(first)


def test_downed_walker(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-vl-downed", INJURY)
    status = tool.locator(".rulebook-vl-status")
    expect(status).to_contain_text("Downed at Vitality 0 of 9")
    tool.get_by_role("button", name="Start of turn: bleed 1").click()
    expect(status).to_contain_text("Downed at Vitality -1 of 9")
    expect(tool.get_by_label("Vitality now")).to_have_value("-1")
    tool.get_by_label("Medical kit (+2)").check()
    p = vl.stabilization_probability(3, -1, medical_kit=True)
    expect(tool.locator(".rulebook-vl-stab-odds")).to_contain_text(
        f"One attempt with 3d8 and a kit against TN 12 succeeds {percent(p)}")
    tool.get_by_role("button", name="A Grievous Wound: read the d8").click()
    set_value(tool.get_by_label("Grievous Wound d8"), "8")
    tool.get_by_role("button", name="Read the wound").click()
    result = tool.locator(".rulebook-vl-downed-result")
    expect(result).to_contain_text(f"Grievous Wound: {vl.grievous_wound(8).outcome}")
    use_my_dice(tool, "3, 5, 8")
    expect(result).to_contain_text("Stabilised: the bleeding stops (dice 3, 5, 8, TN 12, "
                                   "margin +3")
    expect(status).to_contain_text("Stabilised: the bleeding has stopped")
    tool.get_by_label("Stabilised (the bleeding has stopped)").uncheck()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.get_by_label("Seed")).not_to_have_value("")
    expect(result).to_contain_text("; seed ")
    seed = int(tool.get_by_label("Seed").input_value())
    from rulescore.dice import parse
    dice = [d.value for d in parse("3d8").roll(random.Random(seed)).dice]
    expect(result).to_contain_text(f"dice {', '.join(map(str, dice))}, TN 12")
    set_value(tool.get_by_label("Vitality now"), "50")
    expect(tool.get_by_role("alert").first).to_contain_text(
        "“Vitality now” must be 9 or less (full Vitality for iron 1), got 50")


def test_horde_calculator(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-vl-horde")
    expect(tool.locator(".rulebook-vl-horde-volley")).to_contain_text("= 10d8, tempo 5")
    set_value(tool.get_by_label("Hit's margin"), "3")
    expect(tool.locator(".rulebook-vl-horde-hit")).to_contain_text("3 casualties: size 6 → 3")
    tool.get_by_label("Scatter or Blast weapon").check()
    expect(tool.locator(".rulebook-vl-horde-hit")).to_contain_text("the Horde breaks")
    tool.get_by_label("Kind").select_option(label="Swarm (melee)")
    expect(tool.locator(".rulebook-vl-horde-volley")).to_contain_text("tempo 6")
    set_value(tool.get_by_label("Horde size"), "2")
    expect(tool.get_by_role("alert").first).to_contain_text(
        "“Horde size” must be from 3 to 10, got 2")


def test_a_blade_never_suppresses_and_the_off_hand_rolls_fewer_dice(page: Page, book_url):
    """§XI Suppressed (gunfire only) and §XIII Two-Weapon Fighting (off hand −2 dice), as a
    reader meets them in the attack calculator."""
    from fractions import Fraction
    tool = _open(page, book_url, ".rulebook-vl-attack")
    set_value(tool.get_by_label("Target's Defense"), "11")
    tool.get_by_label("Weapon", exact=True).select_option("Hatchet")
    tool.get_by_label("Action", exact=True).select_option("Strike")
    tool.get_by_label("Range band").select_option("Point-Blank")
    odds = tool.locator(".rulebook-vl-odds")
    expect(odds).to_contain_text(f"near miss: {percent(Fraction(211, 2048))}")
    expect(odds).to_contain_text(f"target Suppressed (a near miss from gunfire): {percent(0)}")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Roll 5d8")
    tool.get_by_label("Off-hand attack (−2 dice)").check()
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Roll 3d8")


def test_downed_walker_shows_a_fumble(page: Page, book_url):
    """§X Stabilization: healer dice 1, 1, 1 at −1 fumble, and the patient drops to −2."""
    tool = _open(page, book_url, ".rulebook-vl-downed", INJURY)
    set_value(tool.get_by_label("Vitality now"), "-1")
    use_my_dice(tool, "1, 1, 1")
    expect(tool.locator(".rulebook-vl-downed-result")).to_contain_text(
        "Fumble: every die shows 1, the patient loses 1 more Vitality, now -2")
    expect(tool.get_by_label("Vitality now")).to_have_value("-2")


def test_calebs_shot_in_the_calculator_gives_the_printed_5(page: Page, book_url):
    """§VI The Complete Attack Example, typed into the calculator beside it: QUICK 3 +
    Ballistics 3 = 6 dice; TN 9 + 4 (Hard Cover) + 2 (Far, pistol) = 15; [2, 3, 5, 6, 7, 8]
    keeps 15, + 3 (two Aim actions) + 2 (masterwork) = 20; margin 5 is 1 Step; WR 3 + 1 Step
    + 1 Critical bonus = 5 damage."""
    tool = _open(page, book_url, ".rulebook-vl-attack")
    set_value(tool.get_by_label("Attribute (QUICK or IRON)"), "3")
    set_value(tool.get_by_label("Skill", exact=True), "3")
    set_value(tool.get_by_label("Target's Defense"), "9")
    tool.get_by_label("Range band").select_option("Far")
    tool.get_by_label("Target's cover").select_option("Hard Cover")
    set_value(tool.get_by_label("Aim actions banked"), "2")
    set_value(tool.get_by_label("Roll bonus (fine weapon, etc.)"), "2")
    set_value(tool.get_by_label("Critical bonus (Steps)"), "1")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text(
        "Roll 6d8, keep the two highest, +5, against TN 15")
    use_my_dice(tool, "2, 3, 5, 6, 7, 8")
    expect(tool.locator(".rulebook-vl-result")).to_contain_text(
        "→ 20 against TN 15, margin +5, 2 Steps, 5 damage — Grievous Wound")


def test_a_called_shot_asks_where_and_conditions_reach_the_pool(page: Page, book_url):
    """§III Called Shot: −2 dice (5 → 3) and a location, never an error about it; §VIII and
    §XI: Wounded −1 and Suppressed −2 (5 → 2); §II Surprised: TN −2 (10 → 8)."""
    tool = _open(page, book_url, ".rulebook-vl-attack")
    tool.get_by_label("Action", exact=True).select_option("Called Shot")
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Roll 3d8")
    expect(tool.get_by_role("alert")).to_have_count(0)
    tool.get_by_label("Called Shot at").select_option("Head")
    use_my_dice(tool, "8, 8, 1")
    expect(tool.locator(".rulebook-vl-result")).to_contain_text("Target is Stunned")
    tool.get_by_label("Action", exact=True).select_option("Steady Shot")
    tool.get_by_label("Attacker's conditions").select_option(
        label=["Wounded (−1 die)", "Suppressed (−2 dice)"])
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("Roll 2d8")
    tool.get_by_label("Target's conditions").select_option(label=["Surprised (TN −2)"])
    expect(tool.locator(".rulebook-vl-setup")).to_contain_text("TN 8")


def test_the_walker_after_death_the_d8_button_and_coup_de_grace(page: Page, book_url):
    """§X Death Threshold, the chapter's example: IRON 1, Downed at 0, bleeds to −1, −2 and
    at −3 dies, and then no odds are offered; §IX: the Grievous Wound d8 has a Roll button; §XIII Coup de Grâce, the chapter's example: 16 against TN 9 is
    margin 7, 2 Steps, Peacemaker WR 3 + 2 = 5 damage; through Boiler Plate (AR 1, Hardened) 4."""
    tool = _open(page, book_url, ".rulebook-vl-downed", INJURY)
    tool.get_by_role("button", name="A Grievous Wound: read the d8").click()
    tool.get_by_role("button", name="Roll the d8").click()
    expect(tool.locator(".rulebook-vl-downed-result")).to_contain_text("Grievous Wound: ")
    expect(tool.locator(".rulebook-vl-downed-result")).to_contain_text(", seed ")
    status = tool.locator(".rulebook-vl-status")
    for now in ("-1", "-2"):
        tool.get_by_role("button", name="Start of turn: bleed 1").click()
        expect(status).to_contain_text(f"Downed at Vitality {now} of 9")
    expect(status).to_contain_text("they survive 1 more start-of-turn loss (the last one kills)")
    tool.get_by_role("button", name="Start of turn: bleed 1").click()
    expect(status).to_contain_text("Dead at Vitality -3 of 9")
    expect(tool.locator(".rulebook-vl-stab-odds")).to_have_text(
        "The character is dead: no stabilisation.")
    coup = page.locator(".rulebook-vl-coup")
    expect(coup.locator(".rulebook-vl-coup-result")).to_contain_text(
        "An automatic hit: 5 damage, 2 Steps — Grievous Wound")
    coup.get_by_label("Target's armour").select_option("Boiler Plate")
    expect(coup.locator(".rulebook-vl-coup-result")).to_contain_text("4 damage, 2 Steps.")


def test_first_aid_the_chapters_example_in_its_tool(page: Page, book_url):
    """§XIV In-Combat Healing, the injury chapter's example: IRON 3 at 2 Vitality, a medic's
    6, 5 and 2 make 11 against TN 11: treated, back to 3."""
    tool = _open(page, book_url, ".rulebook-vl-first-aid", INJURY)
    expect(tool.locator(".rulebook-vl-aid-odds")).to_contain_text("succeeds 58.59% (75/128)")
    use_my_dice(tool, "6, 5, 2")
    expect(tool.locator(".rulebook-vl-aid-result")).to_contain_text(
        "Treated: the bleeding stops, Vitality 3")
