"""rulebook.static_server: the headers a browser needs to keep the book's files, 304 on
revalidation, and nothing served from outside the folder."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulebook.static_server import (KEEP, REVALIDATE, cache_control, content_type, resolve,
                                    serve)

WASM = b"\0asm\1\0\0\0"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small built book: pages, a folder page, the runtime, an archive, and a secret beside
    it."""
    root = tmp_path / "html"
    for rel, data in {
        "index.html": b"<p>home</p>",
        "00_dice/dice.html": b"<p>dice</p>",
        "00_dice/index.html": b"<p>folder</p>",
        "_static/rulebook-wasm.js": b"// loader",
        "_pyodide/bundle.json": b"{}",
        "_pyodide/pages/00_dice/dice.json": b"{\"cells\": []}",
        "_pyodide/runtime-0.29.5/pyodide.asm.wasm": WASM,
        "_pyodide/runtime-0.29.5/pyodide.mjs": b"export {}",
        "_pyodide/archives/engine-8e6d446edad91e67.zip": b"PK",
        "_pyodide/archives/engine.zip": b"PK",
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (tmp_path / "secret.txt").write_text("not for readers")
    (root / "out").symlink_to(tmp_path)
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")
    return root


@pytest.fixture
def server(site):
    running = serve(site)
    yield running
    running.stop()


def get(server, path: str, method: str = "GET", **headers: str) -> http.client.HTTPResponse:
    """The server's answer to *path* sent exactly as written; its body in ``.body``."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.putrequest(method, path, skip_accept_encoding=True)
    for key, value in headers.items():
        conn.putheader(key.replace("_", "-"), value)
    conn.endheaders()
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


def test_types_the_browser_insists_on(server):
    for path, expected in (("/_pyodide/runtime-0.29.5/pyodide.asm.wasm", "application/wasm"),
                           ("/_pyodide/runtime-0.29.5/pyodide.mjs",
                            "text/javascript; charset=utf-8"),
                           ("/_pyodide/archives/engine-8e6d446edad91e67.zip", "application/zip"),
                           ("/_pyodide/bundle.json", "application/json"),
                           ("/index.html", "text/html; charset=utf-8")):
        response = get(server, path)
        assert response.status == 200, path
        assert response.getheader("Content-Type") == expected, path
        assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert get(server, "/_pyodide/runtime-0.29.5/pyodide.asm.wasm").body == WASM


def test_versioned_runtime_and_digest_named_archives_are_kept_pages_revalidated(server):
    kept = ["/_pyodide/runtime-0.29.5/pyodide.asm.wasm", "/_pyodide/runtime-0.29.5/pyodide.mjs",
            "/_pyodide/archives/engine-8e6d446edad91e67.zip"]
    revalidated = ["/index.html", "/00_dice/dice.html", "/_static/rulebook-wasm.js",
                   "/_pyodide/bundle.json", "/_pyodide/pages/00_dice/dice.json",
                   "/_pyodide/archives/engine.zip"]
    for path in kept:
        assert get(server, path).getheader("Cache-Control") == KEEP, path
    for path in revalidated:
        response = get(server, path)
        assert response.getheader("Cache-Control") == REVALIDATE, path
        assert response.getheader("ETag") and response.getheader("Last-Modified"), path


def test_only_names_that_change_with_their_content_are_kept():
    assert cache_control("_pyodide/runtime-0.29.5/pyodide.asm.wasm") == KEEP
    assert cache_control("_pyodide/archives/widgets-0bfff543f5250bb4.zip") == KEEP
    # A runtime folder without its version, or an archive named without its digest, may
    # change under the same address.
    assert cache_control("_pyodide/runtime/pyodide.asm.wasm") == REVALIDATE
    assert cache_control("_pyodide/runtimes/pyodide.asm.wasm") == REVALIDATE
    assert cache_control("_pyodide/archives/engine.zip") == REVALIDATE
    assert cache_control("_pyodide/archives/sub/engine-8e6d446edad91e67.zip") == REVALIDATE
    assert cache_control("_pyodide/runtime-0.29.5/sub/pyodide.mjs") == REVALIDATE


def test_unknown_suffixes_are_plain_bytes():
    assert content_type("data.unknownsuffix") == "application/octet-stream"
    assert content_type("PYODIDE.ASM.WASM") == "application/wasm"


def test_revalidation_answers_304_without_a_body(server):
    first = get(server, "/00_dice/dice.html")
    tag, modified = first.getheader("ETag"), first.getheader("Last-Modified")
    again = get(server, "/00_dice/dice.html", If_None_Match=tag)
    assert again.status == 304 and again.body == b""
    assert again.getheader("ETag") == tag
    assert again.getheader("Cache-Control") == REVALIDATE
    assert get(server, "/00_dice/dice.html", If_None_Match=f'"other", {tag}').status == 304
    assert get(server, "/00_dice/dice.html", If_Modified_Since=modified).status == 304
    # If-None-Match decides when both are sent (RFC 9110 §13.2.2).
    assert get(server, "/00_dice/dice.html", If_None_Match='"other"',
               If_Modified_Since=modified).status == 200


def test_a_rebuilt_file_is_sent_again(server, site):
    tag = get(server, "/index.html").getheader("ETag")
    page = site / "index.html"
    page.write_bytes(b"<p>rebuilt</p>")
    later = time.time() + 5
    os.utime(page, (later, later))
    response = get(server, "/index.html", If_None_Match=tag)
    assert response.status == 200 and response.body == b"<p>rebuilt</p>"
    assert response.getheader("ETag") != tag


def test_head_sends_the_headers_only(server):
    response = get(server, "/_pyodide/runtime-0.29.5/pyodide.asm.wasm", method="HEAD")
    assert response.status == 200 and response.body == b""
    assert response.getheader("Content-Length") == str(len(WASM))


def test_folders_serve_their_index_page(server):
    assert get(server, "/").body == b"<p>home</p>"
    assert get(server, "/00_dice/").body == b"<p>folder</p>"
    moved = get(server, "/00_dice")
    assert moved.status == 301 and moved.getheader("Location") == "/00_dice/"
    assert get(server, "/_pyodide/").status == 404       # no index.html: no listing either


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/00_dice/../../secret.txt", "/%2e%2e/secret.txt",
    "/00_dice/%2E%2E/%2e%2e/secret.txt", "/..%2fsecret.txt", "/00_dice%2f..%2f..%2fsecret.txt",
    "/..\\secret.txt", "/%5c..%5csecret.txt",
    "/index.html%00.txt", "/out/secret.txt", "/out.txt", "//etc/passwd", "/%ff%fe",
])
def test_nothing_outside_the_folder(server, path):
    response = get(server, path)
    assert response.status == 404, path
    assert b"not for readers" not in response.body and b"root:" not in response.body


def test_resolve_refuses_before_touching_the_disk(site):
    root = site.resolve()
    assert resolve(root, "/00_dice/dice.html") == root / "00_dice" / "dice.html"
    assert resolve(root, "/00_dice/dice.html?x=1#y") == root / "00_dice" / "dice.html"
    assert resolve(root, "/../html/index.html") is None
    assert resolve(root, "/missing.html") is None


def test_only_get_and_head(server):
    assert get(server, "/index.html", method="POST").status == 501


def test_the_command_serves_a_folder(site):
    port_probe = serve(site)          # a free port: taken, then released for the command
    port = port_probe.port
    port_probe.stop()
    proc = subprocess.Popen([sys.executable, "-m", "rulebook.static_server", "--dir", str(site),
                             "--port", str(port), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert f"http://127.0.0.1:{port}/index.html" in proc.stdout.readline()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/_pyodide/runtime-0.29.5/pyodide.asm.wasm")
        response = conn.getresponse()
        assert response.status == 200 and response.read() == WASM
        assert response.getheader("Cache-Control") == KEEP
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_command_needs_a_built_book(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook.static_server", "--dir", str(tmp_path),
                           "--port", "0"], check=False, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "no built book" in proc.stderr and "make book" in proc.stderr
