// Runs Python code or pytest inside Pyodide under Node.js, from the local bundle only.
//
//   node run.mjs --bundle _build/pyodide [--groups engine,test] [--mount HOST:/path]...
//                [--cwd /path] [--env NAME=VALUE]... [--append-path /path]...
//                (--python CODE | --pytest ARG...)
//
// The runtime and the wheels are read from the bundle folder (rulebook/wasm/bundle.py makes
// it). Every way Node has to reach another host (fetch, sockets, DNS, http/https) is replaced
// by one that refuses and counts: the last line printed is
//   PYODIDE-RUN {"refused": [...], "load_s": ..., "install_s": ..., "run_s": ..., ...}
// and a refused request makes the run fail whatever the Python code did.

import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { pathToFileURL } from "node:url";

const refused = [];
function refuse(what) {
  refused.push(what);
  return new Error(`refused a request to another host: ${what}`);
}
globalThis.fetch = async (input) => { throw refuse(`fetch ${input?.url ?? input}`); };
net.Socket.prototype.connect = function (...args) {
  throw refuse(`socket ${JSON.stringify(args[0])}`);
};
net.connect = net.createConnection = tls.connect = (...args) => {
  throw refuse(`connect ${JSON.stringify(args[0])}`);
};
dns.lookup = dns.resolve = (host) => { throw refuse(`dns ${host}`); };
for (const mod of [http, https]) {
  mod.request = mod.get = (url) => { throw refuse(`http ${url?.href ?? url?.host ?? url}`); };
}

function parseArgs(argv) {
  const opts = { groups: ["engine"], mounts: [], env: {}, cwd: null, paths: [], python: null,
                 pytest: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--bundle") opts.bundle = argv[++i];
    else if (a === "--groups") opts.groups = argv[++i].split(",");
    else if (a === "--mount") opts.mounts.push(argv[++i]);
    else if (a === "--cwd") opts.cwd = argv[++i];
    else if (a === "--append-path") opts.paths.push(argv[++i]);
    else if (a === "--env") {
      const [k, ...v] = argv[++i].split("=");
      opts.env[k] = v.join("=");
    } else if (a === "--python") opts.python = argv[++i];
    else if (a === "--pytest") { opts.pytest = argv.slice(i + 1); break; }
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.bundle || (opts.python === null && opts.pytest === null)) {
    throw new Error("usage: run.mjs --bundle DIR [...] (--python CODE | --pytest ARG...)");
  }
  return opts;
}

const seconds = (t0) => Math.round((performance.now() - t0) / 10) / 100;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const bundle = path.resolve(opts.bundle);
  const manifest = JSON.parse(fs.readFileSync(path.join(bundle, "bundle.json"), "utf8"));
  const runtime = path.join(bundle, manifest.runtime) + path.sep;
  // Network interfaces that are up: none in a namespace of its own (rulebook/wasm/node.py).
  const interfaces = Object.keys(os.networkInterfaces());
  const report = { pyodide: manifest.pyodide, refused, interfaces };

  let t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: runtime, env: { HOME: "/home/pyodide", ...opts.env } });
  const write = (stream) => ({ write: (buf) => { stream.write(buf); return buf.length; } });
  py.setStdout(write(process.stdout));
  py.setStderr(write(process.stderr));
  report.load_s = seconds(t0);

  t0 = performance.now();
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  const wheels = manifest.wheels.filter((w) => opts.groups.includes(w.group));
  for (const w of wheels) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(bundle, w.file)));
    py.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  }
  report.wheels = wheels.map((w) => w.file.split("/").pop());
  report.wheel_bytes = wheels.reduce((n, w) => n + w.bytes, 0);
  for (const m of opts.mounts) {
    const [host, target] = m.split(":");
    py.mountNodeFS(target, path.resolve(host));
  }
  // Appended, never prepended: a mounted checkout must not shadow the installed wheels.
  py.globals.set("_paths", py.toPy(opts.paths));
  py.runPython("import importlib, sys; sys.path.extend(_paths); del _paths; "
               + "importlib.invalidate_caches()");
  if (opts.cwd) {
    py.globals.set("_cwd", opts.cwd);
    py.runPython("import os; os.makedirs(_cwd, exist_ok=True); os.chdir(_cwd); del _cwd");
  }
  report.install_s = seconds(t0);

  t0 = performance.now();
  let code = 0;
  try {
    if (opts.python !== null) {
      await py.runPythonAsync(opts.python);
    } else {
      py.globals.set("_pytest_args", py.toPy(opts.pytest));
      code = py.runPython("import pytest; int(pytest.main(list(_pytest_args)))");
    }
  } catch (err) {
    process.stderr.write(`${err.message ?? err}\n`);   // a PythonError's message is its traceback
    code = 1;
  }
  report.run_s = seconds(t0);
  report.python_exit = code;
  const cpu = process.cpuUsage();
  report.cpu_s = Math.round((cpu.user + cpu.system) / 1e4) / 100;
  report.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
  process.stdout.write(`\nPYODIDE-RUN ${JSON.stringify(report)}\n`);
  return refused.length ? 3 : code;
}

main().then(
  (code) => process.exit(code),
  (err) => { process.stderr.write(`run.mjs: ${err.message ?? err}\n`); process.exit(2); },
);
