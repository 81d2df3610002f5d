"""The served range-band chapters, used as a reader would: build a shot, roll, replay, type dice."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import range_bands as rb
from rulescore.text import odds

CHAPTER = "range_bands/combat.ipynb"


def _open(page: Page, book_url: str, css: str, first_label: str):
    page.goto(f"{book_url}/{CHAPTER}")
    tool = page.locator(css).first
    expect(tool.get_by_label(first_label)).to_be_visible(timeout=60_000)
    return tool


def _set(field, text: str) -> None:
    field.fill(text)
    field.press("Enter")


def test_shot_builder_difficulty_picture_and_odds(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    expect(tool.locator(".rulebook-difficulty")).to_contain_text("Difficulty 6D · 2 actions")
    tool.get_by_label("Target's band").select_option(label="Far (91–120 m)")
    tool.get_by_label("Target's cover").select_option(label="heavy (+3D)")
    expect(tool.locator(".rulebook-difficulty")).to_contain_text("Difficulty 9D")
    picture = tool.get_by_role("img", name=re.compile("target at far"))
    expect(picture).to_contain_text("heavy cover +3D")
    expect(tool).to_contain_text(f"Chance to hit: {odds(rb.check_odds(4, 9).success)}")
    tool.get_by_label("Snapshot (+1D, one action)").check()
    expect(tool.locator(".rulebook-difficulty")).to_contain_text("Difficulty 10D · 1 action")
    tool.get_by_label("Target this turn").select_option(label="dashes")
    expect(tool.locator(".rulebook-difficulty")).to_contain_text("Difficulty 7D")
    expect(picture).to_contain_text("heavy cover (no effect)")


def test_shot_roll_with_seed_and_replay(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.locator(".rulebook-total")).to_be_visible()
    seed = tool.get_by_label("Seed", exact=True).input_value()
    assert seed.isdigit(), repr(seed)
    expect(tool.locator(".rulebook-trace").last).to_contain_text(f"with seed {seed}")
    first = tool.locator(".rulebook-total").inner_text()
    steps = tool.locator(".rulebook-trace").last.inner_text()
    groups = rb.roll_groups({"skill_dice": 4, "difficulty_dice": 6}, seed=int(seed)).groups
    expected = rb.shot(6, groups["skill_dice"], groups["difficulty_dice"])
    assert (f"by {expected.margin}" if expected.hit else f"Missed by {-expected.margin}") in first

    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.locator(".rulebook-trace").last).not_to_contain_text(f"seed {seed} ")
    tool.get_by_label("Seed", exact=True).fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(tool.locator(".rulebook-trace").last).to_contain_text(f"with seed {seed}")
    assert tool.locator(".rulebook-total").inner_text() == first
    assert tool.locator(".rulebook-trace").last.inner_text() == steps


def test_shot_my_dice_and_errors(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    _set(tool.get_by_label("Your dice (shooting skill)"), "2")
    expect(tool).to_contain_text("Roll 8 six-sided dice: 2 for your dice, then 6 for the "
                                 "difficulty's dice")
    tool.get_by_label("My dice").fill("6, 6, 1, 1, 1, 1, 1, 1")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("Critical hit by 6")
    expect(tool.locator(".rulebook-trace").last).to_contain_text("The 6D difficulty is rolled: "
                                                                 "1, 1, 1, 1, 1, 1 = 6")
    tool.get_by_label("My dice").fill("1, 2")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.get_by_role("alert")).to_contain_text(
        "dice: type 8 d6 (2 for the character, then 6 for the difficulty), got 2")
    _set(tool.get_by_label("Your dice (shooting skill)"), "0")
    expect(tool.get_by_role("alert").first).to_contain_text("skill_pool must be from 1 to 30, got 0")
    _set(tool.get_by_label("Your dice (shooting skill)"), "3")
    expect(tool.get_by_role("alert")).to_have_count(0)


def test_dash_helper_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-dash", "Starting band")
    expect(tool).to_contain_text(
        f"Chance of the full move: {odds(rb.terrain_odds('dash', 'hard', 4).outcomes['full move'])}")
    _set(tool.get_by_label("Your dice (Acrobatics, Athletics or Swimming)"), "2")
    tool.get_by_label("My dice").fill("5, 5, 3, 3, 3, 3")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("Moved 1 band: now at close (2 actions)")
    expect(tool.locator(".rulebook-trace")).to_contain_text("10 falls short of 12: margin -2")


def test_quick_loading_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-quickload", "Normal reload (actions)")
    tool.get_by_label("My dice").fill("4, 4, 3, 3, 3, 3, 3, 3")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("Loaded in 2 actions (success)")
    _set(tool.get_by_label("Normal reload (actions)"), "soon")
    expect(tool.get_by_role("alert")).to_contain_text(
        "Normal reload must be a whole number, got 'soon'")


def test_stealth_streak_carries_over(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-stealth", "Hider's Stealth dice")
    tool.get_by_label("My dice").fill("4, 4, 4, 2, 3, 3, 3")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("Hidden (1 in a row)")
    expect(tool.get_by_label("Successes in a row so far")).to_have_value("1")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("the observer is unaware")


def test_rulings_page_lists_the_nd_assumption(page: Page, book_url):
    page.goto(f"{book_url}/range_bands/rulings.ipynb")
    expect(page.get_by_role("heading", name=re.compile("How a check written in dice")))\
        .to_be_visible(timeout=60_000)
    expect(page.locator(".rulebook-assumption#nd_check")).to_contain_text("nd_rule")


def test_range_band_pages_need_no_other_host(page: Page, book_url, external_requests):
    for path in (CHAPTER, "range_bands/rulings.ipynb"):
        page.goto(f"{book_url}/{path}")
        expect(page.locator(".widget-html").first).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
    assert external_requests == []
