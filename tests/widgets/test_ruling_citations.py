"""Explanation steps cite our named assumptions in reader words (DESIGN.md §5): by the title the
rulings chapter heads them with, and pointing to that chapter, never by their ids. Checked on
the engine's text (no string of it spells a citation by id), on every engine function's
valid example as a reader sees its steps, and on steps known to rest on a ruling."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from rulescore.assumptions import assumption, load_assumptions
from rulescore.errors import TableError
from rulescore.systems import names
from rulescore.systems import range_bands as rb
from rulescore.systems import veil_and_lead as vl
from rulescore.trace import RuleRef, Step, cite_rulings
from tests.rulescore import contract
from tests.rulescore.contract_examples import EXAMPLES, GUESSES
from widgets.common import steps_html

ENGINE = Path(__file__).resolve().parents[2] / "rulescore" / "systems"


def _shown(steps) -> str:
    """The steps as a reader reads them in a tool: the HTML's text, tags left out."""
    return re.sub(r"<[^>]+>", "", steps_html(steps))


def _raw_ids(system: str, text: str) -> list[str]:
    """The ids of *system*'s assumptions that *text* spells (or any "assumption <word>")."""
    found = [a.id for a in load_assumptions(system)
             if re.search(rf"(?<![\w-]){re.escape(a.id)}(?![\w-])", text) and
             ("_" in a.id or re.search(rf"assumptions? {re.escape(a.id)}\b", text))]
    return found + re.findall(r"\bassumptions? [a-z_]+", text)


#: The engine calls whose text a reader reads: a step's text, a rule reference's section, a
#: refusal's message.
READ = {"step", "Step", "rule", "RuleRef", "RulesError"}


def _read_strings(path: Path) -> list[tuple[int, str]]:
    """The strings of *path* given to a call a reader reads (:data:`READ`), f-strings'
    literal parts included."""
    found = []
    for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(call, ast.Call):
            continue
        name = getattr(call.func, "attr", getattr(call.func, "id", ""))
        if name not in READ:
            continue
        for arg in (*call.args, *(k.value for k in call.keywords)):
            found += [(node.lineno, node.value) for node in ast.walk(arg)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return found


@pytest.mark.parametrize("system", names())
def test_no_engine_text_cites_an_assumption_by_its_id(system):
    """Step texts, rule sections and refusals are strings of the engine: none of them says
    "assumption <id>"; a step cites a ruling through its rule reference (RuleRef.citing)."""
    cited = [f"{path.name}:{line}: {text!r}"
             for path in sorted((ENGINE / system).rglob("*.py"))
             for line, text in _read_strings(path)
             if re.search(r"\bassumptions? [a-z_]+", text)]
    assert cited == []


def _traces(value: object, depth: int = 0):
    """Every trace held by an engine result, its own and its parts' (one level down)."""
    if isinstance(value, tuple) and value and all(isinstance(s, Step) for s in value):
        yield value
        return
    if depth > 1:
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _traces(getattr(value, f.name), depth + 1)
    elif isinstance(value, (tuple, list)):
        for item in value[:20]:
            yield from _traces(item, depth + 1)


def _example_result(target: contract.Target):
    args, kwargs = contract.split_arguments(
        target, contract.base_arguments(target, EXAMPLES, GUESSES))
    return target.func(*args, **kwargs)


@pytest.mark.parametrize("system", names())
def test_every_functions_example_steps_show_no_assumption_id(system):
    """Each engine function's valid example, its steps rendered as a tool renders them: no
    assumption id is read, and every ruling a step cites is named by its title."""
    seen = rulings = 0
    for target in (t for t in contract.targets() if t.system == system):
        for trace in _traces(_example_result(target)):
            shown = _shown(trace)
            seen += len(trace)
            assert _raw_ids(system, shown) == [], (target.key, shown)
            for s in trace:
                assert isinstance(s.rule, RuleRef), (target.key, s)
                for ruling in s.rule.rulings:
                    rulings += 1
                    assert f"“{assumption(system, ruling).title}”" in shown
    assert seen > 0
    if system in ("range_bands", "veil_and_lead"):
        assert rulings > 0      # the check does meet cited rulings


@pytest.mark.parametrize("result, system, ruling", [
    (rb.cross_impassable("close", "closer", "dramatic", [1], [6, 6, 6, 6, 6, 6]),
     "range_bands", "fall_damage"),
    (rb.opposed([3, 3], [2, 4]), "range_bands", "ties"),
    (rb.check([1], 2, [6, 6]), "range_bands", "nd_check"),
    (vl.duel([6, 6, 1], [6, 6], quick_a=2, awareness_a=1, quick_b=1, awareness_b=1),
     "veil_and_lead", "duel_ties"),
    (vl.stabilize([1, 1], -1, fumble=True), "veil_and_lead", "fumble"),
])
def test_a_step_resting_on_a_ruling_names_it_by_its_title(result, system, ruling):
    """A step that applies one of our rulings shows "our ruling “<title>”, in the rulings
    chapter" beside its rule, and not the ruling's id."""
    title = assumption(system, ruling).title
    shown = _shown(result.trace)
    assert f"our ruling “{title}”, in the rulings chapter" in shown or \
        re.search(rf"our rulings [^\]]*“{re.escape(title)}”[^\]]*, in the rulings chapter",
                  shown)
    assert _raw_ids(system, shown) == []


def test_a_citation_of_an_unknown_ruling_is_refused():
    with pytest.raises(TableError, match="range_bands has no assumption 'fall_dmg'"):
        RuleRef("range_bands", "Dashing").citing("fall_dmg")
    assert cite_rulings("range_bands", ()) == ""
    two = cite_rulings("range_bands", ("dash_fall", "fall_damage"))
    assert two == (f"our rulings “{assumption('range_bands', 'dash_fall').title}” and "
                   f"“{assumption('range_bands', 'fall_damage').title}”, in the rulings "
                   "chapter")


def test_a_tool_links_a_cited_ruling_where_the_rulings_chapter_shows_it():
    """In a tool's explanation the ruling's title is a link to its section of the rulings
    chapter (book.ruling_link, as the fall note links it)."""
    import html
    cliff = rb.cross_impassable("close", "closer", "dramatic", [1], [6, 6, 6, 6, 6, 6])
    title = html.escape(assumption("range_bands", "fall_damage").title)
    assert re.search(r'\[range_bands §Impassable terrain; our ruling “<a href="rulings.ipynb'
                     r'#fall_damage" target="_self" style="[^"]*">' + re.escape(title)
                     + r"</a>”, in the rulings chapter\]", steps_html(cliff.trace))
