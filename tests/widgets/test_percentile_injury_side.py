"""An arm or leg injury's side, kept on the record, is shown wherever the tools name the
injury: the fight page's turn order and injury menu, and the healing walker's sheet."""

from __future__ import annotations

from dataclasses import replace

from rulescore.systems import percentile as pc
from widgets.percentile_fight import fight_page
from widgets.percentile_healing import sheet_html


def _sided() -> pc.InjuryRecord:
    return (pc.InjuryRecord("Brigand").add_injury("Hand", "Point", 4, side="right")
            .add_injury("Abdomen", "Edge", 2))


def test_the_fight_page_names_the_side():
    page = fight_page()
    fight = pc.fight_for(page.roster, page.state)
    brigand = fight.combatant("Brigand")
    page.apply("a wound", state=fight.with_combatant(replace(brigand, record=_sided())))
    page.after.who.value = "Brigand"
    assert [label for label, _ in page.after.injury.options] == [
        "1. G4P right hand (untreated)", "2. S2E abdomen (untreated)"]
    assert "G4P right hand, S2E abdomen" in page.turns.table.value


def test_the_healing_sheet_names_the_side():
    sheet = sheet_html(_sided())
    assert "<td>Right hand</td>" in sheet and "<td>Abdomen</td>" in sheet
