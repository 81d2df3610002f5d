"""ipywidgets views over the rules engine: inputs, odds, explanation, errors. No rules here."""
