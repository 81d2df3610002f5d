"""Two TSL answers given where the reader sets them up, as a reader meets them: a Snaring pull
at Engaged refused as soon as it is chosen (in the attack resolver, before any odds or roll),
and the fight page's Repair asking the gear's rarity, so Issued or irreplaceable gear is
answered with no dice and rarer gear asks for its Hand roll (§11 Tags, §11 Ammunition)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import tsl
from tests.browser.reader import SHOTS, open_chapter, shows_whole, use_my_dice
from widgets.common import percent

GEAR = "tsl/gear.ipynb"
FIGHT = "tsl/fight.ipynb"
SCREEN = {"width": 1280, "height": 900}
ARROWS_PX = 16   # a number box's up and down arrows in Chromium, with a pixel to spare


def test_a_snaring_pull_at_engaged_is_refused_when_chosen(page: Page, book_url):
    """A Thrown Snaring weapon at Engaged with "pull them a zone nearer": the resolver says at
    once, in place of the odds and naming the field, that it must pin; pin brings the odds."""
    page.set_viewport_size(SCREEN)
    open_chapter(page, f"{book_url}/{GEAR}")
    tool = page.locator(".rulebook-tsl-attack").first
    expect(tool).to_be_visible(timeout=60_000)
    tool.get_by_label("Weapon zone").select_option(label="Thrown")
    tool.get_by_label("First tag").select_option(label="Snaring")
    tool.get_by_label("Distance to target").select_option(label="Near")
    expect(tool.get_by_text("Chance to land")).to_be_visible()
    tool.get_by_label("Distance to target").select_option(label="Engaged")
    alert = tool.get_by_role("alert").filter(has_text="Snaring on a hit")
    expect(alert).to_have_text("⚠ “Snaring on a hit” must be pin (hold them where they are) "
                               "when the target is already Engaged: there is no nearer zone "
                               "to pull them into")
    expect(tool.get_by_text("Chance to land")).to_have_count(0)     # no odds offered
    tool.screenshot(path=str(SHOTS / "tsl_snaring_refused.png"))
    tool.get_by_label("Snaring on a hit").select_option(label="pin them where they are")
    expect(alert).to_have_count(0)
    expect(tool.get_by_text("Chance to land")).to_be_visible()


def test_the_fight_pages_repair_asks_the_rarity(page: Page, book_url):
    """Vela's shot meets Mar's Catastrophic defence: Mar's armour is spent. Repair with
    Irreplaceable ticked: gone for good, no dice, the board says so and a later repair is
    refused beside the repair. Undo; Armour rarity Salvaged: the Hand roll's chance for Mar's
    Trained Hand first, then 6, 5, 1, 1, 1 (12 against T11) mends it. Undo, and the roll log's
    Replay mends it again. Undo, then Issued (the Armour rarity of Mar's roster row): mended
    with no dice."""
    page.set_viewport_size(SCREEN)
    open_chapter(page, f"{book_url}/{FIGHT}")
    panel = page.locator(".rulebook-tsl-fight").first
    expect(panel).to_be_visible(timeout=60_000)
    panel.get_by_role("button", name="Start the fight").click()
    expect(panel.locator(".rulebook-tsl-acting")).to_contain_text("Vela is acting")
    panel.get_by_label("Target", exact=True).select_option("Mar")
    panel.get_by_label("Target's armour is built for this blow").check()
    # Vela Proficient 6+6+5 ... against Mar's defence of 1s: Catastrophic, the armour spent
    use_my_dice(panel.locator(".rulebook-tsl-fight-attack"), "6, 6, 5, 4, 1, 1, 1, 1, 1, 1")
    panel.get_by_role("button", name="Apply to the target").click()
    expect(panel.locator(".rulebook-tsl-fight-board")).to_contain_text("armour spent")
    said = panel.locator(".rulebook-tsl-repair-said")
    rarity = panel.get_by_label("Armour rarity", exact=True)
    repair_dice = panel.get_by_label("Repair dice", exact=True)

    panel.get_by_label("Fighter", exact=True).select_option("Mar")
    expect(rarity).to_have_value("Issued")               # Mar's roster row, its armour
    panel.get_by_label("Armour irreplaceable", exact=True).check()
    panel.get_by_role("button", name="Repair armour").click()
    assert tsl.repair("Issued", irreplaceable=True).outcome == "lost"
    expect(said).to_have_text("Mar's armour is gone for good")
    expect(repair_dice).to_be_hidden()
    board = panel.locator(".rulebook-tsl-fight-board")
    expect(board).to_contain_text("armour lost for good")
    panel.get_by_label("Armour irreplaceable", exact=True).uncheck()
    panel.get_by_role("button", name="Repair armour").click()
    expect(panel.locator(".rulebook-tsl-repair-said")).to_have_count(0)
    expect(panel.get_by_role("alert")).to_have_text(
        "⚠ Mar's armour is lost for good: it cannot be repaired")
    board.screenshot(path=str(SHOTS / "tsl_fight_board_armour_lost.png"))
    page.get_by_role("button", name="Undo").first.click()
    expect(board).to_contain_text("armour spent")

    panel.get_by_label("Fighter", exact=True).select_option("Mar")
    rarity.select_option("Salvaged")
    panel.get_by_role("button", name="Repair armour").click()
    expect(panel.locator(".rulebook-tsl-repair-ask")).to_contain_text("Hand roll at T11")
    expect(panel.locator(".rulebook-tsl-repair-odds")).to_have_text(
        f"Chance to mend it (Trained Hand): {percent(tsl.repair_odds('Trained'))} "
        f"({tsl.repair_odds('Trained')})")
    assert tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained").value == 12
    use_my_dice(panel, "6, 5, 1, 1, 1", name="repair")
    expect(said).to_have_text("Mar's armour is repaired by a Hand roll of 12")
    expect(board).not_to_contain_text("armour spent")
    panel.evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "tsl_fight_repair_1280x900.png"), full_page=True)

    # the roll log's Replay after Undo: the same repair, the same dice, mended again
    page.get_by_role("button", name="Undo").first.click()
    expect(board).to_contain_text("armour spent")
    rarity.select_option("Issued")
    page.locator(".rulebook-roll-log").get_by_role("button", name="Replay",
                                                   exact=True).first.click()
    expect(said).to_have_text("Mar's armour is repaired by a Hand roll of 12")
    expect(rarity).to_have_value("Salvaged")
    expect(board).not_to_contain_text("armour spent")

    page.get_by_role("button", name="Undo").first.click()
    expect(panel.locator(".rulebook-tsl-fight-board")).to_contain_text("armour spent")
    panel.get_by_label("Fighter", exact=True).select_option("Mar")
    expect(rarity).to_have_value("Issued")
    panel.get_by_role("button", name="Repair armour").click()
    expect(said).to_have_text("Mar's armour is repaired with tools and downtime")
    expect(repair_dice).to_be_hidden()
    expect(panel.locator(".rulebook-tsl-fight-board")).not_to_contain_text("armour spent")


def _spend_mars_armour(panel) -> None:
    """Start the starter fight; Vela's shot meets Mar's Catastrophic defence (armour spent)."""
    panel.get_by_role("button", name="Start the fight").click()
    expect(panel.locator(".rulebook-tsl-acting")).to_contain_text("Vela is acting")
    panel.get_by_label("Target", exact=True).select_option("Mar")
    panel.get_by_label("Target's armour is built for this blow").check()
    use_my_dice(panel.locator(".rulebook-tsl-fight-attack"), "6, 6, 5, 4, 1, 1, 1, 1, 1, 1")
    panel.get_by_role("button", name="Apply to the target").click()
    expect(panel.locator(".rulebook-tsl-fight-board")).to_contain_text("armour spent")


def _fight_with_mars_armour_salvaged(page: Page, book_url: str):
    """The fight page at 1280 x 900, Mar's armour made Salvaged in the roster; its panel."""
    page.set_viewport_size(SCREEN)
    open_chapter(page, f"{book_url}/{FIGHT}")
    panel = page.locator(".rulebook-tsl-fight").first
    expect(panel).to_be_visible(timeout=60_000)
    page.get_by_role("button", name="edit", exact=True).first.click()
    page.get_by_role("button", name="Armour", exact=True).click()   # the roster's columns
    page.get_by_label("Armour rarity of Mar").select_option("Salvaged")
    return panel


def test_the_repair_starts_at_the_armours_own_rarity_and_fits_one_screen(page: Page, book_url):
    """Mar's armour is Salvaged in the roster, his weapon Issued (§11 Ammunition mends each by
    its own rarity): Repair armour asks for the Hand roll. The repair's fields, its dice, its
    result and its explanation fit one 900 px screen at desktop width, the result beside the
    fields."""
    panel = _fight_with_mars_armour_salvaged(page, book_url)
    _spend_mars_armour(panel)
    panel.get_by_label("Fighter", exact=True).select_option("Mar")
    expect(panel.get_by_label("Armour rarity", exact=True)).to_have_value("Salvaged")
    expect(panel.get_by_label("Weapon rarity", exact=True)).to_have_value("Issued")
    panel.get_by_role("button", name="Repair armour").click()
    expect(panel.locator(".rulebook-tsl-repair-ask")).to_contain_text(
        "Salvaged gear, Mar's armour. Mending it takes a Hand roll at T11: a Mixed Success or "
        "better mends it.")
    dice = panel.get_by_label("Repair dice", exact=True)
    dice.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "tsl_fight_repair_ask_1280x900.png"))
    fields_box = panel.get_by_label("Armour rarity", exact=True).bounding_box()
    assert dice.bounding_box()["x"] >= fields_box["x"] + fields_box["width"], \
        "the Hand roll's dice sit beside the repair's fields"
    assert tsl.repair("Salvaged", dice=[6, 5, 1, 1, 1], tier="Trained").value == 12
    use_my_dice(panel, "6, 5, 1, 1, 1", name="repair")
    said = panel.locator(".rulebook-tsl-repair-said")
    expect(said).to_have_text("Mar's armour is repaired by a Hand roll of 12")
    said.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "tsl_fight_repair_result_1280x900.png"))
    explained = panel.locator(".rulebook-tsl-repair-steps")
    expect(explained).to_contain_text("Mar's armour is repaired and works again")
    top = panel.get_by_label("Fighter", exact=True).bounding_box()["y"]
    for part in (said, explained, panel.get_by_role("button", name="Repair weapon")):
        box = part.bounding_box()
        assert box["y"] + box["height"] - top <= SCREEN["height"], (part, top, box)
    assert said.bounding_box()["x"] >= fields_box["x"] + fields_box["width"], \
        "the result sits beside the repair's fields"


def test_the_repair_boxes_follow_the_fighter_picked(page: Page, book_url):
    """Weapon irreplaceable ticked for Vela, then Mar picked: the box shows Mar's value
    (nothing marks his weapon irreplaceable, so unticked), and Mar's armour rarity is his own
    roster row's (Salvaged), not Vela's (Issued)."""
    panel = _fight_with_mars_armour_salvaged(page, book_url)
    panel.get_by_role("button", name="Start the fight").click()
    fighter = panel.get_by_label("Fighter", exact=True)
    expect(fighter).to_have_value("Vela")
    weapon_box = panel.get_by_label("Weapon irreplaceable", exact=True)
    armour_rarity = panel.get_by_label("Armour rarity", exact=True)
    weapon_box.check()
    expect(armour_rarity).to_have_value("Issued")
    fighter.select_option("Mar")
    expect(weapon_box).not_to_be_checked()
    expect(armour_rarity).to_have_value("Salvaged")


def test_the_fight_pages_stress_box_shows_its_number(page: Page, book_url):
    """Other moves' Stress box beside its label at 1280 px: room for the most it takes (40,
    two digits) and the number box's arrows, which Chromium draws about 15 px wide inside
    it (at 12em the box had 21 px of room, and cut even its 0 off)."""
    page.set_viewport_size(SCREEN)
    open_chapter(page, f"{book_url}/{FIGHT}")
    panel = page.locator(".rulebook-tsl-fight").first
    expect(panel).to_be_visible(timeout=60_000)
    stress = panel.get_by_label("Stress", exact=True)
    stress.scroll_into_view_if_needed()
    expect(stress).to_have_value("0")
    width, room = shows_whole(stress, "40")
    assert width + ARROWS_PX <= room, \
        f"“40” and the arrows take {width + ARROWS_PX:.0f}px of the Stress box's {room:.0f}px"
    panel.screenshot(path=str(SHOTS / "tsl_fight_stress_1280x900.png"))
