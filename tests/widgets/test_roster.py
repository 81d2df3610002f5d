"""Typed rosters (widgets.common.parse_roster): the party fields of the initiative tools."""

import pytest

from rulescore import RulesError
from widgets.common import parse_roster

NUMBERS = ("QUICK", "Awareness")


def test_reads_names_numbers_and_the_optional_word():
    text = " Ada 3 2 ; Bo 2 1 ambush;; Bandit -1 0 ;"
    assert parse_roster("Combatants", text, NUMBERS, "Ada 3 2", extra="a bonus") == [
        ("Ada", [3, 2], None), ("Bo", [2, 1], "ambush"), ("Bandit", [-1, 0], None)]


@pytest.mark.parametrize("text, extra, message", [
    ("Ada 3", "", "Combatants: entry 1 must be a name, QUICK and Awareness, got 'Ada 3'"),
    ("Ada 3 2; Bo 2 1 ambush", "",
     "Combatants: entry 2 must be a name, QUICK and Awareness, got 'Bo 2 1 ambush'"),
    ("Ada 3 2 x y", "an optional roll bonus",
     "entry 1 must be a name, QUICK, Awareness and an optional roll bonus, got 'Ada 3 2 x y'"),
    ("Ada three 2", "", "QUICK of Ada must be a whole number, got 'three'"),
    ("Ada 3 2.5", "", "Awareness of Ada must be a whole number, got '2.5'"),
    (" ; ;", "", "Combatants is empty: type e.g. Ada 3 2; Bo 2 1"),
    ("", "", "Combatants is empty: type e.g. Ada 3 2; Bo 2 1"),
])
def test_bad_rosters_name_the_entry_or_the_value(text, extra, message):
    with pytest.raises(RulesError) as err:
        parse_roster("Combatants", text, NUMBERS, "Ada 3 2; Bo 2 1", extra=extra)
    assert message in str(err.value)
