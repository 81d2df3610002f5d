"""Every input of the range-band tools that the chapter's first tests left alone, changed as a
reader would, each result checked against the engine."""

from playwright.sync_api import Page, expect

from rulescore.systems import range_bands as rb
from tests.browser.range_bands_steps import odds
from tests.browser.reader import open_tool, set_value
from widgets.range_bands import ND_OPTIONS


CHAPTER = "range_bands/combat"        # cover and shooting
MOVEMENT = "range_bands/movement"     # the map, moving and hiding


def _every_option_shot(called_shot: bool, area_fire: bool, weapon: str,
                       hidden: bool) -> rb.ShotPlan:
    """The engine's plan of the shot test_shot_builder_every_option enters (far, optimal close
    and distant, light cover, a crowd, the second nD rule, aimed three rounds, ...), with what
    its two checks change."""
    return rb.plan_shot("far", ("close", "distant"), "light", False, called_shot, skill_pool=4,
                        roll_bonus=1, situation="crowd", miss_reading="exactly",
                        nd_rule=ND_OPTIONS[1][1], critical_margin=5, target_movement="move",
                        area_fire=area_fire, aim_action=True, weapon=weapon,
                        target_hidden=hidden, aim_rounds=3, gm_dice=-1)


def test_shot_builder_every_option(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-range-shot")
    tool.get_by_label("Target's band").select_option(label="Far (91–120 m)")
    tool.get_by_label("Optimal band", exact=True).select_option(label="Close (31–60 m)")
    tool.get_by_label("Second optimal band").select_option(label="Distant (61–90 m)")
    tool.get_by_label("Target this turn").select_option(label="takes one move")
    tool.get_by_label("Weapon", exact=True).select_option(label="bow")
    tool.get_by_label("Called shot (+2D)").check()
    tool.get_by_label("Aim action first (+2 to the roll)").check()
    set_value(tool.get_by_label("Rounds spent aiming"), "3")
    set_value(tool.get_by_label("GM's adjustment (dice)"), "-1")
    set_value(tool.get_by_label("Bonus to your roll"), "1")
    tool.get_by_label("If it misses").select_option(label="into a crowd or wrestling match")
    tool.get_by_label("A miss by three means").select_option(label="short by exactly 3")
    tool.get_by_label("How nD is rolled").select_option(label=ND_OPTIONS[1][0])
    set_value(tool.get_by_label("Critical at a margin of ±"), "5")
    plan = _every_option_shot(called_shot=True, area_fire=False, weapon="bow", hidden=False)
    expect(tool.locator(".rulebook-difficulty")).to_contain_text(
        f"Difficulty {plan.difficulty.value}D")
    expect(tool.get_by_text(f"Chance to hit: {odds(plan.odds.success)}")).to_be_visible()
    tool.get_by_label("Called shot (+2D)").uncheck()
    tool.get_by_label("Area fire (+2D)").check()
    expect(tool.get_by_role("alert").first).to_contain_text(
        "“Weapon” bow cannot use area fire")
    tool.get_by_label("Weapon", exact=True).select_option(label="explosive")
    tool.get_by_label("Target is hidden (area fire only)").check()
    area = _every_option_shot(called_shot=False, area_fire=True, weapon="explosive",
                              hidden=True)
    expect(tool.locator(".rulebook-difficulty")).to_contain_text(
        f"Difficulty {area.difficulty.value}D")
    set_value(tool.get_by_label("Rounds spent aiming"), "x")
    expect(tool.get_by_role("alert").first).to_contain_text("Rounds spent aiming")


def test_dash_and_crossing_every_option(page: Page, book_url):
    tool = open_tool(page, book_url, MOVEMENT, ".rulebook-range-dash")
    tool.get_by_label("Direction").select_option(label="away")
    tool.get_by_label("Terrain", exact=True).select_option(index=2)
    tool.get_by_label("Seriously or lethally wounded").check()
    terrain = rb.terrains("dash")[2].terrain
    dash = rb.terrain_odds("dash", terrain, 4, 0)
    expect(tool.get_by_text(f"Chance of the full move: {odds(dash.outcomes['full move'])}")) \
        .to_be_visible()
    tool.get_by_label("Movement").select_option(index=1)
    expect(tool.get_by_label("The impassable terrain gives cover")).to_be_visible()
    tool.get_by_label("The impassable terrain gives cover").check()
    tool.get_by_label("Terrain", exact=True).select_option(index=2)
    hard = rb.terrains("impassable")[2].terrain
    cross = rb.terrain_odds("impassable", hard, 4, 0)
    expect(tool.get_by_text(f"Chance of the full move: {odds(cross.outcomes['full move'])}")) \
        .to_be_visible()
    # The check's own entry: a roll that ends in a fall shows the fall's below it, named for
    # the fall ("Roll the fall", "Replay the fall's seed").
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool).to_contain_text("now at")
    first = tool.locator(".rulebook-trace").last.inner_text().splitlines()
    tool.get_by_role("button", name="Replay seed", exact=True).click()
    for line in first[:1] + first[-2:]:
        expect(tool.locator(".rulebook-trace").last).to_contain_text(line.split(" [")[0])


def test_quick_load_and_stealth_every_option(page: Page, book_url):
    tool = open_tool(page, book_url, CHAPTER, ".rulebook-range-quickload")
    set_value(tool.get_by_label("Your dice (the loading skill)"), "5")
    tool.get_by_label("Weapon", exact=True).select_option(label="firearm (Firearms, Agility)")
    load = rb.quick_load_odds("firearm", 5, 0)
    expect(tool.get_by_text(f"Chance to load faster: {odds(load.success)}")).to_be_visible()
    hider = open_tool(page, book_url, MOVEMENT, ".rulebook-range-stealth")
    set_value(hider.get_by_label("Observer's Perception dice"), "4")
    set_value(hider.get_by_label("Observer's bonus"), "1")
    hider.get_by_label("Hider's cover").select_option(index=3)
    hider.get_by_label("Hider this turn").select_option(label="takes one move")
    hider.get_by_label("In close contact with the observer").check()
    seen = rb.stealth_odds(3, 4, stealth_bonus=0, perception_bonus=1, cover="heavy",
                           movement="move", close_contact=True)
    expect(hider.get_by_text(f"Chance to stay hidden: {odds(seen.outcomes['hidden'])}")) \
        .to_be_visible()
    set_value(hider.get_by_label("Observer's Perception dice"), "many")
    expect(hider.get_by_role("alert").first).to_contain_text("Observer's Perception dice")
