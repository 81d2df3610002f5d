"""ipywidgets views over the rules engine: inputs, odds, explanation, errors. No rules here."""

from .lean import install

install()  # layouts and styles shared by value: fewer models for a page to load (lean.py)
