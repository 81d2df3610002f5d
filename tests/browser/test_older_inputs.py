"""The inputs of the older chapters' tools that their own tests did not change yet: the dice
chapter's second expression, the TSL ammunition count, turn order and weapon name."""

from playwright.sync_api import Page, expect

from rulescore.dice import parse
from rulescore.text import odds, percent
from tests.browser.reader import open_tool, set_value


def test_odds_explorer_second_expression(page: Page, book_url):
    tool = open_tool(page, book_url, "00_dice/dice", ".rulebook-odds-explorer")
    set_value(tool.get_by_label("First expression"), "3d6")
    set_value(tool.get_by_label("Second expression"), "2d10")
    set_value(tool.get_by_label("Target (total at least)"), "12")
    table = tool.locator(".rulebook-compare")
    for text in ("3d6", "2d10"):
        p = parse(text).distribution().p_at_least(12)
        expect(table.get_by_role("row", name=f"{text} {odds(p)}", exact=False)).to_be_visible()
    set_value(tool.get_by_label("Second expression"), "")
    expect(table.get_by_role("row")).to_have_count(2)          # the head and one expression
    set_value(tool.get_by_label("Second expression"), "2d")
    expect(tool.get_by_role("alert")).to_be_visible()
    set_value(tool.get_by_label("First expression"), "")
    set_value(tool.get_by_label("Second expression"), "")
    expect(tool.get_by_role("alert")).to_contain_text("First expression is empty")


def test_tsl_ammunition_turn_order_and_weapon_name(page: Page, book_url):
    resolver = open_tool(page, book_url, "tsl/attacks", ".rulebook-tsl-attack")
    resolver.get_by_label("Weapon zone").select_option("Ranged")
    resolver.get_by_label("Distance to target").select_option("Near")
    set_value(resolver.get_by_label("Ammunition uses left"), "x")
    resolver.get_by_label("My dice").fill("6, 6, 5, 4, 1")
    resolver.get_by_role("button", name="Use my dice").click()
    # shown where the odds would be as soon as it is typed (and again under the roll)
    expect(resolver.get_by_role("alert").filter(has_text="Ammunition uses left").first) \
        .to_be_visible()
    set_value(resolver.get_by_label("Ammunition uses left"), "3")
    resolver.get_by_role("button", name="Use my dice").click()
    expect(resolver.locator(".rulebook-trace")).to_contain_text(
        "The attack spends 1 use, hit or miss: 3 → 2")
    board = open_tool(page, book_url, "tsl/combat", ".rulebook-tsl-turns")
    set_value(board.get_by_label("Turn order (GM's call)"), "Mar, Vela")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Mar is acting")
    set_value(board.get_by_label("Turn order (GM's call)"), "Vela, Mar")
    board.get_by_role("button", name="Re-call order").click()
    expect(board).to_contain_text("the GM calls Vela, Mar")
    set_value(board.get_by_label("Turn order (GM's call)"), "Vela, Vela")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.get_by_role("alert").first).to_be_visible()
    weapon = open_tool(page, book_url, "tsl/gear", ".rulebook-tsl-weapon")
    set_value(weapon.get_by_label("Name", exact=True), "Gaff hook")
    expect(weapon).to_contain_text("Gaff hook")


def _hit(result) -> str:
    from fractions import Fraction

    from rulescore.systems import tsl
    from widgets.common import chance_html
    # the headline leads with the percentage (these fractions are short enough to follow it)
    return chance_html(sum((result.bands[b] for b in tsl.HIT_BANDS), Fraction(0)))


def test_tsl_resolver_rulings_and_weapon_inputs(page: Page, book_url):
    from rulescore.systems import tsl
    tool = open_tool(page, book_url, "tsl/attacks", ".rulebook-tsl-attack")
    headline = tool.locator(".rulebook-headline")
    tool.get_by_label("Attacker tier").select_option("Trained")
    tool.get_by_label("Other tier shifts").select_option(label="+1")
    tool.get_by_label("Weapon zone").select_option("Melee")
    tool.get_by_label("Second tag").select_option("Brutal")
    tool.get_by_label("An Impact tag's condition holds").check()
    tool.get_by_label("Target's armour is built for this blow").check()
    tool.get_by_label("Band ladder").select_option(label="wide mixed")
    tool.get_by_label("Beyond the tiers").select_option("clamp")
    tool.get_by_label("Armour and Impact").select_option(label="Impact first")
    weapon = tsl.make_weapon("Melee", ["Company-Issued", "Brutal"])
    expected = tsl.attack_odds("Trained", target=11, weapon=weapon, shift=1, impact=True,
                               armour=True, bands="wide_mixed", tier_limits="clamp",
                               order="impact_first")
    expect(headline).to_contain_text(_hit(expected))
    tool.get_by_label("Improvised weapon (no tags)").check()
    expect(tool.get_by_role("alert").first).to_contain_text("the weapon has no Impact tag")
    tool.get_by_label("An Impact tag's condition holds").uncheck()
    bare = tsl.make_weapon("Melee", [], improvised=True)
    improvised = tsl.attack_odds("Trained", target=11, weapon=bare, shift=1, armour=True,
                                 bands="wide_mixed", tier_limits="clamp", order="impact_first")
    expect(headline).to_contain_text(_hit(improvised))


def test_tsl_turn_board_combatant_and_ally_zone(page: Page, book_url):
    board = open_tool(page, book_url, "tsl/combat", ".rulebook-tsl-turns")
    board.get_by_label("Combatant", exact=True).select_option("Vela")
    board.get_by_label("Spend", exact=True).select_option("Soak the Hit")
    board.get_by_label("Ally's zone").select_option("Distant")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("alert").first).to_contain_text("“Ally's zone” must be Engaged")
    board.get_by_label("Ally's zone").select_option("Engaged")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.locator(".rulebook-trace")).to_contain_text("The ally is Engaged: within reach")


def test_tsl_weapon_builder_rarity_improvised_and_out_of_zone(page: Page, book_url):
    from rulescore.systems import tsl
    tool = open_tool(page, book_url, "tsl/gear", ".rulebook-tsl-weapon")
    tool.get_by_label("Zone", exact=True).select_option("Ranged")
    tool.get_by_label("Rarity").select_option("Anomalous")
    tool.get_by_label("Out-of-zone penalty").select_option(label="−1 a zone")
    profile = tsl.weapon_profile(tsl.make_weapon("Ranged", ["Reach"], rarity="Anomalous"),
                                 out_of_zone="per_zone")
    worst = min(s for _, s in profile.shifts)
    expect(tool.locator(".rulebook-tsl-shifts")).to_contain_text(f"−{-worst} Effective Tier")
    tool.get_by_label("Improvised (no tags)").check()
    expect(tool.get_by_label("First tag")).to_be_hidden()


def test_horde_and_downed_remaining_inputs(page: Page, book_url):
    from rulescore.systems import veil_and_lead as vl
    horde = open_tool(page, book_url, "veil_and_lead/table", ".rulebook-vl-horde")
    set_value(horde.get_by_label("Base creature's pool"), "3")
    set_value(horde.get_by_label("Target's TN"), "13")
    set_value(horde.get_by_label("Weapon's WR"), "2")
    p = vl.hit_probability(vl.horde_pool(3, 6), 13)
    expect(horde.locator(".rulebook-vl-horde-volley")).to_contain_text(
        f"Pool 3 + size 6 = {vl.horde_pool(3, 6)}d8")
    volley = horde.locator(".rulebook-vl-horde-volley")
    expect(volley).to_contain_text(f"hits {percent(p)}")
    volley.get_by_text("show exact").click()      # a fraction this long waits behind a toggle
    expect(volley).to_contain_text(str(p))
    hit = vl.horde_casualties(1, 2, 6)
    expect(horde.locator(".rulebook-vl-horde-hit")).to_contain_text(f"{hit.value} casualties")
    downed = open_tool(page, book_url, "veil_and_lead/injury", ".rulebook-vl-downed")
    set_value(downed.get_by_label("IRON"), "2")
    set_value(downed.get_by_label("Healer's Medicine dice"), "4")
    expect(downed.locator(".rulebook-vl-status")).to_contain_text(
        f"dead at {vl.death_threshold(2)}")
    q = vl.stabilization_probability(4, 0, medical_kit=False)
    expect(downed.locator(".rulebook-vl-stab-odds")).to_contain_text(f"{percent(q)} ({q})")


def test_throw_minimum_roll(page: Page, book_url):
    from rulescore.systems import exploding_d6 as x6
    tool = open_tool(page, book_url, "exploding_d6/close", ".rulebook-x6-throw")
    set_value(tool.get_by_label("Minimum roll", exact=True), "6")
    p = x6.hit_odds(3, 6, 6, True).p_at_least(1)
    expect(tool.locator(".rulebook-headline")).to_contain_text(f"Chance to hit: {percent(p)} ({p})")
    set_value(tool.get_by_label("Minimum roll", exact=True), "0")
    expect(tool.get_by_role("alert").first).to_contain_text("Minimum roll must be 1 or more")
