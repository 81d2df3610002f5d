"""What the range-band browser tests do in a chapter's tools as a reader: type the dice rolled
at the table, pick a band by the words its menu shows, make a dash, read a chance as printed."""

from __future__ import annotations

import re
from collections.abc import Iterable

from playwright.sync_api import Locator

from rulescore.systems import range_bands as rb
from rulescore.text import percent
from tests.browser.reader import set_value, use_my_dice
from widgets.common import EXACT_INLINE, chance_html
from widgets.range_bands import DashHelper

# The Movement menu's choice for each kind of move the dash helper resolves.
MOVES = {"dash": "Dash",
         "impassable": "Cross impassable terrain"}


def typed_dice(tool: Locator, dice: Iterable[int], name: str = "") -> None:
    """Type *dice* into the tool's "My dice" entry (or its entry named *name*: "move", the Move
    dice), comma-separated, and use them."""
    use_my_dice(tool, ", ".join(map(str, dice)), name=name)


def fall_dice(tool: Locator, dice: Iterable[int]) -> None:
    """Type a fall's damage *dice* into the fall's own entry (shown after a critical failure,
    named apart from the check's), and use them."""
    tool.get_by_label("Fall dice", exact=True).fill(", ".join(map(str, dice)))
    tool.get_by_role("button", name="Use the fall dice", exact=True).click()


def pick_band(tool: Locator, label: str, band: str) -> None:
    """Pick *band* (e.g. "very_close") in the menu labelled *label*, by the name and metres
    the menu shows."""
    b = rb.band(band)
    tool.get_by_label(label, exact=True).select_option(label=f"{b.name} ({b.metres})")


def plain(p) -> str:
    """A chance as the page reads it (no markup)."""
    return re.sub(r"<[^>]+>", "", chance_html(p))


def odds(p) -> str:
    """A chance as the tools show it: its percentage first, its fraction beside it when short
    (a long one waits behind "show exact", which the text then reads)."""
    return f"{percent(p)} ({p})" if len(str(p)) <= EXACT_INLINE else f"{percent(p)} show exact"


def dash(tool: Locator, kind: str, start: str, terrain: str, pool: int,
         dice: Iterable[int]) -> None:
    """Enter a move in the dash helper (§Movement): its kind ("dash" or "impassable"), the
    starting band, the terrain, the mover's dice; then the dice rolled, in the check's own
    entry (a critical failure's fall has its own, named for the fall, below the result)."""
    tool.get_by_label("Movement").select_option(label=MOVES[kind])
    pick_band(tool, "Starting band", start)
    label = dict((v, k) for k, v in DashHelper._terrain_options(kind))[terrain]
    tool.get_by_label("Terrain", exact=True).select_option(label=label)
    set_value(tool.get_by_label("Your dice (the check's skill)"), str(pool))
    typed_dice(tool, dice)
