"""The exploding-d6 roster and fight state (issue 22 item 1): the roster's columns, refusals in
the reader's words, and saved files read field by field."""

from __future__ import annotations

import pytest

from rulescore.errors import RulesError
from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6


def test_roster_columns_cover_what_a_fight_reads():
    keys = {c.key for c in x6.ROSTER.columns}
    assert {"quickness", "deftness", "perception", "strength", "skill", "weapon_dice", "mode",
            "protection", "critical_protection", "shield", "min_roll"} <= keys
    assert x6.ROSTER.system == "exploding_d6"
    assert x6.ROSTER.column("shield").spec.choices == ("none", "round shield")
    assert x6.ROSTER.column("lineage").spec.choices == ("human",)


def test_roster_refuses_in_reader_words_and_reads_back():
    roster = Roster(x6.ROSTER).add("Hagen", pc=True, shield="round shield", protection=3)
    with pytest.raises(RulesError, match="Protection pool of Hagen must be"):
        roster.set("Hagen", "protection", -1)
    with pytest.raises(RulesError, match="Attack mode of Hagen must be one of"):
        roster.set("Hagen", "mode", "laser")
    again = Roster.from_json(x6.ROSTER, roster.to_json())
    assert again == roster
