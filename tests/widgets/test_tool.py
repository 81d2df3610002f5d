"""What every tool gets from widgets.common: the waiting line in the reader's words, the answer
skeleton (an error shown in place, then cleared once fixed) and the whole-number helpers."""

from __future__ import annotations

import ipywidgets as w
import pytest

from rulescore.errors import RulesError
from widgets.common import (ErrorLine, ExplanationView, Tool, answers, int_field, read_int,
                            waiting_html)
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


def test_int_field_is_bounded_only_when_given_a_low_end() -> None:
    free = int_field("Missile ML", 60)
    assert isinstance(free, w.IntText) and not isinstance(free, w.BoundedIntText)
    assert free.description == "Missile ML" and free.value == 60
    kept = int_field("Fatigue", 0, 0, 100)
    assert (kept.min, kept.max) == (0, 100)
    assert int_field("Base Range (ft)", 40, 1).max == 10**6


def test_read_int_names_the_field_in_the_readers_words() -> None:
    field = w.Text(value=" 3 ")
    assert read_int("Skill", field) == 3
    field.value = "-1"
    with pytest.raises(RulesError, match="Skill must be 0 or more, got -1"):
        read_int("Skill", field)
    field.value = "x"
    with pytest.raises(RulesError, match="Skill must be a whole number, got 'x'"):
        read_int("Skill", field)
    field.value = ""
    assert read_int("Aim actions", field, blank=0) == 0
    with pytest.raises(RulesError, match="Minimum roll must be 1 or more, got 0"):
        read_int("Minimum roll", w.Text(value="0"), minimum=1)


class _Halver(Tool):
    """A tool of one field whose answer is half the number typed (even numbers only)."""

    def __init__(self) -> None:
        self.number = w.Text(value="4", description="Number")
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([self.number, self.error, self.result, self.explanation])
        self.update()

    @answers("result", "explanation")
    def update(self) -> None:
        n = read_int("Number", self.number)
        if n % 2:
            raise RulesError(f"Number must be even, got {n}")
        self.result.value = f"half is {n // 2}"
        self.explanation.value = "<ol><li>halved</li></ol>"


def test_an_answer_shows_the_error_in_place_then_clears_it_once_fixed() -> None:
    tool = _Halver()
    assert tool.result.value == "half is 2" and tool.error.message == ""
    tool.number.value = "3"
    tool.update()
    assert tool.error.message == "Number must be even, got 3"
    assert tool.result.value == "" and tool.explanation.value == ""
    tool.number.value = "8"
    tool.update()
    assert tool.error.message == "" and tool.result.value == "half is 4"


def test_an_answer_lets_other_errors_through() -> None:
    tool = _Halver()
    tool.number = None  # a bug, not the reader's input: it must not be shown as a message
    with pytest.raises(AttributeError):
        tool.update()



def test_every_worked_result_has_one_look(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulescore.systems import range_bands as rb
    from widgets import book, range_bands

    shown: list[str] = []
    for module in (book, range_bands):  # what the notebook would show, kept as text
        monkeypatch.setattr(module, "display", lambda page: shown.append(page.data))
    book.worked_roll("2d6", dice=[3, 4])
    move = range_bands.worked(rb.move("far", "closer"), "One move")
    for page in [*shown, book.explain(move).data]:
        assert page.startswith("<div class='rulebook-worked'>")
        assert page.endswith("</ol></div>") and "<ol class='rulebook-trace'>" in page
    assert shown[0].startswith("<div class='rulebook-worked'><div><code>2d6</code> → total <b>7</b>")
    assert shown[1].startswith("<div class='rulebook-worked'><p><b>One move</b> → <b>moves 1 band")


def test_every_chapter_names_its_own_path_once_and_shows_the_bar_at_both_ends() -> None:
    import json
    from pathlib import Path

    from rulebook.toc import load_book

    book = load_book()
    root = Path(__file__).resolve().parents[2] / "book"
    for chapter in book.chapters:
        cells = json.loads((root / chapter.notebook).read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        named = [s for s in code if "chapter_nav(" in s and "import" not in s]
        assert named == [f'nav = chapter_nav("{chapter.file}")\nnav'], chapter.file
        assert code[-1] == "nav", chapter.file
