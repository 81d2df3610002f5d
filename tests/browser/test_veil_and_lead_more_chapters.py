"""The served tempo, movement and conditions chapters, used as a reader would."""

import random

from playwright.sync_api import Page, expect

from tests.browser.reader import SHOTS, open_tool, roll_new_seed, set_value, use_my_dice

from rulescore.systems import veil_and_lead as vl
from rulescore.text import percent


def test_tempo_calculator(page: Page, book_url):
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    expect(result).to_contain_text("Quick Shot with Peacemaker: tempo 3")
    expect(result).to_contain_text("from Tick 17 to Tick 0")
    tool.get_by_label("Weapon").select_option("Buffalo Rifle")
    expect(result).to_contain_text(f"tempo {vl.tempo('Quick Shot', 'Buffalo Rifle')}")
    set_value(tool.get_by_label("Acting at tick"), "2")
    tool.get_by_label("Action").select_option("Channel")
    set_value(tool.get_by_label("Chosen tempo"), "7")
    expect(result).to_contain_text("tempo 7 (the tempo you choose)")
    set_value(tool.get_by_label("Chosen tempo"), "2")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Chosen tempo” must be from 4 to 9, got 2")
    tool.get_by_label("Action").select_option("Strike")
    tool.get_by_label("Weapon").select_option("Bowie Knife")
    tool.get_by_label("Exposure rule").select_option(label="As each action prints it")
    expect(result).to_contain_text("Exposed")
    expect(tool.locator(".rulebook-trace")).to_contain_text("Tick 2 + Tempo")


def test_movement_and_range(page: Page, book_url):
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    set_value(tool.get_by_label("QUICK"), "2")
    set_value(tool.get_by_label("Athletics"), "2")
    speed = vl.speed(2, 2)
    expect(tool.locator(".rulebook-vl-moves").get_by_role(
        "row", name=f"Sprint {vl.tempo('Sprint')} {vl.move_distance('Sprint', speed)} m")) \
        .to_be_visible()
    tool.get_by_label("Prone").check()
    expect(tool.get_by_text("2 m as things stand")).to_be_visible()
    tool.get_by_label("Leg wound").check()
    set_value(tool.get_by_label("Distance (m)"), "150")
    tool.get_by_label("Weapon").select_option("Peacemaker")
    shot = tool.locator(".rulebook-vl-shot")
    expect(shot).to_contain_text("the range is Extreme")
    tool.get_by_label("Target's cover").select_option("Hard Cover")
    expect(tool.locator(".rulebook-vl-cover")).to_contain_text("Hard Cover: TN +4.")
    tool.get_by_label("Target's cover").select_option("Total Cover")
    expect(tool.locator(".rulebook-vl-cover")).to_contain_text("cannot be shot at all")
    set_value(tool.get_by_label("Distance (m)"), "-5")
    expect(shot).not_to_contain_text("-5")


def test_duel_roller(page: Page, book_url):
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-duel")
    odds = vl.duel_odds(4, 4)
    expect(tool.locator(".rulebook-odds").get_by_role(
        "row", name=f"Ada first {percent(odds.a_first)} {odds.a_first}")).to_be_visible()
    set_value(tool.get_by_label("Roll bonus (one)"), "2")
    better = vl.duel_odds(4, 4, 2, 0)
    expect(tool.locator(".rulebook-odds")).to_contain_text(str(better.a_first))
    set_value(tool.get_by_label("Roll bonus (one)"), "0")
    for label, value in (("QUICK (one)", "3"), ("Awareness (one)", "1"),
                         ("QUICK (other)", "2"), ("Awareness (other)", "2"),
                         ("Roll bonus (other)", "0")):
        set_value(tool.get_by_label(label), value)
    set_value(tool.get_by_label("One duellist"), "Cora")
    set_value(tool.get_by_label("The other"), "Dex")
    result = tool.locator(".rulebook-vl-duel-result")
    use_my_dice(tool, "8, 7, 1, 1 | 6, 6, 2, 1")
    expect(result).to_contain_text("Cora fires first (15 against 12; higher sum)")
    seed = int(roll_new_seed(tool))
    rng = random.Random(seed)
    a = [rng.randint(1, 8) for _ in range(4)]
    expect(tool.get_by_text(f"Dice {', '.join(map(str, a))} |")).to_be_visible()
    first = result.inner_text()
    tool.get_by_role("button", name="Replay seed").click()
    expect(result).to_have_text(first)
    use_my_dice(tool, "8, 7")
    expect(tool.get_by_role("alert")).to_contain_text("2 lists separated by |")


def test_the_chapters_worked_examples_in_their_tools(page: Page, book_url):
    """Each example these chapters print, entered in the tool on its page. Actions (§III
    Called Shot): a Called Shot with a Peacemaker is base 4 + 2 = 6. Movement (§V Speed
    Calculation): QUICK 3 + Athletics 1 + 3 = 7 m; Shift 3, Scramble 11, Rush 14, Sprint 21.
    Conditions (§XII Duel Resolution): Ada [8, 7, 1] = 15 against Bart [6, 6, 1] = 12."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    tool.get_by_label("Action").select_option("Called Shot")
    expect(tool.locator(".rulebook-vl-tempo-result")).to_contain_text(
        "Called Shot with Peacemaker: tempo 6")
    tool = open_tool(page, book_url, "veil_and_lead/movement", ".rulebook-vl-movement")
    set_value(tool.get_by_label("QUICK"), "3")
    set_value(tool.get_by_label("Athletics"), "1")
    moves = tool.locator(".rulebook-vl-moves")
    for row in ("Shift 0 3 m", "Scramble 3 11 m", "Rush / Charge 4 14 m", "Sprint 4 21 m"):
        expect(moves.get_by_role("row", name=row)).to_be_visible()
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-duel")
    for label, value in (("QUICK (one)", "3"), ("Awareness (one)", "0"),
                         ("QUICK (other)", "3"), ("Awareness (other)", "0"),
                         ("One duellist", "Ada"), ("The other", "Bart")):
        set_value(tool.get_by_label(label), value)
    use_my_dice(tool, "8, 7, 1 | 6, 6, 1")
    expect(tool.locator(".rulebook-vl-duel-result")).to_contain_text(
        "Ada fires first (15 against 12; higher sum)")


def test_the_conditions_chapters_checks_in_their_tool(page: Page, book_url):
    """§XI Stunned: GRIT 2 + Resilience 1, [7, 5, 2] = 12 against TN 11, resisted; §III
    Grapple: IRON 2 + Brawl 1, [8, 6, 1] = 14 against Defense 10, Grappled."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-checks")
    result = tool.locator(".rulebook-vl-check-result")
    use_my_dice(tool, "7, 5, 2")
    expect(result).to_contain_text("Resisted: margin +1")
    tool.get_by_label("Check").select_option(label="Grapple (IRON + Brawl against Defense)")
    use_my_dice(tool, "8, 6, 1")
    expect(result).to_contain_text("Grappled: margin +4")


def test_reactions_two_weapons_and_the_saddle_as_the_chapter_prints_them(page: Page, book_url):
    """§III Free Reaction: a Dodge with 2 Mettle leaves 1; a second one before your next turn,
    or one while Surprised, is refused. §XIII Two-Weapon Fighting: Peacemaker and Derringer,
    tempo 5. §XIII Mounted Combat: a sabre's first charge blow from the saddle, +1 Step and +2
    damage; QUICK 2 + Ride 1 rolling 6, 5, 3 stays in the saddle; a fall at Vitality 6 with
    IRON 2 and the d3 showing 2 leaves 4, Prone and Wounded."""
    tool = open_tool(page, book_url, "veil_and_lead/conditions", ".rulebook-vl-reaction")
    result = tool.locator(".rulebook-vl-reaction-result")
    tool.get_by_label("Reaction", exact=True).select_option("Dodge")
    set_value(tool.get_by_label("Mettle", exact=True), "2")
    expect(result).to_have_text("Dodge: Mettle 2 → 1")
    set_value(tool.get_by_label("Reactions since your last turn"), "1")
    expect(result).to_have_text("Refused: Mettle stays at 2")
    set_value(tool.get_by_label("Reactions since your last turn"), "0")
    tool.get_by_label("Surprised").check()
    expect(result).to_have_text("Refused: Mettle stays at 2")
    two = page.locator(".rulebook-vl-two-weapons")
    two.get_by_label("Main hand").select_option("Peacemaker")
    two.get_by_label("Off hand").select_option("Derringer")
    expect(two.locator(".rulebook-vl-two-result")).to_contain_text(
        "Peacemaker and Derringer: tempo 5")
    saddle = page.locator(".rulebook-vl-mounted")
    saddle.get_by_label("Weapon", exact=True).select_option("Saber")
    saddle.get_by_label("First melee attack of a Charge").check()
    expect(saddle.locator(".rulebook-vl-mounted-mods")).to_contain_text("+1 Step, +2 damage")
    set_value(saddle.get_by_label("QUICK (or ECHO to control)"), "2")
    set_value(saddle.get_by_label("Ride", exact=True), "1")
    expect(saddle.locator(".rulebook-vl-ride-odds")).to_contain_text(
        percent(vl.ride_probability(2, 1)))
    use_my_dice(saddle, "6, 5, 3")
    expect(saddle.locator(".rulebook-vl-ride-result")).to_contain_text("Stays in the saddle")
    set_value(saddle.get_by_label("Rider's Vitality"), "6")
    set_value(saddle.get_by_label("Rider's IRON"), "2")
    use_my_dice(saddle, "2", name="fall")
    expect(saddle.locator(".rulebook-vl-fall-result")).to_contain_text(
        "Vitality 4: Prone, Wounded")
    expect(saddle.locator(".rulebook-vl-ride-result")).to_contain_text("Stays in the saddle")
    saddle.screenshot(path=SHOTS / "vl_mounted_combat.png")


def test_an_action_without_a_weapon_names_none_in_the_tempo_calculator(page: Page, book_url):
    """§III: Recover is done with no weapon (vl.uses_weapon), so the line names none; a
    Reload is done with the Peacemaker."""
    tool = open_tool(page, book_url, "veil_and_lead/actions", ".rulebook-vl-tempo")
    result = tool.locator(".rulebook-vl-tempo-result")
    tool.get_by_label("Action", exact=True).select_option("Recover")
    expect(result).to_contain_text("Recover: tempo 6 (a fixed tempo)")
    expect(result).not_to_contain_text("Peacemaker")
    tool.screenshot(path=str(SHOTS / "vl_tempo_recover.png"))
    tool.get_by_label("Action", exact=True).select_option("Reload (Speed)")
    expect(result).to_contain_text("Reload (Speed) with Peacemaker: tempo 4")
