"""One chapter tool of each of the other four systems (percentile, TSL, exploding d6, range
bands), used by the same reader script in the live book and in the static book (its Python in
the page): a seeded roll shows what the same tool shows for that seed in CPython (the live
book's own Python), and a bad input's message, in the field's words, appears in place and
goes once the input is fixed. A static page that needs no formula fetches no sympy; one whose
cell renders a formula fetches it then, and the formula reads as CPython writes it."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Locator, Page, expect

from rulescore.systems.veil_and_lead import FORMULAS
from tests.browser.reader import set_value
from tests.browser.static_book import open_static
from widgets.exploding_d6 import CoupDeGraceRoller
from widgets.percentile_table import TestRoller
from widgets.range_bands import CheckHelper
from widgets.tsl_help import KeepRoll

SEED = "2024"
# The formulas group (sympy, mpmath): fetched only by a page that renders a formula, as wheels
# or as the group's one archive, whichever the site ships.
FORMULA_WHEELS = re.compile(r"/_pyodide/(wheels/(sympy|mpmath)-|archives/formulas-)")


@dataclass(frozen=True)
class Script:
    """One tool of a chapter and what the reader does to it: *make* builds the tool as the
    chapter's cell does; *bad* is (field label, bad text, good text), a field committed with
    Enter, or ("My dice", bad faces, good faces) pressed with Use my dice."""

    chapter: str
    css: str
    make: Callable[[], object]
    bad: tuple[str, str, str]


SCRIPTS = {
    "percentile": Script("percentile/table", ".rulebook-pc-test", lambda: TestRoller(65),
                         ("My dice", "3, 4", "40")),
    "tsl": Script("tsl/combat", ".rulebook-tsl-roll", lambda: KeepRoll("Proficient"),
                  ("My dice", "3, 6", "3, 6, 1, 4, 3")),
    "exploding_d6": Script("exploding_d6/close", ".rulebook-x6-coup",
                           lambda: CoupDeGraceRoller(dice=3, state="unconscious"),
                           ("Attack dice", "x", "3")),
    "range_bands": Script("range_bands/movement", ".rulebook-range-check",
                          lambda: CheckHelper(pool="4", difficulty="4"),
                          ("Difficulty (dice)", "lots", "4")),
}


def _flat(markup: str) -> str:
    """What a reader reads in some HTML, every space left out (a die's face sits in a box of
    its own, so a page's text runs faces together)."""
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", " ", markup)))


def _in_cpython(script: Script) -> tuple[str, str]:
    """The tool run here, as the live book's kernel runs it: the result it shows for SEED,
    and the message its bad input raises."""
    tool = script.make()
    tool.entry.seed.value = SEED
    tool.entry.replay()
    result = _flat(tool.result.value)
    label, bad, _ = script.bad
    if label == "My dice":
        tool.entry.my_dice.value = bad
        tool.entry.use_dice()
        message = tool.entry.error.message
    else:
        _field(tool, label).value = bad
        message = tool.error.message
    assert message, f"{label} = {bad!r} raised nothing in {type(tool).__name__}"
    return result, message


def _field(tool: object, label: str) -> object:
    """The tool's text field whose visible label is *label*."""
    for value in vars(tool).values():
        if getattr(value, "description", None) == label and hasattr(value, "value"):
            return value
    raise AssertionError(f"{type(tool).__name__} has no field {label!r}")


def _shows(page: Page, tool: Locator, flat: str) -> None:
    """Wait until the tool's text, spaces left out, holds *flat*."""
    page.wait_for_function(
        "([el, want]) => el.textContent.replace(/\\s+/g, '').includes(want)",
        arg=[tool.element_handle(), flat], timeout=30_000)


def _enter_bad(tool: Locator, label: str, text: str) -> None:
    if label == "My dice":
        tool.get_by_label("My dice").fill(text)
        tool.get_by_role("button", name="Use my dice").click()
    else:
        set_value(tool.get_by_label(label, exact=True), text)


@pytest.mark.parametrize("system", list(SCRIPTS))
@pytest.mark.parametrize("book", ["live", "static"], indirect=True)
def test_a_seeded_roll_and_an_error_message(page: Page, book, system):
    script = SCRIPTS[system]
    rolled, message = _in_cpython(script)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    book.open(page, script.chapter)
    tool = page.locator(script.css).first
    expect(tool).to_be_visible(timeout=60_000)
    seed = tool.get_by_label("Seed", exact=True)
    expect(seed).to_be_enabled()
    seed.fill(SEED)
    tool.get_by_role("button", name="Replay seed", exact=True).click()
    _shows(page, tool, rolled)

    label, bad, good = script.bad
    _enter_bad(tool, label, bad)
    alert = tool.get_by_role("alert")
    expect(alert).to_have_count(1)
    expect(alert).to_have_text(f"⚠ {message}")
    _enter_bad(tool, label, good)
    expect(alert).to_have_count(0)
    if book.kind == "static":
        assert [u for u in fetched if FORMULA_WHEELS.search(u)] == [], \
            f"{script.chapter} renders no formula, yet fetched sympy"


# A cell that shows a formula as LaTeX (what rulescore.formulas renders with sympy), put before
# the last cell of a chapter whose page is not marked for the formulas group.
FORMULA_CELL = """import html as _html
import ipywidgets as _w
from IPython.display import display as _display
from rulescore.systems.veil_and_lead import FORMULAS as _FORMULAS
_display(_w.HTML("<code class='rulebook-formula-probe'>" + _html.escape(_FORMULAS[0].latex())
                 + "</code>"))
"""


def test_a_formula_cell_fetches_sympy_when_it_runs(page: Page, static_site, external_requests):
    """No chapter renders a formula as LaTeX yet: a cell that does marks its page for the
    formulas group (rulebook.wasm.site.FORMULA_HINT), and the loader fetches the group when an
    unmarked page's cell asks for sympy. Here a chapter's page spec is handed to the page with
    such a cell added (its last cell shows a formula first): the page still starts, fetches
    sympy once the cell asks for it, and shows the formula sympy writes in CPython."""
    chapter = "veil_and_lead/movement"
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))

    def with_formula(route):
        spec = route.fetch().json()
        assert "formulas" not in spec["groups"], f"{chapter} is marked for formulas now"
        spec["cells"][-1] = FORMULA_CELL + spec["cells"][-1]
        route.fulfill(json=spec)

    page.route(f"**/_pyodide/pages/{chapter}.json", with_formula)
    assert open_static(page, f"{static_site}/{chapter}.html") == "ready"
    expect(page.locator(".rulebook-formula-probe")).to_have_text(FORMULAS[0].latex())
    assert [u for u in fetched if FORMULA_WHEELS.search(u)], "sympy was not fetched"
    expect(page.locator(".rulebook-vl-movement")).to_be_visible()   # the chapter's tool too
    assert external_requests == [], f"requests to other hosts: {external_requests}"
