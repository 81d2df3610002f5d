"""What every browser test does as a reader: open a chapter at one tool, type into a field."""

import os
import re
from pathlib import Path
from typing import Callable

from playwright.sync_api import Locator, Page, expect

# One line of an ARIA snapshot naming a control: "- textbox "Seed"".
CONTROL = re.compile(r'^\s*- (textbox|combobox|checkbox|button|link)\b(?: "([^"]*)")?',
                     re.MULTILINE)
# The controls every DiceEntry adds to a tool, in order.
ROLL_INPUTS = [("button", "Roll"), ("textbox", "Seed"), ("button", "Replay seed"),
               ("textbox", "My dice"), ("button", "Use my dice")]


# Where a test keeps the screenshots a developer looks at (RULEBOOK_SHOTS, or _build/screenshots).
SHOTS = Path(os.environ.get("RULEBOOK_SHOTS",
                            Path(__file__).resolve().parents[2] / "_build" / "screenshots"))
SHOTS.mkdir(parents=True, exist_ok=True)

# benchmarks/web/ready.js sets window.__tti once Voilà has shown the cells and every widget
# output of the page holds its widget: the benchmark's time to interactive, and here the moment
# a test may pick a tool. Voilà draws the outputs side by side, so two tools of one kind may
# appear in either order: a test that takes `.first` while only the second is drawn holds that
# one for good, so a test waits for READY_JS before it picks a tool.
READY_JS = (Path(__file__).resolve().parents[2] / "benchmarks" / "web" / "ready.js").read_text()


def open_chapter(page: Page, url: str) -> None:
    """Open a page of the served book and wait until every widget on it is drawn."""
    if not getattr(page, "_rulebook_ready_js", False):   # init scripts run on every navigation
        page.add_init_script(READY_JS)
        page._rulebook_ready_js = True
    page.goto(url)
    page.wait_for_function("() => window.__tti !== undefined", timeout=60_000)


def open_tool(page: Page, book_url: str, chapter: str, css: str) -> Locator:
    """Open *chapter* (e.g. "percentile/injury") in the served book and wait for its first
    tool matching *css*."""
    open_chapter(page, f"{book_url}/{chapter}.ipynb")
    tool = page.locator(css).first
    expect(tool).to_be_visible(timeout=60_000)
    return tool


def set_value(field: Locator, text: str) -> None:
    """Type into a field and commit it, as a reader pressing Enter would."""
    field.fill(text)
    field.press("Enter")


def set_fields(tool: Locator, **values: str) -> None:
    """Set a tool's labelled fields as a reader would: text fields typed and committed, menus
    picked by the words they show."""
    for label, value in values.items():
        field = tool.get_by_label(label, exact=True)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            set_value(field, value)


def use_my_dice(tool: Locator, faces: str, nth: int | None = None, name: str = "") -> None:
    """Type the dice rolled at the table into the tool's entry and use them; into its entry
    named *name* ("repair": the Repair dice and Use the repair dice), or, where entries share
    their labels, into its *nth* (0 the first, -1 the last)."""
    field, use = tool.get_by_label("My dice"), tool.get_by_role("button", name="Use my dice")
    if name:
        field = tool.get_by_label(f"{name[:1].upper()}{name[1:]} dice", exact=True)
        use = tool.get_by_role("button", name=f"Use the {name} dice", exact=True)
    if nth is not None:
        field, use = field.nth(nth), use.nth(nth)
    field.fill(faces)
    use.click()


def roll_new_seed(tool: Locator) -> str:
    """Press the tool's Roll and return the fresh seed it shows in its Seed field."""
    seed_box = tool.get_by_label("Seed", exact=True)
    tool.get_by_role("button", name="Roll", exact=True).click()
    expect(seed_box).not_to_have_value("")
    return seed_box.input_value()


def replay_seed(tool: Locator, seed: str) -> None:
    """Type *seed* into the tool's Seed field and press Replay seed."""
    tool.get_by_label("Seed", exact=True).fill(seed)
    tool.get_by_role("button", name="Replay seed").click()


def controls(tool: Locator) -> list[tuple[str, str]]:
    """The tool's visible controls as a screen reader lists them: (role, accessible name)."""
    return [(role, name) for role, name in CONTROL.findall(tool.aria_snapshot())]


def roll_and_replay(tool: Locator, seed_shown: Callable[[str], Locator],
                    nth: int | None = None) -> str:
    """Roll with a fresh seed, roll again, then type the first seed back and replay it: the
    tool shows the same result and the same steps. *seed_shown(seed)* finds the text naming
    the seed a result was rolled with; in a tool with more than one roll, its *nth* roll is
    used. Returns that seed."""
    seed_box = tool.get_by_label("Seed", exact=True)
    roll = tool.get_by_role("button", name="Roll", exact=True)
    replay = tool.get_by_role("button", name="Replay seed")
    if nth is not None:
        seed_box, roll, replay = seed_box.nth(nth), roll.nth(nth), replay.nth(nth)
    roll.click()
    expect(seed_box).not_to_have_value("")
    seed = seed_box.input_value()
    expect(seed_shown(seed)).to_be_visible()
    result, steps = tool.locator(".rulebook-total").last, tool.locator(".rulebook-trace").last
    first, explained = result.inner_text(), steps.inner_text()
    roll.click()
    expect(seed_shown(seed)).to_have_count(0)
    seed_box.fill(seed)
    replay.click()
    expect(seed_shown(seed)).to_be_visible()
    assert result.inner_text() == first
    assert steps.inner_text() == explained
    return seed


# The width a text drawn in a field's own font takes beside the field's inner width (less its
# padding), both in px: text the field shows whole fits.
_TEXT_AND_ROOM_JS = """(field, text) => {
    const style = getComputedStyle(field);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight);
    return [pen.measureText(text).width, room];
}"""


def shows_whole(field: Locator, text: str) -> tuple[float, float]:
    """(the px *text* takes in *field*'s font, the px *field* has for it): the field shows
    the text whole when the first is at most the second."""
    width, room = field.evaluate(_TEXT_AND_ROOM_JS, text)
    return width, room
