"""The rulings chapter's worked edge cases, entered in the book's tools (chromium). The rulings
page itself holds no tools: each case goes into the tool of the chapter it rules on, and reads
the result the rulings chapter prints (its asserts check the same numbers against the engine)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from rulescore.roster import Roster
from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent
from tests.browser.reader import open_tool, set_value
from widgets.roster import store_key


def test_running_past_19_and_a_quick_shot_with_a_slow_gun(page: Page, book_url):
    """A token at tick 18 spending tempo 6 lands on tick 4; a Quick Shot with a Buffalo Rifle
    is tempo 5, not Exposed by tempo, Exposed by the table as printed."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    tool.get_by_label("Action").select_option("Reload (Manual)")
    set_value(tool.get_by_label("Acting at tick"), "18")
    expect(result).to_contain_text("the token moves from Tick 18 to Tick 4")
    tool.get_by_label("Action").select_option("Quick Shot")
    tool.get_by_label("Weapon", exact=True).select_option("Buffalo Rifle")
    tool.get_by_label("Exposure rule").select_option(label="By tempo (3 or less exposes)")
    expect(result).to_contain_text("Quick Shot with Buffalo Rifle: tempo 5")
    expect(result).to_contain_text("not Exposed")
    tool.get_by_label("Exposure rule").select_option(label="As each action prints it")
    expect(result).to_contain_text("Exposed until the fighter's next turn")


def test_the_initiative_ceiling_with_and_without_an_ambush(page: Page, book_url):
    """Nine dice (QUICK 5, Awareness 4) start only at ticks 3, 4 or 6; a prepared ambush opens
    tick 2 (nearly one roll in three), never tick 0."""
    best = Roster(vl.ROSTER).add("Nine", quick=5, awareness=4)
    page.add_init_script(f"window.localStorage.setItem({json.dumps(store_key('veil_and_lead'))}"
                         f", {json.dumps(best.to_json())})")
    tool = open_tool(page, book_url, "veil_and_lead/table", ".rulebook-vl-initiative")
    odds = tool.locator(".rulebook-vl-init-odds")
    expect(odds).to_contain_text("Nine (9d8)", timeout=20_000)
    for (tick, state), p in vl.starting_tick_distribution(9).items():
        expect(odds).to_contain_text(f"Tick {tick} {state}: {percent(p)}")
    expect(odds).not_to_contain_text("Tick 2 Fast")
    tool.get_by_label("Situation of Nine").select_option("Prepared ambush (+2)")
    ambush = vl.starting_tick_distribution(9, 2)
    expect(odds).to_contain_text(f"Tick 2 Fast: {percent(ambush[(2, 'Fast')])}")
    expect(odds).not_to_contain_text("Tick 0")


def test_reactions_refused_and_half_of_an_odd_vitality(page: Page, book_url):
    """A Dodge while Surprised (Mettle 3) and a second Reaction before your turn are refused;
    IRON 3 (11 Vitality) is Healthy at 6 and Wounded at 5."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-reaction")
    result = tool.locator(".rulebook-vl-reaction-result")
    set_value(tool.get_by_label("Mettle", exact=True), "3")
    tool.get_by_label("Surprised").check()
    expect(result).to_have_text("Refused: Mettle stays at 3")
    tool.get_by_label("Surprised").uncheck()
    set_value(tool.get_by_label("Mettle", exact=True), "2")
    set_value(tool.get_by_label("Reactions since your last turn"), "1")
    expect(result).to_have_text("Refused: Mettle stays at 2")
    walker = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-downed")
    set_value(walker.get_by_label("IRON", exact=True), "3")
    set_value(walker.get_by_label("Vitality now"), "6")
    expect(walker).to_contain_text("Healthy at Vitality 6 of 11")
    set_value(walker.get_by_label("Vitality now"), "5")
    expect(walker).to_contain_text("Wounded at Vitality 5 of 11")


# --- the edge cases the Count tracker plays out (count chapter) ---------------------------------

def _count(page: Page, book_url: str):
    return open_tool(page, book_url, "veil_and_lead/count", ".rulebook-vl-count")


def _join(tool, name: str, margin: str, *, pc: bool = True, quick: int = 3) -> None:
    tool.get_by_label("Name", exact=True).fill(name)
    tool.get_by_label("Player character").set_checked(pc)
    set_value(tool.get_by_label("QUICK", exact=True), str(quick))
    tool.get_by_label("Initiative margin").fill(margin)
    tool.get_by_role("button", name="Add to the Count").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text(f"{name} joins")


def _press(tool, name: str) -> None:
    tool.get_by_role("button", name=name, exact=True).click()


def _do(tool, action: str, weapon: str = "Peacemaker", chosen: str = "") -> None:
    tool.get_by_label("Action", exact=True).select_option(action)
    tool.get_by_label("Weapon", exact=True).select_option(weapon)
    tool.get_by_label("Chosen tempo").fill(chosen)


def test_three_tokens_on_one_tick(page: Page, book_url):
    """Ada (PC, margin 2, QUICK 3), Bo and Cy (PCs, margin 2, QUICK 2) and a Bandit (NPC,
    margin 5, QUICK 4) share a tick: Ada first, Bo and Cy at the same moment, the Bandit last."""
    tool = _count(page, book_url)
    _join(tool, "Bandit", "5", pc=False, quick=4)
    for name, quick in (("Ada", 3), ("Bo", 2), ("Cy", 2)):
        _join(tool, name, "2", quick=quick)
    log, why = tool.locator(".rulebook-vl-log"), tool.locator(".rulebook-trace")
    _press(tool, "Next turn (turn the Hammer)")
    expect(log).to_contain_text("Tick 3: Bandit acts")
    _press(tool, "Wait +1")                      # the Bandit joins the three PCs at Tick 4
    expect(log).to_contain_text("Bandit waits: Tick 4")
    _press(tool, "Next turn (turn the Hammer)")
    expect(log).to_contain_text("The Hammer turns 1 to Tick 4: Ada acts")
    C = vl.Combatant
    ties = vl.tie_order([C("Ada", True, 2, 3), C("Bandit", False, 5, 4), C("Bo", True, 2, 2),
                         C("Cy", True, 2, 2)])
    assert ties.order == (("Ada",), ("Bo", "Cy"), ("Bandit",))
    for s in ties.trace:
        expect(why).to_contain_text(s.text)


def test_a_hold_that_interrupts(page: Page, book_url):
    """A hold sprung at Tick 7 with a tempo-4 shot puts the token at 11; one sprung at Tick 17
    with tempo 5 wraps to 2."""
    tool = _count(page, book_url)
    _join(tool, "Ada", "5")                      # Tick 3
    _join(tool, "Bandit", "2", pc=False)         # Tick 4
    log, board = tool.locator(".rulebook-vl-log"), tool.locator(".rulebook-vl-board")
    _press(tool, "Next turn (turn the Hammer)")
    set_value(tool.get_by_label("Hold trigger"), "the Bandit draws")
    _press(tool, "Hold")
    expect(board.get_by_role("row", name="Ada holding: the Bandit draws")).to_be_visible()
    _press(tool, "Next turn (turn the Hammer)")  # the Bandit at 4: a Quick Shot, tempo 3
    _do(tool, "Quick Shot")
    _press(tool, "Act")
    expect(log).to_contain_text("Bandit: Quick Shot with Peacemaker, tempo 3 → Tick 7")
    _press(tool, "Next turn (turn the Hammer)")  # Tick 7: the Bandit draws, Ada's hold fires
    tool.get_by_label("Fighter", exact=True).select_option("Ada")
    _do(tool, "Steady Shot")
    _press(tool, "Release hold")
    expect(log).to_contain_text("Ada's hold goes off: Steady Shot, tempo 4 → Tick 11 (before "
                                "the triggering action)")
    assert vl.held_action(7, 4) == 11
    tool.get_by_label("Fighter", exact=True).select_option("Bandit")
    _do(tool, "Reload (Manual)")                 # 7 + 6: the Bandit's turn comes at 13
    _press(tool, "Act")
    expect(log).to_contain_text("tempo 6 → Tick 13")
    _press(tool, "Next turn (turn the Hammer)")  # Ada at 11 holds again
    expect(log).to_contain_text("Tick 11: Ada acts")
    set_value(tool.get_by_label("Hold trigger"), "the Bandit moves")
    _press(tool, "Hold")
    _press(tool, "Next turn (turn the Hammer)")
    _do(tool, "Channel", chosen="4")             # 13 + 4: the Bandit acts again at 17
    _press(tool, "Act")
    expect(log).to_contain_text("tempo 4 → Tick 17")
    _press(tool, "Next turn (turn the Hammer)")
    expect(log).to_contain_text("Tick 17: Bandit acts")
    tool.get_by_label("Fighter", exact=True).select_option("Ada")
    _do(tool, "Grapple")                         # a fixed tempo of 5
    _press(tool, "Release hold")
    expect(log).to_contain_text("Ada's hold goes off: Grapple, tempo 5 → Tick 2")
    assert vl.held_action(17, 5) == 2


def test_aim_survives_a_shift(page: Page, book_url):
    """A banked Aim survives a Shift; a Scramble spends it."""
    tool = _count(page, book_url)
    _join(tool, "Ada", "10")                     # Tick 0
    board = tool.locator(".rulebook-vl-board")
    _press(tool, "Next turn (turn the Hammer)")
    _do(tool, "Aim")
    _press(tool, "Act")
    expect(board.get_by_role("row", name="Ada Tick 2 PC, Exposed, Aim +2")).to_be_visible()
    _press(tool, "Next turn (turn the Hammer)")
    _do(tool, "Shift")
    _press(tool, "Act")
    expect(tool.locator(".rulebook-vl-log")).to_contain_text(
        "Ada: Shift, tempo 0: it takes no time, the token stays at Tick 2")
    expect(board.get_by_role("row", name="Ada Tick 2 PC, Aim +2")).to_be_visible()
    _press(tool, "Undo")
    _do(tool, "Scramble")
    _press(tool, "Act")
    expect(board.get_by_role("row", name="Ada Tick 5 PC, Exposed")).to_be_visible()
    expect(board).not_to_contain_text("Aim")


def test_the_red_lines_and_the_tension_pool(page: Page, book_url):
    """The Tension Lines sit at Ticks 0 and 10; a fight adds one Tension die when it starts
    and one more every ten ticks: four after thirty."""
    tool = _count(page, book_url)
    expect(tool.locator(".rulebook-vl-cylinder title")).to_contain_text(
        "red Tension Lines at Ticks 0 and 10")
    assert vl.red_lines() == (0, 10)
    _join(tool, "Ada", "10")                     # Tick 0
    tension, log = tool.locator(".rulebook-vl-tension"), tool.locator(".rulebook-vl-log")
    expect(tension).to_contain_text(f"added {vl.tension_dice(0)} die")
    _do(tool, "Reload (Manual)")                 # tempo 6, five times: 30 ticks
    for ticks in (6, 12, 18, 24, 30):
        _press(tool, "Next turn (turn the Hammer)")
        _press(tool, "Act")
        expect(log.locator("li").last).to_contain_text("tempo 6")
    _press(tool, "Next turn (turn the Hammer)")
    expect(log).to_contain_text("add 1 die to the Tension Pool (30 ticks of violence)")
    expect(tension).to_contain_text(f"added {vl.tension_dice(30)} dice")
    assert [vl.tension_dice(t) for t in (0, 10, 20, 30)] == [1, 2, 3, 4]


def test_a_stray_shot_with_several_friends_in_the_melee(page: Page, book_url):
    """Ada, Bo and Cy in the melee: the d6 showing 2 strikes an ally, the d3 showing 3 picks
    Cy (the conditions chapter's stray shot tool)."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-stray")
    set_value(tool.get_by_label("Allies in the melee"), "Ada, Bo, Cy")
    tool.get_by_label("Weapon", exact=True).select_option("Peacemaker")
    odds = vl.stray_shot_chances(["Ada", "Bo", "Cy"])
    expect(tool.locator(".rulebook-odds")).to_contain_text(f"Cy{percent(odds['Cy'])}")
    set_value(tool.get_by_label("My dice"), "2, 3")
    tool.get_by_role("button", name="Use my dice").click()
    struck = vl.stray_shot_among(["Ada", "Bo", "Cy"], 3, 0, 2, 3)
    assert struck.struck == vl.stray_ally(["Ada", "Bo", "Cy"], 3).value == "Cy"
    expect(tool.locator(".rulebook-vl-stray-result")).to_contain_text(
        f"Cy is struck: {struck.value} damage")
    for s in struck.trace:
        expect(tool.locator(".rulebook-trace")).to_contain_text(s.text)
