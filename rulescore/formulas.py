"""Formulas the seeds give (Defense = 8 + max(QUICK, SAVVY) + equipment, ...).

A :class:`Formula` is written once as a small arithmetic expression. The engine evaluates it
with a tiny exact evaluator (no sympy: it would add ~33 MiB to every kernel); only rendering a
formula as LaTeX imports sympy, lazily, and builds a sympy expression from the same text.

Allowed: whole numbers, names, ``+ - * / //``, parentheses, ``max``, ``min``, ``floor``,
``ceil``. ``/`` is exact (a Fraction); ``//`` rounds down.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Callable, Mapping

from .errors import FormulaError
from .trace import RuleRef

Number = int | Fraction
_FUNCS: dict[str, Callable[..., Number]] = {
    "max": max, "min": min, "floor": math.floor, "ceil": math.ceil,
}
_BINOPS: dict[type, Callable[[Number, Number], Number]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: Fraction(a) / b,
    ast.FloorDiv: lambda a, b: a // b,
}


_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)
_ARITY = {"max": (2, None), "min": (2, None), "floor": (1, 1), "ceil": (1, 1)}


def _check(node: ast.AST, text: str) -> None:
    """Refuse anything but the arithmetic this module allows."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    for sub in ast.walk(node):  # breadth first: an operation comes before its operator
        if isinstance(sub, ast.BinOp):
            ok = isinstance(sub.op, _OPS)
        elif isinstance(sub, ast.UnaryOp):
            ok = isinstance(sub.op, (ast.USub, ast.UAdd))
        elif isinstance(sub, ast.Call):
            ok = isinstance(sub.func, ast.Name) and sub.func.id in _FUNCS and not sub.keywords
            if ok and not any(isinstance(a, ast.Starred) for a in sub.args):
                low, high = _ARITY[sub.func.id]
                if len(sub.args) < low or (high is not None and len(sub.args) > high):
                    wanted = f"{low} or more values" if high is None else \
                        f"exactly {low} value{'s' if low != 1 else ''}"
                    raise FormulaError(f"formula '{text}': {sub.func.id} takes {wanted}, "
                                       f"got {len(sub.args)} in '{ast.unparse(sub)}'")
        elif isinstance(sub, ast.Name):
            ok = sub.id not in _FUNCS or id(sub) in called
        elif isinstance(sub, ast.Constant):
            ok = type(sub.value) is int
        else:
            ok = isinstance(sub, (ast.Expression, ast.Load, ast.USub, ast.UAdd, *_OPS))
        if not ok:
            raise FormulaError(f"formula '{text}' uses '{ast.unparse(sub)}', which is not "
                               "allowed (numbers, names, + - * / //, max, min, floor, ceil)")


@dataclass(frozen=True)
class Formula:
    """A named formula: ``result = text``, cited to the rule that gives it."""

    result: str
    text: str
    rule: RuleRef

    @cached_property
    def _tree(self) -> ast.Expression:
        try:
            tree = ast.parse(self.text, mode="eval")
        except (SyntaxError, ValueError):
            raise FormulaError(f"formula '{self.text}' is not valid arithmetic") from None
        _check(tree, self.text)
        return tree

    @property
    def variables(self) -> tuple[str, ...]:
        """The names the formula needs, in order of first appearance."""
        nodes = sorted((n for n in ast.walk(self._tree) if isinstance(n, ast.Name)
                        and n.id not in _FUNCS), key=lambda n: n.col_offset)
        return tuple(dict.fromkeys(n.id for n in nodes))

    def _values(self, values: Mapping[str, Any]) -> dict[str, Number]:
        missing = [v for v in self.variables if v not in values]
        if missing:
            raise FormulaError(f"{self.result} needs {', '.join(missing)}")
        out = {}
        for name in self.variables:
            val = values[name]
            if isinstance(val, bool) or not isinstance(val, (int, Fraction)):
                raise FormulaError(f"{name} must be a number, got {val!r}")
            out[name] = val
        return out

    def evaluate(self, **values: Number) -> Number:
        """The formula's value for these inputs (exact)."""
        env = self._values(values)

        def ev(node: ast.AST) -> Number:
            if isinstance(node, ast.Expression):
                return ev(node.body)
            if isinstance(node, ast.Constant):
                return node.value
            if isinstance(node, ast.Name):
                return env[node.id]
            if isinstance(node, ast.UnaryOp):
                return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
            if isinstance(node, ast.BinOp):
                right = ev(node.right)
                if isinstance(node.op, (ast.Div, ast.FloorDiv)) and right == 0:
                    raise FormulaError(f"{self.result}: division by zero in '{self.text}'")
                return _BINOPS[type(node.op)](ev(node.left), right)
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            return _FUNCS[node.func.id](*(ev(a) for a in node.args))

        result = ev(self._tree)
        if isinstance(result, Fraction) and result.denominator == 1:
            return int(result)
        return result

    def _sympy(self, values: Mapping[str, Number] | None):
        import sympy as sp  # lazy: only rendering needs sympy

        def name(n: str):
            if values is not None:
                return sp.Symbol(str(values[n]))
            return sp.Symbol(n if len(n) == 1 else rf"\mathrm{{{n}}}")

        def build(node: ast.AST):
            if isinstance(node, ast.Expression):
                return build(node.body)
            if isinstance(node, ast.Constant):
                return sp.Symbol(str(node.value)) if values is not None else sp.Integer(node.value)
            if isinstance(node, ast.Name):
                return name(node.id)
            if isinstance(node, ast.UnaryOp):
                inner = build(node.operand)
                return sp.Mul(-1, inner, evaluate=False) if isinstance(node.op, ast.USub) else inner
            if isinstance(node, ast.BinOp):
                a, b = build(node.left), build(node.right)
                op = type(node.op)
                head = a.args if isinstance(a, sp.Add) else (a,)  # flat sums, no brackets
                if op is ast.Add:
                    return sp.Add(*head, b, evaluate=False)
                if op is ast.Sub:
                    return sp.Add(*head, sp.Mul(-1, b, evaluate=False), evaluate=False)
                if op is ast.Mult:
                    return sp.Mul(a, b, evaluate=False)
                frac = sp.Mul(a, sp.Pow(b, -1, evaluate=False), evaluate=False)
                return sp.floor(frac, evaluate=False) if op is ast.FloorDiv else frac
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            args = [build(x) for x in node.args]
            if node.func.id in ("floor", "ceil"):
                return getattr(sp, node.func.id)(*args, evaluate=False)
            return sp.Function(rf"\{node.func.id}")(*args)

        return sp, build(self._tree)

    def latex(self) -> str:
        """The formula as LaTeX, e.g. ``\\mathrm{Defense} = 8 + \\max(...)``."""
        sp, expr = self._sympy(None)
        return rf"\mathrm{{{self.result}}} = " + sp.latex(expr, order="none", mul_symbol="dot")

    def substituted_latex(self, **values: Number) -> str:
        """The formula with these numbers put in, and its value: ``8 + \\max(3, 2) + 1 = 12``."""
        env = self._values(values)
        sp, expr = self._sympy(env)
        value = self.evaluate(**env)
        shown = sp.latex(sp.Rational(value.numerator, value.denominator)) \
            if isinstance(value, Fraction) else str(value)
        return rf"\mathrm{{{self.result}}} = " + sp.latex(expr, order="none", mul_symbol="dot") + f" = {shown}"
