"""The served range-band chapters, used as a reader would: build a shot, roll, replay, type dice."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import range_bands as rb
from tests.browser.range_bands_steps import odds
from tests.browser.reader import (ROLL_INPUTS, controls, open_chapter, roll_and_replay, set_value,
                                  use_my_dice)


CHAPTER = "range_bands/combat.ipynb"          # cover and shooting
MOVEMENT = "range_bands/movement.ipynb"       # the map, moving and hiding
CHAPTER_OF = {".rulebook-range-shot": CHAPTER, ".rulebook-range-quickload": CHAPTER,
              ".rulebook-range-dash": MOVEMENT, ".rulebook-range-stealth": MOVEMENT}


def _open(page: Page, book_url: str, css: str, first_label: str):
    open_chapter(page, f"{book_url}/{CHAPTER_OF[css]}")
    tool = page.locator(css).first
    expect(tool.get_by_label(first_label)).to_be_visible(timeout=60_000)
    return tool


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
    set_value(tool.get_by_label("Your dice (shooting skill)"), "2")
    expect(tool).to_contain_text("Roll 8 six-sided dice: 2 for your dice, then 6 for the "
                                 "difficulty's dice")
    use_my_dice(tool, "6, 6, 1, 1, 1, 1, 1, 1")
    expect(tool.locator(".rulebook-total")).to_contain_text("Critical hit by 6")
    expect(tool.locator(".rulebook-trace").last).to_contain_text("The 6D difficulty is rolled: "
                                                                 "1, 1, 1, 1, 1, 1 = 6")
    use_my_dice(tool, "1, 2")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“My dice”: type 8 d6 (2 for the character, then 6 for the difficulty), got 2")
    set_value(tool.get_by_label("Your dice (shooting skill)"), "0")
    expect(tool.get_by_role("alert").first).to_contain_text("“Your dice (shooting skill)” must be from 1 to 30, got 0")
    set_value(tool.get_by_label("Your dice (shooting skill)"), "3")
    expect(tool.get_by_role("alert")).to_have_count(0)


def test_dash_helper_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-dash", "Starting band")
    expect(tool).to_contain_text(
        f"Chance of the full move: {odds(rb.terrain_odds('dash', 'hard', 4).outcomes['full move'])}")
    set_value(tool.get_by_label("Your dice (the check's skill)"), "2")
    use_my_dice(tool, "5, 5, 3, 3, 3, 3")
    expect(tool.locator(".rulebook-total")).to_contain_text("Moved 1 band: now at close (2 actions)")
    expect(tool.locator(".rulebook-trace")).to_contain_text("10 falls short of 12: margin -2")


def test_quick_loading_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-quickload", "Normal reload (actions)")
    use_my_dice(tool, "4, 4, 3, 3, 3, 3, 3, 3")
    expect(tool.locator(".rulebook-total")).to_contain_text("Loaded in 2 actions (success)")
    set_value(tool.get_by_label("Normal reload (actions)"), "soon")
    expect(tool.get_by_role("alert")).to_contain_text(
        "Normal reload (actions) must be a whole number, got 'soon'")


def test_stealth_streak_carries_over(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-stealth", "Hider's Stealth dice")
    use_my_dice(tool, "4, 4, 4, 2, 3, 3, 3")
    expect(tool.locator(".rulebook-total")).to_contain_text("Hidden (1 in a row)")
    expect(tool.get_by_label("Successes in a row so far")).to_have_value("1")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_contain_text("the observer is unaware")


def test_rulings_page_lists_the_nd_assumption(page: Page, book_url):
    open_chapter(page, f"{book_url}/range_bands/rulings.ipynb")
    expect(page.get_by_role("heading", name=re.compile("How a check written in dice")))\
        .to_be_visible(timeout=60_000)
    expect(page.locator(".rulebook-assumption#nd_check")).to_contain_text(
        "Switch it: “How nD is rolled” in every range-band check tool.")
    expect(page.locator(".rulebook-assumption#band_edges")).to_contain_text(
        "The tools play our ruling. For developers: the rules engine switches it with the option "
        "edge")


def test_range_band_pages_need_no_other_host(page: Page, book_url, external_requests):
    for path, drawn in ((MOVEMENT, ".widget-html"), (CHAPTER, ".widget-html"),
                        ("range_bands/rulings.ipynb", "nav.rulebook-nav")):   # prose, no tool
        open_chapter(page, f"{book_url}/{path}")
        expect(page.locator(drawn).first).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
    assert external_requests == []


# -- every input of every tool in the chapter ---------------------------------------------------

RULINGS = [("textbox", "Bonus to your roll"), ("combobox", "How nD is rolled"),
           ("textbox", "Critical at a margin of ±")]
DASH = [("combobox", "Movement"), ("combobox", "Starting band"), ("combobox", "Direction"),
        ("combobox", "Terrain")]
DASH_POOL = [("textbox", "Your dice (the check's skill)")]
HARD = "Hard: 4D"


def _roll_and_replay(tool) -> str:
    """Roll, roll again, replay the first seed (the check's roll: a fall's entry is named
    apart): the steps say "with seed N"."""
    return roll_and_replay(tool, lambda seed: tool.locator(".rulebook-trace").last.filter(
        has_text=re.compile(rf"with seed {seed}\b")))


def test_every_input_has_a_label(page: Page, book_url):
    shot = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    assert controls(shot) == [
        ("combobox", "Target's band"), ("combobox", "Optimal band"),
        ("combobox", "Second optimal band"), ("combobox", "Target's cover"),
        ("combobox", "Target this turn"), ("combobox", "Weapon"),
        ("checkbox", "Snapshot (+1D, one action)"), ("checkbox", "Called shot (+2D)"),
        ("checkbox", "Area fire (+2D)"), ("checkbox", "Aim action first (+2 to the roll)"),
        ("checkbox", "Target is hidden (area fire only)"), ("textbox", "Rounds spent aiming"),
        ("textbox", "GM's adjustment (dice)"), ("combobox", "If it misses"),
        ("combobox", "A miss by three means"), ("textbox", "Your dice (shooting skill)"),
        *RULINGS, *ROLL_INPUTS]
    assert controls(page.locator(".rulebook-range-quickload")) == [
        ("combobox", "Weapon"), ("textbox", "Normal reload (actions)"),
        ("textbox", "Your dice (the loading skill)"), *RULINGS, *ROLL_INPUTS]
    _open(page, book_url, ".rulebook-range-dash", "Starting band")
    dash, impassable = page.locator(".rulebook-range-dash").nth(0), \
        page.locator(".rulebook-range-dash").nth(1)
    assert controls(dash) == [*DASH, ("checkbox", "Seriously or lethally wounded"),
                               *DASH_POOL, *RULINGS, *ROLL_INPUTS]
    assert controls(impassable) == [*DASH, ("checkbox", "The impassable terrain gives cover"),
                                     *DASH_POOL, *RULINGS, *ROLL_INPUTS]
    assert controls(page.locator(".rulebook-range-stealth")) == [
        ("textbox", "Hider's Stealth dice"), ("textbox", "Bonus to your roll"),
        ("textbox", "Observer's Perception dice"), ("textbox", "Observer's bonus"),
        ("combobox", "Hider's cover"), ("combobox", "Hider this turn"),
        ("checkbox", "In close contact with the observer"),
        ("textbox", "Successes in a row so far"), *ROLL_INPUTS]


def test_shot_builder_every_difficulty_input(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    difficulty = tool.locator(".rulebook-difficulty")
    expect(difficulty).to_contain_text("Difficulty 6D · 2 actions")
    tool.get_by_label("Optimal band", exact=True).select_option(label="Distant (61–90 m)")
    expect(difficulty).to_contain_text("Difficulty 5D · 2 actions")
    expect(tool.get_by_role("img", name=re.compile("optimal distant;"))).to_be_visible()
    tool.get_by_label("Optimal band", exact=True).select_option(label="Close (31–60 m)")
    expect(difficulty).to_contain_text("Difficulty 6D")
    tool.get_by_label("Second optimal band").select_option(label="Distant (61–90 m)")
    expect(difficulty).to_contain_text("Difficulty 5D")
    expect(tool.get_by_role("img", name=re.compile("optimal close, distant;"))).to_be_visible()
    tool.get_by_label("Second optimal band").select_option(label="none")
    expect(difficulty).to_contain_text("Difficulty 6D")

    tool.get_by_label("Called shot (+2D)").check()
    expect(difficulty).to_contain_text("Difficulty 8D · 2 actions")
    tool.get_by_label("Called shot (+2D)").uncheck()
    tool.get_by_label("Aim action first (+2 to the roll)").check()
    expect(difficulty).to_contain_text("Difficulty 6D, +2 to your roll · 3 actions")
    tool.get_by_label("Aim action first (+2 to the roll)").uncheck()
    tool.get_by_label("Weapon").select_option(label="crossbow")
    set_value(tool.get_by_label("Rounds spent aiming"), "3")
    expect(difficulty).to_contain_text("Difficulty 5D · 2 actions")
    set_value(tool.get_by_label("Rounds spent aiming"), "x")
    expect(tool.get_by_role("alert")).to_have_text(
        "⚠ Rounds spent aiming must be a whole number, got 'x'")
    expect(difficulty).to_have_count(0)
    set_value(tool.get_by_label("Rounds spent aiming"), "0")
    expect(difficulty).to_contain_text("Difficulty 6D")
    set_value(tool.get_by_label("GM's adjustment (dice)"), "-1")
    expect(difficulty).to_contain_text("Difficulty 5D")
    set_value(tool.get_by_label("GM's adjustment (dice)"), "zz")
    expect(tool.get_by_role("alert")).to_contain_text(
        "GM's adjustment (dice) must be a whole number, got 'zz'")
    set_value(tool.get_by_label("GM's adjustment (dice)"), "0")

    tool.get_by_label("Target is hidden (area fire only)").check()
    expect(tool.get_by_role("alert")).to_contain_text(
        "a hidden character can only be targeted by area fire")
    tool.get_by_label("Area fire (+2D)").check()
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Weapon” crossbow cannot use area fire")
    tool.get_by_label("Weapon").select_option(label="burst firearm")
    expect(tool.get_by_role("alert")).to_have_count(0)
    expect(difficulty).to_contain_text("Difficulty 8D")
    tool.get_by_label("Target is hidden (area fire only)").uncheck()
    tool.get_by_label("Area fire (+2D)").uncheck()
    set_value(tool.get_by_label("Bonus to your roll"), "2")
    expect(difficulty).to_contain_text("Difficulty 6D, +2 to your roll · 2 actions")
    set_value(tool.get_by_label("Bonus to your roll"), "q")
    expect(tool.get_by_role("alert")).to_contain_text(
        "Bonus to your roll must be a whole number, got 'q'")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_shot_rulings_and_what_a_miss_hits(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-shot", "Target's band")
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    expect(tool.get_by_text("Chance to hit: 2.70% (35/1296)")).to_be_visible()
    expect(tool.get_by_text("Roll 4 six-sided dice: 4 for your dice.")).to_be_visible()
    tool.get_by_label("How nD is rolled").select_option(
        label="GM rolls nD to beat (our ruling)")
    set_value(tool.get_by_label("Your dice (shooting skill)"), "2")
    use_my_dice(tool, "6, 6, 1, 1, 1, 1, 1, 1")
    expect(tool.locator(".rulebook-total")).to_have_text("Critical hit by 6")
    set_value(tool.get_by_label("Critical at a margin of ±"), "7")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text("Hit by 6")
    set_value(tool.get_by_label("Critical at a margin of ±"), "x")
    expect(tool.get_by_role("alert")).to_contain_text(
        "Critical at a margin of ± must be a whole number, got 'x'")
    set_value(tool.get_by_label("Critical at a margin of ±"), "6")

    tool.get_by_label("If it misses").select_option(label="a rider")
    use_my_dice(tool, "2, 2, 1, 1, 1, 1, 1, 1")
    expect(tool.locator(".rulebook-total")).to_have_text("Missed by 2: the shot hits the mount")
    tool.get_by_label("A miss by three means").select_option(label="short by exactly 3")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text("Missed by 2: a plain miss")
    use_my_dice(tool, "2, 2, 1, 1, 1, 1, 1, 2")
    expect(tool.locator(".rulebook-total")).to_have_text("Missed by 3: the shot hits the mount")
    expect(tool.locator(".rulebook-trace").last).to_contain_text("falls short")


def test_dash_every_input_roll_and_replay(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-dash", "Starting band")
    tool.get_by_label("Terrain", exact=True).select_option(
        label="Difficult: 3D")
    expect(tool.locator(".rulebook-terrain-note")).to_contain_text(
        "Difficult terrain: muddy roads, light snow, sparse forest, city streets, an unstable "
        "bridge")
    expect(tool.get_by_text("Chance of the full move: 80.83% (2357/2916)")).to_be_visible()
    set_value(tool.get_by_label("Your dice (the check's skill)"), "2")
    expect(tool.get_by_text("Roll 5 six-sided dice: 2 for your dice, then 3 for the "
                            "difficulty's dice.")).to_be_visible()
    tool.get_by_label("Starting band").select_option(label="Far (91–120 m)")
    tool.get_by_label("Direction").select_option(label="away")
    use_my_dice(tool, "5, 5, 3, 3, 3")
    expect(tool.locator(".rulebook-total")).to_have_text("Moved 2 bands: now at extreme (2 actions)")
    tool.get_by_label("Seriously or lethally wounded").check()
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Moved 2 bands: now at extreme (2 actions); bleeds 1 wound")
    expect(tool.get_by_role("listitem").filter(has_text="the dash makes the character bleed")) \
        .to_contain_text("[range_bands §Dashing]")
    _roll_and_replay(tool)

    set_value(tool.get_by_label("Your dice (the check's skill)"), "x")
    expect(tool.get_by_role("alert")).to_have_text("⚠ Your dice (the check's skill) must be a whole number, got 'x'")
    tool.get_by_role("button", name="Roll", exact=True).click()   # the check's, not the fall's
    expect(tool.get_by_role("alert").last).to_have_text("⚠ Fix the inputs above first.")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_impassable_terrain_every_input(page: Page, book_url):
    open_chapter(page, f"{book_url}/{MOVEMENT}")
    tool = page.locator(".rulebook-range-dash").nth(1)
    expect(tool.get_by_label("Movement", exact=True)).to_have_value(
        "Cross impassable terrain", timeout=60_000)
    expect(tool.get_by_text("Chance of the full move: 28.19% (9865/34992)")).to_be_visible()
    use_my_dice(tool, "6, 6, 2, 1, 3, 3, 3, 3, 3")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Moved 1 band: now at very close (2 actions)")
    expect(tool.get_by_role("listitem").filter(has_text="Cover:")).to_contain_text(
        "the terrain leaves the character exposed")
    tool.get_by_label("The impassable terrain gives cover").check()
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.get_by_role("listitem").filter(has_text="Cover:")).to_contain_text(
        "the terrain hides the character, so cover counts")
    tool.get_by_label("Starting band").select_option(label="Very close (0–30 m)")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Moved 1 band: now at close contact (2 actions)")
    use_my_dice(tool, "6, 6, 2, 1")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“My dice”: type 9 d6 (4 for the character, then 5 for the difficulty), got 4")
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    expect(tool.get_by_text("Chance of the full move: 15.90% (103/648)")).to_be_visible()
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Moved 0 bands: now at very close (2 actions)")

    # Switching the movement offers that movement's terrain and its own checkbox.
    tool.get_by_label("Movement", exact=True).select_option(label="Dash")
    expect(tool.get_by_label("Seriously or lethally wounded")).to_be_visible()
    expect(tool.get_by_label("The impassable terrain gives cover")).to_be_hidden()
    expect(tool.get_by_label("Terrain", exact=True).locator("option")).to_have_count(4)
    tool.get_by_label("Movement", exact=True).select_option(
        label="Cross impassable terrain")
    expect(tool.get_by_label("Terrain", exact=True).locator("option")).to_have_count(3)
    expect(tool.get_by_label("The impassable terrain gives cover")).to_be_visible()
    expect(tool.get_by_text("Chance of the full move: 15.90% (103/648)")).to_be_visible()
    tool.get_by_label("Terrain", exact=True).select_option(label=HARD)
    expect(tool.get_by_label("Terrain", exact=True)).to_have_value(HARD)
    _roll_and_replay(tool)


def test_quick_loading_every_input_roll_and_replay(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-quickload", "Normal reload (actions)")
    expect(tool.get_by_role("row", name=re.compile("^Fumble: foiled"))).to_contain_text(
        "12.98% (12115/93312)")
    tool.get_by_label("Weapon").select_option(label="firearm (Firearms, Agility)")
    set_value(tool.get_by_label("Normal reload (actions)"), "4")
    set_value(tool.get_by_label("Bonus to your roll"), "1")
    use_my_dice(tool, "1, 1, 1, 1, 6, 6, 6, 6")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Not loaded: 2 actions wasted; Reliability failure")
    expect(tool.get_by_role("listitem").filter(has_text="Fumble:")).to_contain_text(
        "an automatic Reliability failure")
    tool.get_by_label("Weapon").select_option(label="bow (Archery, Agility)")
    use_my_dice(tool, "6, 6, 6, 6, 1, 1, 1, 1")
    expect(tool.locator(".rulebook-total")).to_have_text("Loaded in 0 actions (critical success)")
    set_value(tool.get_by_label("Critical at a margin of ±"), "30")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.locator(".rulebook-total")).to_have_text("Loaded in 2 actions (success)")
    set_value(tool.get_by_label("Your dice (the loading skill)"), "3")
    expect(tool.get_by_text("Roll 7 six-sided dice: 3 for your dice, then 4 for the "
                            "difficulty's dice.")).to_be_visible()
    tool.get_by_label("How nD is rolled").select_option(
        label="a fixed 3.5 × n, rounded up")
    expect(tool.get_by_text("Roll 3 six-sided dice: 3 for your dice.")).to_be_visible()
    _roll_and_replay(tool)
    set_value(tool.get_by_label("Normal reload (actions)"), "")
    expect(tool.get_by_role("alert")).to_have_text("⚠ Normal reload (actions) is empty: type a whole number")
    set_value(tool.get_by_label("Normal reload (actions)"), "4")
    expect(tool.get_by_role("alert")).to_have_count(0)
    set_value(tool.get_by_label("Your dice (the loading skill)"), "0")
    expect(tool.get_by_role("alert")).to_contain_text("must be from 1 to 30, got 0")


def test_stealth_every_input_roll_and_replay(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-range-stealth", "Hider's Stealth dice")
    expect(tool.get_by_text("Chance to stay hidden: 80.83% (2357/2916)")).to_be_visible()
    tool.get_by_label("Hider's cover").select_option(label="heavy (+3 dice)")
    expect(tool.get_by_text("Roll 9 six-sided dice: 3 for Stealth, then 3 for cover, then 3 "
                            "for Perception.")).to_be_visible()
    tool.get_by_label("Hider this turn").select_option(label="dashes")
    expect(tool.get_by_text("Chance to stay hidden: 0.00%")).to_be_visible()
    expect(tool.get_by_text("No dice are needed: press Roll to see the result.")).to_be_visible()
    tool.get_by_label("Hider this turn").select_option(label="crosses impassable terrain")
    expect(tool.get_by_text("Chance to stay hidden: 0.00%")).to_be_visible()
    tool.get_by_label("Hider this turn").select_option(label="takes one move")
    tool.get_by_label("Hider's cover").select_option(label="light (+1 die)")
    tool.get_by_label("In close contact with the observer").check()
    expect(tool.get_by_text("Roll 6 six-sided dice: 3 for Stealth, then 3 for Perception.")) \
        .to_be_visible()
    tool.get_by_label("In close contact with the observer").uncheck()
    tool.get_by_label("Hider this turn").select_option(label="stays put")
    set_value(tool.get_by_label("Observer's Perception dice"), "2")
    expect(tool.get_by_text("Chance to stay hidden: 96.41% (833/864)")).to_be_visible()
    set_value(tool.get_by_label("Observer's bonus"), "3")
    expect(tool.get_by_text("Chance to stay hidden: 85.54% (9977/11664)")).to_be_visible()
    set_value(tool.get_by_label("Bonus to your roll"), "2")
    expect(tool.get_by_text("Chance to stay hidden: 93.92% (541/576)")).to_be_visible()

    set_value(tool.get_by_label("Successes in a row so far"), "2")
    use_my_dice(tool, "6, 6, 6, 6, 1, 1")
    expect(tool.locator(".rulebook-total")).to_have_text(
        "Hidden, 3 in a row: the observer is unaware of the character")
    use_my_dice(tool, "1, 1, 1, 1, 3, 3")
    expect(tool.locator(".rulebook-total")).to_have_text("Seen: the streak is broken")
    expect(tool.get_by_label("Successes in a row so far")).to_have_value("0")
    expect(tool.get_by_role("listitem").filter(has_text="Perception rolls")).to_have_text(
        re.compile(r"Perception rolls 3, 3 \+3 = 9"))

    seed_box = tool.get_by_label("Seed", exact=True)
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(seed_box).not_to_have_value("")
    seed = seed_box.input_value()
    steps = tool.locator(".rulebook-trace").last
    expect(steps).to_contain_text(f"with seed {seed}")
    first, explained = tool.locator(".rulebook-total").inner_text(), steps.inner_text()
    set_value(tool.get_by_label("Successes in a row so far"), "0")  # the roll carried the streak
    seed_box.fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(steps).to_contain_text(f"with seed {seed}")
    assert tool.locator(".rulebook-total").inner_text() == first
    assert steps.inner_text() == explained

    for label, bad, message in [
            ("Observer's Perception dice", "none",
             "Observer's Perception dice must be a whole number, got 'none'"),
            ("Observer's bonus", "b", "Observer's bonus must be a whole number, got 'b'"),
            ("Successes in a row so far", "x",
             "Successes in a row so far must be a whole number, got 'x'")]:
        field = tool.get_by_label(label)
        good = field.input_value()
        set_value(field, bad)
        expect(tool.get_by_role("alert")).to_have_text(f"⚠ {message}")
        set_value(field, good)
        expect(tool.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)
