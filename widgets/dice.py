"""The dice chapter's tools: a dice roller and an odds explorer."""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.dice import DiceExpr, DiceRoll, DiceTooLargeError, Distribution, parse
from rulescore.errors import RulesError, parse_int_text
from rulescore.text import odds

from .common import (ROLLED, SUCCESS, DiceEntry, ErrorLine, ExplanationView, OddsView, Reach,
                     RollRequest, Tool, answers, dice_faces_html, headline_html, labelled_text,
                     section)
from .lean import set_layout, shared_layout
from .theme import ERROR, TOTAL_SIZE



#: Exact odds as far as the engine's own explosion depth goes.
EXACT = {"explode_depth": "exact to the engine's own depth", "self": "the parsed expression"}


def _is_single_d100(expr: DiceExpr) -> bool:
    terms = expr.terms
    return len(terms) == 1 and expr.dice_count == 1 and getattr(terms[0], "sides", 0) == 100


class DiceRoller(Tool):
    """Type an expression, see its exact odds, then roll it (seeded) or type your own dice."""

    reaches = (
        Reach(parse, {"text": "Dice expression"}),
        Reach(DiceExpr.distribution, {}, EXACT),
        Reach(DiceExpr.roll, {}, {"self": "the parsed expression", "dice": ROLLED,
                                  "rng": "the Roll row's seed is inside its dice",
                                  "seed": "the Roll row's seed is inside its dice"}),
    )

    def __init__(self, expression: str = "2d6+1", target: str = "") -> None:
        self.expression = labelled_text("Dice expression", expression, "e.g. 6d8kh2+5")
        self.target = labelled_text("Target (total at least)", target, "optional, e.g. 9")
        for field in (self.expression, self.target):
            field.continuous_update = False
        self.reading = w.HTML()
        self.odds = OddsView()
        self.entry = DiceEntry()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        self.error = ErrorLine()
        self.expr: DiceExpr | None = None
        self.goal: int | None = None
        self.last: DiceRoll | None = None
        super().__init__([
            self.expression, self.target, self.error, self.reading,
            section("Odds before you roll", self.odds),
            section("Roll", self.entry),
            section("Result", self.result, self.explanation),
        ], "rulebook-dice-roller")
        self.expression.observe(lambda _: self.update(), "value")
        self.target.observe(lambda _: self.update(), "value")
        self.entry.on_request(self.roll)
        self.update()

    @answers("odds")
    def update(self) -> None:
        """Read the expression and target; show what it rolls and its exact odds.

        A RulesError shows in the error line and nothing of an older input stays on screen
        (its odds, reading and last result). An expression too large for exact odds
        (DiceTooLargeError) can still be rolled: only its odds are refused."""
        self.entry.error.clear()          # a roll's error belongs to the old expression
        self.result.value = self.waiting
        self.explanation.clear()
        self.reading.value = ""
        self.expr = None
        expr = parse(self.expression.value)
        self.goal = parse_int_text("Target (total at least)", self.target.value, blank=None) \
            if self.target.value.strip() else None
        self._show_reading(expr)
        self.expr = expr
        try:
            dist = expr.distribution()
        except DiceTooLargeError as exc:
            raise DiceTooLargeError(f"{exc} You can still roll it below.") from None
        self.odds.show(dist, self._succeeds if self.goal is not None else None,
                       self._headline(dist))

    def _show_reading(self, expr: DiceExpr) -> None:
        self.entry.set_percentile(_is_single_d100(expr))
        lines = "".join(f"<li>{html.escape(t)}</li>" for t in expr.explain())
        self.reading.value = f"<div>What <code>{html.escape(str(expr))}</code> rolls:" \
                             f"<ul>{lines}</ul></div>"

    def _succeeds(self, total: int) -> bool:
        return self.goal is not None and total >= self.goal

    def _headline(self, dist: Distribution) -> str:
        if self.goal is None:
            return f"Average total {float(dist.mean()):.3g}, from {dist.min()} to {dist.max()}"
        return f"Chance of {self.goal} or more: {odds(dist.p_at_least(self.goal))}"

    @answers("explanation", line="entry.error", waiting=("result",))
    def roll(self, request: RollRequest) -> None:
        """Roll from the request's dice (seeded or typed) and show the result."""
        if self.expr is None:
            raise RulesError("Fix the dice expression first.")
        self.last = self.expr.roll(dice=request.dice)
        verdict = ""
        if self.goal is not None:
            ok = self.last.total >= self.goal
            verdict = (f" — <span style='color:{SUCCESS if ok else ERROR}'>"
                       f"{'success' if ok else 'failure'} against {self.goal}</span>")
        how = request.describe()
        self.result.value = (headline_html(f"Total <b>{self.last.total}</b>{verdict}", TOTAL_SIZE)
                             + f"<div>{dice_faces_html(self.last)} <small>({how})</small></div>")
        self.explanation.show(self.last.trace)


class OddsExplorer(Tool):
    """Compare the exact odds of two expressions against a target."""

    reaches = (
        Reach(parse, {"text": "First expression"}),
        Reach(DiceExpr.distribution, {}, EXACT),
    )

    def __init__(self, first: str = "3d6", second: str = "4d6kh3", target: str = "12") -> None:
        self.first = labelled_text("First expression", first, "e.g. 3d6")
        self.second = labelled_text("Second expression", second, "optional, e.g. 4d6kh3")
        self.target = labelled_text("Target (total at least)", target, "e.g. 12")
        for field in (self.first, self.second, self.target):
            field.continuous_update = False
        self.error = ErrorLine()
        self.summary = w.HTML()
        self.odds_first = OddsView()
        self.odds_second = OddsView()
        super().__init__([self.first, self.second, self.target, self.error, self.summary,
                          w.HBox([self.odds_first, self.odds_second],
                                 layout=shared_layout(flex_flow="row wrap"))],
                         "rulebook-odds-explorer")
        for field in (self.first, self.second, self.target):
            field.observe(lambda _: self.update(), "value")
        self.update()

    @answers("summary", "odds_first", "odds_second")
    def update(self) -> None:
        goal = parse_int_text("Target (total at least)", self.target.value)
        texts = [t for t in (self.first.value, self.second.value) if t.strip()]
        if not texts:
            raise RulesError("First expression is empty: type dice such as 3d6")
        exprs = [parse(t) for t in texts]
        dists = [e.distribution() for e in exprs]
        rows = "".join(
            f"<tr><td><code>{html.escape(str(e))}</code></td>"
            f"<td>{html.escape(odds(d.p_at_least(goal)))}</td>"
            f"<td>{float(d.mean()):.3g}</td><td>{d.min()}–{d.max()}</td></tr>"
            for e, d in zip(exprs, dists))
        self.summary.value = (f"<table class='rulebook-compare'><thead><tr><th>Expression</th>"
                              f"<th>Chance of {goal} or more</th><th>Mean</th><th>Range</th>"
                              f"</tr></thead><tbody>{rows}</tbody></table>")
        views = [self.odds_first, self.odds_second]
        for view in views:
            view.value = ""
            set_layout(view, width="48%" if len(dists) == 2 else "100%", min_width="320px")
        for view, e, d in zip(views, exprs, dists):
            view.show(d, lambda v: v >= goal, f"{e}", "Total")
