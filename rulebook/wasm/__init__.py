"""Python in WebAssembly: the engine and its tests under Pyodide, from local files only.

- :mod:`rulebook.wasm.bundle` fetches npm's ``pyodide`` package (a pinned version) and builds
  local wheels of our distribution and of its pure dependencies into ``_build/pyodide/``
  (git-ignored, kept between builds);
- ``run.mjs`` is the Node.js runner: it starts Pyodide from that folder, installs the wheels
  and runs Python code or pytest in it, refusing (and counting) every request to another host;
- :mod:`rulebook.wasm.node` starts the runner, in a network namespace of its own where the
  machine allows one (``python -m rulebook.wasm test`` runs the engine's tests that way);
- :mod:`rulebook.wasm.site` writes the static book's ``_pyodide/`` (the runtime, the wheels a
  reader's browser needs, each chapter's cells), and ``static/rulebook-wasm.js`` is the
  loader a chapter page runs: it starts Pyodide and shows the tools live;
- :mod:`rulebook.wasm.page` is the Python half of that page, run inside Pyodide: comms whose
  other end is the page's widget manager, and each cell's displays kept for the page.

Nothing here is imported by the engine or the tools; it packages them.
"""
