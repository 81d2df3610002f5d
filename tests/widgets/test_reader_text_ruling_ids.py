"""Outside explanation steps too, a reader reads our rulings by their titles, never by their ids
(DESIGN.md §5): every tool as the chapters build it (labels, descriptions, tooltips, HTML values,
placeholders, menu choices, and the words that say where each engine input is set) and each
system's rules index (its summaries and reasons) spell no assumption id of any system."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import ipywidgets as w
import pytest

from rulescore.assumptions import assumption, load_assumptions
from rulescore.systems import names
from rulescore.systems import system as system_data
from tests.widgets.test_dice_entry_names import BUILDERS, _open_lazy_parts
from tests.widgets.test_ruling_citations import _raw_ids
from widgets.common import Tool

#: The widget traits whose text a reader reads or hears.
TEXT_TRAITS = ("description", "value", "placeholder", "tooltip", "description_tooltip",
               "_options_labels", "titles")


def _widgets(root: w.Widget) -> Iterator[w.Widget]:
    """Every widget under *root*: inside boxes, panels and hidden parts alike, and those a
    tool holds as attributes before placing them."""
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        widget = stack.pop()
        if id(widget) in seen or not isinstance(widget, w.Widget):
            continue
        seen.add(id(widget))
        yield widget
        stack.extend(getattr(widget, "children", ()))
        if isinstance(widget, Tool):
            for value in vars(widget).values():
                stack.extend(value if isinstance(value, (list, tuple)) else (value,))


def _read(text: str) -> str:
    """What a reader reads of *text*: an HTML value's words and its tooltips (``title``),
    not its tags (a ruling's link goes to its id's anchor, which no reader reads)."""
    titles = " ".join(re.findall(r'\btitle="([^"]*)"', text))
    return html.unescape(f"{re.sub(r'<[^>]+>', ' ', text)} {titles}")


def _texts(widget: w.Widget) -> Iterator[str]:
    """Every text of *widget* a reader reads or hears."""
    for trait in TEXT_TRAITS:
        if not widget.has_trait(trait):
            continue
        value = getattr(widget, trait)
        if isinstance(value, str):
            yield _read(value)
        elif isinstance(value, (list, tuple)):
            yield from (_read(v) for v in value if isinstance(v, str))


def _fixed_words(tool: type) -> Iterator[str]:
    """The words a tool gives for each engine input it sets itself (Reach ``fixed``)."""
    for reach in getattr(tool, "reaches", ()):
        yield from reach.fixed.values()


def _ids_in(text: str) -> list[str]:
    """Every system's assumption ids *text* spells (see test_ruling_citations._raw_ids), and
    any "ruling <id>"."""
    said = {a.id for system in names() for a in load_assumptions(system)
            if re.search(rf"\brulings? {re.escape(a.id)}\b", text)}
    return sorted(said | {found for system in names() for found in _raw_ids(system, text)})


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_no_tool_shows_a_ruling_by_its_id(name: str) -> None:
    from widgets.roster import forget_shared_rosters
    forget_shared_rosters()
    tool = BUILDERS[name]()
    _open_lazy_parts(tool)
    for part in [c for c in tool.children if isinstance(c, Tool)]:
        _open_lazy_parts(part)
    widgets = list(_widgets(tool))
    shown = [(type(x).__name__, text) for x in widgets for text in _texts(x)]
    shown += [("Reach", text) for x in widgets if isinstance(x, Tool)
              for text in _fixed_words(type(x))]
    assert len(shown) > 5
    cited = [(kind, text[:160], _ids_in(text)) for kind, text in shown if _ids_in(text)]
    assert cited == [], name


@pytest.mark.parametrize("system", names())
def test_the_rules_index_names_rulings_by_their_titles(system: str) -> None:
    entries = system_data(system).rules_index()
    assert entries
    cited = [(e.section, _ids_in(f"{e.summary} {e.reason}")) for e in entries
             if _ids_in(f"{e.summary} {e.reason}")]
    assert cited == []
    # a ruling the index names is named by the title the rulings chapter heads it with
    titles = {a.title for a in load_assumptions(system)}
    named = [title for e in entries
             for title in re.findall(r"our ruling “([^”]*)”", f"{e.summary} {e.reason}")]
    assert [title for title in named if title not in titles] == []


@pytest.mark.parametrize("system, section, ruling", [
    ("range_bands", "Damage in dice", "fall_damage"),
    ("exploding_d6", "Accurate Attack — which attack modes", "accurate_modes"),
])
def test_an_index_entry_resting_on_a_ruling_names_its_title(system, section, ruling):
    entry = next(e for e in system_data(system).rules_index() if e.section == section)
    assert f"our ruling “{assumption(system, ruling).title}”" in f"{entry.summary} {entry.reason}"


def test_the_tools_name_the_rulings_that_fix_their_inputs() -> None:
    """The words for an input a ruling fixes, and the percentile roster's weapon-arm tooltip,
    name the ruling by its title where the rulings chapter shows it."""
    from rulescore.systems.percentile.roster import ROSTER
    from widgets.percentile_table import FLOOR, NO_CAP
    from widgets.veil_and_lead_table import FUMBLE_RULING, HEALER_RULING, POOL_RULING
    limits = assumption("percentile", "eml_limits").title
    assert FLOOR == f"the seed's minimum test EML 05: our ruling “{limits}”, in the rulings chapter"
    assert NO_CAP == f"no cap, the seed names none: our ruling “{limits}”, in the rulings chapter"
    assert POOL_RULING == ("a pool rolls the dice it has: our ruling “Pools of one die, or of "
                           "none”, in the rulings chapter")
    assert HEALER_RULING == ("our ruling “Which attribute a stabilisation rolls”, in the "
                             "rulings chapter")
    assert FUMBLE_RULING == ("every die a 1: our ruling “What a stabilisation fumble is”, in "
                             "the rulings chapter")
    arm = next(c for c in ROSTER.columns if c.key == "weapon_arm")
    assert arm.help.endswith("(Injury 5; our ruling “Which Grievous arm injury stops a melee "
                             "test”, in the rulings chapter)")
