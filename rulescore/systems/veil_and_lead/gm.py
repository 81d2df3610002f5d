"""The GM's pacing tools (§XV): the signs of a dragging fight, ways to break a stall, the
narrative cut's price and the beat after a fight. The lists live in ``data/gm_guidance.toml``;
the book prints them from there."""

from __future__ import annotations

from ...errors import require_int
from ...trace import Resolution, step
from . import records
from ._system import DATA

STALLED = DATA.rule("XV Solutions for Stalled Combat")


def dragging_signs() -> tuple[str, ...]:
    """The signs that a fight is dragging (§XV Signs Combat is Dragging)."""
    return tuple(r["sign"] for r in DATA.table("gm_guidance", "dragging_signs"))


def stall_remedies() -> tuple[str, ...]:
    """The ways to break a stalled fight, by name (§XV Solutions for Stalled Combat)."""
    return tuple(r["remedy"] for r in DATA.table("gm_guidance", "stall_remedies"))


def aftermath_steps() -> tuple[str, ...]:
    """The five questions of the beat after a fight, in order (§XV Post-Combat Beat)."""
    rows = sorted(DATA.table("gm_guidance", "aftermath"), key=lambda r: r["step"])
    return tuple(r["question"] for r in rows)


def narrative_cut(ammunition_spent: int, characters: int) -> Resolution:
    """End a stalled fight by cutting to the aftermath (§XV Solutions for Stalled Combat): the
    side wins, marks off double the ammunition it has spent and each character takes 1 Strain.
    ``value`` is the ammunition to mark off; ``.strain`` the Strain each takes."""
    spent = require_int("ammunition_spent", ammunition_spent, minimum=0)
    people = require_int("characters", characters, minimum=1)
    price = records.settings("gm_guidance", "narrative_cut")
    mark = spent * price["ammunition_multiplier"]
    strain = price["strain_each"]
    return Resolution(value=mark, outcome="Narrative cut", trace=(
        step(f"Ammunition: {spent} spent × {price['ammunition_multiplier']} = {mark} to mark off",
             STALLED, ammunition=mark),
        step(f"Strain: {strain} each for {people} character{'s' if people != 1 else ''} "
             f"({strain * people} in all); skip to the aftermath", STALLED, strain=strain)))
