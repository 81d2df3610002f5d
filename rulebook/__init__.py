"""The site: the book around the engine (``rulescore``) and the tools (``widgets``).

- :mod:`rulebook.toc` reads the table of contents (``jupyter_book.yml``); the one module of
  this package the tools may import (their previous/next links read it).
- :mod:`rulebook.serving` decides which cells a live page runs, keeps outputs no reader can
  change, and warms the pages up; :mod:`rulebook.live` is the live server's Voilà configuration
  (``share/jupyter/config/voila.py`` calls it), with :mod:`rulebook.admission` (one address per
  chapter, at most so many pages at once) and :mod:`rulebook.connection` (a page is told when
  its kernel is gone).
- :mod:`rulebook.build` builds the static book with Jupyter Book 1.
- :mod:`rulebook.cli` is the ``rulebook`` command.
- :mod:`rulebook.patches` lists every place the site reaches into another library.

DESIGN §1: this package uses ``rulescore`` and ``widgets``; neither uses it, but for the table
of contents. ``tests/test_layering.py`` holds that.
"""
