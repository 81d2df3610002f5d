"""What the Veil & Lead browser tests do in the Count tracker as a GM: add a fighter, mark a
condition on one, have the acting fighter act."""

from __future__ import annotations

from playwright.sync_api import Locator, expect


def add_fighter(tool: Locator, name: str, margin: str, pc: bool = True) -> None:
    """Add *name* to the Count with its initiative margin (§V The Count), a player character
    or not; the log says they join."""
    tool.get_by_label("Name", exact=True).fill(name)
    tool.get_by_label("Player character").set_checked(pc)
    tool.get_by_label("Initiative margin").fill(margin)
    tool.get_by_role("button", name="Add to the Count").click()
    expect(tool.locator(".rulebook-vl-log")).to_contain_text(f"{name} joins")


def mark_condition(tool: Locator, fighter: str, condition: str) -> None:
    """Mark *condition* (e.g. "Prone") on *fighter*, picked by name."""
    tool.get_by_label("Fighter", exact=True).select_option(fighter)
    tool.get_by_label("Condition", exact=True).select_option(condition)
    tool.get_by_role("button", name="Mark condition").click()


def act(tool: Locator, action: str) -> None:
    """The acting fighter does *action* (e.g. "Aim"): picked, then Act pressed."""
    tool.get_by_label("Action", exact=True).select_option(action)
    tool.get_by_role("button", name="Act", exact=True).click()
