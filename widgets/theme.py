"""The tools' look in one place: colours and sizes every widget module reads.

A colour here is named by what it tells the reader (an error, a success, a muted note), so a
change of palette is one edit; the only copy elsewhere is the file-picker script in
``storage.py``, which receives :data:`ERROR` from Python when it is built.
"""

from __future__ import annotations

# Colours that carry meaning.
ERROR = "#b00020"      # an error message, a failure, a death
SUCCESS = "#2e7d32"    # a success: bars, rows and verdicts that succeed
OTHER = "#90a4ae"      # chart bars that do not succeed
CRIT = "#6a1b9a"       # a critical hit
ACCENT = "#1565c0"     # the book's blue: links (underlined) and the marker of "you" in a scene
LINK = ACCENT
MUTED = "#777"         # a quiet note: a link not yet available, blood loss in a chart
FAINT = "#555"         # rule references beside a step, chart axes
INK = "#444"           # the outline of a die
FRAME = "#c9c4b8"      # the frame around a whole tool
RULE_LINE = "#ddd"     # the lines between table rows
HIGHLIGHT = "#fff3c4"  # the table row a result used
INFECTED = "#fbe3e3"   # the days a wound was infected, in the healing chart
# One colour a character in the healing chart; the first three are the ones above.
PALETTE = (ERROR, "#1f5fa8", SUCCESS, "#8e44ad", "#d35400", "#00838f")

# Sizes.
LABEL_WIDTH = "11em"    # the label column of a labelled field
LABEL_WIDE = "13em"     # a label column for labels of three or four words
LABEL_WIDER = "15em"    # a label column for the longest labels ("Your dice (shooting skill)")
# Field widths, label column included: each tool picks its fields' widths from these.
NUMBER_WIDTH = "16em"   # a short number among many (a grid of them)
NUMBER_WIDE = "18em"    # a number with a LABEL_WIDE label
FIELD_WIDTH = "20em"    # a number or a checkbox beside a LABEL_WIDTH or LABEL_WIDER label
MENU_WIDTH = "21.5em"   # a menu among NUMBER_WIDTH numbers
GRID_COLUMN = "22em"    # one column of a grid of fields
TEXT_WIDTH = "26em"     # a text field or a menu of a few words
LIST_WIDTH = "30em"     # a list of numbers typed in one field
ROSTER_WIDTH = "34em"   # a roster typed in one field
PHRASE_MENU = "36em"    # a menu whose options are phrases
SENTENCE_WIDTH = "40em" # a menu whose options are sentences, or a long list of names
CHAR_EM = 0.55          # a generous width of one character of the widgets' 13px font, in em
DEFAULT_LABEL_EM = 6.1  # ipywidgets' own label width (80px) when a style sets none
MAX_WIDTH_EM = 64.0     # widest a fitted input grows (the page's text column is ~70em)
TICK_CHAR_PX = 7        # the width of one digit of an 11px axis label, with room to spare
TOTAL_SIZE = "140%"     # the headline total of a roll
VERDICT_SIZE = "130%"   # a one-line verdict (hit or miss, where a throw lands)
NOTE_SIZE = "90%"       # the small print under a chart
FRAME_PADDING = "6px 14px 10px"
FRAME_MARGIN = "10px 0"
