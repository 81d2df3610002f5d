"""Every worked example the range-band chapters print that has a tool beside it, done in that
tool on the served page (DESIGN.md §5): the example's inputs entered, its dice typed, and the
page's difficulty or result compared with what rulescore gives for the example's own call."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from rulescore.systems import range_bands as rb
from tests.browser.range_bands_steps import dash, pick_band, plain, typed_dice
from tests.browser.reader import open_chapter, set_value
from widgets.range_bands import (CheckHelper, DashHelper, ExtremeDuel, MoveHelper, QuickLoadHelper,
                                 ShotBuilder, StealthHelper)

COMBAT = "range_bands/combat.ipynb"
MOVEMENT = "range_bands/movement.ipynb"


def _tool(page: Page, book_url: str, chapter: str, css: str, nth: int = 0):
    open_chapter(page, f"{book_url}/{chapter}")
    tool = page.locator(css).nth(nth)
    expect(tool.locator("select >> visible=true").first).to_be_visible(timeout=60_000)
    return tool


def _shot_inputs(tool, target: str, optimal: str, cover: str) -> None:
    pick_band(tool, "Target's band", target)
    pick_band(tool, "Optimal band", optimal)
    tool.get_by_label("Target's cover").select_option(label=f"{cover} (+{rb.cover_dice(cover)}D)")


def test_shot_examples_in_the_shot_builder(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-shot")
    difficulty = tool.locator(".rulebook-difficulty")
    # "Target at far, weapon optimal at close, medium cover"
    far = rb.shot_difficulty("far", "close", "medium")
    _shot_inputs(tool, "far", "close", "medium")
    expect(difficulty).to_contain_text(f"Difficulty {far.value}D · {far.actions} actions")
    # "An aim action, then an aimed shot"
    aim = rb.shot_difficulty("close", "close", aim_action=True)
    _shot_inputs(tool, "close", "close", "none")
    tool.get_by_label("Aim action first (+2 to the roll)").check()
    expect(difficulty).to_contain_text(f"Difficulty {aim.value}D, +{aim.roll_bonus} to your roll "
                                       f"· {aim.actions} actions")
    tool.get_by_label("Aim action first (+2 to the roll)").uncheck()
    # "A shot at a rider: 4 against 7" (4D: the target in the weapon's optimal band, no cover)
    mount = rb.shot(4, [2, 2], [2, 2, 2, 1], situation="horseman")
    set_value(tool.get_by_label("Your dice (shooting skill)"), "2")
    tool.get_by_label("If it misses").select_option(label="a rider")
    expect(difficulty).to_contain_text("Difficulty 4D")
    typed_dice(tool, [2, 2, 2, 2, 2, 1])
    expect(tool.locator(".rulebook-total")).to_have_text(ShotBuilder()._headline(mount))
    # "Area fire hits (6D)": a burst weapon's area fire at its optimal band, no cover
    area = rb.shot(6, [6, 6, 6], [1, 1, 1, 1, 1, 1], area_fire=True)
    tool.get_by_label("If it misses").select_option(label="a single target in the open")
    tool.get_by_label("Weapon", exact=True).select_option(label="burst firearm")
    tool.get_by_label("Area fire (+2D)").check()
    set_value(tool.get_by_label("Your dice (shooting skill)"), "3")
    expect(difficulty).to_contain_text("Difficulty 6D")
    typed_dice(tool, [6, 6, 6, 1, 1, 1, 1, 1, 1])
    expect(tool.locator(".rulebook-total")).to_have_text(ShotBuilder()._headline(area))
    expect(tool.locator(".rulebook-hit-means")).to_contain_text("damage rules")


def test_shot_table_examples_in_the_shot_builder(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-shot")
    difficulty = tool.locator(".rulebook-difficulty")
    # "Shooting difficulties": extreme range with a weapon optimal at very far, then at far
    for optimal in ("very_far", "far"):
        made = rb.shot_difficulty("extreme", optimal)
        _shot_inputs(tool, "extreme", optimal, "none")
        expect(difficulty).to_contain_text(f"Difficulty {made.value}D")
    # the nearest of two optimal bands counts
    two = rb.shot_difficulty("very_far", ["very_close", "far"])
    _shot_inputs(tool, "very_far", "very_close", "none")
    tool.get_by_label("Second optimal band").select_option(
        label=f"{rb.band('far').name} ({rb.band('far').metres})")
    expect(difficulty).to_contain_text(f"Difficulty {two.value}D")
    # a target in close contact: 3D, cover ignored
    contact = rb.shot_difficulty("close_contact", "far", "heavy")
    tool.get_by_label("Second optimal band").select_option(label="none")
    _shot_inputs(tool, "close_contact", "far", "heavy")
    expect(difficulty).to_contain_text(f"Difficulty {contact.value}D")


def test_quick_loading_example_in_its_tool(page: Page, book_url):
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-quickload")
    fast = rb.quick_load("crossbow", 3, [5, 5, 4], [3, 3, 3, 3])
    tool.get_by_label("Weapon").select_option(label="crossbow (Crossbows, Vigor)")
    set_value(tool.get_by_label("Normal reload (actions)"), "3")
    set_value(tool.get_by_label("Your dice (the loading skill)"), "3")
    typed_dice(tool, [5, 5, 4, 3, 3, 3, 3])
    expect(tool.locator(".rulebook-total")).to_have_text(QuickLoadHelper()._headline(fast))


def test_movement_examples_in_the_dash_helpers(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-dash")
    helper = DashHelper()
    # "A critical failure on very hard ground"
    fall = rb.dash("distant", "closer", "very_hard", [1, 1], [6, 6, 6, 6, 6])
    dash(tool, "dash", "distant", "very_hard", 2, [1, 1, 6, 6, 6, 6, 6])
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(fall))
    # "A failed dash over difficult ground"
    slow = rb.dash("distant", "closer", "difficult", [2, 3], [3, 3, 3])
    dash(tool, "dash", "distant", "difficult", 2, [2, 3, 3, 3, 3])
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(slow))
    # "Climbing a jagged cliff (4D)", in the crossing tool lower on the page
    cliff = rb.cross_impassable("close", "closer", "hard", [6, 6, 2], [3, 3, 3, 3])
    crossing = page.locator(".rulebook-range-dash").nth(1)
    dash(crossing, "impassable", "close", "hard", 3, [6, 6, 2, 3, 3, 3, 3])
    expect(crossing.locator(".rulebook-total")).to_have_text(helper._headline(cliff))


def test_stealth_examples_in_the_stealth_helper(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-stealth")
    helper = StealthHelper()
    first = rb.stealth([4, 4], [3, 3, 1], "light", cover_dice=[1])
    second = rb.stealth([5, 2], [3, 3, 1], "light", cover_dice=[2], streak=first.streak)
    set_value(tool.get_by_label("Hider's Stealth dice"), "2")
    set_value(tool.get_by_label("Observer's Perception dice"), "3")
    tool.get_by_label("Hider's cover").select_option(label="light (+1 die)")
    typed_dice(tool, [4, 4, 1, 3, 3, 1])          # Stealth, cover, Perception
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(first))
    expect(tool.get_by_label("Successes in a row so far")).to_have_value(str(first.streak))
    typed_dice(tool, [5, 2, 2, 3, 3, 1])
    expect(tool.locator(".rulebook-total")).to_have_text(helper._headline(second))


def test_extreme_range_duel_in_its_tool(page: Page, book_url):
    open_chapter(page, f"{book_url}/{COMBAT}")
    tool = page.locator(".rulebook-range-extreme")
    expect(tool.get_by_label("First side's dice")).to_be_visible(timeout=60_000)
    # "Two snipers: first side 12, second side 9"
    duel = rb.extreme_engagement([5, 4, 3], [6, 2, 1])
    set_value(tool.get_by_label("First side's dice"), "3")
    set_value(tool.get_by_label("Second side's dice"), "3")
    typed_dice(tool, [5, 4, 3, 6, 2, 1])
    expect(tool.locator(".rulebook-total")).to_have_text(ExtremeDuel()._headline(duel))
    expect(tool.locator(".rulebook-total")).to_have_text("The first side shoots: 12 against 9")
    set_value(tool.get_by_label("Second side's dice"), "0")
    expect(tool.locator(".rulebook-error").first).to_have_text(
        "⚠ “Second side's dice” must be from 1 to 30, got 0")


def test_cover_example_in_its_tool(page: Page, book_url):
    open_chapter(page, f"{book_url}/{COMBAT}")
    tool = page.locator(".rulebook-range-cover")
    expect(tool).to_be_visible(timeout=60_000)
    # "Heavy cover, but the target dashes"
    assert rb.cover_modifier("heavy", movement="dash").value == 0
    tool.get_by_label("Target's cover").select_option(label="heavy (+3D)")
    tool.get_by_label("Target this turn").select_option(label="dashes")
    expect(tool.locator(".rulebook-total")).to_have_text("Cover adds nothing to the shot (+0D)")
    expect(tool).to_contain_text("dashing and loses the benefit of cover")
    tool.get_by_label("Target this turn").select_option(label="takes one move")
    expect(tool.locator(".rulebook-total")).to_have_text(
        f"Cover adds +{rb.cover_modifier('heavy', movement='move').value}D to the shot")
    tool.get_by_label("Target's cover").select_option(label="medium (+2D)")
    tool.get_by_label("In close contact with the shooter").check()
    expect(tool.locator(".rulebook-total")).to_have_text("Cover adds nothing to the shot (+0D)")
    set_value(tool.get_by_label("Bands of heavy cover in between"), "1")
    expect(tool.locator(".rulebook-sight")).to_have_text("The shooter can see the target")
    set_value(tool.get_by_label("Bands of heavy cover in between"), "2")
    expect(tool.locator(".rulebook-sight")).to_contain_text("no line of sight")


def test_distance_and_move_examples_in_their_tools(page: Page, book_url):
    open_chapter(page, f"{book_url}/{MOVEMENT}")
    finder, mover = page.locator(".rulebook-range-distance"), page.locator(".rulebook-range-move")
    expect(finder).to_be_visible(timeout=60_000)
    # "75 m falls in the band: Distant"; an edge belongs to the nearer band
    for metres in (75, 30, 31, 200):
        band = rb.band(rb.band_for_distance(metres))
        set_value(finder.get_by_label("Distance (metres)"), str(metres))
        expect(finder.locator(".rulebook-total")).to_have_text(
            f"{metres} m is {band.name.lower()} ({band.metres})")
    finder.get_by_label("A distance on an edge is in").select_option(label="the farther band")
    set_value(finder.get_by_label("Distance (metres)"), "30")
    expect(finder.locator(".rulebook-total")).to_contain_text("30 m is close")
    # "One move from distant, closer" and "One move from very close, toward the enemy"
    for start in ("distant", "very_close"):
        b = rb.band(start)
        mover.get_by_label("Starting band").select_option(label=f"{b.name} ({b.metres})")
        mover.get_by_label("Direction").select_option(label="closer")
        expect(mover.locator(".rulebook-total")).to_have_text(
            MoveHelper.headline(rb.move(start, "closer")))
    expect(mover.locator(".rulebook-total")).to_contain_text("now at close contact (1 action)")


def test_check_examples_in_the_check_tool(page: Page, book_url):
    tool = _tool(page, book_url, MOVEMENT, ".rulebook-range-check")
    headline = tool.locator(".rulebook-headline").first
    # "Four dice against 4D (the GM rolls 4D)", then "against a fixed 14 (the alternative)"
    set_value(tool.get_by_label("Your dice"), "4")
    set_value(tool.get_by_label("Difficulty (dice)"), "4")
    expect(headline).to_contain_text(f"Chance of success: {plain(rb.check_odds(4, 4).success)}")
    typed_dice(tool, [6, 5, 4, 3, 2, 2, 2, 2])
    expect(tool.locator(".rulebook-total")).to_have_text(
        CheckHelper()._headline(rb.check([6, 5, 4, 3], 4, [2, 2, 2, 2])))
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    fixed = rb.check_odds(4, 4, nd_rule="average").success
    expect(headline).to_contain_text(f"Chance of success: {plain(fixed)}")
    typed_dice(tool, [6, 5, 4, 3])
    expect(tool.locator(".rulebook-total")).to_have_text(
        CheckHelper()._headline(rb.check([6, 5, 4, 3], 4, nd_rule="average")))


def test_melee_reach_example_in_its_tool(page: Page, book_url):
    open_chapter(page, f"{book_url}/{COMBAT}")
    tool = page.locator(".rulebook-range-reach")
    expect(tool).to_be_visible(timeout=60_000)
    # "Can a spear, a long weapon, reach a foe at very close range? Yes."
    assert rb.melee_reach("very_close", long_weapon=True)
    tool.get_by_label("Target's band").select_option(
        label=f"{rb.band('very_close').name} ({rb.band('very_close').metres})")
    tool.get_by_label("A long weapon (a spear, a pike)").check()
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Yes: a long weapon reaches a target at very close")
    tool.get_by_label("A long weapon (a spear, a pike)").uncheck()
    expect(tool.locator(".rulebook-total")).to_contain_text("No: a hand weapon does not reach")


def test_shot_builder_fits_one_screen_with_its_result(page: Page, book_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    tool = _tool(page, book_url, COMBAT, ".rulebook-range-shot")
    typed_dice(tool, [6, 5, 4, 3, 1, 1, 1, 1, 1, 2])
    expect(tool.locator(".rulebook-total")).to_be_visible()
    top = tool.bounding_box()["y"]
    result = tool.locator(".rulebook-total").bounding_box()
    inputs = tool.get_by_label("Critical at a margin of ±").bounding_box()
    assert result["y"] + result["height"] - top <= 900, (top, result)
    assert inputs["y"] + inputs["height"] - top <= 900, (top, inputs)
