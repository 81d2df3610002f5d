"""More of the TSL chapters' worked examples done in the tool beside them (DESIGN.md §5):
the thug's rush and the defence table in the attacks chapter; armour against one blow, the
Catastrophic defence and the Impact tags in the gear chapter, and Issued gear mended with no
roll; and every TSL tool's inputs and result on one 900 px screen at desktop width. Each expected result is worked out with the same
rulescore call the chapter's cell makes."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from rulescore.systems import tsl
from tests.browser.reader import SHOTS, open_chapter, set_value
from tests.browser.tsl_steps import open_tsl_tool, static_t_number, use_dice
from widgets.common import percent

ATTACKS = "tsl/attacks.ipynb"
COMBAT = "tsl/combat.ipynb"
GEAR = "tsl/gear.ipynb"
FIGHT = "tsl/fight.ipynb"
SCREEN = {"width": 1280, "height": 900}   # desktop width, one screen


def test_the_rush_beside_the_ambush(page: Page, book_url):
    """The ambush's second thug spends his whole turn on a Double Movement from Far to Ko:
    two zones, the Action and the Movement (the tool beside the example in the attacks
    chapter)."""
    rush = tsl.move("Far", "Engaged", double=True)
    tool = open_tsl_tool(page, book_url, ATTACKS, ".rulebook-tsl-move")
    tool.get_by_label("Double Movement").uncheck()
    tool.get_by_label("From").select_option(label="Far")
    tool.get_by_label("To", exact=True).select_option(label="Engaged")
    expect(tool.get_by_role("alert")).to_contain_text("Double Movement")
    tool.get_by_label("Double Movement").check()
    expect(tool.locator(".rulebook-tsl-result")).to_have_text(
        f"Far → Engaged: {rush.zones} zones; uses the Action and the Movement")
    assert rush.uses == ("action", "movement")


def _lands(result: tsl.ArmourResult) -> str:
    return f"Lands as {tsl.band_name(result.band)}: {result.value} Stress"


def test_armour_and_the_catastrophic_defence(page: Page, book_url):
    """The gear chapter's armour: a Crit stays, a Success drops to a Mixed, a Mixed to a miss;
    then a Success against a defender whose defence roll was a Catastrophic Failure: the armour
    takes the whole blow (no Stress) and is spent."""
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-armour")
    tool.screenshot(path=str(SHOTS / "tsl_armour_blow.png"))
    result = tool.locator(".rulebook-tsl-result")
    caught = tool.get_by_label("The defence roll was a Catastrophic Failure")
    caught.uncheck()
    for band in ("crit", "success", "mixed"):
        tool.get_by_label("The attack lands as").select_option(label=tsl.band_name(band))
        expect(result).to_have_text(_lands(tsl.armour_against(band)))
        assert tsl.armour_against(band).band == tsl.armour(band)
    saved = tsl.armour_against("success", defence_catastrophic=True)
    tool.get_by_label("The attack lands as").select_option(label="Success")
    caught.check()
    expect(result).to_have_text(_lands(saved) + "; the armour takes the whole blow and is spent")
    assert (saved.value, saved.armour_spent) == (0, True)


def test_issued_gear_is_mended_with_no_dice(page: Page, book_url):
    """Ordinary Company kit is fixed with tools and downtime: the repair tool says so at once
    and asks for no dice; Salvaged gear asks for the Hand roll again."""
    assert not tsl.repair_needs_roll("Issued") and tsl.repair_needs_roll("Salvaged")
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-repair")
    tool.get_by_label("Rarity").select_option(label="Issued")
    expect(tool.locator(".rulebook-tsl-result")).to_have_text(
        "Mended with tools and downtime, no roll")
    expect(tool.get_by_label("My dice")).to_be_hidden()
    expect(tool.get_by_label("Your Hand tier")).to_be_hidden()
    tool.screenshot(path=str(SHOTS / "tsl_repair_issued.png"))
    expect(tool.locator(".rulebook-tsl-repair-odds")).to_have_count(0)   # no roll, no odds
    tool.get_by_label("Rarity").select_option(label="Salvaged")
    expect(tool.get_by_label("My dice")).to_be_visible()
    expect(tool.locator(".rulebook-tsl-result")).to_have_count(0)
    expect(tool.locator(".rulebook-tsl-repair-odds")).to_contain_text(     # before the dice
        f"Mending it takes a Hand roll at T11: a Mixed Success or better mends it. Chance it "
        f"mends: {percent(tsl.repair_odds('Trained'))} ({tsl.repair_odds('Trained')})")
    tool.screenshot(path=str(SHOTS / "tsl_repair_odds.png"))


def test_an_impact_tag_lifts_a_mixed_but_never_makes_a_crit(page: Page, book_url):
    """The gear chapter's Impact tags: with the tag's condition met a Mixed lands as a
    Success, a Success stays a Success and only the dice crit (a Piercing blade, a Proficient
    roll against T11, in the chapter's static resolver)."""
    assert [tsl.impact_tag(b) for b in ("mixed", "success", "crit")] == \
        ["success", "success", "crit"]
    blade = tsl.make_weapon("Melee", ["Piercing"])
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-attack", 1)
    static_t_number(tool, "Proficient", 11)
    tool.get_by_label("Weapon zone").select_option(label="Melee")
    tool.get_by_label("Improvised weapon (no tags)").uncheck()
    tool.get_by_label("First tag").select_option(label="Piercing")
    tool.get_by_label("An Impact tag's condition holds").check()
    for dice in ([6, 3, 2, 1, 1], [6, 4, 3, 3, 1], [6, 6, 6, 6, 1]):
        hit = tsl.attack(dice, "Proficient", target=11, weapon=blade, impact=True)
        use_dice(tool, dice)
        expect(tool.locator(".rulebook-tsl-result")).to_contain_text(
            f"{tsl.band_name(hit.band)}: {hit.stress} Stress")
        moved = f"; rolled {tsl.band_name(hit.raw_band)}" if hit.raw_band != hit.band else ""
        expect(tool.get_by_text(f"Total {hit.total} against T11, margin +{hit.margin}{moved}")) \
            .to_be_visible()


def test_the_defence_and_the_pool_an_attack_type_calls_for(page: Page, book_url):
    """The attacks chapter's defence table: a melee blow is parried with Body (or dodged with
    Hand, described), and fear is met with Heart and marks the Mind pool."""
    assert tsl.defence_domain("Melee weapon", "Hand", described=True) == "Hand"
    tool = open_tsl_tool(page, book_url, ATTACKS, ".rulebook-tsl-attack")
    for attack in ("Melee weapon", "Fear, despair"):
        primary, others = tsl.defence_domains(attack)
        tool.get_by_label("Attack type").select_option(label=attack)
        expect(tool.locator(".rulebook-tsl-odds-notes").last).to_contain_text(
            f"{attack}: defended with {primary} (or {' or '.join(others)}, if the defender "
            f"describes how); Stress lands on the {tsl.stress_pool(attack)} pool")
        expect(tool.get_by_label(f"Stress already on its {tsl.stress_pool(attack)} pool")) \
            .to_be_visible()


def _bottom(tool: Locator, part: Locator) -> float:
    """How far below the top of *tool* the bottom of *part* is, in px."""
    box = part.bounding_box()
    return box["y"] + box["height"] - tool.bounding_box()["y"]


def _inputs_and_result(tool: Locator) -> float:
    """The bottom of the lowest visible field or button and of the result, below the top of
    the tool (the explanation may run on below)."""
    parts = tool.locator("select:visible, input:visible, button:visible, "
                         ".rulebook-tsl-result:visible")
    return max(_bottom(tool, parts.nth(i)) for i in range(parts.count()))


def test_the_attack_resolver_fits_one_screen(page: Page, book_url):
    """The longest TSL tool, set up as far as it goes (opposed, armour, a Thrown Snaring weapon
    with its ammunition, rolled): its inputs, rulings and result fit one 900 px screen at
    desktop width, the odds and the result beside the inputs."""
    page.set_viewport_size(SCREEN)
    tool = open_tsl_tool(page, book_url, GEAR, ".rulebook-tsl-attack")
    tool.get_by_label("Weapon zone").select_option(label="Thrown")
    tool.get_by_label("First tag").select_option(label="Snaring")
    tool.get_by_label("Distance to target").select_option(label="Near")
    set_value(tool.get_by_label("Ammunition uses left"), "3")
    use_dice(tool, [6, 6, 4, 1, 1, 5, 5, 1, 1, 1])
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("1 Stress")
    tool.screenshot(path=str(SHOTS / "tsl_resolver_1280x900.png"))
    assert _inputs_and_result(tool) <= SCREEN["height"]
    result = tool.locator(".rulebook-tsl-result").bounding_box()
    inputs = tool.get_by_label("Attack type").bounding_box()
    assert result["x"] >= inputs["x"] + inputs["width"], "the result sits beside the inputs"


def test_every_tsl_tool_fits_one_screen(page: Page, book_url):
    """Every other TSL tool, with its result shown, fits one 900 px screen at desktop width."""
    page.set_viewport_size(SCREEN)
    tools = {COMBAT: (".rulebook-tsl-roll", ".rulebook-tsl-turns", ".rulebook-tsl-move"),
             ATTACKS: (".rulebook-tsl-support", ".rulebook-tsl-spirit"),
             GEAR: (".rulebook-tsl-weapon", ".rulebook-tsl-armour", ".rulebook-tsl-loadout",
                    ".rulebook-tsl-repair")}
    for chapter, found in tools.items():
        open_chapter(page, f"{book_url}/{chapter}")
        for css in found:
            tool = page.locator(css).first
            expect(tool).to_be_visible(timeout=60_000)
            if css == ".rulebook-tsl-weapon":    # both tags that open a part of their own
                tool.get_by_label("Second tag").select_option(label="Snaring")
            if css == ".rulebook-tsl-support":   # the option with the most fields
                tool.get_by_label("Support action").select_option(label="Grant Reroll")
            if css in (".rulebook-tsl-roll", ".rulebook-tsl-repair"):
                use_dice(tool, [6, 5, 1, 1, 1])
            expect(tool.locator(".rulebook-tsl-result, .rulebook-tsl-round, "
                                ".rulebook-tsl-weapon-summary").first).to_be_visible()
            assert _inputs_and_result(tool) <= SCREEN["height"], css


def test_the_fight_pages_attack_fits_one_screen(page: Page, book_url):
    """On the fight page, the attack from its Attacker field to the result and the Apply button,
    with the odds beside it, fits one 900 px screen at desktop width."""
    page.set_viewport_size(SCREEN)
    panel = open_tsl_tool(page, book_url, FIGHT, ".rulebook-tsl-fight")
    panel.get_by_role("button", name="Start the fight").click()
    expect(panel.locator(".rulebook-tsl-acting")).to_contain_text("is acting")
    use_dice(panel.locator(".rulebook-tsl-fight-attack"), [6, 5, 4, 4, 2, 3, 2, 2, 1, 1])
    expect(panel.locator(".rulebook-tsl-fight-result")).to_be_visible()
    top = panel.get_by_label("Attacker", exact=True).bounding_box()["y"]
    for part in (panel.get_by_role("button", name="Apply to the target"),
                 panel.locator(".rulebook-tsl-fight-result"),
                 panel.locator(".rulebook-tsl-odds")):
        box = part.bounding_box()
        assert box["y"] + box["height"] - top <= SCREEN["height"], part
    panel.screenshot(path=str(SHOTS / "tsl_fight_1280x900.png"))
