"""Voilà over the book on 127.0.0.1, in a session (process group) of its own: start it, wait
until it answers, stop it with every kernel it started. The browser tests
(``tests/browser/served.py``) and the web benchmarks (``run_web.py``, ``table_loop.py``) serve
the book this way, and open it in the same chromium (:data:`CHROMIUM`, :data:`CHROMIUM_ARGS`).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import IO

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium (``make chromium`` installs it); Playwright's own browsers cannot be
downloaded here."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Headless, and quiet: no background requests of chromium's own to other hosts."""


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command: list[str], env: dict[str, str], log: IO[str],
          url: str, seconds: float = 60) -> subprocess.Popen | None:
    """Run *command* in a session of its own, its output in *log*, and wait until *url*
    answers (any HTTP status counts). None, with the process stopped, when it exits or does
    not answer within *seconds*: the caller says so in its own way."""
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    deadline = time.time() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return proc
        except urllib.error.HTTPError:
            return proc                     # it answers: started
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                stop(proc)
                return None
            time.sleep(0.3)


def stop(proc: subprocess.Popen) -> None:
    """End *proc*'s whole session (the server and its kernels): politely, then for good."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
