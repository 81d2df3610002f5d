"""What every tool gets from the shared Tool: the waiting line in the reader's words."""

from __future__ import annotations

from widgets.common import Tool, waiting_html
from widgets.dice import DiceRoller
from widgets.percentile_table import TestRoller as PercentileTestRoller
from widgets.veil_and_lead_table import PartyInitiative

DICE = "<i>Press Roll, or type the dice you rolled and press Use my dice.</i>"


def test_the_waiting_line_names_what_the_reader_types() -> None:
    assert waiting_html() == DICE
    assert waiting_html("the d100") == DICE.replace("the dice", "the d100")
    assert Tool.waiting_for == "the dice"


def test_each_tool_waits_in_its_own_words() -> None:
    assert DiceRoller("2d6").result.value == DICE
    assert PercentileTestRoller().result.value == DICE.replace("the dice", "the d100")
    assert PartyInitiative().result.value == DICE.replace("the dice", "the d8s")
