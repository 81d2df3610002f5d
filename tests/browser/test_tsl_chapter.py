"""The served TSL chapters, used as a reader would: odds, typed dice, a seeded roll and its
replay, an opposed roll, errors in place, the turn board and the weapon builder."""

import re

from playwright.sync_api import Page, expect

from rulescore.systems import tsl

CHAPTER = "tsl/combat.ipynb"


def _open(page: Page, book_url: str, css: str, index: int = 0):
    page.goto(f"{book_url}/{CHAPTER}")
    tool = page.locator(css).nth(index)
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def _set(field, text: str) -> None:
    field.fill(text)
    field.press("Enter")


def test_resolver_odds_and_typed_dice(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack")
    expect(tool.locator(".rulebook-tsl-odds")).to_be_visible()
    expect(tool.get_by_text("Chance to land at least a Mixed Success: 6979/7776 (89.75%)")) \
        .to_be_visible()
    tool.get_by_label("My dice").fill("3, 6, 1, 4, 3")
    tool.get_by_role("button", name="Use my dice").click()
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
    _set(tool.get_by_label("T-number"), "high")
    expect(tool.get_by_role("alert")).to_contain_text("T-number must be a whole number, got 'high'")
    _set(tool.get_by_label("T-number"), "11")
    expect(tool.get_by_role("alert")).to_have_count(0)
    tool.get_by_label("My dice").fill("1, 2, 3")
    tool.get_by_role("button", name="Use my dice").click()
    expect(tool.get_by_role("alert")).to_contain_text("My dice must be 5 faces, got 3")


def test_opposed_resolver_and_armour(page: Page, book_url):
    tool = _open(page, book_url, ".rulebook-tsl-attack", 1)
    expect(tool.get_by_label("Defender tier")).to_have_value(re.compile(".+"))
    tool.get_by_label("Attack type").select_option("Melee weapon")
    tool.get_by_label("Target's armour is built for this blow").check()
    tool.get_by_label("My dice").fill("4, 2, 6, 1, 3, 1, 5, 2, 3, 1")
    tool.get_by_role("button", name="Use my dice").click()
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
        "option Action needs the Action, already used this turn")
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
    expect(tool.get_by_role("alert")).to_contain_text("tags must be one or two for a weapon, got 0")


def test_rulings_chapter_lists_assumptions(page: Page, book_url, external_requests):
    page.goto(f"{book_url}/{CHAPTER}")
    expect(page.locator(".rulebook-tsl-weapon")).to_be_visible(timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.goto(f"{book_url}/tsl/rulings.ipynb")
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
    page.wait_for_function(
        "() => (localStorage.getItem('rulebook/tsl/turn-board') || '').includes('Thug')")
    page.reload()
    board = page.locator(".rulebook-tsl-turns")
    expect(board.get_by_text("A saved board was found in this browser")).to_be_visible(
        timeout=60_000)
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Vela is acting")
    board.get_by_role("button", name="Restore saved board").click()
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 1: Thug is acting")
    saved["acting"] = "Ko"
    saved["round"] = 3
    _upload(page, board, json.dumps(saved).encode())
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 3: Ko is acting")
    _upload(page, board, b'{"order": []}')
    expect(board.get_by_role("alert")).to_contain_text("board is missing 'round'")
    expect(board.locator(".rulebook-tsl-round")).to_contain_text("Round 3: Ko is acting")
