"""A live book served by Voilà on a free loopback port, as `rulebook serve` runs it, for the
browser tests: the suite's shared server (conftest.py) and the servers of tests that need their
own settings (a small maximum of kernels, a short busy limit) or kill their kernels."""

from __future__ import annotations

import http.client
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rulebook.cli import voila_command, voila_env

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "web"))

import voila_process  # noqa: E402
from voila_process import free_port  # noqa: E402,F401  (the browser tests take a port here)


class ServedBook:
    """Voilà over book/ on 127.0.0.1, its output in *log*; *args* are added to (or replace, by
    option name) the command's options; *env* are keywords of :func:`rulebook.cli.voila_env`.
    Started in a session of its own, so :meth:`stop` ends the server and its kernels."""

    def __init__(self, log: Path, args: tuple[str, ...] = (), **env: object) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        replaced = {a.split("=", 1)[0] for a in args}
        command = [a for a in voila_command("127.0.0.1", self.port, ROOT / "book")
                   if a.split("=", 1)[0] not in replaced] + list(args)
        self.log_path = log
        self.log = open(log, "w")
        proc = voila_process.start(command, voila_env(ROOT, **env), self.log, self.base + "/")
        if proc is None:
            self.log.close()
            pytest.fail(f"Voilà did not start:\n{self.log_path.read_text()[-2000:]}")
        self.proc = proc

    def url(self, page: str) -> str:
        return f"{self.base}/voila/render/{page}"

    def get(self, path: str) -> http.client.HTTPResponse:
        """The server's answer to a GET of *path*, sent as written; its text in ``.text``."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", path)
        response = conn.getresponse()
        response.text = response.read().decode("utf-8", "replace")  # type: ignore[attr-defined]
        conn.close()
        return response

    def kernels(self) -> dict[str, int]:
        """The server's kernels still running: kernel id -> process id (its child processes,
        each started with its connection file kernel-<id>.json)."""
        found = {}
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            for pid in (task / "children").read_text().split():
                try:
                    args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                except OSError:
                    continue
                if state == "Z":           # exited, not yet reaped
                    continue
                for arg in args:
                    name = os.path.basename(arg.decode())
                    if name.startswith("kernel-") and name.endswith(".json"):
                        found[name[len("kernel-"):-len(".json")]] = int(pid)
        return found

    def connection_file(self, kernel_id: str) -> str:
        pid = self.kernels()[kernel_id]
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        return next(a.decode() for a in args if a.decode().endswith(f"kernel-{kernel_id}.json"))

    def kernel_status(self, kernel_id: str) -> int:
        """HTTP status of Voilà's kernel route for *kernel_id*: 200 while it lives, 404 after."""
        try:
            return urllib.request.urlopen(f"{self.base}/api/kernels/{kernel_id}",
                                          timeout=5).status
        except urllib.error.HTTPError as exc:
            return exc.code

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        voila_process.stop(self.proc)
        self.log.close()
