"""ipywidgets views over the rules engine: inputs, odds, explanation, errors. No rules here.

Importing this package changes nothing outside our own tools (see lean.py): every other widget
in the kernel stays as ipywidgets makes it.
"""
