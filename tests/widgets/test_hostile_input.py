"""Hostile files and hostile typing (issue 18: escape at the edge, validate at the door).

Every field of every saved format, found by walking its declaration (rulescore.saved), is fed
wrong values and hostile text through the tool's own upload; a refused file must name the
field as the file spells it and change nothing (state, page, autosave), an accepted one must
reach the page escaped. Every tool of the book is then typed into with markup and every button
pressed: no HTML the tools draw may carry a tag or an attribute that came from the input."""

from __future__ import annotations

import html
import importlib
import inspect
import json
import pkgutil
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, Callable

import ipywidgets as w
import pytest
from hypothesis import given, settings, strategies as st

import widgets
from rulescore import saved
from rulescore.systems import percentile as pc
from rulescore.systems import tsl
from rulescore.systems.percentile.record import record_format
from rulescore.systems.tsl.turns import board_format
from rulescore.systems.veil_and_lead.encounter import Encounter, EncounterHistory, history_format
from tests.rulescore.saved_fields import (PAYLOADS, Path, body_of, fields, put, shown_path,
                                        wrong_values)
from widgets.common import ErrorLine, Tool, odds_table_html, section, steps_html
from widgets.percentile_healing import HealingWalker, sheet_html, timeline_svg
from widgets.tsl import TurnBoard
from widgets.veil_and_lead_count import CountTracker, cylinder_svg

NEVER_DRAWN = {"img", "script", "xss", "iframe"}  # tags our tools never draw


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, tuple(sorted(a for a, _ in attrs))))
        self.hrefs += [v or "" for a, v in attrs if a == "href"]


def parse(markup: str) -> _Tags:
    found = _Tags()
    found.feed(markup)
    found.close()
    return found


def injected(markup: str) -> list[str]:
    """What in *markup* can only have come from hostile input: a raw payload, a tag our tools
    never draw, an event-handler attribute or a script link."""
    found = parse(markup)
    problems = [p for p in PAYLOADS if p in markup]
    problems += [f"<{t}>" for t, _ in found.tags if t in NEVER_DRAWN]
    problems += [f"{t} {a}" for t, attrs in found.tags for a in attrs if a.startswith("on")]
    problems += [h for h in found.hrefs if h.lower().startswith("javascript:")]
    return problems


def page_html(root: w.Widget) -> list[str]:
    """Every piece of HTML a tool shows (its HTML widgets, however deep)."""
    out, stack = [], [root]
    while stack:
        widget = stack.pop()
        if isinstance(widget, w.Box):
            stack.extend(widget.children)
        if isinstance(widget, (w.HTML, w.HTMLMath)):
            out.append(widget.value)
    return out


def structure(root: w.Widget) -> list:
    """The tags and attribute names of everything a tool shows, in a stable order."""
    return sorted(t for markup in page_html(root) for t in parse(markup).tags)


# -- the three saved formats, each with a sample file, its tool and how to read the tool's state --

def sample_record(name: str = "Ana") -> str:
    r = pc.InjuryRecord(name).add_injury("Abdomen", "Edge", 2).add_injury("Thigh", "Blunt", 1)
    r = r.treat(0, pc.treatment_roll(99, 60, "Edge", "S2")).with_blood_loss(2)
    return pc.recover(r, dice=[62, 24, 95]).record.to_json()


def sample_history(names: tuple[str, str] = ("Ada", "Bo"), trigger: str = "the door") -> str:
    """Two states: both fighters join (the second Prone), then the first holds."""
    enc = Encounter().join(names[0], pc=True, quick=3, margin=4).join(
        names[1], pc=False, quick=2, margin=1).set_condition(names[1], "Prone")
    h = EncounterHistory().push(enc, f"{names[0]} and {names[1]} join")
    enc, _ = enc.next_turn()
    return h.push(enc.hold(names[0], trigger), f"{names[0]} holds until: {trigger}").to_json()


def sample_board(names: tuple[str, str] = ("Vela", "Mar")) -> str:
    enc = tsl.take(tsl.new_encounter(list(names)), names[0], "Action").encounter
    return json.dumps(tsl.encounter_to_dict(tsl.next_turn(enc)))


@dataclass(frozen=True)
class Kind:
    fmt: Callable[[], saved.SavedFormat]
    sample: Callable[..., str]
    tool: Callable[[], Tool]
    state: Callable[[Any], object]


KINDS = {
    "injury record": Kind(record_format, sample_record, HealingWalker, lambda t: t.record),
    "encounter": Kind(history_format, sample_history, CountTracker, lambda t: t.history),
    "TSL turn board": Kind(board_format, sample_board, lambda: TurnBoard("A, B"),
                           lambda t: t.encounter),
}


def upload(tool: Any, text: str) -> None:
    tool.kept.transfer.receive("file.json", text.encode())


def cases(noun: str) -> list[tuple[Path, object, str]]:
    kind = KINDS[noun]
    fmt = kind.fmt()
    body = body_of(fmt, json.loads(kind.sample()))
    out = []
    for path, spec, value in fields(fmt.body, body):
        if not path:
            continue  # a file that is no object at all: tests/rulescore/test_saved.py
        for wrong, says in wrong_values(spec, value):
            out.append((path, wrong, says))
    return out


ALL_CASES = [(noun, *case) for noun in KINDS for case in cases(noun)]


def text_fields(noun: str) -> list[Path]:
    """The paths of every free-text field (no list of allowed words) in a sample file."""
    kind = KINDS[noun]
    fmt = kind.fmt()
    body = body_of(fmt, json.loads(kind.sample()))
    return [path for path, spec, value in fields(fmt.body, body)
            if isinstance(spec, (saved.Text, saved.Maybe)) and value is not None
            and isinstance(getattr(spec, "inner", spec), saved.Text)
            and getattr(spec, "inner", spec).choices is None]


_TOOLS: dict[str, Any] = {}


def fresh(noun: str) -> tuple[Any, list[str]]:
    """The tool for *noun* holding its sample, and the list its autosave writes to."""
    if noun not in _TOOLS:
        _TOOLS[noun] = KINDS[noun].tool()
    tool = _TOOLS[noun]
    upload(tool, KINDS[noun].sample())
    assert tool.kept.transfer.error.value == "", tool.kept.transfer.error.value
    kept: list[str] = []
    tool.kept.store.save = kept.append
    return tool, kept


def try_wrong(noun: str, path: Path, wrong: object, says: str) -> list[str]:
    """Upload the sample with one wrong field; the problems found (none when it held)."""
    kind = KINDS[noun]
    fmt = kind.fmt()
    tool, kept = fresh(noun)
    before, page = kind.state(tool), structure(tool)
    upload(tool, put(fmt, kind.sample(), path, wrong))
    message = tool.kept.transfer.error.message
    expected = f"The upload changed nothing: {noun}: {shown_path(path)} "
    problems = []
    if not message.startswith(expected) or says not in message:
        problems.append(f"message {message!r} does not start {expected!r} and say {says!r}")
    if kind.state(tool) != before or kept:
        problems.append("the refused file changed the tool or its autosave")
    if [t for t in structure(tool) if t not in page and t[0] != "div"]:
        problems.append("the page gained markup")
    problems += [p for markup in page_html(tool) for p in injected(markup)]
    return problems


def try_text(noun: str, path: Path, text: str) -> list[str]:
    """Upload the sample with hostile text in one free-text field: it is refused (names must
    agree across fields) and changes nothing, or it loads and reaches the page escaped."""
    kind = KINDS[noun]
    fmt = kind.fmt()
    spec_text = text[:60]
    tool, _ = fresh(noun)
    before = kind.state(tool)
    upload(tool, put(fmt, kind.sample(), path, spec_text))
    problems = [p for markup in page_html(tool) for p in injected(markup)]
    if tool.kept.transfer.error.value and kind.state(tool) != before:
        problems.append("a refused file changed the tool")
    return problems


# -- the properties --------------------------------------------------------------------------------

@settings(deadline=None, max_examples=60)
@given(st.sampled_from(ALL_CASES))
def test_a_wrong_value_in_any_field_is_refused_by_name_and_changes_nothing(case):
    noun, path, wrong, says = case
    assert try_wrong(noun, path, wrong, says) == []


TEXT_CASES = [(noun, path) for noun in KINDS for path in text_fields(noun)]


@settings(deadline=None, max_examples=100)
@given(st.sampled_from(TEXT_CASES), st.sampled_from(PAYLOADS) | st.text(min_size=1,
                                                                          max_size=60))
def test_hostile_text_in_any_free_text_field_reaches_the_page_escaped(case, text):
    noun, path = case
    assert try_text(noun, path, text) == []


NAMES = st.sampled_from(PAYLOADS) | st.text(
    st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60).filter(
    lambda s: s.strip() == s and s)


@settings(deadline=None, max_examples=25)
@given(st.lists(NAMES, min_size=3, max_size=3, unique=True))
def test_names_made_in_the_tools_reach_every_page_escaped_and_shaped_as_plain_names(names):
    """The same files built with hostile names and with plain ones draw the same tags."""
    plain = ("Name one", "Name two", "Name three")
    for noun, make in (("injury record", lambda n: sample_record(n[0])),
                       ("encounter", lambda n: sample_history((n[0], n[1]), n[2])),
                       ("TSL turn board", lambda n: sample_board((n[0], n[1])))):
        hostile, benign = KINDS[noun].tool(), KINDS[noun].tool()
        upload(hostile, make(tuple(names)))
        upload(benign, make(plain))
        assert hostile.kept.transfer.error.value == ""
        assert [p for m in page_html(hostile) for p in injected(m)] == []
        assert structure(hostile) == structure(benign)
        shown = "".join(page_html(hostile))
        assert html.escape(names[0]).strip() in shown or noun == "TSL turn board"


def test_every_field_of_every_format_sweep(capsys):
    """The whole sweep, every case once, its counts printed (pytest -s shows them)."""
    tried = failed = 0
    failures = []
    for noun, path, wrong, says in ALL_CASES:
        tried += 1
        problems = try_wrong(noun, path, wrong, says)
        if problems:
            failed += 1
            failures.append((noun, shown_path(path), wrong, problems))
    for noun, path in TEXT_CASES:
        for text in PAYLOADS:
            tried += 1
            problems = try_text(noun, path, text)
            if problems:
                failed += 1
                failures.append((noun, shown_path(path), text, problems))
    with capsys.disabled():
        print(f"\nhostile files: {tried} tried, {tried - failed} held, {failed} failed "
              f"({len(ALL_CASES)} wrong values, {len(TEXT_CASES)} text fields × "
              f"{len(PAYLOADS)} payloads)")
    assert failures == []


def test_the_declarations_reach_every_field_of_the_samples():
    """A new field in a format is walked without a new test: the samples hold every one."""
    for noun, kind in KINDS.items():
        fmt = kind.fmt()
        body = body_of(fmt, json.loads(kind.sample()))
        assert set(body) == set(fmt.body.fields), noun


# -- the HTML-building helpers and every tool's typed fields --------------------------------------

def _error_line(p: str) -> list[str]:
    line = ErrorLine()
    line.show(p)
    assert line.message == p
    return [line.value]


def _shared_helpers(p: str) -> list[str]:
    from fractions import Fraction

    from rulescore.trace import RuleRef, Step
    return [odds_table_html([(p, Fraction(1, 2))], p),
            steps_html([Step(text=p, rule=RuleRef(p, p))]),
            section(p)[0].value]


def _book_helpers(p: str) -> list[str]:
    from fractions import Fraction

    from widgets import book, show
    return [shown.data for shown in (
        show.labelled(p, p), show.answer(p, True), show.chances({p: Fraction(1, 3)}, p, outcome=p),
        show.record({p: p}, p), show.steps([p], p),
        book.print_rows(p, p, [{"name": p, "note": p}]))]


def _healing_record(p: str) -> list[str]:
    """A record built directly (not through from_json) with markup in every text field."""
    inj = pc.RecordedInjury(p, "Edge", 2, 0, treatment=p, hr=3)
    return [sheet_html(pc.InjuryRecord(p, injuries=(inj,), log=(p,))),
            timeline_svg(pc.InjuryRecord(p).add_injury("Thigh", "Blunt", 2))]


def _cylinder(p: str) -> list[str]:
    return [cylinder_svg(Encounter().join(p, pc=True, quick=3, margin=4))]


@pytest.mark.parametrize("build", [_error_line, _shared_helpers, _book_helpers,
                                   _healing_record, _cylinder], ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_html_helper_escapes_what_it_is_given(build, payload):
    for markup in build(payload):
        assert injected(markup) == [], markup


def _our_tools():
    for info in pkgutil.iter_modules(widgets.__path__):
        module = importlib.import_module(f"widgets.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, Tool) and cls is not Tool:
                yield cls


def _inputs_and_buttons(root: w.Widget) -> tuple[list, list]:
    texts, buttons, stack = [], [], [root]
    while stack:
        widget = stack.pop()
        if isinstance(widget, w.Box):
            stack.extend(widget.children)
        elif isinstance(widget, (w.Text, w.Textarea)):
            texts.append(widget)
        elif isinstance(widget, w.Button):
            buttons.append(widget)
    return texts, buttons


@pytest.mark.parametrize("cls", list(_our_tools()), ids=lambda c: c.__qualname__)
def test_markup_typed_into_any_tool_is_shown_escaped(cls):
    """Every text field of the tool gets each payload, then every button is pressed."""
    try:
        tool = cls()
    except TypeError:
        pytest.skip(f"{cls.__qualname__} needs arguments to be built")
    texts, buttons = _inputs_and_buttons(tool)
    for payload in PAYLOADS[:4]:
        for field in texts:
            field.value = payload
        for b in buttons:
            if not b.disabled:
                b.click()
        problems = [p for markup in page_html(tool) for p in injected(markup)]
        assert problems == [], (payload, problems)


FIGHT_PAGES = ("veil_and_lead", "percentile", "exploding_d6", "tsl", "range_bands")


@pytest.mark.parametrize("system", FIGHT_PAGES)
def test_hostile_fighter_names_reach_every_fight_page_escaped(system):
    """Every fighter of the page's roster renamed to a payload, then every button pressed
    (twice over: the first round starts the fight, the second rolls and applies in it)."""
    from widgets.roster import forget_shared_rosters
    forget_shared_rosters()
    page = importlib.import_module(f"widgets.{system}_fight").fight_page()
    roster = page.roster
    assert len(roster.names()) >= 2, "a fight page starts with fighters to rename"
    for old, new in zip(roster.names(), PAYLOADS):
        roster = roster.rename(old, new)
    page.editor.set_roster(roster)
    for _ in range(2):
        _, buttons = _inputs_and_buttons(page)
        for b in buttons:
            if not b.disabled and b.description not in ("Start a new fight", "Remove"):
                b.click()
    shown = page_html(page)
    assert any(html.escape(PAYLOADS[0]) in markup for markup in shown), "a name is shown"
    problems = [p for markup in shown for p in injected(markup)]
    assert problems == [], problems
