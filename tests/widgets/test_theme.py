"""The tools' colours and sizes live in widgets/theme.py; the other modules read them there."""

from __future__ import annotations

from pathlib import Path

import widgets
from widgets import theme
from widgets.common import ErrorLine, odds_html, steps_html, tool_layout
from rulescore.dice import parse

WIDGETS = Path(widgets.__file__).parent
# The colours that carry a meaning the reader relies on: an error, a success, a link.
MEANINGFUL = {"ERROR": theme.ERROR, "SUCCESS": theme.SUCCESS, "LINK": theme.LINK,
              "OTHER": theme.OTHER, "CRIT": theme.CRIT}


def test_no_meaningful_colour_is_written_out_beside_the_theme() -> None:
    for path in sorted(WIDGETS.glob("*.py")):
        if path.name == "theme.py":
            continue
        text = path.read_text(encoding="utf-8").lower()
        for name, colour in MEANINGFUL.items():
            assert colour.lower() not in text, f"{path.name} writes {colour}: use theme.{name}"


def test_the_error_line_and_the_upload_note_use_the_theme_error_colour() -> None:
    line = ErrorLine()
    line.show("Skill must be 0 or more, got -1")
    assert f"color:{theme.ERROR}" in line.value
    from widgets import storage
    assert f"color:{theme.ERROR}" in storage._UPLOAD_ESM  # the script is handed the colour
    assert f"color:{theme.ERROR}" in storage.upload_view_module()


def test_frames_charts_and_steps_read_the_theme() -> None:
    assert tool_layout().border == f"1px solid {theme.FRAME}"
    chart = odds_html(parse("2d6").distribution(), success=lambda v: v >= 8)
    assert f'fill="{theme.SUCCESS}"' in chart and f'fill="{theme.OTHER}"' in chart
    assert f"font-size:{theme.NOTE_SIZE}" in chart
    roll = parse("2d6").roll(dice=[3, 4])
    assert f"color:{theme.FAINT}" in steps_html(roll.trace)
