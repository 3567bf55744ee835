"""The offline app's service worker, run in Node against stand-ins for the browser's caches and
network: it caches every file files.json lists, serves them cache-first within its scope and
drops the caches of its scope's other versions."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pedro.server.offline.bundle import Bundle, read

NODE = shutil.which("node")

#: Runs sw.js (the first argument) in a context whose fetch answers from the tree (the second:
#: path -> text) under https://h.example/app/, then installs, activates and asks it for a few URLs.
HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const scope = "https://h.example/app/";
const [swPath, treeText] = process.argv.slice(-2);
const tree = JSON.parse(treeText);
// an older version of this scope, and one of another scope on the same site
const older = [`pedro-play:${scope}:old`, "pedro-play:https://h.example/b/:old"];
const store = new Map(older.map((name) => [name, new Map()]));
const fetched = [];
const bare = (url) => String(url).split("?")[0];
const caches = {
  open: async (name) => {
    if (!store.has(name)) store.set(name, new Map());
    const entries = store.get(name);
    return {
      put: async (key, response) => { entries.set(bare(key), await response.text()); },
      match: async (key) => (entries.has(bare(key)) ? new Response(entries.get(bare(key))) : undefined),
    };
  },
  keys: async () => [...store.keys()],
  delete: async (name) => store.delete(name),
};
const fetch = async (input, options = {}) => {
  const url = typeof input === "string" ? input : input.url;
  fetched.push({ url: bare(url), cache: options.cache || null });
  const path = bare(url).slice(scope.length);
  return path in tree ? new Response(tree[path]) : new Response("missing", { status: 404 });
};
const listeners = {};
const self = { registration: { scope }, clients: { claim: async () => {} },
               addEventListener: (type, listener) => { listeners[type] = listener; } };
vm.runInNewContext(fs.readFileSync(swPath, "utf8"), { self, caches, fetch, URL, Response, console });
const run = async (type, extra = {}) => {
  let done = Promise.resolve(), answer;
  listeners[type]({ waitUntil: (p) => { done = p; }, respondWith: (p) => { answer = p; }, ...extra });
  await done;
  return answer;
};
(async () => {
  await run("install");
  const installFetches = fetched.splice(0);
  await run("activate");
  const served = {};
  const urls = [scope, `${scope}static/table.js?v=2`, `${scope}files.json`, "https://h.example/api/tables"];
  for (const url of urls) {
    const answer = await run("fetch", { request: { method: "GET", url } });
    served[url] = answer ? await (await answer).text() : null;
  }
  const current = [...store.keys()].find((name) => name.includes("/app/:") && !name.endsWith(":old"));
  const cached = [...store.get(current).keys()];
  console.log(JSON.stringify({ installFetches, later: fetched, caches: [...store.keys()], cached, served }));
})().catch((e) => { console.error(e); process.exit(1); });
"""


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run the service worker")
def test_the_service_worker_caches_the_tree_and_serves_it_offline(tmp_path: Path) -> None:
    files = {"index.html": b"<p>app</p>", "static/table.js": b"// table", "python/pedro.zip": b"PK"}
    bundle = Bundle.of(files)
    (tmp_path / "sw.js").write_bytes(read(bundle.files["sw.js"]))
    tree = {path: read(content).decode() for path, content in bundle.files.items()}
    done = subprocess.run(
        [str(NODE), "-e", HARNESS, "--", str(tmp_path / "sw.js"), json.dumps(tree)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    scope = "https://h.example/app/"
    listed = json.loads(tree["files.json"])["files"]
    # install: files.json past the HTTP cache, and every file it lists revalidated (what the
    # first visit's page has just fetched is not downloaded again)
    assert sorted(f["url"] for f in result["installFetches"]) == sorted(
        scope + p for p in ["files.json", *listed]
    )
    assert {f["url"]: f["cache"] for f in result["installFetches"]} == {
        scope + p: "reload" if p == "files.json" else "no-cache" for p in ["files.json", *listed]
    }
    assert sorted(result["cached"]) == sorted(scope + p for p in ["files.json", *listed])
    # activate: this scope's other version is dropped, another scope's kept
    assert sorted(result["caches"]) == sorted(
        [f"pedro-play:{scope}:{bundle.version}", "pedro-play:https://h.example/b/:old"]
    )
    # from the cache, with no network: the folder's address is index.html; outside the scope untouched
    assert result["later"] == []
    assert result["served"] == {
        scope: "<p>app</p>",
        scope + "static/table.js?v=2": "// table",
        scope + "files.json": tree["files.json"],
        "https://h.example/api/tables": None,
    }
