"""Dropping a tool in a test as a page drops it: ipywidgets holds every open widget, so a tool
is only collected once it and every widget it holds are closed."""

from __future__ import annotations

from collections.abc import Iterable

import ipywidgets as w


def _held(roots: Iterable[w.Widget]) -> dict[int, w.Widget]:
    """Every widget *roots* hold (as an attribute or a child), the roots included, by id."""
    found: dict[int, w.Widget] = {}
    todo = list(roots)
    while todo:
        widget = todo.pop()
        if id(widget) in found:
            continue
        found[id(widget)] = widget
        todo.extend(part for part in [*vars(widget).values(), *getattr(widget, "children", ())]
                    if isinstance(part, w.Widget))
    return found


def close_whole(widget: w.Widget, keep: Iterable[w.Widget] = ()) -> None:
    """Close *widget* and every widget it holds, as a page dropping it would; one also held by
    a widget of *keep* (a tool the page still shows: models the tools of a page share, such
    as the "no fighters yet" hint of every fighter pick) stays open."""
    kept = _held(keep)
    for key, part in _held([widget]).items():
        if key not in kept:
            part.close()
