"""A static file server for the built book that lets the browser keep what it fetched.

The static book runs Python in the reader's browser (``_pyodide/``: the WebAssembly runtime and
the wheels, about 20 MB). A reader's second visit should fetch next to nothing, which only
works when the server says how long each file may be kept. This server says it the way
``docs/deploy.md`` asks a static host to:

- files whose address changes with their content are kept for a year without asking again
  (``immutable``): the Pyodide runtime under ``_pyodide/runtime-<version>/`` and the groups'
  archives ``_pyodide/archives/<group>-<digest>.zip`` (the digest of the archive's bytes).
- everything else (pages, ``_static/``, ``bundle.json``, the pages' cell lists) is revalidated
  on every use (``no-cache``) with an ``ETag`` and ``Last-Modified``: an unchanged file costs
  a ``304 Not Modified`` with no body.
- types the browser insists on: ``application/wasm`` (streaming compilation refuses any other),
  JavaScript modules, wheels, JSON.

Only files inside the served folder are served: a path with ``..``, a NUL or a backslash, or a
symbolic link leading outside, is refused (404), and a folder is served only through its
``index.html``. GET and HEAD only. Meant for a local look at the book and for the browser
tests and benchmarks, on a loopback address: ``rulebook serve-static`` or
``python -m rulebook.static_server``.
"""

from __future__ import annotations

import argparse
import email.utils
import mimetypes
import os
import posixpath
import re
import shutil
import sys
import threading
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

KEEP = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# The runtime's folder carries Pyodide's version, an archive's name the digest of its bytes.
KEPT = re.compile(r"_pyodide/(runtime-\d+(\.\d+)*(?:[a-z]+\d*)?/[^/]+"
                  r"|archives/[a-z]+-[0-9a-f]{16}\.zip)")

# Set here rather than read from the machine's mime.types, which differ from host to host and
# lack .wasm or .mjs on some.
TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".map": "application/json",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".inv": "application/octet-stream",
}


def content_type(name: str) -> str:
    """The Content-Type of a file named *name*."""
    ext = posixpath.splitext(name)[1].lower()
    if ext in TYPES:
        return TYPES[ext]
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def cache_control(relpath: str) -> str:
    """The Cache-Control of the file at *relpath* (slash-separated, from the served folder)."""
    return KEEP if KEPT.fullmatch(relpath) else REVALIDATE


def etag(stat: os.stat_result) -> str:
    """A strong validator from the file's size and modification time (nanoseconds): a rebuilt
    file gets a new one, an untouched file keeps it."""
    return f'"{stat.st_size:x}-{stat.st_mtime_ns:x}"'


def resolve(root: Path, url_path: str) -> Path | None:
    """The file *url_path* names inside *root* (already resolved), or None when it names
    nothing there or reaches outside: ``..`` segments, NUL or backslashes, or a link out."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url_path).path, errors="strict")
    if "\0" in path or "\\" in path:
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    target = root.joinpath(*parts)
    if path.endswith("/") or not parts:
        target = target / "index.html"
    try:
        real = target.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if real != root and root not in real.parents:
        return None
    return real if real.is_file() else None


def not_modified(headers, tag: str, mtime: float) -> bool:
    """Whether a conditional request's validators still match the file (If-None-Match first,
    as RFC 9110 says; If-Modified-Since only without it)."""
    match = headers.get("If-None-Match")
    if match is not None:
        tags = [t.strip() for t in match.split(",")]
        return "*" in tags or tag in tags or f"W/{tag}" in tags
    since = headers.get("If-Modified-Since")
    if since is None:
        return False
    try:
        when = email.utils.parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False
    return when.timestamp() >= int(mtime)


class Handler(BaseHTTPRequestHandler):
    """GET and HEAD of files under the server's root, with the validators and cache policy
    of the module docstring."""

    server_version = "rulebook-static"
    protocol_version = "HTTP/1.1"          # keep-alive: a page and its files share connections

    def do_GET(self) -> None:
        self._serve(body=True)

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def _serve(self, body: bool) -> None:
        root: Path = self.server.root  # type: ignore[attr-defined]
        try:
            target = resolve(root, self.path)
        except UnicodeDecodeError:
            target = None
        if target is None:
            folder = self._folder_without_slash(root)
            if folder:
                self._redirect(folder)
            else:
                self._status_only(HTTPStatus.NOT_FOUND, body)
            return
        relpath = target.relative_to(root).as_posix()
        stat = target.stat()
        tag = etag(stat)
        validators = {"ETag": tag,
                      "Last-Modified": email.utils.formatdate(stat.st_mtime, usegmt=True),
                      "Cache-Control": cache_control(relpath)}
        if not_modified(self.headers, tag, stat.st_mtime):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            for key, value in validators.items():
                self.send_header(key, value)
            self.end_headers()
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type(target.name))
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in validators.items():
            self.send_header(key, value)
        self.end_headers()
        if body:
            with open(target, "rb") as f:
                shutil.copyfileobj(f, self.wfile)

    def _folder_without_slash(self, root: Path) -> str | None:
        """The path with a slash added when it names a folder holding index.html (a relative
        link inside that page must resolve against the folder)."""
        path = urllib.parse.urlsplit(self.path).path
        if path.endswith("/"):
            return None
        try:
            page = resolve(root, path + "/")
        except UnicodeDecodeError:
            return None
        return path + "/" if page is not None else None

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _status_only(self, status: HTTPStatus, body: bool) -> None:
        text = f"{status.value} {status.phrase}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(text)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(text)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


@dataclass
class StaticServer:
    """A running server: its address and how to stop it."""

    httpd: ThreadingHTTPServer
    thread: threading.Thread

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self.httpd.server_address[0]}:{self.port}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0,
                verbose: bool = False) -> ThreadingHTTPServer:
    """An HTTP server over *root* on *host*:*port* (0: a free port), not yet serving."""
    root = Path(root).resolve(strict=True)
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a folder")
    httpd = ThreadingHTTPServer((host, port), Handler)
    httpd.daemon_threads = True
    httpd.root = root  # type: ignore[attr-defined]
    httpd.verbose = verbose  # type: ignore[attr-defined]
    return httpd


def serve(root: Path, host: str = "127.0.0.1", port: int = 0) -> StaticServer:
    """Serve *root* from a background thread of this process; :meth:`StaticServer.stop` ends it."""
    httpd = make_server(root, host, port)
    thread = threading.Thread(target=httpd.serve_forever, name="rulebook-static", daemon=True)
    thread.start()
    return StaticServer(httpd, thread)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's options (shared by ``rulebook serve-static`` and ``python -m``)."""
    p.add_argument("--dir", type=Path, default=None,
                   help="the built book (default: _build/html of the project)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    p.add_argument("--quiet", action="store_true", help="do not log each request")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 1 when there is no built book to serve."""
    if args.dir is None:
        from .toc import find_project_dir
        args.dir = find_project_dir() / "_build" / "html"
    if not (Path(args.dir) / "index.html").is_file():
        print(f"rulebook serve-static: no built book in {args.dir} (run make book first)",
              file=sys.stderr)
        return 1
    httpd = make_server(args.dir, args.host, args.port, verbose=not args.quiet)
    host, port = httpd.server_address[:2]
    print(f"Serving the static book: http://{host}:{port}/index.html", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rulebook.static_server",
                                description=__doc__.splitlines()[0])
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
