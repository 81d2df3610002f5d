"""Formulas: exact evaluation, clear errors, LaTeX rendering, and no sympy on evaluation."""

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rulescore import RulesError
from rulescore.errors import FormulaError
from rulescore.formulas import Formula
from rulescore.trace import RuleRef

ROOT = Path(__file__).resolve().parents[2]
RULE = RuleRef("veil_and_lead", "II Characteristics")

DEFENSE = Formula("Defense", "8 + max(QUICK, SAVVY) + equipment", RULE)
COMA = Formula("HR", "12 - shock - level", RuleRef("percentile", "Coma"))
STEPS = Formula("Steps", "margin // 3", RuleRef("veil_and_lead", "VIII Calculating Damage"))
HALF = Formula("Half", "a / 2", RULE)


# --- evaluation ----------------------------------------------------------------------------------

def test_defense():
    assert DEFENSE.evaluate(QUICK=3, SAVVY=2, equipment=1) == 12
    assert DEFENSE.evaluate(QUICK=1, SAVVY=4, equipment=0) == 12
    assert DEFENSE.evaluate(QUICK=0, SAVVY=0, equipment=-2) == 6
    assert type(DEFENSE.evaluate(QUICK=3, SAVVY=2, equipment=1)) is int


def test_coma_hr():
    assert COMA.evaluate(shock=3, level=4) == 5
    assert COMA.evaluate(shock=10, level=5) == -3


@pytest.mark.parametrize("margin, steps", [
    (-7, -3), (-6, -2), (-4, -2), (-3, -1), (-1, -1), (0, 0), (2, 0), (3, 1), (5, 1), (9, 3),
])
def test_floor_division_rounds_down_even_for_negative_margins(margin, steps):
    assert STEPS.evaluate(margin=margin) == steps


def test_true_division_is_exact():
    assert HALF.evaluate(a=3) == Fraction(3, 2)
    assert type(HALF.evaluate(a=3)) is Fraction
    assert HALF.evaluate(a=4) == 2 and type(HALF.evaluate(a=4)) is int
    assert Formula("x", "1 / 3 + 1 / 6", RULE).evaluate() == Fraction(1, 2)


def test_fraction_inputs():
    assert HALF.evaluate(a=Fraction(1, 3)) == Fraction(1, 6)


def test_functions_and_unary_signs():
    f = Formula("r", "min(a, b, c) + floor(a / 2) + ceil(b / 3) - -c + +a * 2", RULE)
    # min 1 + floor(7/2)=3 + ceil(4/3)=2 + 1 + 14
    assert f.evaluate(a=7, b=4, c=1) == 21


def test_product_for_healing_eml():
    assert Formula("EML", "HB * HR", RULE).evaluate(HB=4, HR=5) == 20


def test_variables_in_order_of_first_appearance():
    assert DEFENSE.variables == ("QUICK", "SAVVY", "equipment")
    assert COMA.variables == ("shock", "level")
    assert Formula("r", "b + a * b - max(c, a)", RULE).variables == ("b", "a", "c")
    assert Formula("r", "3 + 4", RULE).variables == ()


def test_extra_values_are_ignored():
    assert COMA.evaluate(shock=1, level=1, unused=99) == 10


# --- errors --------------------------------------------------------------------------------------

def test_missing_variable_is_named():
    with pytest.raises(FormulaError) as info:
        DEFENSE.evaluate(QUICK=3, SAVVY=2)
    assert str(info.value) == "Defense needs equipment"
    with pytest.raises(FormulaError, match="Defense needs QUICK, equipment"):
        DEFENSE.evaluate(SAVVY=2)


@pytest.mark.parametrize("value", [1.5, "3", None, True])
def test_value_not_a_number(value):
    with pytest.raises(FormulaError) as info:
        COMA.evaluate(shock=value, level=1)
    assert str(info.value) == f"shock must be a number, got {value!r}"


@pytest.mark.parametrize("text, shown", [
    ('__import__("os")', "__import__('os')"),
    ("a ** 2", "a ** 2"),
    ("x if y else z", "x if y else z"),
    ("a % 2", "a % 2"),
    ("a < b", "a < b"),
    ("not a", "not a"),
    ("~a", "~a"),
    ("a.b", "a.b"),
    ("a[0]", "a[0]"),
    ("1.5 + a", "1.5"),
    ("'x'", "'x'"),
    ("abs(a)", "abs(a)"),
    ("max(a, key=b)", "max(a, key=b)"),
    ("max(*a)", "*a"),
    ("max + 1", "max"),
    ("(lambda: 1)()", "(lambda: 1)()"),
    ("[a, b]", "[a, b]"),
])
def test_disallowed_syntax(text, shown):
    with pytest.raises(FormulaError) as info:
        Formula("r", text, RULE).evaluate(a=1, b=2, x=1, y=1, z=1)
    assert str(info.value) == (f"formula '{text}' uses '{shown}', which is not allowed "
                               "(numbers, names, + - * / //, max, min, floor, ceil)")


@pytest.mark.parametrize("text, message", [
    ("max(a)", "max takes 2 or more values, got 1 in 'max(a)'"),
    ("min()", "min takes 2 or more values, got 0 in 'min()'"),
    ("floor(a, b)", "floor takes exactly 1 value, got 2 in 'floor(a, b)'"),
    ("ceil()", "ceil takes exactly 1 value, got 0 in 'ceil()'"),
])
def test_wrong_number_of_arguments(text, message):
    with pytest.raises(FormulaError) as info:
        Formula("r", text, RULE).evaluate(a=1, b=2)
    assert str(info.value) == f"formula '{text}': {message}"


@pytest.mark.parametrize("text", ["a +", "(a", "a b", "", "a\x00"])
def test_not_arithmetic(text):
    with pytest.raises(FormulaError, match="is not valid arithmetic"):
        Formula("r", text, RULE).evaluate(a=1, b=1)


@pytest.mark.parametrize("text, values", [
    ("a / b", {"a": 1, "b": 0}), ("a // b", {"a": 1, "b": 0}),
    ("a / (b - b)", {"a": 1, "b": 3}), ("a / b", {"a": 1, "b": Fraction(0)}),
])
def test_division_by_zero(text, values):
    with pytest.raises(FormulaError) as info:
        Formula("r", text, RULE).evaluate(**values)
    assert str(info.value) == f"r: division by zero in '{text}'"


def test_errors_are_rules_errors():
    assert issubclass(FormulaError, RulesError)


# --- rendering -----------------------------------------------------------------------------------

def test_latex():
    tex = DEFENSE.latex()
    assert tex.startswith(r"\mathrm{Defense} = 8 + ")
    assert r"\max" in tex and r"\mathrm{QUICK}" in tex and r"\mathrm{SAVVY}" in tex
    assert tex.endswith(r"\mathrm{equipment}")


def test_substituted_latex_defense():
    tex = DEFENSE.substituted_latex(QUICK=3, SAVVY=2, equipment=1)
    assert tex.startswith(r"\mathrm{Defense} = 8 + ")
    assert r"\max" in tex
    assert "3" in tex and "2" in tex
    assert tex.endswith(" + 1 = 12")
    assert "QUICK" not in tex and "equipment" not in tex


def test_substituted_latex_keeps_the_order_of_terms():
    tex = COMA.substituted_latex(shock=3, level=4)
    assert tex == r"\mathrm{HR} = 12 - 3 - 4 = 5"
    assert COMA.latex() == r"\mathrm{HR} = 12 - \mathrm{shock} - \mathrm{level}"


def test_substituted_latex_floor_and_fraction():
    tex = STEPS.substituted_latex(margin=-4)
    assert r"\lfloor" in tex and r"\frac{-4}{3}" in tex and tex.endswith("= -2")
    assert HALF.substituted_latex(a=3).endswith(r"= \frac{3}{2}")
    assert HALF.latex() == r"\mathrm{Half} = \frac{a}{2}"


def test_substituted_latex_needs_every_value():
    with pytest.raises(FormulaError, match="Defense needs SAVVY"):
        DEFENSE.substituted_latex(QUICK=3, equipment=1)


@pytest.mark.skipif(sys.platform == "emscripten",
                    reason="WebAssembly has no processes to start; "
                    "tests/pyodide/test_in_pyodide.py evaluates a formula without sympy in a "
                    "fresh Pyodide")
def test_evaluation_does_not_import_sympy():
    code = (
        "import sys\n"
        "from rulescore.formulas import Formula\n"
        "from rulescore.trace import RuleRef\n"
        "f = Formula('Defense', '8 + max(QUICK, SAVVY) + equipment', RuleRef('x', 'y'))\n"
        "assert f.evaluate(QUICK=3, SAVVY=2, equipment=1) == 12\n"
        "assert f.variables == ('QUICK', 'SAVVY', 'equipment')\n"
        "assert 'sympy' not in sys.modules, 'evaluating imported sympy'\n"
        "f.latex()\n"
        "assert 'sympy' in sys.modules, 'latex() should import sympy'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
