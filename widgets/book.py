"""Book furniture: the landing page, previous/next links and worked examples.

Everything here reads ``jupyter_book.yml`` through :func:`rulebook.toc.load_book`, so chapter
order lives in one place. The landing page and the links are display HTML, not widgets: their
output is the same for every reader, so the live book shows a chapter's first run of them to
later readers without running them again (``rulebook.serving``). Links are relative ``.ipynb``
links (Voilà serves them); when the static book is built (``RULEBOOK_TARGET=static``) they point
at the ``.html`` pages, and each widget's chapter gets a note linking to the live book.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping

from IPython.display import HTML, display

from rulescore.assumptions import Assumption, assumption, load_assumptions
from rulebook.toc import Book, Chapter, load_book
from rulescore.dice import DiceRoll, Distribution, parse
from rulescore.systems import system as system_data
from rulescore.tables import Span, Table
from rulescore.text import odds, yes_no
from rulescore.trace import Resolution, Step

from .common import dice_faces_html, odds_html, steps_html, value_note
from .lean import book_target
from .theme import HIGHLIGHT as HIGHLIGHT_COLOUR
from .theme import LINK


_STYLE = (f"<style>.rulebook-contents a,.rulebook-nav a,.rulebook-live-note a{{color:{LINK};"
          "text-decoration:underline}.rulebook-contents li{font-size:1.15em;margin:.35em 0}"
          ".rulebook-nav{font-size:1.05em;margin:.5em 0}</style>")


def _static() -> bool:
    """A page of the static book, as built or running its tools in the reader's browser."""
    return book_target() in ("static", "wasm")


def _href(from_file: str, to_file: str) -> str:
    """A relative link from one book page to another (both without extension)."""
    rel = posixpath.relpath(to_file, posixpath.dirname(from_file) or ".")
    return rel + (".html" if _static() else ".ipynb")


def _link(href: str, text: str) -> str:
    """A link to another page of the book, opened in the same tab. (The live page's output
    renderer opens a link without a target in a new tab, as it does any link to another
    address; the book's own pages should read like one book.)"""
    return f'<a href="{html.escape(href)}" target="_self">{html.escape(text)}</a>'


def _chapter_link(book: Book, here: str, chapter: Chapter) -> str:
    return _link(_href(here, chapter.file), chapter.title)


def landing_page() -> HTML:
    """The book's title, its parts (each naming its game) and every chapter, linked."""
    book = load_book()
    parts = []
    for part in book.parts:
        items = "".join(f"<li>{_chapter_link(book, book.root, c)}</li>" for c in part.chapters)
        game = f" <small>— {html.escape(part.game)}</small>" if part.game else ""
        parts.append(f"<h2>{html.escape(part.caption)}{game}</h2><ol>{items}</ol>")
    return HTML(f"{_STYLE}<nav aria-label='Contents' class='rulebook-contents'>{''.join(parts)}</nav>")


def chapter_nav(file: str) -> HTML:
    """Previous / contents / next links for the chapter *file* (e.g. ``"00_dice/dice"``).

    A chapter names itself once, at its top (``nav = chapter_nav("00_dice/dice")`` then
    ``nav``), and shows the same bar at its foot with ``nav``. The path is given rather than
    found: nbval and the static build tell the kernel only its folder, which holds several
    chapters, and Voilà's request details reach only the kernels it starts for a request."""
    book = load_book()
    before, after = book.neighbours(file)
    links = []
    if before:
        links.append(f"← Previous: {_chapter_link(book, file, before)}")
    links.append(_link(_href(file, book.root), "Contents"))
    if after:
        links.append(f"Next: {_chapter_link(book, file, after)} →")
    note = ""
    if _static() and book.live_url:
        live = f"{book.live_url}/{book.chapter(file).notebook}"
        note = (f"<p class='rulebook-live-note'><i>The tools on this page run in your browser "
                f"once Python has loaded with the page; they run in the live book too: "
                f"<a href='{html.escape(live)}'>open this chapter live</a>.</i></p>")
    return HTML(f"{_STYLE}<nav aria-label='Chapter navigation' class='rulebook-nav'>"
                f"{' · '.join(links)}</nav>{note}")


def worked_roll(expression: str, *, dice: list[int] | None = None,
                seed: int | None = None) -> DiceRoll:
    """Roll *expression* with typed *dice* or a *seed*, show the result, and return it."""
    expr = parse(expression)
    result = expr.roll(dice=dice) if dice is not None else expr.roll(seed=seed)
    display(HTML(worked_html(f"<div><code>{html.escape(str(expr))}</code> → total "
                             f"<b>{result.total}</b> {dice_faces_html(result)}</div>",
                             result.trace)))
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


HIGHLIGHT = f" class='rulebook-row-used' style='background:{HIGHLIGHT_COLOUR};font-weight:600'"

# Short words of the rules that are written in capitals (a header "tn" reads "TN").
ABBREVIATIONS = frozenset({
    "ar", "av", "bp", "br", "cf", "cs", "dex", "eml", "gm", "hb", "hp", "hr", "il", "inc",
    "kia", "ln", "ml", "pb", "shk", "stn", "ta", "tn", "unc", "wr", "zn",
    "m1", "s2", "s3", "g4", "g5",
})
# Word pairs a key splits that the rules write with a hyphen.
HYPHENATED = {"off hand": "off-hand"}
LONG_TEXT = 40  # a column with a cell longer than this wraps in a column of its own width

_WORD_KEY = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")   # "close", "very_close"
_SNAKE_KEY = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")  # "very_close" only
_LONG = " class='rulebook-long'"
_CELLS = "figure.rulebook-table .rulebook-table-scroll table"   # outranks Jupyter's own rules
_TABLE_STYLE = ("<style>figure.rulebook-table{margin:.8em 0}"
                ".rulebook-table-scroll{overflow-x:auto;max-width:100%}"
                f"{_CELLS}{{table-layout:auto;margin:0}}"
                f"{_CELLS}.rulebook-wide{{font-size:.85em}}"
                f"{_CELLS} th,{_CELLS} td{{text-align:left;vertical-align:top;"
                "white-space:normal;padding:.35em .45em}"
                f"{_CELLS} td.rulebook-long{{min-width:10em}}</style>")
WIDE_TABLE = 8  # a table with more columns than this is set a little smaller


def humanise(key: str) -> str:
    """A machine key as words: ``"off_hand_pool_penalty"`` → ``"off-hand pool penalty"``,
    ``"base_tn"`` → ``"base TN"``."""
    text = " ".join(w.upper() if w in ABBREVIATIONS else w for w in key.split("_"))
    for words, written in HYPHENATED.items():
        text = re.sub(rf"\b{words}\b", written, text)
    return text


def header(column: str) -> str:
    """A column name as a header: ``"treatment_tn"`` → ``"Treatment TN"``."""
    text = humanise(column)
    return text[:1].upper() + text[1:]


def shown_columns(table: Table) -> tuple[str, ...]:
    """The columns to print: a first column of machine keys is left out when the table has a
    human-readable ``name`` or ``label`` column saying the same."""
    first, rest = table.columns[0], table.columns[1:]
    keys = all(isinstance(r[first], str) and _WORD_KEY.match(r[first]) for r in table.rows)
    return rest if keys and {"name", "label"} & set(rest) else table.columns


def cell_text(value: object, shown: str, titles: Mapping[str, str] | None = None) -> str:
    """One cell for a reader: booleans as yes/no, lists joined, a key naming another table as
    that table's title, any other machine key as words; else *shown* (the printed text).
    Words the data gives a value (its table's ``shown_as``) are printed as they are."""
    if value is not None and shown != str(value):
        return shown
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if isinstance(value, str) and titles and value in titles:
        return titles[value]
    if isinstance(value, str) and _SNAKE_KEY.match(value):
        return humanise(value)
    return shown


def span_text(span: Span) -> str:
    """A range of a table as a reader reads it. A range with a negative end is written in words
    with true minus signs ("−6 to −1", "−7 or less"): printed with a dash, "-6–-1" reads as a
    typo. Other ranges keep the table's own way ("3–6", "7+")."""
    def number(n: int) -> str:
        return str(n).replace("-", "\u2212")
    ends = [n for n in (span.low, span.high) if n is not None]
    if not any(n < 0 for n in ends):
        return str(span)
    if span.low is None:
        return f"{number(span.high)} or less"
    if span.high is None:
        return f"{number(span.low)} or more"
    if span.low == span.high:
        return number(span.low)
    return f"{number(span.low)} to {number(span.high)}"


def table_html(table: Table, highlight: Callable[[int], bool] | None = None,
               titles: Mapping[str, str] | None = None) -> str:
    """A data table as HTML, with its title and source section, read from the engine's data.
    Rows whose index satisfies *highlight* are marked as the row a walker used; *titles* names
    the tables a cell may refer to. A wide table scrolls inside its own box."""
    columns = shown_columns(table)
    body = [[span_text(row.span) if c == table.range_column and row.span is not None
             else cell_text(row[c], shown[c], titles) for c in columns]
            for row, shown in zip(table.rows, table.display_rows())]
    return _figure(table.title, table.source, [table.heading(c) or header(c) for c in columns],
                   body, highlight)


def _figure(title: str, source: str, headers: list[str], body: list[list[str]],
            highlight: Callable[[int], bool] | None = None, *, markup: bool = False) -> str:
    """A printed table: title, source section, headers and rows of text (escaped here), or
    of markup the caller escaped (*markup*)."""
    long = {i for i in range(len(headers)) if any(len(r[i]) > LONG_TEXT for r in body)}
    cell = (lambda text: text) if markup else html.escape
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    wide = " class='rulebook-wide'" if len(headers) > WIDE_TABLE else ""
    rows = "".join(f"<tr{HIGHLIGHT if highlight and highlight(n) else ''}>"
                   + "".join(f"<td{_LONG if i in long else ''}>"
                             f"{cell(text)}</td>" for i, text in enumerate(cells))
                   + "</tr>" for n, cells in enumerate(body))
    return (f"{_TABLE_STYLE}<figure class='rulebook-table'><figcaption><b>"
            f"{html.escape(title)}</b> <small>({html.escape(source)})</small>"
            f"</figcaption><div class='rulebook-table-scroll'><table{wide}><thead><tr>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table></div></figure>")


def print_rows(title: str, source: str, rows: list[Mapping[str, object]]) -> HTML:
    """Show rows the rules engine prepared for reading (each a {header: text} mapping, the
    headers those of the first row) as a printed table, like :func:`print_table`."""
    headers = list(rows[0]) if rows else []
    return HTML(_figure(title, source, headers, [[str(r[h]) for h in headers] for r in rows]))


def data_table(system: str, file: str, name: str) -> Table:
    """Table *name* of ``systems/<system>/data/<file>.toml``, as the engine reads it."""
    return system_data(system).table(file, name)


def file_table_html(system: str, file: str, name: str,
                    highlight: Callable[[int], bool] | None = None) -> str:
    """:func:`table_html` of table *name* of a data file; a cell naming another table of the
    same file shows that table's title."""
    tables = system_data(system).tables(file)
    return table_html(system_data(system).table(file, name), highlight, {k: t.title for k, t in tables.items()})


def print_table(system: str, file: str, name: str) -> HTML:
    """Show table *name* of ``systems/<system>/data/<file>.toml`` (the book's printed tables)."""
    return HTML(file_table_html(system, file, name))


def _switch_html(a: Assumption) -> str:
    """Where a reader switches the ruling: the tool's labelled control, or, when no tool offers
    it, the engine option a GM who scripts the rules can pass."""
    if a.control:
        return (f"<p><b>Switch it:</b> “{html.escape(a.control)}” in {html.escape(a.tool or '')}."
                "</p>")
    if a.option:
        return ("<p><small>The tools play our ruling. For developers: the rules engine "
                f"switches it with the option <code>{html.escape(a.option)}</code>.</small></p>")
    return ""


def ruling_link(system: str, id: str) -> str:
    """A link, from any chapter of *system*'s part, to its named assumption *id* where the
    part's rulings chapter shows it (its section's id), in the words of its title. Styled
    in place: a tool's text does not get the book's link style."""
    rulings_file = load_book().chapter(f"{system}/rulings").file
    href = f"{_href(rulings_file, rulings_file)}#{id}"
    return (f'<a href="{html.escape(href)}" target="_self" style="color:{LINK};'
            f'text-decoration:underline">{html.escape(assumption(system, id).title)}</a>')


def rulings(system: str) -> HTML:
    """The system's named assumptions: what the rules say, what we do, what else a table might
    do, and where a reader switches it."""
    items = []
    for a in load_assumptions(system):
        alts = "".join(f"<li>{html.escape(x)}</li>" for x in a.alternatives)
        items.append(f"<section class='rulebook-assumption' id='{html.escape(a.id)}'>"
                     f"<h3>{html.escape(a.title)} <small>({html.escape(a.id)})</small></h3>"
                     f"<p><b>The rules say:</b> {html.escape(a.seed_says)}</p>"
                     f"<p><b>We rule:</b> {html.escape(a.ruling)}</p>"
                     + (f"<p><b>Other tables might:</b></p><ul>{alts}</ul>" if alts else "")
                     + _switch_html(a) + "</section>")
    return HTML("".join(items) or "<p>No assumptions recorded.</p>")


def _linked_rulings(system: str, text: str) -> str:
    """*text* escaped, each ruling it names by its quoted title a link to that ruling (which
    the rulings chapter shows above the table)."""
    out = html.escape(text, quote=False)
    for a in load_assumptions(system):
        quoted = f"“{html.escape(a.title, quote=False)}”"
        out = out.replace(quoted, f"“<a href='#{html.escape(a.id)}' target='_self'>"
                                  f"{html.escape(a.title, quote=False)}</a>”")
    return out


def rules_coverage(system: str) -> HTML:
    """Every section of the rules a part follows and where the book stands on it: in the tools,
    or left out and why (the system's rules index, DESIGN §2: every rule implemented or out of
    scope with a reason)."""
    entries = system_data(system).rules_index()
    body = [[html.escape(e.section),
             _linked_rulings(system, e.summary),
             "In the tools" if e.status == "implemented"
             else "<b>Left out:</b> " + _linked_rulings(system, e.reason)]
            for e in entries]
    left_out = sum(e.status != "implemented" for e in entries)
    title = (f"Every section of the rules: {len(entries) - left_out} in the tools, "
             f"{left_out} left out")
    return HTML(_figure(title, "the rules index of this part", ["Section", "What it says",
                                                                "In this book"],
                        body, markup=True))


def worked_html(headline: str, steps: Iterable[Step]) -> str:
    """The one look of every worked result in the book: a headline (markup the caller has
    escaped) over the numbered steps, each with the rule it applied."""
    return f"<div class='rulebook-worked'>{headline}{steps_html(steps)}</div>"


def explain(result: Resolution, outcome: str | None = None, *, title: str | None = None,
            value: bool = True) -> HTML:
    """A worked example's result for the book: its *title* if any, its outcome (in the words
    *outcome* gives, if any), its value where that adds to the outcome (unless *value* is
    False) and its numbered steps. Plain HTML, not a widget: the live book keeps it once for
    every reader."""
    lead = f"<b>{html.escape(title)}</b> → " if title else ""
    shown = html.escape(str(result.outcome) if outcome is None else outcome)
    note = html.escape(value_note(result)) if value else ""
    return HTML(worked_html(f"<p>{lead}<b>{shown}</b>{note}</p>", result.trace))
