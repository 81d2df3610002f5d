"""Resolutions and their traces: frozen, numbered plain text, values by name."""

import dataclasses
from fractions import Fraction

import pytest

from rulescore.trace import Resolution, RuleRef, Step, TraceStep, format_trace, step

VL = RuleRef("veil_and_lead", "VIII Calculating Damage")


def test_rule_ref_text():
    assert str(VL) == "veil_and_lead §VIII Calculating Damage"


def test_step_records_values_in_order():
    s = step("Margin 5 ÷ 3 = 1 Step", VL, margin=5, steps=1, note="rounded down")
    assert s == Step("Margin 5 ÷ 3 = 1 Step", VL, (("margin", 5), ("steps", 1),
                                                     ("note", "rounded down")))
    assert s.value("margin") == 5
    assert s.value("steps") == 1
    assert s.value("note") == "rounded down"
    assert TraceStep is Step


def test_step_value_fraction_and_missing():
    s = step("half", VL, p=Fraction(1, 2))
    assert s.value("p") == Fraction(1, 2)
    with pytest.raises(KeyError):
        s.value("q")
    assert step("no values", VL).values == ()


def test_step_value_first_of_repeated_names():
    s = Step("twice", VL, (("n", 1), ("n", 2)))
    assert s.value("n") == 1


def test_frozen():
    s = step("a", VL, x=1)
    r = Resolution(3, "hit", (s,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.value = 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.trace = ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.text = "b"
    with pytest.raises(dataclasses.FrozenInstanceError):
        VL.system = "other"


def test_resolution_defaults_and_equality():
    r = Resolution(0, "miss")
    assert r.trace == ()
    assert r.explain() == ""
    assert Resolution(1, "hit", (step("a", VL),)) == Resolution(1, "hit", (step("a", VL),))
    assert hash(Resolution(1, "hit", (step("a", VL, x=1),))) == \
           hash(Resolution(1, "hit", (step("a", VL, x=1),)))


def test_format_trace_numbers_each_step_with_its_rule():
    steps = [step("Sum of two highest: 6 + 5 = 11", RuleRef("veil_and_lead", "III Checks")),
             step("Margin 11 − 8 = 3", RuleRef("veil_and_lead", "III Checks")),
             step("Margin 3 ÷ 3 = 1 Step", VL)]
    assert format_trace(steps) == (
        "1. Sum of two highest: 6 + 5 = 11  [veil_and_lead §III Checks]\n"
        "2. Margin 11 − 8 = 3  [veil_and_lead §III Checks]\n"
        "3. Margin 3 ÷ 3 = 1 Step  [veil_and_lead §VIII Calculating Damage]"
    )
    assert Resolution(1, "hit", tuple(steps)).explain() == format_trace(steps)


def test_format_trace_takes_any_iterable():
    assert format_trace(iter([step("only", VL)])) == \
        "1. only  [veil_and_lead §VIII Calculating Damage]"
    assert format_trace([]) == ""


def test_subclass_adds_fields():
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Check(Resolution):
        margin: int

    c = Check(value=11, outcome="success", margin=3)
    assert (c.value, c.margin, c.trace) == (11, 3, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.margin = 4
