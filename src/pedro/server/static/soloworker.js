// The offline app's engine: a Web Worker running Pyodide (CPython compiled to WebAssembly) with
// pedro's own Python — the engine, the variants and the computer players — so the browser plays
// pedro's rules, not a copy of them in JavaScript, and the page stays responsive while a computer
// thinks. Everything it loads comes from the app's own files (files.json lists them): the
// Pyodide runtime, the wheels pedro needs, and pedro itself (python/pedro.zip).
//
// Requests: {id, call, args} runs pedro.server.offline.worker's function `call` (record_calls's,
// for a record's: RECORD_CALLS); the answer is
// {id, result, ms} (ms: the call's time in the worker) or {id, error}. Calls are answered in
// the order they come, one at a time. Before that it posts
// {type: "progress", stage} as it loads and {type: "ready", ms} or {type: "failed", error}.
import { loadPyodide } from "../pyodide/pyodide.mjs";

// pedro's source, unpacked below the worker's working folder (its Python home)
const APP = "app";
const here = (path) => new URL(`../${path}`, import.meta.url).href;

async function bytes(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The calls that read or write records (pedro.server.offline.record_calls): they need pydantic,
 * whose core is a compiled wheel, so the wheel is installed and the module imported when first
 * asked (some 1 s less at every start). */
const RECORD_CALLS = new Set(["record", "replay"]);
/** A wheel compiled to WebAssembly: installing it loads its library, so it waits until needed. */
const compiled = (path) => path.endsWith("_wasm32.whl");

let py = null;
let files = null;
let recordCalls = null;

async function install(paths) {
  const wheels = await Promise.all(paths.map(bytes));
  for (const wheel of wheels) py.unpackArchive(wheel, "wheel");
}

/** The module of the record calls, its compiled wheels installed first, once. */
function recordModule() {
  recordCalls ??= install(files.wheels.filter(compiled)).then(() => py.pyimport("pedro.server.offline.record_calls"));
  return recordCalls;
}

async function boot() {
  const started = performance.now();
  postMessage({ type: "progress", stage: "runtime" });
  files = await (await fetch(here("files.json"))).json();
  py = await loadPyodide({ indexURL: here("pyodide/") });
  postMessage({ type: "progress", stage: "packages" });
  await install(files.wheels.filter((path) => !compiled(path)));
  py.unpackArchive(await bytes("python/pedro.zip"), "zip", { extractDir: APP });
  py.runPython(`import os, sys; sys.path.insert(0, os.path.abspath(${JSON.stringify(APP)}))`);
  postMessage({ type: "progress", stage: "engine" });
  const worker = py.pyimport("pedro.server.offline.worker");
  postMessage({ type: "ready", ms: Math.round(performance.now() - started) });
  return worker;
}

const booted = boot();
booted.catch((err) => postMessage({ type: "failed", error: String((err && err.message) || err) }));

async function answer({ id, call, args = [] }) {
  let worker;
  try {
    worker = await booted;
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
    return;
  }
  const started = performance.now();
  try {
    const module = RECORD_CALLS.has(call) ? await recordModule() : worker;
    const result = module[call](...args);
    postMessage({ id, result, ms: performance.now() - started });
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
  }
}

let queue = Promise.resolve();
onmessage = (event) => {
  queue = queue.then(() => answer(event.data));
};
