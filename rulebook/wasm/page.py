"""The Python half of a static chapter page whose tools run in the reader's browser (Pyodide).

The page's loader (``static/rulebook-wasm.js``) starts Pyodide, installs the wheels and calls
:func:`start` with a function that takes every message Python sends; then :func:`run_cell` for
each code cell of the chapter, in page order, and :func:`deliver` (and :func:`deliver_open`,
:func:`deliver_close`) for every message the page's widget manager sends back. What joins the two:

- comm's public hooks (``comm.create_comm``, ``comm.get_comm_manager``, the ones ipykernel also
  sets): every comm ipywidgets opens is a :class:`PageComm`, whose open, message and close go
  to the page as JSON text plus binary buffers;
- an IPython shell with no kernel, whose display publisher keeps what each cell displays
  (``display(...)`` calls and the cell's last value, as mimebundles), so a cell's output can
  take the place of the static snapshot the page shows.

Nothing here imports ``js``: the page hands in its functions, so the same code runs under
Node.js in the tests (tests/pyodide/test_page_in_pyodide.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import comm
from comm.base_comm import BaseComm, CommManager

Sink = Callable[[str, list[bytes]], None]
"""Takes one message for the page: its JSON text (``msg_type``, ``comm_id``, ``target_name``,
``data``, ``metadata``) and its binary buffers."""

_sink: Sink | None = None
_manager = CommManager()
_outputs: list[dict[str, Any]] = []   # what the running cell displayed, as mimebundles


def _bytes(buffer: Any) -> bytes:
    """A buffer's bytes: from Python (memoryview, bytes) or from the page (a typed array)."""
    if hasattr(buffer, "to_bytes"):
        return buffer.to_bytes()
    return buffer.tobytes() if isinstance(buffer, memoryview) else bytes(buffer)


class PageComm(BaseComm):
    """A comm whose other end is the page's widget manager."""

    def publish_msg(self, msg_type: str, data: dict | None = None,
                    metadata: dict | None = None, buffers: list | None = None,
                    **keys: Any) -> None:
        if _sink is None:
            raise RuntimeError("rulebook.wasm.page.start() has not been called")
        message = {"msg_type": msg_type, "comm_id": self.comm_id,
                   "target_name": self.target_name, "data": data or {},
                   "metadata": metadata or {}}
        _sink(json.dumps(message), [_bytes(b) for b in buffers or ()])


def _create_comm(*args: Any, **kwargs: Any) -> BaseComm:
    return PageComm(*args, **kwargs)


def _get_comm_manager() -> CommManager:
    return _manager


def _shell() -> Any:
    """The IPython shell whose display publisher keeps each cell's displays."""
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell

    class Kept(DisplayPublisher):
        def publish(self, data: dict, metadata: dict | None = None, **kwargs: Any) -> None:
            _outputs.append({"data": data, "metadata": metadata or {}})

        def clear_output(self, wait: bool = False) -> None:
            _outputs.clear()

    if InteractiveShell.initialized():
        shell = InteractiveShell.instance()
        shell.display_pub = Kept(shell=shell)
        return shell
    return InteractiveShell.instance(display_pub_class=Kept)


def start(sink: Sink) -> None:
    """Send every comm's messages to *sink* from now on, and keep what cells display."""
    global _sink
    _sink = sink
    comm.create_comm = _create_comm
    comm.get_comm_manager = _get_comm_manager
    _shell()
    # A widget model the page makes opens its comm in Python, as in a kernel.
    from ipywidgets import register_comm_target
    register_comm_target()


def run_cell(source: str) -> str:
    """Run one code cell in the page's namespace; return what it displayed, as JSON: a list of
    mimebundles (``{"data": ..., "metadata": ...}``), the cell's last value last. A cell that
    raises raises here (the loader says the page's tools failed)."""
    from IPython.core.interactiveshell import InteractiveShell
    from pyodide.code import eval_code
    shell = InteractiveShell.instance()
    _outputs.clear()
    value = eval_code(source, shell.user_ns)
    if value is not None:
        data, metadata = shell.display_formatter.format(value)
        _outputs.append({"data": data, "metadata": metadata})
    shown = list(_outputs)
    _outputs.clear()
    return json.dumps(shown)


def _message(comm_id: str, data: dict, buffers: list) -> dict[str, Any]:
    """A message from the page in the shape comm's handlers read (a kernel message's)."""
    return {"content": {"comm_id": comm_id, "data": data}, "buffers": buffers, "metadata": {},
            "header": {"msg_type": "comm_msg"}, "parent_header": {}}


def deliver(comm_id: str, data_json: str, buffers: list | None = None) -> bool:
    """Hand a message from the page's widget manager to its comm; False if no such comm is
    open (the page may still hold a view of a widget Python closed)."""
    target = _manager.get_comm(comm_id)
    if target is None:
        return False
    target.handle_msg(_message(comm_id, json.loads(data_json),
                               [memoryview(_bytes(b)) for b in buffers or ()]))
    return True


def deliver_open(comm_id: str, target_name: str, data_json: str,
                 buffers: list | None = None) -> None:
    """The page opened a comm (a widget model made on its side): open Python's end."""
    msg = _message(comm_id, json.loads(data_json), [memoryview(_bytes(b)) for b in buffers or ()])
    msg["content"]["target_name"] = target_name
    msg["header"]["msg_type"] = "comm_open"
    _manager.comm_open(None, None, msg)


def deliver_close(comm_id: str) -> bool:
    """The page closed a comm: let Python's side close too."""
    target = _manager.get_comm(comm_id)
    if target is None:
        return False
    target.handle_close(_message(comm_id, {}, []))
    _manager.unregister_comm(target)
    return True

