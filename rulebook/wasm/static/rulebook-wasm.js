// The static book's chapter tools, run in the reader's browser (Pyodide), from this site only.
//
// A chapter page first shows the snapshot the build rendered. This script then
//   1. reads _pyodide/pages/<page>.json (the chapter's code cells, the groups they need, the
//      runtime's folder and each group's archive, the bytes to fetch, the live chapter's
//      address); a page without one has no tools;
//   2. checks that the browser can run WebAssembly with enough memory, or says it cannot
//      (data-rulebook-wasm="unsupported" on <html>, and a link to the live chapter);
//   3. starts Pyodide from _pyodide/runtime-<version>/ while it fetches each group's archive
//      (installed modules with their bytecode, compiled by the build), counting the bytes as they
//      arrive ("Loading the dice engine… 12 of 29 MB" in #rulebook-wasm-status), and unpacks
//      them into site-packages;
//   4. runs the cells with rulebook.wasm.page, whose comms talk to a widget manager here (a
//      subclass of the html-manager the page already loads), and puts each tool's live view in
//      place of its snapshot as its cell runs, letting the reader use it between cells: the
//      page's first tool live marks "rulebook-wasm:first-tool" (data-rulebook-wasm-tool="live"),
//      every cell run data-rulebook-wasm="ready".
// Anything that fails leaves the snapshot, says so in reader words and links the live chapter
// (data-rulebook-wasm="failed").
(function () {
  "use strict";
  const html = document.documentElement;
  const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
  const MB = 1e6;
  const MIN_MEMORY_GB = 1;     // navigator.deviceMemory below this: too little for Python

  // The page's own fetch. While Pyodide starts, window.fetch is a stand-in that counts its
  // bytes (withCountedFetch); the archives, fetched meanwhile, are counted once, here.
  const plainFetch = window.fetch.bind(window);
  const root = new URL(html.dataset.content_root || "./", document.baseURI);
  const base = new URL("_pyodide/", root);
  // Sphinx declares DOCUMENTATION_OPTIONS with const: a global binding, not a window property.
  const pagename = typeof DOCUMENTATION_OPTIONS === "object" ? DOCUMENTATION_OPTIONS.pagename
    : null;

  let status = null;
  let liveLink = null;

  function state(value) {
    html.dataset.rulebookWasm = value;
    if (status && (value === "failed" || value === "unsupported")) {
      status.style.borderLeftColor = "#b00020";
    }
  }

  function statusLine() {
    if (status) return status;
    status = document.createElement("p");
    status.id = "rulebook-wasm-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    // The tools' frame colour (widgets/theme.py FRAME); a problem in their error colour.
    status.style.cssText = "border-left:4px solid #c9c4b8;padding:.3em .8em;"
      + "background:#f7f5f0;transition:opacity 1s";
    const article = document.querySelector("main article, article, main, [role=main]");
    // Under the chapter's title; not the print-only copy of it (hidden on screen).
    const at = article && Array.from(article.querySelectorAll("h1"))
      .find((h) => !h.closest(".onlyprint"));
    if (at) at.after(status); else (article || document.body).prepend(status);
    return status;
  }

  function say(text, withLink) {
    const line = statusLine();
    line.textContent = text;
    if (withLink && liveLink) {
      const a = document.createElement("a");
      a.href = liveLink;
      a.textContent = "open this chapter in the live book";
      line.append(" ", a, ".");
    }
  }

  function megabytes(n) { return n >= 10 * MB ? String(Math.round(n / MB)) : (n / MB).toFixed(1); }

  // ------------------------------------------------------------------ can this browser run it?
  function unsupportedReason() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      return "this browser cannot run WebAssembly, which the tools need";
    }
    if (navigator.deviceMemory !== undefined && navigator.deviceMemory < MIN_MEMORY_GB) {
      return "this device has too little memory for the tools";
    }
    try {
      new WebAssembly.Memory({ initial: 2048 });     // 128 MB, about what Python takes at start
    } catch (e) {
      return "this browser gave too little memory for the tools";
    }
    return null;
  }

  // ------------------------------------------------------------------ fetching, bytes counted
  const progress = { done: 0, total: 1, counting: true, open: 0 };
  const FETCHED = 0.9;      // share of the bytes after which the rest is Python starting up

  function shown() {
    if (!progress.counting) return;
    if (progress.open === 0 && progress.done >= FETCHED * progress.total) {
      say("Starting the dice engine…");
    } else {
      say(`Loading the dice engine… ${megabytes(Math.min(progress.done, progress.total))} of `
          + `${megabytes(progress.total)} MB`);
    }
  }

  // The bytes are counted on a copy of the response as they arrive; the page's own use gets
  // the response itself, whose address lets the browser reuse the WebAssembly it compiled
  // from it on the next visit (a response rebuilt from a stream has no address).
  function counted(response) {
    if (!response.ok || !response.body) return response;
    const reader = response.clone().body.getReader();
    progress.open += 1;
    (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          progress.done += value.byteLength;
          shown();
        }
      } finally {
        progress.open -= 1;
        shown();
      }
    })().catch(() => {});
    return response;
  }

  async function fetchCounted(url) {
    const response = await plainFetch(url);
    if (!response.ok) throw new Failure(`a file of the tools is missing (${response.status})`);
    return counted(response);
  }

  class Failure extends Error {}

  // Pyodide fetches its runtime with fetch(); count those bytes too, while it starts.
  async function withCountedFetch(job) {
    const plain = window.fetch;
    window.fetch = async (...args) => counted(await plainFetch(...args));
    try { return await job(); }
    finally { window.fetch = plain; }
  }

  // ------------------------------------------------------------------ the comm bridge
  function dataViews(buffers) {
    return (buffers || []).map((b) => (b instanceof DataView ? b
      : new DataView(b instanceof ArrayBuffer ? b : b.buffer, b.byteOffset || 0, b.byteLength)));
  }

  function bytesOf(buffers) {
    return (buffers || []).map((b) => (b instanceof ArrayBuffer ? new Uint8Array(b)
      : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
  }

  class Bridge {
    constructor(page) {
      this.page = page;        // the Python module rulebook.wasm.page
      this.comms = new Map();
      this.manager = null;
      this.queue = Promise.resolve();
      this.incoming = Promise.resolve();   // Python's messages, handled in order
    }

    // Python -> page: one message (JSON text and its buffers). Messages are handled one after
    // another, as a kernel's are: a model's comm_open is handled asynchronously (its classes
    // load, its state is unpacked), and a message for it handled before then would find no
    // model to take it and be lost (e.g. a tool's new children set just after they open).
    fromPython(text, buffers) {
      const msg = JSON.parse(text);
      const views = dataViews(buffers);
      this.incoming = this.incoming.then(() => this.handle(msg, views))
        .catch((e) => console.error(e));
    }

    async handle(msg, views) {
      const kernelMsg = { content: { comm_id: msg.comm_id, target_name: msg.target_name,
                                     data: msg.data },
                          metadata: msg.metadata, buffers: views,
                          header: { msg_type: msg.msg_type }, parent_header: {} };
      if (msg.msg_type === "comm_open") {
        const comm = this.comm(msg.comm_id, msg.target_name);
        await this.manager.handle_comm_open(comm, kernelMsg);
      } else if (msg.msg_type === "comm_msg") {
        const comm = this.comms.get(msg.comm_id);
        if (comm && comm.onMsg) await comm.onMsg(kernelMsg);
      } else if (msg.msg_type === "comm_close") {
        const comm = this.comms.get(msg.comm_id);
        this.comms.delete(msg.comm_id);
        if (comm && comm.onClose) comm.onClose(kernelMsg);
      }
    }

    // page -> Python, in order, after the current JavaScript task: a model that sends is
    // never re-entered by Python's answer while it is still sending.
    toPython(job) {
      this.queue = this.queue.then(job).catch((e) => {
        console.error(e);
        say("A tool on this page failed to answer. Reload the page to start it again, or",
            true);
      });
      return this.queue;
    }

    comm(commId, targetName) {
      const bridge = this;
      let sent = 0;
      const comm = {
        comm_id: commId,
        target_name: targetName,
        onMsg: null,
        onClose: null,
        open(data, callbacks, metadata, buffers) {
          bridge.toPython(() => {
            bridge.page.deliver_open(commId, targetName, JSON.stringify(data || {}),
                                     bytesOf(buffers));
          });
          return `open-${commId}`;
        },
        send(data, callbacks, metadata, buffers) {
          bridge.toPython(() => {
            bridge.page.deliver(commId, JSON.stringify(data), bytesOf(buffers));
            const idle = callbacks && callbacks.iopub && callbacks.iopub.status;
            if (idle) idle({ content: { execution_state: "idle" } });
          });
          return `msg-${commId}-${sent++}`;
        },
        close() {
          bridge.comms.delete(commId);
          bridge.toPython(() => { bridge.page.deliver_close(commId); });
          return `close-${commId}`;
        },
        on_msg(callback) { comm.onMsg = callback; },
        on_close(callback) { comm.onClose = callback; },
      };
      this.comms.set(commId, comm);
      return comm;
    }
  }

  function pageManagerClass(HTMLManager, bridge) {
    return class PageManager extends HTMLManager {
      // A model made on the page side opens its comm in Python.
      async _create_comm(targetName, modelId, data, metadata, buffers) {
        const comm = bridge.comm(modelId, targetName);
        if (data !== undefined) comm.open(data, undefined, metadata, buffers);
        return comm;
      }

      // Python holds no widget the page has not been told of.
      _get_comm_info() { return Promise.resolve({}); }
    };
  }

  function requireModule(name) {
    return new Promise((resolve, reject) => window.require([name], resolve, reject));
  }

  // ------------------------------------------------------------------ cells and their outputs
  function outputArea(cell) {
    let area = cell.querySelector(":scope > .cell_output");
    if (!area) {
      area = document.createElement("div");
      area.className = "cell_output docutils container";
      cell.append(area);
    }
    return area;
  }

  async function render(manager, outputs, area) {
    const fresh = document.createElement("div");
    fresh.className = "rulebook-wasm-output";
    const views = [];
    for (const out of outputs) {
      const el = document.createElement("div");
      el.className = "output";
      const data = out.data;
      fresh.append(el);
      if (data[WIDGET_VIEW]) {
        const model = await manager.get_model(data[WIDGET_VIEW].model_id);
        views.push([model, el]);
      } else if (data["text/html"] !== undefined) {
        el.innerHTML = data["text/html"];
      } else if (data["text/plain"] !== undefined) {
        const pre = document.createElement("pre");
        pre.textContent = data["text/plain"];
        el.append(pre);
      }
    }
    area.replaceChildren(fresh);
    for (const [model, el] of views) {
      await manager.display_view(await manager.create_view(model), el);
    }
  }

  function hasWidget(outputs) { return outputs.some((o) => o.data && o.data[WIDGET_VIEW]); }

  // ------------------------------------------------------------------ the first tool
  // The page's first tool in page order (a snapshot's until its cell has run) answers once its
  // live view is in place with a field enabled: then "rulebook-wasm:first-tool" is marked and
  // data-rulebook-wasm-tool="live" set on <html>, while later cells may still be running.
  const TOOL = '[class*="rulebook-"].widget-box';
  const FIELD = "input, select, textarea, button";
  let firstTool = null;      // a MutationObserver until the first tool is live, then done

  function firstToolLive() {
    const tool = document.querySelector(TOOL);
    const field = tool && tool.closest(".rulebook-wasm-output") && tool.querySelector(FIELD);
    return !!field && !field.disabled;
  }

  function markFirstTool() {
    if (firstTool === "done" || !firstToolLive()) return false;
    if (firstTool) firstTool.disconnect();
    firstTool = "done";
    performance.mark("rulebook-wasm:first-tool");
    html.dataset.rulebookWasmTool = "live";
    return true;
  }

  // A view draws its children after display_view returns: watch until a field is there.
  function watchFirstTool() {
    if (firstTool || markFirstTool()) return;
    firstTool = new MutationObserver(markFirstTool);
    firstTool.observe(document.body, { subtree: true, childList: true, attributes: true });
  }

  // Between cells, let the browser draw and take the reader's clicks and keys: a tool already
  // live answers (its messages wait in the bridge's queue) while the next cell runs.
  function betweenCells() {
    return new Promise((resolve) => setTimeout(resolve, 0));
  }

  // ------------------------------------------------------------------ start
  async function start() {
    const response = await plainFetch(new URL(`pages/${pagename}.json`, base));
    if (!response.ok) return;                        // a page without tools
    const spec = await response.json();
    liveLink = spec.live || null;
    const reason = unsupportedReason();
    if (reason) {
      say(`The tools on this page cannot run here: ${reason}. To use them,`, true);
      state("unsupported");
      return;
    }
    state("loading");
    progress.total = spec.bytes;
    shown();
    try {
      await run(spec);
    } catch (e) {
      console.error(e);
      progress.counting = false;
      const what = e instanceof Failure ? e.message : "the tools' Python stopped with an error";
      say(`The tools on this page could not start (${what}). The page shows them as they `
          + "were when the book was built. To use them,", true);
      state("failed");
    }
  }

  async function run(spec) {
    const runtime = new URL(`${spec.runtime}/`, base).href;
    const fetchArchives = (groups) => Promise.all(groups.map(async (group) => {
      const response = await fetchCounted(new URL(spec.archives[group], base));
      return new Uint8Array(await response.arrayBuffer());
    }));
    const [py, archives, HTMLManager] = await Promise.all([
      withCountedFetch(async () => {
        const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
        const started = await loadPyodide({ indexURL: runtime, fullStdLib: false });
        performance.mark("rulebook-wasm:booted");
        return started;
      }),
      fetchArchives(spec.groups).then((all) => {
        performance.mark("rulebook-wasm:fetched");
        return all;
      }),
      requireModule("@jupyter-widgets/html-manager").then((m) => m.HTMLManager),
    ]);
    const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
    const install = (all) => {
      for (const bytes of all) py.unpackArchive(bytes, "zip", { extractDir: sitePackages });
      py.runPython("import importlib; importlib.invalidate_caches()");
    };
    install(archives);
    performance.mark("rulebook-wasm:installed");
    progress.counting = false;
    say("Starting the tools…");
    await new Promise((r) => setTimeout(r, 0));      // let the line show before Python runs

    const page = py.pyimport("rulebook.wasm.page");
    const bridge = new Bridge(page);
    const Manager = pageManagerClass(HTMLManager, bridge);
    // A widget view of our own (the upload picker) is a RequireJS module the page's setup
    // script defines; the manager asks RequireJS for it, never a CDN.
    bridge.manager = new Manager({ loader: requireModule });
    page.start((text, buffers) => bridge.fromPython(text, buffers ? buffers.toJs() : []));
    performance.mark("rulebook-wasm:started");

    const cells = Array.from(document.querySelectorAll("main div.cell, article div.cell"));
    if (cells.length !== spec.cells.length) {
      throw new Failure("the page and its tools do not match; the book needs building again");
    }
    const formulas = spec.groups.includes("formulas");
    let withFormulas = formulas;
    for (let i = 0; i < spec.cells.length; i++) {
      let outputs;
      try {
        outputs = JSON.parse(page.run_cell(spec.cells[i]));
      } catch (e) {
        // A formula rendered as LaTeX needs sympy: fetch its group once, then run the cell again.
        if (withFormulas || !/No module named '(sympy|mpmath)'/.test(String(e))) throw e;
        withFormulas = true;
        install(await fetchArchives(["formulas"]));
        outputs = JSON.parse(page.run_cell(spec.cells[i]));
      }
      await bridge.incoming;                         // the cell's models exist on the page
      if (hasWidget(outputs) && cells[i]) {
        await render(bridge.manager, outputs, outputArea(cells[i]));
        watchFirstTool();
        await betweenCells();
      }
    }
    await bridge.queue;
    await bridge.incoming;
    markFirstTool();
    // The bytes the progress line counted, for tests to compare with the network's.
    performance.mark("rulebook-wasm:cells-run", { detail: { counted: progress.done } });
    state("ready");
    say("Tools ready");
    statusLine().classList.add("rulebook-wasm-ready");
    setTimeout(() => { status.style.opacity = "0"; }, 3000);
    setTimeout(() => { status.hidden = true; }, 4000);
  }

  if (!pagename) return;
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => { start(); });
  } else {
    start();
  }
})();
