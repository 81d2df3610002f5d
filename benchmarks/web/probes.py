"""Which field of a chapter the round-trip benchmark changes, and the two values it alternates.

A probe names a tool (CSS class of the widget, first instance), the accessible label of one of
its text fields and two values. The benchmark types one value, fires the events a reader's
typing fires (input, then Enter), and times until the tool's visible text changes. A probe with
``click`` names a button instead (a tool whose fields only feed a button, like the turn board):
the benchmark presses it and times the same way. A probe's ``setup`` is done once before
timing, as a reader would: each step types a value into a labelled field, or (value None)
presses a labelled button; the Count tracker, say, needs fighters before its Hammer turns. Chapters
without a probe here get a generic one: the first ``rulebook-*`` tool holding a text field whose
value is a whole number, alternating that number and the next (see ``GENERIC`` in run_web.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Probe:
    tool: str            # CSS selector of the tool (first match)
    label: str           # accessible label of the text field (exact)
    values: tuple[str, str] = ("", "")
    click: bool = False   # label names a button to press, not a field to type into
    setup: tuple[tuple[str, str | None], ...] = ()   # (label, value) typed; (label, None) pressed


ECHO = Probe(".bench-echo", "Echo input", ("2", "3"))

CHAPTERS: dict[str, Probe] = {
    "00_dice/dice": Probe(".rulebook-dice-roller", "Target (total at least)", ("9", "8")),
    "tsl/attacks": Probe(".rulebook-tsl-attack", "T-number", ("12", "11")),
    "exploding_d6/combat": Probe(".rulebook-x6-attack", "Skill", ("4", "3")),
    "range_bands/combat": Probe(".rulebook-range-shot", "GM's adjustment (dice)", ("-1", "0")),
    # Chapters whose first whole-number field changes nothing by itself:
    "veil_and_lead/actions": Probe(".rulebook-vl-tempo", "Acting at tick", ("16", "17")),
    "percentile/healing": Probe(".rulebook-pc-healing", "Character", ("Bea", "Ana")),
    "tsl/combat": Probe(".rulebook-tsl-turns", "Next turn", click=True),
    "veil_and_lead/count": Probe(
        ".rulebook-vl-count", "Next turn (turn the Hammer)", click=True,
        setup=(("Name", "Ada"), ("Add to the Count", None), ("Name", "Bea"),
               ("Add to the Count", None))),
    "tsl/gear": Probe(".rulebook-tsl-weapon", "Name", ("Pike", "Boarding pike")),
}
