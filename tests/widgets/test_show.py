"""widgets/show.py: a worked example's value shown as a reader reads it, never as Python."""

from fractions import Fraction

from widgets.show import answer, chance_text, chances, labelled, record, steps, value_text


def test_chance_text_gives_the_fraction_and_the_percentage():
    assert chance_text(Fraction(14987, 16384)) == "14987/16384 (91.47%)"
    assert chance_text(Fraction(293, 864)) == "293/864 (33.91%)"
    assert chance_text(Fraction(1)) == "100.00%"
    assert chance_text(Fraction(0)) == "0.00%"


def test_value_text():
    assert value_text(True) == "yes" and value_text(False) == "no"
    assert value_text(Fraction(7, 12)) == "7/12 (58.33%)"
    assert value_text(10) == "10" and value_text("Hand") == "Hand"


def test_labelled_and_answer_are_sentences():
    assert labelled("Chance to hit", Fraction(14987, 16384)).data == (
        "<p class='rulebook-value'>Chance to hit: <b>14987/16384 (91.47%)</b></p>")
    assert answer("Can a spear reach a foe at very close range?", True).data == (
        "<p class='rulebook-value'>Can a spear reach a foe at very close range? <b>Yes.</b></p>")
    assert answer("Is it <safe>?", False).data.endswith("Is it &lt;safe&gt;? <b>No.</b></p>")


L = "style='text-align:left'"


def _rows(html_text: str) -> list[str]:
    body = html_text.split("<tbody>")[1].split("</tbody>")[0]
    return [r for r in body.split("</tr>") if r]


def test_chances_lists_each_outcome_with_percent_and_fraction_in_order():
    odds = {"CF": Fraction(7, 100), "F": Fraction(7, 25), "S": Fraction(13, 25),
            "CS": Fraction(13, 100)}
    shown = chances(odds, "EML 65", outcome="Level").data
    assert "<figcaption><b>EML 65</b></figcaption>" in shown
    assert "<th>Level</th><th>Chance</th><th>Exact</th>" in shown      # the tools' odds table
    assert _rows(shown) == ["<tr><td>CF</td><td>7.00%</td><td>7/100</td>",
                            "<tr><td>F</td><td>28.00%</td><td>7/25</td>",
                            "<tr><td>S</td><td>52.00%</td><td>13/25</td>",
                            "<tr><td>CS</td><td>13.00%</td><td>13/100</td>"]
    assert "Fraction(" not in shown


def test_chances_names_outcomes_by_format_mapping_or_function():
    ticks = {(2, "Fast"): Fraction(1, 4), (6, "Surprised"): Fraction(3, 4)}
    assert _rows(chances(ticks, "t", label="Tick {0} ({1})").data)[0].startswith(
        "<tr><td>Tick 2 (Fast)</td><td>25.00%</td>")
    assert "<td>2, Fast</td>" in chances(ticks, "t").data          # a tuple, by default
    assert "<td>Critical success</td>" in chances(
        {"CS": Fraction(1, 2)}, "t", label={"CS": "Critical success"}).data
    assert "<td>CRIT</td>" in chances({"crit": Fraction(1, 2)}, "t", label=str.upper).data
    assert "<td>Mixed</td>" in chances({"mixed": Fraction(1, 2)}, "t").data


def test_record_names_a_field_as_a_table_header_does():
    shown = record({"ln": 10, "treatment_tn": 0}, "Row").data
    assert f"<th {L}>LN</th>" in shown and f"<th {L}>Treatment TN</th>" in shown


def test_record_is_a_two_column_table():
    shown = record({"ln": 10, "location": "Hand", "location_shock": 2}, "The hand",
                   names={"ln": "Location number"}).data
    assert _rows(shown) == [f"<tr><th {L}>Location number</th><td {L}>10</td>",
                            f"<tr><th {L}>Location</th><td {L}>Hand</td>",
                            f"<tr><th {L}>Location shock</th><td {L}>2</td>"]
    assert "<figcaption><b>The hand</b></figcaption>" in shown


def test_steps_is_a_numbered_list():
    shown = steps((("Start of round", ""), ("Actions", "rogue"), "End"), "One round").data
    assert shown == ("<div class='rulebook-steps'><p><b>One round</b></p><ol>"
                     "<li>Start of round</li><li>Actions — rogue</li><li>End</li></ol></div>")
