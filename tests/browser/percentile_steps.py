"""What the percentile browser tests do on the injury record as a reader: add an injury, picked
by the words its menus show."""

from __future__ import annotations

from playwright.sync_api import Locator


def add_injury(tool: Locator, location: str | None = None, aspect: str | None = None,
               injury: str | None = None, bleeder: bool = False) -> None:
    """Add an injury to the record: the Location, Aspect and Injury menus picked where given
    (the menus' current choices otherwise), A Bleeder ticked when *bleeder*, then Add injury."""
    for label, value in (("Location", location), ("Aspect", aspect), ("Injury", injury)):
        if value is not None:
            tool.get_by_label(label, exact=True).select_option(label=value)
    if bleeder:
        tool.get_by_label("A Bleeder").check()
    tool.get_by_role("button", name="Add injury").click()
