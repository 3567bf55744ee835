// The offline app's engine: a Web Worker running Pyodide (CPython compiled to WebAssembly) with
// pedro's own Python — the engine, the variants and the computer players — so the browser plays
// pedro's rules, not a copy of them in JavaScript, and the page stays responsive while a computer
// thinks. Everything it loads comes from the app's own files (files.json lists them): the
// Pyodide runtime, the wheels pedro needs, and pedro itself (python/pedro.zip).
//
// Requests: {id, call, args} runs pedro.server.offline.worker's function `call`; the answer is
// {id, result, ms} (ms: the call's time in the worker) or {id, error}. Before that it posts
// {type: "progress", stage} as it loads and {type: "ready", ms} or {type: "failed", error}.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const APP = "/home/pyodide/app";
const here = (path) => new URL(`../${path}`, import.meta.url).href;

async function bytes(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function boot() {
  const started = performance.now();
  postMessage({ type: "progress", stage: "runtime" });
  const files = await (await fetch(here("files.json"))).json();
  const py = await loadPyodide({ indexURL: here("pyodide/") });
  postMessage({ type: "progress", stage: "packages" });
  const wheels = await Promise.all(files.wheels.map(bytes));
  for (const wheel of wheels) py.unpackArchive(wheel, "wheel");
  py.unpackArchive(await bytes("python/pedro.zip"), "zip", { extractDir: APP });
  py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(APP)})`);
  postMessage({ type: "progress", stage: "engine" });
  const worker = py.pyimport("pedro.server.offline.worker");
  postMessage({ type: "ready", ms: Math.round(performance.now() - started) });
  return worker;
}

const booted = boot();
booted.catch((err) => postMessage({ type: "failed", error: String((err && err.message) || err) }));

onmessage = async (event) => {
  const { id, call, args = [] } = event.data;
  let worker;
  try {
    worker = await booted;
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
    return;
  }
  const started = performance.now();
  try {
    const result = worker[call](...args);
    postMessage({ id, result, ms: performance.now() - started });
  } catch (err) {
    postMessage({ id, error: String((err && err.message) || err) });
  }
};
