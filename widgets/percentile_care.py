"""Two bedside questions of the percentile healing chapter: what several healers' Treatment
Rolls for one wound come to, and whether a fighter's state breaks concentration.

Each tool gathers its inputs, makes its call in :mod:`rulescore.systems.percentile` and renders
the answer with its explanation (or the table it read, highlighted)."""

from __future__ import annotations

import html

import ipywidgets as w

from rulescore.systems import percentile as pc

from .book import file_table_html, system_data
from .common import ErrorLine, ExplanationView, Reach, Tool, answers, labelled_text, section
from .common import int_field
from .lean import shared_layout
from .percentile_table import LEVEL_NAMES, STYLE

HEALERS = 3
#: "" stands for no roll made: a menu whose value is None shows nothing chosen
RESULTS = (("no roll", ""),) + tuple((f"{LEVEL_NAMES[k]} ({k})", k)
                                     for k in ("CS", "S", "F", "CF"))
#: The Shock states by the names the healing walker gives them; other conditions by their own.
STATE_WORDS = {"STN": "Stunned (STN)", "INC": "Incapacitated (INC)",
               "UNC": "Unconscious (UNC)"}
#: A condition the concentration table does not list, offered so the reader sees it holds.
OTHER_CONDITIONS = ("Prone",)


def _healer_label(n: int) -> str:
    return f"Healer {n}"


class SeveralHealers(Tool):
    """Several healers' Treatment Rolls for one wound (Healing 5, Multiple Treatment Rolls):
    each healer's Physician Index and result, in the order they rolled; the result that
    applies, or why a healer may not try."""

    reaches = (
        Reach(pc.combine_treatment_rolls,
              {"rolls": " and ".join(_healer_label(n) for n in range(1, HEALERS + 1))}),
    )

    @classmethod
    def words(cls) -> dict[str, str]:
        """The rows together are the healers: a message about them names the section, not
        every row's label."""
        return {"rolls": "The healers"}

    def __init__(self) -> None:
        small = shared_layout(width="19em")
        self.names, self.indices, self.levels = [], [], []
        rows = []
        for n in range(1, HEALERS + 1):
            name = labelled_text(_healer_label(n), placeholder="name", width="16em",
                                 label_width="6em")
            index = int_field(f"Healer {n}'s Physician Index", n + 1, 0, 20, style=STYLE,
                              layout=small)
            level = w.Dropdown(options=RESULTS, value="", description=f"Healer {n}'s result",
                               style=STYLE, layout=small)
            self.names.append(name)
            self.indices.append(index)
            self.levels.append(level)
            rows.append(w.HBox([name, index, level]))
        self.error = ErrorLine()
        self.result = w.HTML()
        self.explanation = ExplanationView()
        super().__init__([section("The healers, in the order they rolled", *rows), self.error,
                          section("The result that applies", self.result, self.explanation)],
                         "rulebook-pc-healers")
        for field in self.names + self.indices + self.levels:
            field.observe(lambda _: self.update(), "value")
        self.update()

    def _rolls(self) -> list[tuple[str, int, str]]:
        """The healers who rolled, each as (name, Physician Index, result); an unnamed one is
        called by their row's label."""
        return [(name.value.strip() or _healer_label(n), index.value, level.value)
                for n, (name, index, level)
                in enumerate(zip(self.names, self.indices, self.levels), start=1) if level.value]

    @answers("result", "explanation")
    def update(self) -> None:
        """Combine the results given so far (one engine call)."""
        rolls = self._rolls()
        if not rolls:
            self.result.value = "<i>Give at least one healer's result.</i>"
            self.explanation.clear()
            return
        done = pc.combine_treatment_rolls(rolls)
        self.result.value = (f"<div class='rulebook-pc-combined' style='font-weight:600'>"
                             f"The wound is treated as a {LEVEL_NAMES[done.outcome]} "
                             f"({done.outcome}) of the Treatment Roll.</div>")
        self.explanation.show(done.trace)


class Concentration(Tool):
    """Whether a fighter's state breaks concentration (Healing 8 Concentration): pick what they
    are under; the answer, and the concentration table with the conditions that break it
    highlighted."""

    reaches = (Reach(pc.concentration_broken, {"conditions": "The fighter is"}),)

    def __init__(self) -> None:
        listed = [r["condition"] for r in system_data("percentile").table("healing",
                                                                          "concentration")]
        self.listed = listed
        options = [(STATE_WORDS.get(c, c), c) for c in (*listed, *OTHER_CONDITIONS)]
        self.conditions = w.SelectMultiple(options=options, value=(), rows=len(options),
                                           description="The fighter is", style=STYLE,
                                           layout=shared_layout(width="26em"))
        self.error = ErrorLine()
        self.result = w.HTML()
        self.table = w.HTML()
        super().__init__([self.conditions, self.error,
                          section("Concentration", self.result, self.table)],
                         "rulebook-pc-concentration")
        self.conditions.observe(lambda _: self.update(), "value")
        self.update()

    @answers("result", "table")
    def update(self) -> None:
        """Ask the engine whether the picked conditions break concentration."""
        picked = list(self.conditions.value)
        broken = pc.concentration_broken(picked)
        if broken:
            words = ("Concentration is broken: the highlighted rows of the table interrupt "
                     "it and prevent it.")
        elif picked:
            words = "Concentration holds: nothing picked breaks it."
        else:
            words = "Concentration holds: the fighter is under no condition."
        self.result.value = (f"<div class='rulebook-pc-concentration-result' "
                             f"style='font-weight:600'>{html.escape(words)}</div>")
        self.table.value = file_table_html(
            "percentile", "healing", "concentration",
            lambda i: self.listed[i] in picked)
