"""The book's table of contents, read from ``jupyter_book.yml`` (the one place chapter order lives).

The live landing page, the previous/next links and the static build all use :func:`load_book`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rulescore.errors import RulesError

BOOK_FILE = "jupyter_book.yml"


@dataclass(frozen=True)
class Chapter:
    """A chapter: its notebook path under ``book/`` without extension, and its title."""

    file: str
    title: str
    part: str

    @property
    def notebook(self) -> str:
        return f"{self.file}.ipynb"


@dataclass(frozen=True)
class Part:
    caption: str
    game: str
    chapters: tuple[Chapter, ...]


@dataclass(frozen=True)
class Book:
    title: str
    author: str
    description: str
    root: str
    live_url: str
    parts: tuple[Part, ...]
    project_dir: Path

    @property
    def chapters(self) -> tuple[Chapter, ...]:
        return tuple(c for p in self.parts for c in p.chapters)

    @property
    def book_dir(self) -> Path:
        return self.project_dir / "book"

    def chapter(self, file: str) -> Chapter:
        """The chapter whose file is *file* (``"00_dice/dice"``); RulesError if none."""
        file = file.removesuffix(".ipynb")
        for c in self.chapters:
            if c.file == file:
                return c
        names = ", ".join(c.file for c in self.chapters)
        raise RulesError(f"chapter '{file}' is not in {BOOK_FILE} (chapters: {names})")

    def neighbours(self, file: str) -> tuple[Chapter | None, Chapter | None]:
        """The chapters before and after *file* in reading order."""
        chapters = self.chapters
        i = chapters.index(self.chapter(file))
        return (chapters[i - 1] if i else None,
                chapters[i + 1] if i + 1 < len(chapters) else None)


def find_project_dir(start: Path | None = None) -> Path:
    """The folder holding ``jupyter_book.yml``: $RULEBOOK_HOME, upwards from *start*/cwd, the
    checkout this package lives in, or else this package's own copy of the file.

    The copy (package data; in a checkout a link to the project's file) lets the tools find
    their chapter links where there is no project folder at all: an installed wheel, or
    Python in the reader's browser, whose working folder is empty."""
    env = os.environ.get("RULEBOOK_HOME")
    if env and (Path(env) / BOOK_FILE).is_file():
        return Path(env).resolve()
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / BOOK_FILE).is_file():
            return folder
    package = Path(__file__).resolve().parent
    for folder in (package.parent, package):
        if (folder / BOOK_FILE).is_file():
            return folder
    raise RulesError(f"cannot find {BOOK_FILE} above {here}; run from the project folder "
                     "or set RULEBOOK_HOME")


def load_book(project_dir: Path | None = None) -> Book:
    """Read and check ``jupyter_book.yml``."""
    import yaml  # here, not above: a served chapter that shows its kept links never loads PyYAML

    root = project_dir or find_project_dir()
    # libyaml's loader where PyYAML has it: every chapter reads this file twice as it opens.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load((root / BOOK_FILE).read_text(encoding="utf-8"), Loader=loader)
    for key in ("title", "author", "root", "parts"):
        if key not in data:
            raise RulesError(f"{BOOK_FILE} is missing '{key}'")
    parts = []
    for p in data["parts"]:
        chapters = tuple(Chapter(c["file"], c["title"], p["caption"]) for c in p["chapters"])
        parts.append(Part(p["caption"], p.get("game", ""), chapters))
    return Book(data["title"], data["author"], data.get("description", ""), data["root"],
                data.get("live_url", "").rstrip("/"), tuple(parts), root)
