"""Models and messages a tool costs a page: built as our tools are built (widgets/lean.py), and
as plain ipywidgets would build the same widgets (each its own layout and style, each opened at
once and updated after every later change).

    .venv/bin/python benchmarks/tool_models.py

Counted in one process, without a kernel: a model is one comm opened (one message to the page),
an update one state sent after the opening. Each tool is built twice and the second build
counted, so shared models made by the first are not counted again. Nothing is asserted.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import comm
import ipywidgets as w

from widgets import lean
from widgets.dice import DiceRoller
from widgets.percentile_healing import HealingWalker
from widgets.tsl import AttackResolver
from widgets.veil_and_lead_count import CountTracker

TOOLS: dict[str, Callable[[], w.Widget]] = {
    "DiceRoller": lambda: DiceRoller("2d6+1", target="8"),
    "AttackResolver (tsl)": lambda: AttackResolver("opposed", "Trained",
                                                   defender_tier="Untrained"),
    "CountTracker (veil_and_lead)": CountTracker,
    "HealingWalker (percentile)": HealingWalker,
}


def count(build: Callable[[], w.Widget]) -> tuple[int, int]:
    """(models opened, updates sent) by the second of two builds."""
    opens, updates = [0], [0]
    create, send = comm.create_comm, w.Widget.send_state

    def counted_create(*args, **kwargs):
        opens[0] += 1
        return create(*args, **kwargs)

    def counted_send(self, key=None):
        updates[0] += 1
        return send(self, key)

    build()
    with contextlib.ExitStack() as stack:
        stack.callback(setattr, comm, "create_comm", create)
        stack.callback(setattr, w.Widget, "send_state", send)
        comm.create_comm, w.Widget.send_state = counted_create, counted_send
        build()
    return opens[0], updates[0]


@contextlib.contextmanager
def plain_ipywidgets():
    """Build as plain ipywidgets would: no shared defaults, no held opens."""
    @contextlib.contextmanager
    def nothing():
        yield

    real = lean.opened_when_built
    lean.opened_when_built = nothing
    try:
        yield
    finally:
        lean.opened_when_built = real


def main() -> None:
    print(f"{'tool':30} {'ours: models':>13} {'updates':>8}   {'plain: models':>13} {'updates':>8}")
    for name, build in TOOLS.items():
        ours = count(build)
        with plain_ipywidgets():
            plain = count(build)
        print(f"{name:30} {ours[0]:>13} {ours[1]:>8}   {plain[0]:>13} {plain[1]:>8}")


if __name__ == "__main__":
    main()
