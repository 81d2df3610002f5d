"""The served TSL chapters, used as a reader would: odds, typed dice, a seeded roll and its
replay, an opposed roll, errors in place, the turn board and the weapon builder."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import tsl
from tests.browser.reader import ROLL_INPUTS, controls, open_chapter, set_value, use_my_dice

CHAPTER = "tsl/combat.ipynb"     # rolls, turns and zones
ATTACKS = "tsl/attacks.ipynb"    # attacks, defence and Stress
GEAR = "tsl/gear.ipynb"          # weapons, armour and gear
CHAPTER_OF = {".rulebook-tsl-turns": CHAPTER, ".rulebook-tsl-attack": ATTACKS,
              ".rulebook-tsl-weapon": GEAR}


def _open(page: Page, book_url: str, css: str, index: int = 0):
    open_chapter(page, f"{book_url}/{CHAPTER_OF[css]}")
    tool = page.locator(css).nth(index)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def test_resolver_odds_and_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    expect(tool.locator(".rulebook-tsl-odds")).to_be_visible()
    expect(tool.get_by_text("Chance to land at least a Mixed Success: 89.75% (6979/7776)")) \
        .to_be_visible()
    use_my_dice(tool, "3, 6, 1, 4, 3")
    result = tool.locator(".rulebook-tsl-result")
    expect(result).to_contain_text("Success: 2 Stress to the Body pool")
    expect(tool.get_by_text("Total 16 against T11, margin +5")).to_be_visible()
    expect(tool.locator(".rulebook-trace")).to_contain_text("Static T-number 11: margin 16 − 11 = +5")


def test_resolver_seeded_roll_replays(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(tool.locator(".rulebook-tsl-result")).to_be_visible()
    seed = tool.get_by_label("Seed", exact=True).input_value()
    assert seed.isdigit(), repr(seed)
    expected = tsl.static_roll(tsl.roll_dice(int(seed)), "Proficient", 11)
    summary = tool.get_by_text(re.compile(r"^Total \d+ against T11"))
    expect(summary).to_contain_text(f"Total {expected.total} against T11, margin "
                                    f"{expected.margin:+d}")
    first = tool.locator(".rulebook-trace").inner_text()
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(summary).not_to_contain_text(f"(seed {seed})")
    tool.get_by_label("Seed", exact=True).fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(summary).to_contain_text(f"(seed {seed})")
    assert tool.locator(".rulebook-trace").inner_text() == first


def test_resolver_errors_in_place(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    set_value(tool.get_by_label("T-number"), "high")
    expect(tool.get_by_role("alert")).to_contain_text("T-number must be a whole number, got 'high'")
    set_value(tool.get_by_label("T-number"), "11")
    expect(tool.get_by_role("alert")).to_have_count(0)
    use_my_dice(tool, "1, 2, 3")
    expect(tool.get_by_role("alert")).to_contain_text("My dice must be 5 faces, got 3")


def _opposed(page: Page, book_url: str):
    """The chapter's resolver set up as Mar's taunt: opposed, Trained against Untrained."""
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    tool.get_by_label("Worked example").select_option(
        label="Mar's taunt: opposed, Trained against Untrained")
    expect(tool.get_by_label("Defender tier")).to_be_visible()
    return tool


def test_opposed_resolver_and_armour(page: Page, book_url):
    tool = _opposed(page, book_url)
    expect(tool.get_by_label("Defender tier")).to_have_value(re.compile(".+"))
    tool.get_by_label("Attack type").select_option("Melee weapon")
    tool.get_by_label("Target's armour is built for this blow").check()
    use_my_dice(tool, "4, 2, 6, 1, 3, 1, 5, 2, 3, 1")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Mixed Success: 1 Stress")
    expect(tool.get_by_text("Total 13 against the defender's 8, margin +5")).to_be_visible()
    expect(tool.locator(".rulebook-trace")).to_contain_text("Armour drops Success to Mixed Success")


def test_turn_board(page: Page, book_url):
    board = _open(page, book_url, ".rulebook-tsl-turns")
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Vela is acting")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.locator(".rulebook-trace")).to_contain_text("Action uses the Action")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("alert")).to_contain_text(
        "“Spend” Action needs the Action, already used this turn")
    board.get_by_role("button", name="Next turn").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Thug is acting")
    board.get_by_label("Spend", exact=True).select_option("Double Movement")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_text("Round 1: Thug — Double Movement")).to_be_visible()


def test_weapon_builder(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-weapon")
    expect(tool.get_by_text("Fights at Engaged, Near.")).to_be_visible()
    tool.get_by_label("Zone", exact=True).select_option("Ranged")
    expect(tool.get_by_text("Fights at Near, Far, Distant.")).to_be_visible()  # Reach adds Near
    tool.get_by_label("First tag").select_option("Piercing")
    expect(tool.get_by_text("Fights at Far, Distant.")).to_be_visible()
    expect(tool.locator(".rulebook-trace")).to_contain_text("Starts with 6 uses of ammunition")
    tool.get_by_label("First tag").select_option("(none)")
    expect(tool.get_by_role("alert")).to_contain_text("“First tag and Second tag” must be one or two for a weapon, got 0")


def test_rulings_chapter_lists_assumptions(page: Page, book_url, external_requests):
    open_chapter(page, f"{book_url}/{GEAR}")
    expect(page.locator(".rulebook-tsl-weapon")).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    open_chapter(page, f"{book_url}/tsl/rulings.ipynb")
    expect(page.get_by_role("heading", name=re.compile("How many dice each tier keeps"))) \
        .to_be_visible(timeout=60_000)
    expect(page.get_by_role("heading", name=re.compile("Armour on a Catastrophic defence"))) \
        .to_be_visible()
    page.wait_for_load_state("networkidle")
    assert external_requests == []


def _upload(page: Page, board, content: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        board.get_by_role("button", name=re.compile("Upload board")).click()
    chooser.value.set_files(files=[{"name": "board.json", "mimeType": "application/json",
                                    "buffer": content}])


def _reload_once_saved(page: Page, holding: str):
    """Wait until the browser keeps a turn board naming *holding*, reload the page, and return
    the board offering the saved one back."""
    page.wait_for_function(
        f"() => (localStorage.getItem('rulebook/tsl/turn-board') || '').includes('{holding}')")
    page.reload()
    board = page.locator(".rulebook-tsl-turns")
    expect(board.get_by_text("A saved board was found in this browser")).to_be_visible(
        timeout=60_000)
    return board


def test_turn_board_download_reload_restore_and_upload(page: Page, book_url):
    import json
    board = _open(page, book_url, ".rulebook-tsl-turns")
    board.get_by_role("button", name="Next turn").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Thug is acting")
    link = board.get_by_role("link", name="Download board (JSON)")
    expect(link).to_have_attribute("download", "tsl-board.json")
    with page.expect_download() as download:
        link.click()
    saved = json.loads(open(download.value.path()).read())
    assert saved["acting"] == "Thug" and saved["order"][0] == "Vela"
    # A reload (or a culled kernel) loses nothing: the browser kept the board.
    board = _reload_once_saved(page, "Thug")
    # the offer comes before any board: the default one is not shown until the reader chooses
    expect(board.locator(".rulebook-tsl-round")).to_be_hidden()
    board.get_by_role("button", name="Restore saved board").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Thug is acting")
    saved["acting"] = "Ko"
    saved["round"] = 3
    _upload(page, board, json.dumps(saved).encode())
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 3: Ko is acting")
    _upload(page, board, b'{"order": []}')
    expect(board.get_by_role("alert")).to_contain_text(
        "TSL turn board: order must hold from 1 to 30 entries, got 0")
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 3: Ko is acting")


# -- every input of every tool in the chapter ---------------------------------------------------

RULINGS = [("combobox", "Band ladder"), ("combobox", "Beyond the tiers"),
           ("combobox", "Armour and Impact"), ("combobox", "Out-of-zone penalty"),
           ("combobox", "An Impact tag on a miss")]
CHECKS = [("checkbox", "An Impact tag's condition holds"),
          ("checkbox", "Target's armour is built for this blow")]


def _headline(tool):
    """The odds' headline: the chance to hit and how many dice are kept."""
    return tool.locator(".rulebook-headline")


def test_every_input_has_a_label(page: Page, book_url):
    static = _open(page, book_url, ".rulebook-tsl-attack")
    expect(static.get_by_label("T-number")).to_be_visible()
    assert controls(static) == [
        ("combobox", "Worked example"), ("combobox", "Kind of roll"), ("combobox", "Attacker tier"), ("combobox", "Other tier shifts"),
        ("textbox", "T-number"), ("combobox", "Attack type"), ("combobox", "Target is"),
        ("textbox", "Stress already on its Body pool"), ("textbox", "Pool size"),
        ("combobox", "Weapon zone"),
        *CHECKS, *ROLL_INPUTS, *RULINGS]
    static.get_by_label("Weapon zone").select_option(label="Ranged")
    expect(static.get_by_label("Ammunition uses left")).to_be_visible()
    assert controls(static)[10:16] == [
        ("combobox", "First tag"), ("combobox", "Second tag"),
        ("checkbox", "Improvised weapon (no tags)"), ("combobox", "Distance to target"),
        *CHECKS]
    assert ("textbox", "Ammunition uses left") in controls(static)
    static.get_by_label("Kind of roll").select_option(label="Opposed roll")
    expect(static.get_by_label("Defender tier")).to_be_visible()
    opposed = controls(static)
    assert ("combobox", "Defender tier") in opposed
    assert ("combobox", "Defender's tier shifts") in opposed
    assert controls(_open(page, book_url, ".rulebook-tsl-turns")) == [
        ("textbox", "Turn order (GM's call)"), ("button", "Start encounter"),
        ("button", "Re-call order"), ("combobox", "Combatant"), ("combobox", "Spend"),
        ("combobox", "Ally's zone"), ("button", "Spend"), ("button", "Next turn"),
        ("link", "Download board (JSON)"), ("button", "Upload board (JSON)")]
    assert controls(_open(page, book_url, ".rulebook-tsl-weapon")) == [
        ("textbox", "Name"), ("combobox", "Zone"), ("combobox", "First tag"),
        ("combobox", "Second tag"), ("combobox", "Rarity"), ("checkbox", "Improvised (no tags)"),
        ("combobox", "Out-of-zone penalty"), ("combobox", "A foe moves from"),
        ("combobox", "The foe moves to"), ("checkbox", "Your Reaction is used this round")]
    repair = page.locator(".rulebook-tsl-repair")
    assert controls(repair) == [
        ("combobox", "Rarity"), ("checkbox", "Irreplaceable"), ("combobox", "Your Hand tier"),
        ("combobox", "Other tier shifts"), *ROLL_INPUTS, ("combobox", "Band ladder"),
        ("combobox", "Beyond the tiers")]
    open_chapter(page, f"{book_url}/{ATTACKS}")
    support = page.locator(".rulebook-tsl-support")
    expect(support).to_be_visible(timeout=60_000)
    assert controls(support) == [
        ("combobox", "Support action"), ("combobox", "Ally's zone"),
        ("textbox", "Your Body Stress"), ("textbox", "Your Mind Stress"),
        ("textbox", "Your Spirit Stress"), ("textbox", "Your pool size")]
    assert controls(page.locator(".rulebook-tsl-spirit")) == [
        ("combobox", "Spirit ability"), ("textbox", "Its cost"),
        ("textbox", "Stress already on your Spirit pool"), ("textbox", "Your pool size")]


def test_resolver_tier_shift_type_and_rulings(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    expect(_headline(tool)).to_contain_text("89.75% (6979/7776)")
    tool.get_by_label("Attacker tier").select_option(label="Trained")
    expect(_headline(tool)).to_contain_text("77.46% (6023/7776)")
    expect(_headline(tool)).to_contain_text("keeping 3 of 5d6")
    tool.get_by_label("Attacker tier").select_option(label="Proficient")
    tool.get_by_label("Other tier shifts").select_option(label="+2")
    expect(_headline(tool)).to_contain_text("94.12% (7319/7776)")
    expect(_headline(tool)).to_contain_text("keeping 5 of 5d6, Effective Tier +2")
    tool.get_by_label("Beyond the tiers").select_option(label="clamp")
    expect(_headline(tool)).to_contain_text("89.75% (6979/7776)")
    tool.get_by_label("Other tier shifts").select_option(label="0")
    tool.get_by_label("Attack type").select_option(label="Fear, despair")
    expect(tool.get_by_text("Stress lands on the Mind pool")).to_be_visible()
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Success: 2 Stress to the Mind pool")

    set_value(tool.get_by_label("T-number"), "16")
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Failure: 0 Stress")
    expect(tool.get_by_text("Total 16 against T16, margin +0")).to_be_visible()
    tool.get_by_label("Band ladder").select_option(label="meet is mixed")
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Mixed Success: 1 Stress")
    expect(tool.get_by_role("listitem").filter(has_text="Margin +0 is")).to_contain_text(
        "[tsl §11 Damage]")
    tool.get_by_label("Band ladder").select_option(label="wide mixed")
    set_value(tool.get_by_label("T-number"), "11")
    expect(tool.get_by_role("row", name=re.compile("^Mixed Success "))).to_contain_text("37/162")


def test_resolver_weapon_tags_impact_armour_and_ammunition(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    tool.get_by_label("Weapon zone").select_option(label="Ranged")
    expect(tool.get_by_label("First tag")).to_have_value("Company-Issued")
    expect(_headline(tool)).to_contain_text("Effective Tier -1")  # a rifle at Engaged
    tool.get_by_label("Distance to target").select_option(label="Far")
    expect(_headline(tool)).to_contain_text("89.75% (6979/7776) (keeping 4 of 5d6)")
    tool.get_by_label("Second tag").select_option(label="Company-Issued")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“First tag and Second tag” must not repeat, got Company-Issued, Company-Issued")
    tool.get_by_label("Second tag").select_option(label="Piercing")
    expect(tool.get_by_role("alert")).to_have_count(0)
    tool.get_by_label("Improvised weapon (no tags)").check()
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Weapon zone” of an improvised weapon must be Melee or Thrown, got Ranged")
    expect(tool.get_by_label("First tag")).to_be_hidden()
    tool.get_by_label("Improvised weapon (no tags)").uncheck()

    set_value(tool.get_by_label("Ammunition uses left"), "1")
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.get_by_text(re.compile(r"^Total 16 against T11, margin \+5; 0 uses left")))\
        .to_be_visible()
    expect(tool.get_by_label("Ammunition uses left")).to_have_value("0")
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Ammunition uses left” must be 1 or more to attack, got 0: the weapon cannot attack until it is restocked")
    set_value(tool.get_by_label("Ammunition uses left"), "lots")
    # refused at once where the odds would be, no odds offered; a roll says it again
    expect(tool.get_by_role("alert").first).to_contain_text(
        "Ammunition uses left must be a whole number, got 'lots'")
    expect(tool.locator(".rulebook-tsl-odds")).to_have_count(0)
    set_value(tool.get_by_label("Ammunition uses left"), "0")
    expect(tool.get_by_role("alert").first).to_contain_text(
        "“Ammunition uses left” must be 1 or more to attack, got 0")
    expect(tool.locator(".rulebook-tsl-odds")).to_have_count(0)

    tool.get_by_label("Weapon zone").select_option(label="Melee")
    expect(tool.get_by_label("Ammunition uses left")).to_be_hidden()
    tool.get_by_label("Distance to target").select_option(label="Engaged")
    tool.get_by_label("Second tag").select_option(label="(none)")
    tool.get_by_label("First tag").select_option(label="Brutal")
    tool.get_by_label("An Impact tag's condition holds").check()
    expect(_headline(tool)).to_contain_text("99.99% (7775/7776)")
    tool.get_by_label("Target's armour is built for this blow").check()
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Success: 2 Stress")
    expect(tool.get_by_role("listitem").filter(has_text="Impact tag:")).to_contain_text(
        "Impact tag: Mixed Success → Success")
    tool.get_by_label("Armour and Impact").select_option(label="Impact first")
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Mixed Success: 1 Stress")
    expect(tool.get_by_text(re.compile("; rolled Success"))).to_be_visible()
    tool.get_by_label("Weapon zone").select_option(label="No weapon")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“An Impact tag's condition holds” must be False without a weapon: only a weapon's Impact tag bumps the band")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_opposed_resolver_kind_defender_seed_and_errors(page: Page, book_url):
    tool = _opposed(page, book_url)
    expect(tool.get_by_label("T-number")).to_be_hidden()
    tool.get_by_label("Defender tier").select_option(label="Proficient")
    use_my_dice(tool, "4, 2, 6, 1, 3, 1, 5, 2, 3, 1")
    expect(tool.get_by_text(re.compile("^Total 13 against the defender's 11, margin \\+2"))) \
        .to_be_visible()
    use_my_dice(tool, "4, 2, 6, 1, 3")
    expect(tool.get_by_role("alert")).to_contain_text(
        "My dice must be 10 faces (yours, then the defender's), got 5")

    seed_box = tool.get_by_label("Seed", exact=True)
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(seed_box).not_to_have_value("")
    seed = seed_box.input_value()
    summary = tool.get_by_text(re.compile(r"^Total \d+ against the defender's"))
    expect(summary).to_contain_text(f"(seed {seed})")
    mine, theirs = tsl.roll_pair(int(seed))
    expected = tsl.opposed_roll(mine, "Trained", theirs, "Proficient")
    expect(summary).to_contain_text(f"Total {expected.total} against the defender's "
                                    f"{expected.defender_total}")
    first, steps = summary.inner_text(), tool.locator(".rulebook-trace").inner_text()
    use_my_dice(tool, "1, 1, 1, 1, 1, 6, 6, 6, 6, 6")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("Catastrophic")
    seed_box.fill(seed)
    tool.get_by_role("button", name="Replay seed").click()
    expect(summary).to_have_text(first)
    assert tool.locator(".rulebook-trace").inner_text() == steps

    tool.get_by_role("combobox", name="Kind of roll").select_option(label="Static T-number")
    expect(tool.get_by_label("Defender tier")).to_be_hidden()
    set_value(tool.get_by_label("T-number"), "")
    expect(tool.get_by_role("alert")).to_contain_text("T-number is empty")
    set_value(tool.get_by_label("T-number"), "9")
    use_my_dice(tool, "4, 2, 6, 1, 3")
    expect(tool.get_by_text(re.compile("^Total 13 against T9, margin \\+4"))).to_be_visible()
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_turn_board_order_combatant_ally_zone_and_discard(page: Page, book_url):
    board = _open(page, book_url, ".rulebook-tsl-turns")
    set_value(board.get_by_label("Turn order (GM's call)"), "Ana, Bo, Cy")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Ana is acting")
    expect(board.get_by_role("row", name=re.compile("Ana ready ready ready"))).to_be_visible()
    set_value(board.get_by_label("Turn order (GM's call)"), "Cy, Ana, Dee")
    board.get_by_role("button", name="Re-call order").click()
    expect(board.get_by_role("alert")).to_contain_text(
        "“Turn order (GM's call)” must name the same combatants (Ana, Bo, Cy), got Cy, Ana, Dee")
    set_value(board.get_by_label("Turn order (GM's call)"), "Cy, Ana, Bo")
    board.get_by_role("button", name="Re-call order").click()
    expect(board.get_by_role("alert")).to_have_count(0)
    expect(board.get_by_role("row").nth(1)).to_contain_text("Cy")
    expect(board.get_by_text("Round 1: the GM calls Cy, Ana, Bo")).to_be_visible()

    board.get_by_label("Combatant").select_option(label="Cy")
    board.get_by_label("Spend", exact=True).select_option(label="Ground a Path-walker")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("alert")).to_contain_text(
        "“Combatant” must be Ana for Ground a Path-walker (it is Ana's turn)")
    board.get_by_label("Spend", exact=True).select_option(label="Reaction")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("row", name="Cy ready ready used")).to_be_visible()
    expect(board.get_by_role("listitem").filter(has_text="Reaction uses the Reaction")) \
        .to_be_visible()

    board.get_by_label("Combatant").select_option(label="Ana")
    board.get_by_label("Spend", exact=True).select_option(label="Ground a Path-walker")
    board.get_by_label("Ally's zone").select_option(label="Far")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("alert")).to_contain_text(
        "“Ally's zone” must be Engaged or Near for Ground a Path-walker, got Far")
    board.get_by_label("Ally's zone").select_option(label="Near")
    board.get_by_role("button", name="Spend", exact=True).click()
    expect(board.get_by_role("alert")).to_have_count(0)
    expect(board.get_by_role("row", name=re.compile("^▶ Ana .*used"))).to_be_visible()
    expect(board.get_by_text("Round 1: Ana — Ground a Path-walker")).to_be_visible()

    set_value(board.get_by_label("Turn order (GM's call)"), "")
    board.get_by_role("button", name="Start encounter").click()
    expect(board.get_by_role("alert")).to_have_text(
        "⚠ “Turn order (GM's call)” must hold only non-empty names, got ''")

    board = _reload_once_saved(page, "Path-walker")
    board.get_by_role("button", name="Discard it").click()
    expect(board.get_by_text("A saved board was found in this browser")).to_be_hidden()
    page.wait_for_function("() => localStorage.getItem('rulebook/tsl/turn-board') === null")
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Vela is acting")


def test_weapon_builder_every_input(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-weapon")
    summary = tool.locator(".rulebook-tsl-weapon-summary")
    set_value(tool.get_by_label("Name", exact=True), "Old pike")
    expect(summary).to_contain_text("Old pike: Melee, Reach. Fights at Engaged, Near.")
    tool.get_by_label("Second tag").select_option(label="Brutal")
    expect(summary).to_contain_text("Old pike: Melee, Reach, Brutal.")
    tool.get_by_label("Second tag").select_option(label="Reach")
    expect(tool.get_by_role("alert")).to_contain_text("“First tag and Second tag” must not repeat, got Reach, Reach")
    tool.get_by_label("Second tag").select_option(label="(none)")
    tool.get_by_label("Rarity").select_option(label="Anomalous")
    expect(tool.get_by_role("listitem").filter(has_text="Rarity Anomalous")).to_contain_text(
        "where it came from, not how strong it is")
    expect(tool.get_by_role("row", name="Tier shift in zone in zone −1 Effective Tier "
                                         "−1 Effective Tier")).to_be_visible()
    tool.get_by_label("Out-of-zone penalty").select_option(label="−1 a zone")
    expect(tool.get_by_role("row", name="Tier shift in zone in zone −1 Effective Tier "
                                         "−2 Effective Tier")).to_be_visible()
    tool.get_by_label("Improvised (no tags)").check()
    expect(summary).to_contain_text("Old pike: Melee (improvised), no tags. Fights at Engaged.")
    expect(tool.get_by_label("First tag")).to_be_hidden()
    tool.get_by_label("Zone", exact=True).select_option(label="Ranged")
    expect(tool.get_by_role("alert")).to_contain_text(
        "“Zone” of an improvised weapon must be Melee or Thrown, got Ranged")
    expect(summary).to_have_count(0)
    tool.get_by_label("Improvised (no tags)").uncheck()
    set_value(tool.get_by_label("Name", exact=True), "")
    expect(summary).to_contain_text("This weapon: Ranged, Reach.")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_resolver_target_pool_and_breaking(page: Page, book_url):
    """§11 A Worked Example: the thug is a Grunt, and Vela's 16 against T11 (a Success) Breaks
    him; the odds say beforehand how likely that is (247/324 by the band odds)."""
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    tool.get_by_label("Target is").select_option(label="a Grunt (pools of 2)")
    expect(tool.get_by_text("the target Breaks 76.23% (247/324)")).to_be_visible()
    use_my_dice(tool, "3, 6, 1, 4, 3")
    expect(tool.locator(".rulebook-tsl-result")).to_contain_text("the target Breaks")
    expect(tool.locator(".rulebook-tsl-pool")).to_contain_text(
        "Target's Body pool: 2 of 2 Stress marked (Broken)")
    tool.get_by_label("Target is").select_option(label="a character (pools of 4)")
    set_value(tool.get_by_label("Stress already on its Body pool"), "5")
    expect(tool.get_by_text("“Stress already on its Body pool” must be from 0 to 4, got 5")).to_be_visible()

