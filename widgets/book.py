"""Book furniture: the landing page, previous/next links and worked examples.

Everything here reads ``jupyter_book.yml`` through :func:`rulescore.book.load_book`, so chapter
order lives in one place. They are ipywidgets HTML (not display HTML, whose links JupyterLab's renderer opens in a
new tab). Links are relative ``.ipynb`` links (Voilà serves them); when the
static book is built (``RULEBOOK_TARGET=static``) they point at the ``.html`` pages, and each
widget's chapter gets a note linking to the live book.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
import posixpath

import ipywidgets as w
from IPython.display import HTML, display

from rulescore.assumptions import load_assumptions
from rulescore.book import Book, Chapter, load_book
from rulescore.dice import DiceRoll, Distribution, parse
from rulescore.tables import Table, load_tables, system_data_dir
from rulescore.text import odds
from rulescore.trace import Resolution

from .common import dice_faces_html, odds_html, steps_html


_STYLE = ("<style>.rulebook-contents a,.rulebook-nav a,.rulebook-live-note a{color:#1565c0;"
          "text-decoration:underline}.rulebook-contents li{font-size:1.15em;margin:.35em 0}"
          ".rulebook-nav{font-size:1.05em;margin:.5em 0}</style>")


def _static() -> bool:
    return os.environ.get("RULEBOOK_TARGET") == "static"


def _href(from_file: str, to_file: str) -> str:
    """A relative link from one book page to another (both without extension)."""
    rel = posixpath.relpath(to_file, posixpath.dirname(from_file) or ".")
    return rel + (".html" if _static() else ".ipynb")


def _chapter_link(book: Book, here: str, chapter: Chapter) -> str:
    return f'<a href="{html.escape(_href(here, chapter.file))}">{html.escape(chapter.title)}</a>'


def landing_page() -> w.HTML:
    """The book's title, its parts (each naming its game) and every chapter, linked."""
    book = load_book()
    parts = []
    for part in book.parts:
        items = "".join(f"<li>{_chapter_link(book, book.root, c)}</li>" for c in part.chapters)
        game = f" <small>— {html.escape(part.game)}</small>" if part.game else ""
        parts.append(f"<h2>{html.escape(part.caption)}{game}</h2><ol>{items}</ol>")
    return w.HTML(f"{_STYLE}<nav aria-label='Contents' class='rulebook-contents'>{''.join(parts)}</nav>")


def chapter_nav(file: str) -> w.HTML:
    """Previous / contents / next links for the chapter *file* (e.g. ``"00_dice/dice"``)."""
    book = load_book()
    before, after = book.neighbours(file)
    links = []
    if before:
        links.append(f"← Previous: {_chapter_link(book, file, before)}")
    links.append(f'<a href="{html.escape(_href(file, book.root))}">Contents</a>')
    if after:
        links.append(f"Next: {_chapter_link(book, file, after)} →")
    note = ""
    if _static() and book.live_url:
        live = f"{book.live_url}/{book.chapter(file).notebook}"
        note = (f"<p class='rulebook-live-note'><i>The tools on this page are live in the served "
                f"book: <a href='{html.escape(live)}'>open this chapter live</a>.</i></p>")
    return w.HTML(f"{_STYLE}<nav aria-label='Chapter navigation' class='rulebook-nav'>"
                f"{' · '.join(links)}</nav>{note}")


def worked_roll(expression: str, *, dice: list[int] | None = None,
                seed: int | None = None) -> DiceRoll:
    """Roll *expression* with typed *dice* or a *seed*, show the result, and return it."""
    expr = parse(expression)
    result = expr.roll(dice=dice) if dice is not None else expr.roll(seed=seed)
    display(HTML(f"<div><code>{html.escape(str(expr))}</code> → total "
                 f"<b>{result.total}</b> {dice_faces_html(result)}</div>"
                 f"{steps_html(result.trace)}"))
    return result


def worked_odds(expression: str, *, at_least: int | None = None) -> Distribution:
    """Show the exact odds of *expression* (and of reaching *at_least*), and return them."""
    expr = parse(expression)
    dist = expr.distribution()
    headline = (f"{expr}: chance of {at_least} or more is {odds(dist.p_at_least(at_least))}"
                if at_least is not None else f"{expr}: exact odds")
    success = (lambda v: v >= at_least) if at_least is not None else None
    display(HTML(odds_html(dist, success, headline)))
    return dist


HIGHLIGHT = " class='rulebook-row-used' style='background:#fff3c4;font-weight:600'"


def table_html(table: Table, highlight: Callable[[int], bool] | None = None) -> str:
    """A data table as HTML, with its title and source section, exactly as the engine reads it.
    Rows whose index satisfies *highlight* are marked as the row a walker used."""
    left = " style='text-align:left;vertical-align:top'"
    head = "".join(f"<th{left}>{html.escape(c.replace('_', ' ').capitalize())}</th>"
                   for c in table.columns)
    rows = "".join(f"<tr{HIGHLIGHT if highlight and highlight(i) else ''}>"
                   + "".join(f"<td{left}>{html.escape(r[c])}</td>" for c in table.columns)
                   + "</tr>" for i, r in enumerate(table.display_rows()))
    return (f"<figure class='rulebook-table'><figcaption><b>{html.escape(table.title)}</b> "
            f"<small>({html.escape(table.source)})</small></figcaption>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></figure>")


def data_table(system: str, file: str, name: str) -> Table:
    """Table *name* of ``systems/<system>/data/<file>.toml``, as the engine reads it."""
    return load_tables(system_data_dir(system) / f"{file}.toml")[name]


def print_table(system: str, file: str, name: str) -> HTML:
    """Show table *name* of ``systems/<system>/data/<file>.toml`` (the book's printed tables)."""
    return HTML(table_html(data_table(system, file, name)))


def rulings(system: str) -> HTML:
    """The system's named assumptions: what the seed says, what we do, what else a table might do."""
    items = []
    for a in load_assumptions(system):
        alts = "".join(f"<li>{html.escape(x)}</li>" for x in a.alternatives)
        option = (f"<p><small>Switchable: the rules functions take <code>"
                  f"{html.escape(a.option)}=</code>, and the tools that roll it offer the "
                  f"choice.</small></p>" if a.option else "")
        items.append(f"<section class='rulebook-assumption' id='{html.escape(a.id)}'>"
                     f"<h3>{html.escape(a.title)} <small>({html.escape(a.id)})</small></h3>"
                     f"<p><b>The rules say:</b> {html.escape(a.seed_says)}</p>"
                     f"<p><b>We rule:</b> {html.escape(a.ruling)}</p>"
                     + (f"<p><b>Other tables might:</b></p><ul>{alts}</ul>" if alts else "")
                     + option + "</section>")
    return HTML("".join(items) or "<p>No assumptions recorded.</p>")


def explain(result: Resolution) -> HTML:
    """A worked example's result for the book: its outcome, its value and its numbered steps,
    each with the rule it applied."""
    headline = (f"<p><b>{html.escape(str(result.outcome))}</b> "
                f"(value {html.escape(str(result.value))})</p>")
    return HTML(f"<div class='rulebook-worked'>{headline}{steps_html(result.trace)}</div>")
