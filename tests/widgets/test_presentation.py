"""How shared rendering shows things to a reader: printed tables, worked-example headlines,
label widths, the download link and the odds chart's axis."""

import re

import ipywidgets as w
import pytest

from rulescore.tables import parse_tables
from rulescore.trace import Resolution
from widgets.book import explain, file_table_html, header, humanise, table_html
from widgets.common import fit_label, fit_labels, labelled_text, odds_html, text_em, tick_indices
from widgets.lean import is_shared, shared_layout
from widgets.storage import JsonTransfer
from widgets.tsl import explain as tsl_explain
from rulescore.dice import parse

TABLES = parse_tables('''
[bands]
title = "Bands"
source = "§Test"
columns = ["band", "name", "tn", "allowed", "choices", "note"]
[[bands.rows]]
band = "very_close"
name = "Very close"
tn = 7
allowed = true
choices = ["a", "b"]
note = "A note long enough to need a column that wraps its words onto lines"
[[bands.rows]]
band = "far"
name = "Far"
tn = 9
allowed = false
choices = []
note = "short"

[rules]
title = "Rules"
source = "§Test"
columns = ["setting", "value"]
[[rules.rows]]
setting = "off_hand_pool_penalty"
value = 2
[[rules.rows]]
setting = "base_tn"
value = 10
''')


def _cells(page: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r) for r in rows]


def test_a_table_with_a_name_column_hides_its_key_column_and_reads_booleans_as_yes_no():
    cells = _cells(table_html(TABLES["bands"]))
    assert cells[0] == ["Name", "TN", "Allowed", "Choices", "Note"]
    assert cells[1][:4] == ["Very close", "7", "yes", "a, b"]
    assert cells[2][:4] == ["Far", "9", "no", ""]


def test_a_key_that_is_the_only_label_is_shown_as_words():
    cells = _cells(table_html(TABLES["rules"]))
    assert cells == [["Setting", "Value"], ["off-hand pool penalty", "2"], ["base TN", "10"]]


def test_headers_write_the_rules_abbreviations_in_capitals():
    assert header("treatment_tn") == "Treatment TN"
    assert header("br_numerator") == "BR numerator"
    assert header("shk") == "SHK" and header("zn") == "ZN" and header("wr") == "WR"
    assert header("location_shock") == "Location shock"     # ordinary words stay as they are
    assert header("G4") == "G4" and header("Blunt") == "Blunt"
    assert humanise("very_close") == "very close"


def test_long_text_wraps_in_its_own_column_and_a_wide_table_scrolls_in_its_box():
    page = table_html(TABLES["bands"])
    assert "<div class='rulebook-table-scroll'><table>" in page
    assert ".rulebook-table-scroll{overflow-x:auto;max-width:100%}" in page
    assert "table{table-layout:auto;margin:0}" in page
    assert "td.rulebook-long{min-width:10em}" in page
    assert "<table><thead>" in page                   # 5 columns: not set smaller
    actions = file_table_html("veil_and_lead", "actions", "actions")
    assert "<table class='rulebook-wide'><thead>" in actions
    assert "<td class='rulebook-long'>short</td>" in page
    assert "<td>Far</td>" in page                      # short columns carry no class


def test_a_cell_naming_another_table_of_its_file_shows_that_tables_title():
    page = file_table_html("percentile", "injury", "body_zones")
    assert "<td>Head locations (Location Die)</td>" in page and "locations_head" not in page
    assert "<th>ZN</th>" in page


def test_the_row_a_walker_used_is_still_marked():
    page = table_html(TABLES["bands"], lambda i: i == 1)
    used = re.findall(r"<tr class='rulebook-row-used'[^>]*>(.*?)</tr>", page)
    assert used == ["<td>Far</td><td>9</td><td>no</td><td></td><td class='rulebook-long'>short</td>"]


@pytest.mark.parametrize("value, outcome, headline", [
    (4, "Tick 4", "<p><b>Tick 4</b></p>"),
    (8, "8E", "<p><b>8E</b></p>"),
    (3, "HR3", "<p><b>HR3</b></p>"),
    ("Cy", "Cy", "<p><b>Cy</b></p>"),
    (2, "Refused", "<p><b>Refused</b> (value 2)</p>"),
    (-1, "Stabilized", "<p><b>Stabilized</b> (value -1)</p>"),
    (1, "17 hits", "<p><b>17 hits</b> (value 1)</p>"),
])
def test_explain_shows_the_value_only_when_the_outcome_does_not(value, outcome, headline):
    page = explain(Resolution(value, outcome)).data
    assert page.startswith(f"<div class='rulebook-worked'>{headline}")


def test_tsl_explain_drops_a_value_the_outcome_already_shows():
    assert "(value" not in tsl_explain(Resolution(16, "Proficient 16")).data
    assert "<b>Double Movement</b> (value 2)" in tsl_explain(
        Resolution(2, "Double Movement")).data


def test_tsl_explain_names_a_band_as_the_chapter_does_and_is_plain_html():
    shown = tsl_explain(Resolution(2, "success"))
    assert not isinstance(shown, w.Widget)        # plain output: the live book keeps it once
    assert shown.data.startswith("<div class='rulebook-worked'><p><b>Success</b>")


def test_a_long_label_and_placeholder_widen_the_field_not_cut_it():
    field = labelled_text("Tens die (00–90)", placeholder="e.g. 70", width="17em",
                          label_width="8em")
    assert field.description == "Tens die (00–90)"               # the accessible name stays
    assert field.style.description_width == f"{text_em('Tens die (00–90)'):g}em" == "9.1em"
    assert field.layout.width == "18.1em"                         # the input keeps its 9em
    wide = labelled_text("Bonus", placeholder="how many d6, e.g. 4", width="20em",
                         label_width="15em")
    assert wide.style.description_width == "15em" and wide.layout.width == "27.4em"
    assert is_shared(field.layout) and is_shared(wide.style)


def test_a_dropdown_widens_to_its_longest_option_and_a_checkbox_to_its_label():
    box = w.VBox([w.HBox([
        w.Dropdown(options=["short", "x" * 40], description="Pick",
                   style={"description_width": "5em"}, layout=shared_layout(width="12em")),
        w.Checkbox(description="Rigid armour (glancing blows)", indent=False,
                   layout=shared_layout(width="10em"))])])
    before = shared_layout(width="12em")
    fit_labels(box)
    row = box.children[0]
    drop, check = row.children
    assert drop.layout.width == "30.4em"          # 5em label + 0.6em gap + 22.3em text + 2.5em
    assert check.layout.width == "18.2em"         # 16.2em text + 2em for the box
    assert row.layout.flex_flow == "row wrap"
    assert before.width == "12em"                 # the shared model other widgets use is as it was
    indented = w.Checkbox(description="Rigid armour (glancing blows)",
                          style={"description_width": "12em"}, layout=shared_layout(width="22em"))
    fit_label(indented)
    assert indented.layout.width == "30.2em"      # 12em indent + 16.2em text + 2em box


def test_fit_label_leaves_a_field_that_already_fits_alone():
    field = w.IntText(description="EML", style={"description_width": "6em"},
                      layout=shared_layout(width="12em"))
    layout, style = field.layout, field.style
    fit_label(field)
    assert field.layout is layout and field.style is style


def test_the_download_link_looks_like_a_link():
    transfer = JsonTransfer("x.json", "encounter", lambda text: None)
    transfer.set_text('{"a": 1}')
    assert 'style="color:#1565c0;text-decoration:underline;' in transfer.link.value


def test_axis_labels_never_crowd_each_other():
    ticks = sorted(tick_indices(list(range(1, 101)), 580 / 100))
    assert ticks == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90,
                     99]
    assert sorted(tick_indices(list(range(3, 19)), 580 / 16)) == list(range(16))
    chart = odds_html(parse("d100").distribution())
    labels = re.findall(r'<text x="([\d.]+)" y="174" font-size="11"', chart)
    xs = [float(x) for x in labels]
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 3 * 7 + 6


def test_rulings_say_where_a_reader_switches_each_one():
    from widgets.book import rulings
    tsl_html = rulings("tsl").data
    assert "<b>Switch it:</b> “Band ladder” in the attack resolver." in tsl_html
    assert "<b>Switch it:</b> “Out-of-zone penalty” in the weapon builder." in tsl_html
    x6_html = rulings("exploding_d6").data
    assert "<b>Switch it:</b> “Crits stopped first” in the attack tool." in x6_html
    assert "<b>Switch it:</b> “Shield behind cover” in the attack tool." in x6_html
    assert "Switchable" not in tsl_html + x6_html


def test_a_grid_of_fields_widens_its_columns_to_its_widest_field():
    wide = w.Dropdown(description="Target's cover", options=["5+ half hidden / shield, very long"],
                      style={"description_width": "8em"}, layout=shared_layout(width="20em"))
    narrow = w.Text(description="Skill", style={"description_width": "8em"},
                    layout=shared_layout(width="12em"))
    grid = w.GridBox([narrow, wide], layout=shared_layout(
        grid_template_columns="repeat(auto-fill, 22em)"))
    fit_labels(w.VBox([grid]))
    widest = float(wide.layout.width.removesuffix("em"))
    assert widest > 22
    assert grid.layout.grid_template_columns == f"repeat(auto-fill, {widest:g}em)"


def test_a_tool_is_framed_fits_its_labels_and_carries_its_class():
    from widgets.common import Tool, tool_layout
    drop = w.Dropdown(options=["x" * 40], description="Pick", style={"description_width": "5em"},
                      layout=shared_layout(width="12em"))
    tool = Tool([w.HBox([drop])], "rulebook-example")
    assert tool.layout is tool_layout() and tool.layout.border == "1px solid #c9c4b8"
    assert drop.layout.width == "30.4em"                     # fitted as fit_labels does
    assert "rulebook-example" in tool._dom_classes
    assert Tool([])._dom_classes == ()                      # no class unless one is given


def test_every_tool_of_the_book_is_a_tool():
    """Each box of a system's tool module that styles itself as a rulebook-… tool frames and
    fits itself through Tool, so no tool can forget to fit its labels. (The parts tools are
    made of live in common.py and storage.py.)"""
    import importlib
    import inspect
    import pkgutil

    import widgets
    from widgets.common import Tool
    parts = {"common", "storage", "lean", "book", "show"}
    boxes = []
    for info in pkgutil.iter_modules(widgets.__path__):
        if info.name in parts:
            continue
        module = importlib.import_module(f"widgets.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, w.Box):
                boxes.append((name, issubclass(cls, Tool),
                              '"rulebook-' in inspect.getsource(cls)))
    assert len([name for name, is_tool, _ in boxes if is_tool]) >= 24
    assert [name for name, is_tool, styled in boxes if styled and not is_tool] == []


def test_printed_tables_word_their_special_values():
    from widgets.book import file_table_html
    assert "<td>no check</td>" in file_table_html("veil_and_lead", "injury", "grievous_wounds")
    assert "<td>unusable</td>" in file_table_html("percentile", "injury", "injury_effects")
    assert "<td>unusable</td>" in file_table_html("percentile", "healing", "indefinite_impairment")


def test_fields_stacked_in_a_column_share_one_label_width_so_inputs_line_up():
    short = labelled_text("Name", width="20em", label_width="6em")
    long = labelled_text("Initiative margin (blank: roll)", width="20em", label_width="6em")
    row = w.HBox([labelled_text("Side", width="12em", label_width="3em")])
    box = w.VBox([short, long, row, w.HTML("a note")])
    fit_labels(box)
    assert long.style.description_width == f"{text_em(long.description):g}em" == "17.4em"
    assert short.style.description_width == "17.4em"
    assert _em_width(short) == 20 + 17.4 - 6 == _em_width(long)   # same input width, in line
    assert row.children[0].style.description_width == "3em"      # a row is not a column


def _em_width(field):
    return float(field.layout.width.removesuffix("em"))


def test_rows_the_engine_prepared_print_as_a_table_with_their_headers():
    from widgets.book import print_rows
    shown = print_rows("Actions", "III Tempo & Actions",
                       [{"Action": "Quick Shot", "Tempo": "Base − 1 (at least 3)"},
                        {"Action": "Aim <fast>", "Tempo": "2"}]).data
    assert "<th>Action</th><th>Tempo</th>" in shown and "<b>Actions</b>" in shown
    assert "<td>Base − 1 (at least 3)</td>" in shown and "Aim &lt;fast&gt;" in shown
    assert "tempo_rule" not in shown


def test_a_probability_leads_with_its_percentage_and_a_long_fraction_waits_behind_a_toggle():
    from fractions import Fraction

    from widgets.common import chance_html, exact_html, odds_table_html

    assert chance_html(Fraction(211, 2048)) == "10.30% (211/2048)"
    assert chance_html(Fraction(1, 2), strong=True) == "<b>50.00%</b> (1/2)"
    assert chance_html(Fraction(1)) == "100.00%"
    long = Fraction(31281, 32768) ** 3
    assert len(str(long)) > 15
    assert exact_html(long) == ("<details class='rulebook-exact' style='display:inline-block'>"
                                f"<summary>show exact</summary>{long}</details>")
    assert chance_html(long).startswith("86.99% <details")
    table = odds_table_html([("hit", long), ("miss", 1 - long)], "Result")
    assert table.count("show exact") == 2 and "<td>86.99%</td>" in table


def test_the_grievous_wounds_table_prints_its_recovery_heading_and_days_in_words():
    """The data's headings and words reach the printed table: "Recovery (days)" over the
    column, "none" for a wound the check clears, Broken Bone's one day (§IX)."""
    from rulescore.systems.veil_and_lead import records
    printed = file_table_html("veil_and_lead", "injury", "grievous_wounds")
    heads = re.findall(r"<th>(.*?)</th>", printed)
    assert "Recovery (days)" in heads and "Recovery days" not in heads
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in
            re.findall(r"<tr[^>]*>(<td.*?)</tr>", printed)]
    at = heads.index("Recovery (days)")
    by_wound = {r[heads.index("Wound")]: r[at] for r in rows}
    assert by_wound["Broken Bone"] == str(records.grievous_by_name("Broken Bone").recovery_days)
    assert by_wound["Flesh Wound"] == "none"


def test_a_key_the_data_words_is_printed_in_those_words():
    """A value the table words (shown_as) prints as those words, not as its key read aloud."""
    table = parse_tables('''
[acts]
source = "§Test"
columns = ["act", "weapon"]
[acts.headings]
weapon = "Done with the weapon"
[acts.shown_as]
weapon = { "on_arrival" = "only if it ends in a melee attack" }
[[acts.rows]]
act = "Charge"
weapon = "on_arrival"
[[acts.rows]]
act = "Fire"
weapon = "used_twice"
''')["acts"]
    printed = table_html(table)
    assert "<th>Done with the weapon</th>" in printed
    assert "<td>only if it ends in a melee attack</td>" in printed
    assert "<td>used twice</td>" in printed                # a key without words: read aloud


def test_rules_coverage_lists_every_section_and_why_one_is_left_out():
    from rulescore.systems import system as system_data
    from widgets.book import rules_coverage
    entries = system_data("percentile").rules_index()
    left_out = [e for e in entries if e.status == "out_of_scope"]
    page = rules_coverage("percentile").data
    assert page.count("<tr>") == len(entries) + 1            # the header row and one a section
    assert (f"Every section of the rules: {len(entries) - len(left_out)} in the tools, "
            f"{len(left_out)} left out") in page
    assert page.count("<b>Left out:</b> ") == len(left_out) == 12
    assert ("<b>Left out:</b> Serious and Grievous injuries trigger a Morale Roll whose rules "
            "are not in the seed.") in page
    # a ruling an entry leans on links to where the rulings chapter shows it, by its title
    assert ("its use in the melee matrix is our ruling “<a href='#melee_star_counts' "
            "target='_self'>Victory stars in the MELEE TEST matrix</a>”") in page
    assert "shot_difficulty" not in rules_coverage("range_bands").data   # no engine names


def test_rules_coverage_escapes_the_index_text(monkeypatch):
    from rulescore.rules_index import RuleEntry
    from rulescore.systems import system as system_data
    from widgets.book import rules_coverage
    odd = RuleEntry("tsl", "<script>§1</script>", "a < b & c", None, None, "out_of_scope",
                    "why <i>not</i>")
    monkeypatch.setattr(type(system_data("tsl")), "rules_index", lambda self: (odd,))
    page = rules_coverage("tsl").data
    assert "<script>§1" not in page and "&lt;script&gt;§1&lt;/script&gt;" in page
    assert "a &lt; b &amp; c" in page and "why &lt;i&gt;not&lt;/i&gt;" in page
