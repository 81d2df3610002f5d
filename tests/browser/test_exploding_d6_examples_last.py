"""The last exploding-d6 worked examples without a browser test (DESIGN.md §5): the two-dice
odds of §Exact odds, who may react in §Reactions and the aim lost when hit in §Aiming, each
entered as a reader would in the tool beside it; and each exploding-d6 chapter tool's inputs
and result on one 900 px screen at desktop width. Each expected result is worked out with the
same rulescore call the chapter's cell makes."""

from __future__ import annotations

from fractions import Fraction

from playwright.sync_api import Locator, Page, expect

from rulescore.systems import exploding_d6 as x6
from tests.browser.reader import (SHOTS, open_chapter, open_tool, set_fields, set_value,
                                  shows_whole, use_my_dice)
from tests.browser.x6_fight import acting, attack_with, join_fight, open_fight

COMBAT = "exploding_d6/combat"
CLOSE = "exploding_d6/close"
SCREEN = {"width": 1280, "height": 900}   # desktop width, one screen


def test_two_dice_are_both_critical_once_in_324(page: Page, book_url):
    """§Exact odds: two dice are both critical with 1/324 (1/18 squared), read in the attack
    tool's odds of each number of criticals."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-attack")
    set_fields(tool, **{"Skill": "2", "Weapon dice": "0", "Attack mode": "Hand-to-hand"})
    two = x6.hit_distribution(2)
    assert two[(0, 2)] == Fraction(1, 324) == x6.hit_odds(2).criticals()[2]
    expect(tool.locator(".rulebook-x6-setup")).to_contain_text("Roll 2 dice: hit on 5+")
    crits = tool.locator(".rulebook-x6-crit-odds")
    crits.locator("summary").click()
    expect(crits.locator("tr", has_text="2 criticals")).to_have_text("2 criticals0.31%1/324")
    tool.screenshot(path=str(SHOTS / "x6_crit_odds.png"))


def test_who_may_react_and_the_actions_left(page: Page, book_url):
    """§Reactions: Hagen, who saved one of his 2 actions and perceives the robber, may react
    and has none left; a rogue with no action left, or a guard who does not perceive the
    actor, cannot."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-reactions")
    hagen = x6.ActionPool(maximum=2, available=1)
    assert x6.can_react(hagen, perceives=True)
    set_fields(tool, **{"Actions a round": "2", "Who would react": "Hagen 12 1"})
    done = x6.reactions([("Hagen", 12, hagen, True)])
    assert done.order == ("Hagen",) and done.pools[0].available == 0
    expect(tool.locator(".rulebook-total")).to_have_text("React in this order: Hagen")
    items = tool.locator(".rulebook-x6-reaction-list li")
    expect(items).to_have_text(["Hagen reacts: 0 of 2 actions left"])
    set_value(tool.get_by_label("Who would react", exact=True),
              "Hagen 12 1, Rogue 9 0, Guard 14 2 unaware")
    assert not x6.can_react(x6.ActionPool(2, 0), perceives=True)
    assert not x6.can_react(x6.ActionPool(2, 2), perceives=False)
    expect(items).to_have_text(["Hagen reacts: 0 of 2 actions left",
                                "Rogue cannot react: has no action left",
                                "Guard cannot react: does not perceive the actor"])
    set_value(tool.get_by_label("Who would react", exact=True), "Hagen 12 1, Hagen 3 1")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Who would react”: Hagen may react only once to one action")
    set_value(tool.get_by_label("Who would react", exact=True), "Hagen 12 1")
    expect(tool.get_by_role("alert")).to_have_count(0)
    most = x6.ROSTER.max_fighters
    set_value(tool.get_by_label("Who would react", exact=True),
              ", ".join(f"F{i} 3 1" for i in range(most + 1)))
    expect(tool.get_by_role("alert")).to_contain_text(
        f"“Who would react”: at most {most} fighters, got {most + 1}")
    set_value(tool.get_by_label("Who would react", exact=True), "Hagen 12 1")
    expect(tool.get_by_role("alert")).to_have_count(0)
    tool.screenshot(path=str(SHOTS / "x6_reactions.png"))


def test_who_may_react_picked_from_the_roster(page: Page, book_url):
    """§Reactions with the roster: the rogue of §Start of combat (Quickness 4, initiative 27),
    picked From the roster, joins Hagen with a human's 2 actions and reacts first."""
    page.set_viewport_size(SCREEN)
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-reactions")
    roster = page.locator(".rulebook-roster").first
    roster.get_by_label("New fighter").fill("Rogue")
    roster.get_by_role("button", name="Add fighter").click()
    set_value(roster.get_by_label("Quickness of Rogue", exact=True), "4")
    # picked before initiative is rolled: listed with 0, and the tool says so in place
    tool.scroll_into_view_if_needed()
    picks = tool.get_by_label("From the roster", exact=True)
    picks.select_option(label="Rogue")
    expect(tool.get_by_label("Who would react", exact=True)).to_have_value(
        "Hagen 12 1, Rogue 0 2 of 2")
    expect(tool.locator(".rulebook-x6-unrolled")).to_have_text(
        "Rogue's initiative is not rolled yet: Rogue is listed with 0, after everyone with a "
        "higher one. Roll initiative above and the list takes it, or type it in place of the 0.")
    tool.screenshot(path=str(SHOTS / "x6_reactions_unrolled.png"))
    # rolled now: the list takes the rogue's initiative
    initiative = page.locator(".rulebook-x6-initiative").first
    expect(initiative).to_contain_text("Rogue: 4 dice")
    use_my_dice(initiative, "4, 5, 1, 6, 6, 5")
    rogue = x6.initiative([4, 5, 1, 6 + 6 + 5], quickness=4)
    expect(initiative.locator(".rulebook-x6-order")).to_contain_text(str(rogue.value))
    tool.scroll_into_view_if_needed()
    actions = x6.max_actions("human")
    expect(tool.get_by_label("Who would react", exact=True)).to_have_value(
        f"Hagen 12 1, Rogue {rogue.value} {actions} of {actions}")
    expect(tool.locator(".rulebook-x6-unrolled")).to_have_count(0)   # initiative is rolled
    done = x6.reactions([("Hagen", 12, x6.ActionPool(2, 1), True),
                         ("Rogue", rogue.value, x6.ActionPool(2, actions), True)])
    assert done.order == ("Rogue", "Hagen") and not done.refused
    expect(tool.locator(".rulebook-total")).to_have_text("React in this order: Rogue, Hagen")
    expect(tool.locator(".rulebook-x6-reaction-list li")).to_have_text(
        ["Rogue reacts: 1 of 2 actions left", "Hagen reacts: 0 of 2 actions left"])
    height = _inputs_and_result(tool, ".rulebook-x6-reaction-list:visible")
    assert height <= SCREEN["height"], f"the reactions tool is {height:.0f}px tall"
    tool.screenshot(path=str(SHOTS / "x6_reactions_from_roster.png"))


def test_aiming_is_lost_when_the_aimer_is_hit(page: Page, book_url):
    """§Aiming: two aim actions with Perception 3 take the critical threshold to 8+; hit while
    aiming, the aim is lost and it stays 11+."""
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-attack")
    setup = tool.locator(".rulebook-x6-setup")
    set_fields(tool, **{"Skill": "3", "Weapon dice": "2", "Attack mode": "Hand-to-hand",
                     "Perception": "3", "Aim actions": "2"})
    assert x6.aim_bonus(2, perception=3) == 3
    expect(setup).to_contain_text("critical on 8+")
    tool.get_by_label("Hit while aiming").check()
    assert x6.aim_bonus(2, perception=3, interrupted=True) == 0
    lost = x6.attack_setup(3, 2, "melee", aim_actions=2, perception=3, aim_interrupted=True)
    expect(setup).to_contain_text(f"critical on {lost.crit_at}+")
    expect(setup).to_contain_text("critical on 11+")
    tool.screenshot(path=str(SHOTS / "x6_aim_lost.png"))
    tool.get_by_label("Hit while aiming").uncheck()
    expect(setup).to_contain_text("critical on 8+")


def _inputs_and_result(tool: Locator, result: str) -> float:
    """How far below the top of *tool* the lowest visible field, button or result ends (the
    explanation may run on below)."""
    top = tool.bounding_box()["y"]
    parts = tool.locator(f"select:visible, input:visible, button:visible, {result}")
    boxes = [parts.nth(i).bounding_box() for i in range(parts.count())]
    return max(b["y"] + b["height"] - top for b in boxes if b)


def test_the_exploding_d6_tools_fit_one_screen(page: Page, book_url):
    """The attack tool (options open, a parry, rolled), the reactions tool and the unarmed
    tool, each with its result shown, fit inputs and result in one 900 px screen."""
    page.set_viewport_size(SCREEN)
    tool = open_tool(page, book_url, COMBAT, ".rulebook-x6-attack")
    tool.get_by_role("button", name="Special attacks, range, recoil").click()
    set_fields(tool, **{"Attack mode": "Hand-to-hand", "Reaction": "Parry",
                     "Target's cover": "None"})
    tool.get_by_label("My dice").fill("5, 5, 6, 2, 1, 1, 5, 1, 1")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_be_visible()
    tool.screenshot(path=str(SHOTS / "x6_attack_1280x900.png"))
    height = _inputs_and_result(tool, ".rulebook-total:visible, .rulebook-x6-stages:visible")
    assert height <= SCREEN["height"], f"the attack tool is {height:.0f}px tall"

    reactions = page.locator(".rulebook-x6-reactions").first
    reactions.scroll_into_view_if_needed()
    set_value(reactions.get_by_label("Who would react", exact=True),
              "Hagen 12 1, Rogue 9 0, Guard 14 2 unaware")
    expect(reactions.locator(".rulebook-x6-reaction-list li")).to_have_count(3)
    height = _inputs_and_result(reactions, ".rulebook-x6-reaction-list:visible")
    assert height <= SCREEN["height"], f"the reactions tool is {height:.0f}px tall"

    open_chapter(page, f"{book_url}/{CLOSE}.ipynb")
    unarmed = page.locator(".rulebook-x6-unarmed").first
    expect(unarmed).to_be_visible(timeout=60_000)
    unarmed.get_by_label("My dice").fill("5, 6, 6, 5, 1, 3")
    unarmed.get_by_role("button", name="Use my dice").click()
    expect(unarmed.locator(".rulebook-total")).to_be_visible()
    unarmed.screenshot(path=str(SHOTS / "x6_unarmed_1280x900.png"))
    height = _inputs_and_result(unarmed, ".rulebook-total:visible")
    assert height <= SCREEN["height"], f"the unarmed tool is {height:.0f}px tall"


def test_the_fight_pages_attack_dice_entry_reads_whole(page: Page, book_url):
    """The fight page's attack dice entry takes the width under the fields at 1280 px: Roll,
    Seed and Replay seed on one line, and My dice showing its whole hint (hit dice, then the
    reaction's, then cover) and the dice typed; the result below it on the same screen."""
    panel = open_fight(page, book_url)
    join_fight(panel, "5, 5, 5, 1, 1, 1")
    expect(acting(panel)).to_contain_text("Round 1: Hagen")
    entry = panel.locator(".rulebook-x6-fight-attack")
    entry.scroll_into_view_if_needed()
    tops = {round(entry.get_by_role(role, name=name, exact=True).bounding_box()["y"])
            for role, name in (("button", "Roll"), ("textbox", "Seed"),
                               ("button", "Replay seed"))}
    assert max(tops) - min(tops) <= 4, f"Roll, Seed and Replay seed on several lines: {tops}"
    my_dice = entry.get_by_label("My dice")
    hint = my_dice.get_attribute("placeholder")
    assert hint.startswith("hit dice as rolled, then the reaction's, then cover d6")
    width, room = shows_whole(my_dice, hint)
    assert width <= room, f"the hint takes {width:.0f}px of the field's {room:.0f}px"
    page.screenshot(path=str(SHOTS / "x6_fight_attack_entry_1280x900.png"))
    attack_with(panel, "5, 5, 5, 1, 1")     # Hagen's 5 dice at the Robber, no reaction, no cover
    result = panel.locator(".rulebook-x6-fight-result")
    expect(result).to_contain_text("2 wounds")
    assert result.bounding_box()["y"] + 40 <= my_dice.bounding_box()["y"] + SCREEN["height"]
