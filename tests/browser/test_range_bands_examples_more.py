"""The range-band chapters' worked examples that test_range_bands_worked_examples.py leaves out,
each entered into the tool on its own page as a reader would (by the fields' labels), the page's
result compared with what rulescore gives for the example's own call (DESIGN.md §5); and
every check tool of the chapters fitting its inputs and its result in one 900 px screen at
desktop width."""

from __future__ import annotations

from fractions import Fraction

import pytest
from playwright.sync_api import Locator, Page, expect

from rulescore.assumptions import assumption
from rulescore.dice import DiceSource
from rulescore.systems import range_bands as rb
from tests.browser.range_bands_steps import dash, fall_dice, pick_band, plain, typed_dice
from tests.browser.reader import SHOTS, controls, open_chapter, set_value
from widgets.range_bands import DashHelper, QuickLoadHelper, ShotBuilder, StealthHelper
from widgets.range_bands_fight import starter

COMBAT = "range_bands/combat.ipynb"
MOVEMENT = "range_bands/movement.ipynb"
RULINGS = "range_bands/rulings.ipynb"


def _tool(page: Page, book_url: str, chapter: str, css: str, nth: int = 0) -> Locator:
    open_chapter(page, f"{book_url}/{chapter}")
    tool = page.locator(css).nth(nth)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def _difficulty(made: rb.ShotDifficulty) -> str:
    """The shot builder's difficulty line for *made*."""
    bonus = f", {made.roll_bonus:+d} to your roll" if made.roll_bonus else ""
    return f"Difficulty {made.value}D{bonus} · {made.actions} action" + \
        ("s" if made.actions > 1 else "")


# -- cover and shooting -------------------------------------------------------------------------

def test_snapshot_called_shot_aiming_and_area_difficulties(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-shot")
    difficulty = tool.locator(".rulebook-difficulty")
    pick_band(tool, "Target's band", "close")
    pick_band(tool, "Optimal band", "close")
    tool.get_by_label("Target's cover").select_option(label="none (+0D)")
    # rb.shot_difficulty("close", "close", snapshot=True): 5D in one action
    tool.get_by_label("Snapshot (+1D, one action)").check()
    expect(difficulty).to_contain_text(
        _difficulty(rb.shot_difficulty("close", "close", snapshot=True)))
    expect(difficulty).to_contain_text("Difficulty 5D · 1 action")
    tool.get_by_label("Snapshot (+1D, one action)").uncheck()
    # rb.shot_difficulty("close", "close", called_shot=True): 6D
    tool.get_by_label("Called shot (+2D)").check()
    expect(difficulty).to_contain_text(
        _difficulty(rb.shot_difficulty("close", "close", called_shot=True)))
    expect(difficulty).to_contain_text("Difficulty 6D")
    tool.get_by_label("Called shot (+2D)").uncheck()
    # three rounds of aiming: a crossbow gains 1D, a bow nothing
    set_value(tool.get_by_label("Rounds spent aiming"), "3")
    for weapon, shown in (("crossbow", "3D"), ("bow", "4D")):
        tool.get_by_label("Weapon", exact=True).select_option(label=weapon)
        made = rb.shot_difficulty("close", "close", aim_rounds=3, weapon=weapon)
        expect(difficulty).to_contain_text(_difficulty(made))
        expect(difficulty).to_contain_text(f"Difficulty {shown}")
    set_value(tool.get_by_label("Rounds spent aiming"), "0")
    # area fire of a burst weapon at distant, optimal distant, light cover: 7D
    pick_band(tool, "Target's band", "distant")
    pick_band(tool, "Optimal band", "distant")
    tool.get_by_label("Target's cover").select_option(label="light (+1D)")
    tool.get_by_label("Weapon", exact=True).select_option(label="burst firearm")
    tool.get_by_label("Area fire (+2D)").check()
    area = rb.shot_difficulty("distant", "distant", "light", area_fire=True, weapon="burst")
    expect(difficulty).to_contain_text(_difficulty(area))
    expect(difficulty).to_contain_text("Difficulty 7D")


def test_a_miss_into_a_crowd_by_six_and_by_seven(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-shot")
    pick_band(tool, "Target's band", "close")
    pick_band(tool, "Optimal band", "close")
    tool.get_by_label("Target's cover").select_option(label="none (+0D)")
    tool.get_by_label("If it misses").select_option(label="into a crowd or wrestling match")
    set_value(tool.get_by_label("Your dice (shooting skill)"), "1")
    expect(tool.locator(".rulebook-difficulty")).to_contain_text("Difficulty 4D")
    builder = ShotBuilder()
    # a miss by six hits someone in the crowd (rb.miss_effect(-6, "crowd").applies) ...
    assert rb.miss_effect(-6, "crowd").applies
    by_six = rb.shot(4, [1], [2, 2, 2, 1], situation="crowd")
    typed_dice(tool, [1, 2, 2, 2, 1])
    expect(tool.locator(".rulebook-total")).to_have_text(builder._headline(by_six))
    expect(tool.locator(".rulebook-total")).to_have_text(
        f"Missed by 6: {rb.miss_effect(-6, 'crowd').outcome}")
    # ... a miss by seven is a plain miss
    assert not rb.miss_effect(-7, "crowd").applies
    by_seven = rb.shot(4, [1], [2, 2, 2, 2], situation="crowd")
    typed_dice(tool, [1, 2, 2, 2, 2])
    expect(tool.locator(".rulebook-total")).to_have_text(builder._headline(by_seven))
    expect(tool.locator(".rulebook-total")).to_have_text("Missed by 7: a plain miss")


def test_a_fumbled_quick_load_in_its_tool(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-quickload")
    # rb.quick_load("firearm", 4, [1, 1], [5, 5, 5, 5]): foiled, a Reliability failure
    foiled = rb.quick_load("firearm", 4, [1, 1], [5, 5, 5, 5])
    tool.get_by_label("Weapon").select_option(label="firearm (Firearms, Agility)")
    set_value(tool.get_by_label("Normal reload (actions)"), "4")
    set_value(tool.get_by_label("Your dice (the loading skill)"), "2")
    typed_dice(tool, [1, 1, 5, 5, 5, 5])
    expect(tool.locator(".rulebook-total")).to_have_text(QuickLoadHelper()._headline(foiled))
    expect(tool.locator(".rulebook-total")).to_contain_text("Not loaded")
    expect(tool.locator(".rulebook-total")).to_contain_text("Reliability failure")


def test_a_hand_weapon_reaches_close_contact(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-reach")
    # rb.melee_reach("close_contact") and not rb.melee_reach("very_close")
    tool.get_by_label("A long weapon (a spear, a pike)").uncheck()
    pick_band(tool, "Target's band", "close_contact")
    assert rb.melee_reach("close_contact")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Yes: a hand weapon reaches a target in close contact")
    pick_band(tool, "Target's band", "very_close")
    assert not rb.melee_reach("very_close")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "No: a hand weapon does not reach a target at very close")


# -- the map, moving and hiding -----------------------------------------------------------------

def test_fall_damage_on_difficult_and_hard_ground(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-dash")
    helper = DashHelper()
    # rb.dash("distant", "closer", "difficult", [1], [6, 6, 6]).damage_dice == 2
    fall = rb.dash("distant", "closer", "difficult", [1], [6, 6, 6])
    dash(tool, "dash", "distant", "difficult", 1, [1, 6, 6, 6])
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(fall))
    expect(tool.locator(".rulebook-total")).to_contain_text(f"prone, {fall.damage_dice}D damage")
    # rb.dash("distant", "closer", "hard", [1], [6, 6, 6, 6]).damage_dice == 2
    fall = rb.dash("distant", "closer", "hard", [1], [6, 6, 6, 6])
    dash(tool, "dash", "distant", "hard", 1, [1, 6, 6, 6, 6])
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(fall))
    expect(tool.locator(".rulebook-total")).to_contain_text("prone, 2D damage")
    # the fall's damage in the same tool, as the fight page rolls it: the exact odds of 2D
    # first (rb.fall_damage_odds(2): 7 comes 1 time in 6), then the dice typed
    assert rb.fall_damage_odds(2).p(7) == Fraction(1, 6)
    expect(tool.get_by_text("The fall's damage: 2D")).to_be_visible()
    expect(tool.locator("table.rulebook-odds").last).to_contain_text("16.67%")
    assert rb.fall_damage(2, dice=DiceSource.typed([3, 4])).outcome == "7 damage"
    # the fall's entry is named apart from the check's, and its note names the ruling
    fall = [c for c in controls(tool) if "fall" in c[1].lower()]
    assert fall == [("button", "Roll the fall"), ("textbox", "Fall seed"),
                    ("button", "Replay the fall's seed"), ("textbox", "Fall dice"),
                    ("button", "Use the fall dice")]
    ruling = assumption("range_bands", "fall_damage")
    note = tool.locator(".rulebook-fall-note")
    expect(note).to_contain_text("Roll 2 six-sided dice and add them (2 to 12).")
    expect(note.get_by_role("link", name=ruling.title)).to_have_attribute(
        "href", "rulings.ipynb#fall_damage")
    expect(note).not_to_contain_text("fall_damage")
    fall_dice(tool, [3, 4])
    expect(tool.locator(".rulebook-range-fall")).to_have_text("7 damage")
    tool.get_by_text("The fall's damage: 2D").evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "range_dash_fall_1280x900.png"), full_page=False)


def test_crawling_through_wire_keeps_cover(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-dash", nth=1)
    expect(tool.get_by_label("Movement", exact=True)).to_have_value(
        "Cross impassable terrain")
    # rb.cross_impassable("close", "closer", "hard", [6, 6, 2], [3, 3, 3, 3],
    #                     terrain_gives_cover=True).keeps_cover
    wire = rb.cross_impassable("close", "closer", "hard", [6, 6, 2], [3, 3, 3, 3],
                               terrain_gives_cover=True)
    assert wire.keeps_cover
    tool.get_by_label("The impassable terrain gives cover").check()
    dash(tool, "impassable", "close", "hard", 3, [6, 6, 2, 3, 3, 3, 3])
    expect(tool.locator(".rulebook-total")).to_have_text(DashHelper()._headline(wire))
    cover = next(s.text for s in wire.trace if s.text.startswith("Cover:"))
    expect(tool.get_by_role("listitem").filter(has_text="Cover:")).to_contain_text(cover)
    # the cliff beside it leaves the climber in the open
    tool.get_by_label("The impassable terrain gives cover").uncheck()
    typed_dice(tool, [6, 6, 2, 3, 3, 3, 3])
    expect(tool.get_by_role("listitem").filter(has_text="Cover:")).to_contain_text(
        "the terrain leaves the character exposed")


def test_who_can_be_targeted(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-target")
    hidden, area = tool.get_by_label("The target is hidden"), tool.get_by_label(
        "The attack is area fire")
    # not rb.can_target(hidden=True)
    expect(hidden).to_be_checked()
    expect(area).not_to_be_checked()
    assert not rb.can_target(hidden=True)
    expect(tool.locator(".rulebook-total")).to_have_text(
        "No: a hidden character can only be targeted by area fire")
    # rb.can_target(hidden=True, area_fire=True)
    area.check()
    assert rb.can_target(hidden=True, area_fire=True)
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Yes: area fire reaches a hidden character")
    area.uncheck()
    hidden.uncheck()
    expect(tool.locator(".rulebook-total")).to_have_text("Yes: the target is not hidden")


def test_no_stealth_check_while_crossing_impassable_terrain(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-stealth")
    # rb.stealth([], [], "light", movement="impassable"): no check, not hidden
    seen = rb.stealth([], [], "light", movement="impassable")
    tool.get_by_label("Hider's cover").select_option(label="light (+1 die)")
    tool.get_by_label("Hider this turn").select_option(label="crosses impassable terrain")
    expect(tool.get_by_text("No dice are needed: press Roll to see the result.")).to_be_visible()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.locator(".rulebook-total")).to_have_text(StealthHelper()._headline(seen))
    expect(tool.locator(".rulebook-trace").last).to_contain_text("no check, not hidden")


def test_one_die_against_1d_and_the_fixed_14(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-check")
    headline = tool.locator(".rulebook-headline").first
    # "one die against 1D succeeds 7 times in 12": rb.check_odds(1, 1).success
    set_value(tool.get_by_label("Your dice"), "1")
    set_value(tool.get_by_label("Difficulty (dice)"), "1")
    expect(headline).to_contain_text(f"Chance of success: {plain(rb.check_odds(1, 1).success)}")
    expect(headline).to_contain_text("58.33% (7/12)")
    # "4D is 14": rb.fixed_target(4), read in the steps of a roll under the alternative
    set_value(tool.get_by_label("Your dice"), "4")
    set_value(tool.get_by_label("Difficulty (dice)"), "4")
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    typed_dice(tool, [6, 5, 4, 3])
    expect(tool.locator(".rulebook-trace").last).to_contain_text(
        f"rounded up: {rb.fixed_target(4)}")


def test_the_rulings_chapter_two_readings_in_its_tool(page: Page, book_url):
    tool = _tool(page, book_url, RULINGS, ".rulebook-range-check")
    headline = tool.locator(".rulebook-headline").first
    # "Our ruling: the GM rolls 4D" and "The alternative: a fixed 14"
    ours, other = rb.check_odds(4, 4), rb.check_odds(4, 4, nd_rule="average")
    expect(headline).to_contain_text(f"Chance of success: {plain(ours.success)}")
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    expect(headline).to_contain_text(f"Chance of success: {plain(other.success)}")
    assert ours.success != other.success


# -- one screen at desktop width ----------------------------------------------------------------

LAST_INPUT = "Critical at a margin of ±"
FITS = [(MOVEMENT, ".rulebook-range-check", 0, LAST_INPUT),
        (MOVEMENT, ".rulebook-range-stealth", 0, "Successes in a row so far"),
        (MOVEMENT, ".rulebook-range-dash", 0, LAST_INPUT),
        (MOVEMENT, ".rulebook-range-dash", 1, LAST_INPUT),
        (COMBAT, ".rulebook-range-extreme", 0, "Second side's bonus"),
        (COMBAT, ".rulebook-range-quickload", 0, LAST_INPUT),
        (COMBAT, ".rulebook-range-shot", 0, LAST_INPUT)]


@pytest.mark.parametrize(("chapter", "css", "nth", "last"), FITS,
                         ids=[f"{css[16:]}-{nth}" for _, css, nth, _ in FITS])
def test_each_check_tool_fits_one_screen_with_its_result(page: Page, book_url, chapter, css,
                                                         nth, last):
    page.set_viewport_size({"width": 1280, "height": 900})
    tool = _tool(page, book_url, chapter, css, nth)
    tool.get_by_role("button", name="Roll", exact=True).click()
    result = tool.locator(".rulebook-total")
    expect(result).to_be_visible()
    top = tool.bounding_box()["y"]
    for part in (tool.get_by_label(last, exact=True), result):
        box = part.bounding_box()
        assert box["y"] + box["height"] - top <= 900, (css, nth, top, box)
    tool.evaluate("e => e.scrollIntoView()")           # the screen a reader sees at the tool
    page.screenshot(path=str(SHOTS / f"range_{css[16:]}_{nth}_1280x900.png"))


def test_each_fight_panel_fits_one_screen_after_a_shot(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/range_bands/fight.ipynb")
    shot = page.locator(".rulebook-rb-fight-shot").first
    expect(shot.get_by_label("Target", exact=True)).to_be_visible(timeout=60_000)
    shot.get_by_label("Target", exact=True).select_option("Raider 2")
    typed_dice(shot, [5, 4, 3, 2, 1, 3, 3, 2, 4])
    expect(shot.locator(".rulebook-rb-fight-result")).to_be_visible()
    for css in (".rulebook-rb-fight-positions", ".rulebook-rb-fight-shot",
                ".rulebook-rb-fight-move"):
        height = page.locator(css).first.bounding_box()["height"]
        assert height <= 900, f"{css} is {height:.0f}px tall"
    shot.evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "range_fight_shot_1280x900.png"))


def test_a_fall_on_the_fight_page_is_rolled_in_its_own_named_entry(page: Page, book_url):
    """§Dashing on the fight page: the raider's dash over very hard (5D) ground fails
    critically, a 3D fall; under Where everyone stands the fall has its own entry, named for
    it, and a note naming the ruling; its dice typed there are written on the raider's row."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/range_bands/fight.ipynb")
    move = page.locator(".rulebook-rb-fight-move").first
    expect(move.get_by_label("Who", exact=True)).to_be_visible(timeout=60_000)
    move.get_by_label("Who", exact=True).select_option(label="Raider")
    move.get_by_label("Toward or away from", exact=True).select_option(label="Mara")
    move.get_by_label("Action", exact=True).select_option(label="Dash (two actions, two bands)")
    very_hard = next(t for t in rb.terrains("dash") if t.terrain == "very_hard")
    move.get_by_label("Terrain", exact=True).select_option(
        label=f"{very_hard.name}: {very_hard.difficulty}D")
    # the raider's Athletics dice (the roster's default), then the difficulty's five
    skill = starter().fighter("Raider")["athletics"]
    dice = [1] * skill + [6] * 5
    dashed = rb.dash("distant", "closer", "very_hard", dice[:skill], dice[skill:])
    assert dashed.damage_dice == 3
    typed_dice(move, dice, name="move")
    expect(move).to_contain_text("falls prone, 3D damage")
    where = page.locator(".rulebook-rb-fight-positions").first
    where.get_by_label("Fighter", exact=True).select_option(label="Raider")
    ruling = assumption("range_bands", "fall_damage")
    note = where.locator(".rulebook-fall-note")
    expect(note).to_contain_text("Raider's 3D fall. Roll 3 six-sided dice and add them (3 to 18).")
    expect(note.get_by_role("link", name=ruling.title)).to_be_visible()
    expect(note).not_to_contain_text("fall_damage")
    # the fall's entry by its names, apart from the move panel's (Roll the move / Move dice)
    expect(where.get_by_role("button", name="Roll the fall", exact=True)).to_be_visible()
    expect(where.get_by_role("button", name="Roll", exact=True)).to_have_count(0)
    note.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(SHOTS / "range_fight_fall_entry_1280x900.png"))
    fall_dice(where, [2, 3])                       # one die short: said in its own words
    expect(where.get_by_role("alert")).to_have_text(
        "⚠ “Fall dice”: type 3 d6 (3 for the damage), got 2")
    assert rb.fall_damage(3, dice=DiceSource.typed([2, 3, 4])).value == 9
    fall_dice(where, [2, 3, 4])
    expect(where.locator("tr[data-fighter='Raider'] .falls")).to_have_text(
        rb.Fall(3, 9).words())
    where.evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "range_fight_fall_1280x900.png"))


# -- every choice of a menu readable at desktop width ------------------------------------------

# Each shown menu's options whose text is wider than the room the menu gives it (its inner
# width less its padding, where the arrow sits), measured in the menu's own font: a menu
# shows its choice cut off ("Dash (two actions, t…") exactly when this finds it.
CLIPPED_JS = """root => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const sel of root.querySelectorAll('select')) {
    if (!sel.offsetParent || sel.multiple) continue;
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const label = (sel.labels && sel.labels[0] && sel.labels[0].textContent) || sel.title;
    for (const o of sel.options) {
      const need = ctx.measureText(o.text).width;
      if (need > room + 0.5) out.push(`${label}: "${o.text}" needs ${Math.ceil(need)}px, `
                                      + `has ${Math.floor(room)}px`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("chapter", [MOVEMENT, COMBAT, RULINGS, "range_bands/fight.ipynb"])
def test_no_menu_choice_is_cut_off_at_desktop_width(page: Page, book_url, chapter):
    """Every option of every range-band menu shown at 1280 px wide is readable whole in its
    menu, the chosen one and the others alike (a long choice is short, its detail beside)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_chapter(page, f"{book_url}/{chapter}")
    if chapter.endswith("fight.ipynb"):         # the fight page opens with its panels folded
        for summary in page.locator("details:not([open]) > summary").all():
            if summary.is_visible():
                summary.click()
    dash = page.locator(".rulebook-range-dash")
    for i in range(dash.count()):              # both kinds of movement, each with its terrains
        for kind in ("Dash", "Cross impassable terrain"):
            dash.nth(i).get_by_label("Movement", exact=True).select_option(label=kind)
            assert page.locator("body").evaluate(CLIPPED_JS) == [], (chapter, i, kind)
    assert page.locator("body").evaluate(CLIPPED_JS) == [], chapter
