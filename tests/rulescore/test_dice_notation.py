"""Dice notation: parse trees, canonical text, explanations and errors with their columns."""

import pytest

from rulescore import RulesError
from rulescore.dice import (MAX_DICE, MAX_SIDES, Constant, DiceError, DiceLimitError,
                            DiceSyntaxError, DiceTerm, Keep, parse)


def dice(text):
    """The single dice term of *text*."""
    expr = parse(text)
    assert len(expr.terms) == 1
    (term,) = expr.terms
    assert isinstance(term, DiceTerm)
    return term


# --- what each feature parses to -----------------------------------------------------------------

def test_ndx():
    assert dice("3d6") == DiceTerm(1, 3, 6)


def test_dx_means_one_die():
    assert dice("d20") == DiceTerm(1, 1, 20)


def test_percentile_die():
    t = dice("d%")
    assert (t.count, t.sides, t.percentile) == (1, 100, True)
    t = dice("2d%")
    assert (t.count, t.sides, t.percentile) == (2, 100, True)


def test_d100_is_not_marked_percentile():
    t = dice("d100")
    assert (t.sides, t.percentile) == (100, False)


@pytest.mark.parametrize("text, mode, count", [
    ("4d6kh3", "kh", 3), ("4d6kl2", "kl", 2), ("4d6dh1", "dh", 1), ("4d6dl1", "dl", 1),
    ("4d6kh", "kh", 1), ("4d6kl", "kl", 1), ("4d6dh", "dh", 1), ("4d6dl", "dl", 1),
    ("4d6k", "kh", 1), ("4d6k2", "kh", 2), ("4d6dh0", "dh", 0), ("4d6kh4", "kh", 4),
])
def test_keep_and_drop(text, mode, count):
    assert dice(text).keep == Keep(mode, count)


def test_explode_and_compound():
    assert dice("3d6!").explode == "explode"
    assert dice("3d6!!").explode == "compound"
    assert dice("3d6").explode is None
    assert dice("d2!").explode == "explode"


def test_count_successes():
    t = dice("5d10cs>=8")
    assert (t.count, t.sides, t.count_at_least) == (5, 10, 8)


def test_combination_compound_with_successes():
    t = dice("15d6!!cs>=5")
    assert (t.count, t.sides, t.explode, t.keep, t.count_at_least) == (15, 6, "compound",
                                                                     None, 5)


def test_combination_keep_plus_constant():
    e = parse("6d8kh2+5")
    assert e.terms == (DiceTerm(1, 6, 8, keep=Keep("kh", 2), column=1), Constant(1, 5, 8))


def test_all_modifiers_together_any_order():
    a = dice("4d6!kh2cs>=5")
    b = dice("4d6cs>=5kh2!")
    for t in (a, b):
        assert (t.explode, t.keep, t.count_at_least) == ("explode", Keep("kh", 2), 5)
    assert str(parse("4d6cs>=5kh2!")) == "4d6!kh2cs>=5"


def test_plus_and_minus_terms_and_several_dice_terms():
    e = parse("2d6+1d4-3-1d8+7")
    signs = [t.sign for t in e.terms]
    assert signs == [1, 1, -1, -1, 1]
    assert [type(t) for t in e.terms] == [DiceTerm, DiceTerm, Constant, DiceTerm, Constant]
    assert [t.count for t in e.dice_terms] == [2, 1, 1]
    assert [t.sides for t in e.dice_terms] == [6, 4, 8]
    assert e.dice_count == 4
    assert [t.value for t in e.terms if isinstance(t, Constant)] == [3, 7]


def test_leading_minus_and_plus():
    e = parse("-2d6+10")
    assert e.terms[0].sign == -1 and e.terms[0].count == 2
    assert e.terms[1] == Constant(1, 10, 6)
    assert parse("-3").terms == (Constant(-1, 3, 2),)
    assert parse("+2d6").terms[0].sign == 1


def test_constant_only():
    assert parse("7").terms == (Constant(1, 7, 1),)
    assert parse("7").dice_count == 0


def test_spaces_are_ignored_and_columns_count_them():
    e = parse("  2 d 6 kh 1 +  3 ")
    assert str(e) == "2d6kh1+3"
    assert e.terms[0].column == 3
    assert e.terms[1].column == 17


def test_upper_case():
    assert parse("2D6KH1+1D4!!CS>=3").terms == parse("2d6kh1+1d4!!cs>=3").terms
    assert str(parse("2D6KH1+1D4!!CS>=3")) == "2d6kh1+1d4!!cs>=3"
    assert str(parse("D%")) == "1d%"


def test_term_columns():
    e = parse("2d6+d8-3")
    assert [t.column for t in e.terms] == [1, 5, 8]


def test_expression_keeps_its_text():
    assert parse(" 2D6 ").text == " 2D6 "


# --- canonical text ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    ("d6", "1d6"), ("D6", "1d6"), ("d%", "1d%"), ("2d%", "2d%"), ("3d6k", "3d6kh1"),
    ("3d6kh", "3d6kh1"), ("4d6DL", "4d6dl1"), ("6d8kh2+5", "6d8kh2+5"),
    ("6d8kh2 + 5", "6d8kh2+5"), ("-2d6+1", "-2d6+1"), ("+2d6", "2d6"), ("-3", "-3"),
    ("3d6cs>=5!", "3d6!cs>=5"), ("15d6!!cs>=5", "15d6!!cs>=5"),
    ("2d6 - 1d4 + 3", "2d6-1d4+3"), ("4d6dh0", "4d6dh0"),
])
def test_canonical_form(text, canonical):
    assert str(parse(text)) == canonical


@pytest.mark.parametrize("text", ["6d8kh2+5", "-2d6!!kl1cs>=3-3+d%", "15d6!!cs>=5",
                                  "4d6!dl1+2d4-1", "d20"])
def test_canonical_form_parses_to_the_same_terms(text):
    def shape(e):
        return [(t.sign, t.notation()) for t in e.terms]
    assert shape(parse(str(parse(text)))) == shape(parse(text))


# --- explanations --------------------------------------------------------------------------------

def test_explain_keep_and_constant():
    assert parse("6d8kh2+5").explain() == (
        "6d8kh2: roll 6 dice of 8 faces; keep the highest 2; add them up",
        "+5: add 5",
    )


@pytest.mark.parametrize("text, words", [
    ("4d6kl2", "keep the lowest 2"),
    ("4d6dh1", "drop the highest 1"),
    ("4d6dl1", "drop the lowest 1"),
    ("3d6!", "each 6 rolls one more die, which joins the pool"),
    ("3d6!!", "each 6 rolls again and adds to the same die"),
    ("5d10cs>=8", "count the dice showing 8 or more (one success each) instead of adding them"),
    ("d20", "roll 1 die of 20 faces"),
    ("d%", "roll 1 die of 100 faces"),
])
def test_explain_names_each_modifier(text, words):
    (line,) = parse(text).explain()
    assert line.startswith(str(parse(text)) + ": ")
    assert words in line


def test_explain_counting_does_not_say_add():
    (line,) = parse("5d10cs>=8").explain()
    assert "add them up" not in line


def test_explain_single_plain_die_does_not_say_add():
    assert parse("d20").explain() == ("1d20: roll 1 die of 20 faces",)


def test_explain_subtraction():
    lines = parse("2d6-1d4-2").explain()
    assert lines == (
        "2d6: roll 2 dice of 6 faces; add them up",
        "1d4: roll 1 die of 4 faces — and subtract the result",
        "−2: subtract 2",
    )


def test_explain_one_line_a_term():
    assert len(parse("2d6+1d4-3-1d8+7").explain()) == 5


# --- errors and their columns --------------------------------------------------------------------

@pytest.mark.parametrize("text, column, words", [
    ("3d6x", 4, "unexpected 'x'"),
    ("2d", 3, "ends too early"),
    ("d", 2, "ends too early"),
    ("2d6+", 5, "ends too early"),
    ("+", 2, "ends too early"),
    ("2d6++1", 5, "unexpected '+'"),
    ("2d6 + 1 x", 9, "unexpected 'x'"),
    ("4d6kh5", 4, "kh5 keeps 5 of 4 dice: keep from 1 to 4"),
    ("3d6kh0", 4, "kh0 keeps 0 of 3 dice"),
    ("4d6kl5", 4, "kl5 keeps 5 of 4 dice"),
    ("4d6dl4", 4, "dl4 drops 4 of 4 dice: drop from 0 to 3"),
    ("4d6dh4", 4, "dh4 drops 4 of 4 dice"),
    ("2d6+3d6k4", 8, "kh4 keeps 4 of 3 dice"),
    ("0d6", 1, "the number of dice must be at least 1"),
    ("2d6+0d6", 5, "the number of dice must be at least 1"),
    ("d0", 2, "a die needs at least 1 face"),
    ("2d6+3d0", 7, "a die needs at least 1 face"),
    ("d1!", 3, "a one-sided die cannot explode"),
    ("3d6!!!", 6, "a die can only explode once"),
    ("3d6!kh2!", 8, "a die can only explode once"),
    ("3d6!!!!", 6, "a die can only explode once"),
    ("3d6kh1kl1", 7, "keep or drop may be given only once a term"),
    ("3d6kk", 5, "keep or drop may be given only once a term"),
    ("3d6cs>=2cs>=3", 9, "cs>= may be given only once a term"),
    ("2d6cs", 6, "expected '>=' after 'cs'"),
    ("2d6cs>", 6, "expected '>=' after 'cs'"),
    ("2d6cs>=", 8, "expected a number after 'cs>='"),
    ("2d6cs>=x", 8, "expected a number after 'cs>='"),
    ("2d6cs>=0", 4, "the success threshold after cs>= must be 1 or more"),
    ("d%%", 3, "unexpected '%'"),
    ("d%5", 3, "unexpected '5'"),
    ("2x6", 2, "unexpected 'x'"),
    ("x", 1, "unexpected 'x' (expected a number or dice such as 2d6)"),
    ("  x", 3, "unexpected 'x'"),
    ("2d6*2", 4, "unexpected '*'"),
    ("²d6", 1, "unexpected '²'"),
    ("3d٣", 3, "unexpected '٣'"),
])
def test_syntax_errors_and_columns(text, column, words):
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.column == column
    assert err.text == text
    assert words in str(err)
    assert str(err).startswith(f"column {column} of '{text}': ")
    assert err.reason in str(err)


def test_caret_points_at_the_column():
    with pytest.raises(DiceSyntaxError) as info:
        parse("3d6x")
    assert info.value.caret() == "3d6x\n   ^"


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_empty_expression(text):
    with pytest.raises(DiceSyntaxError, match="the dice expression is empty") as info:
        parse(text)
    assert info.value.column == 0


@pytest.mark.parametrize("value", [None, 6, b"2d6", ["2d6"]])
def test_not_text(value):
    with pytest.raises(DiceSyntaxError, match="dice notation must be text"):
        parse(value)


def test_syntax_error_is_a_rules_error_and_a_value_error():
    assert issubclass(DiceSyntaxError, DiceError)
    assert issubclass(DiceError, RulesError)
    assert issubclass(RulesError, ValueError)
    assert issubclass(DiceLimitError, DiceError)


# --- limits --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, column, words", [
    ("10000d6", 1, "10000d6 rolls too many dice (at most 100 in one expression)"),
    ("101d6", 1, "101d6 rolls too many dice"),
    ("2d6+101d6", 5, "101d6 rolls too many dice"),
    ("d100000", 2, "d100000 has too many faces (at most 1000)"),
    ("d1001", 2, "d1001 has too many faces"),
    ("1234567890", 1, "the number 1234567890… is too large"),
    ("2d6+1000001", 5, "the number 1000001 is too large (at most 1000000)"),
])
def test_limits_with_column(text, column, words):
    with pytest.raises(DiceLimitError) as info:
        parse(text)
    err = info.value
    assert err.column == column
    assert str(err) == f"column {column} of '{text}': {err.reason}"
    assert words in err.reason


def test_limits_on_the_whole_expression():
    with pytest.raises(DiceLimitError) as info:
        parse("51d6+50d6")
    assert str(info.value) == "the expression rolls 101 dice (at most 100)"
    with pytest.raises(DiceLimitError, match=r"too many terms \(21; at most 20\)"):
        parse("+".join(["1"] * 21))
    with pytest.raises(DiceLimitError, match="too long"):
        parse("1+" * 100 + "1")


def test_largest_allowed():
    assert parse(f"{MAX_DICE}d6").dice_count == MAX_DICE
    assert parse("50d6+50d4").dice_count == 100
    assert dice(f"d{MAX_SIDES}").sides == MAX_SIDES
    assert parse("1000000").terms[0].value == 1_000_000
    assert len(parse("+".join(["1"] * 20)).terms) == 20


# --- min_total -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, low", [
    ("2d6", 2), ("-2d6+1", -11), ("4d6kh3", 3), ("4d6dl1", 3), ("3d6!", 3), ("2d6!!", 2),
    ("3d6cs>=5", 0), ("3d6!cs>=5", 0), ("2d6-1d4cs>=2", 1), ("7", 7), ("d%", 1),
    ("2d6-3d4!!cs>=3", -1), ("1d2cs>=1", 1), ("-2d6cs>=1", -2), ("-3d6cs>=7", 0),
    ("-1d4!cs>=5", 0), ("-3d4!kh2", -8), ("-3d4!kl2", -6), ("-2d2!kl1", -1),
    ("-3d6!kl2cs>=6", 0), ("-3d6!kl2cs>=5", -2), ("-2d4!!cs>=9", -2), ("5-3d4!kh2cs>=4", 3),
])
def test_min_total(text, low):
    assert parse(text).min_total() == low


@pytest.mark.parametrize("text", ["1-1d6!", "2d6-3d6!cs>=5", "-d4!!", "-3d4!dl1", "-2d4!!kh1",
                                  "-3d4!dh1cs>=2"])
def test_min_total_unbounded_when_an_exploding_term_is_subtracted(text):
    assert parse(text).min_total() is None


@pytest.mark.parametrize("text", ["10000d6", "d100000", "60d6+60d6", "1" * 12])
def test_parse_raises_only_syntax_errors_even_for_limits(text):
    """Limits found while parsing are DiceSyntaxErrors too (and DiceLimitErrors)."""
    from rulescore.dice import DiceLimitError
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert isinstance(info.value, DiceLimitError)
