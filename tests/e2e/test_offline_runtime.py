"""The offline app's runtime in a real browser: the service worker caches the tree from ``/play/``,
and with the network cut Pyodide starts from that cache, installs the pinned wheels and runs
pedro's engine and players from python/pedro.zip.

The page itself (static/play.html and its scripts) has tests of its own; this one drives the
runtime directly, the way the app's worker loads it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from tests.serving import ServerProcess

from pedro.server.offline.runtime import runtime_tree

if TYPE_CHECKING:
    from playwright.sync_api import Browser


#: Loads Pyodide and pedro from the tree's files, as the app's worker does, and plays a few moves.
START = """async () => {
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const tree = await (await fetch("files.json")).json();
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
  await pyodide.loadPackage(tree.wheels.map((path) => new URL(path, location.href).href));
  const zip = await (await fetch("python/pedro.zip")).arrayBuffer();
  pyodide.FS.writeFile("/pedro.zip", new Uint8Array(zip));
  return pyodide.runPython(`
import sys
sys.path.insert(0, "/pedro.zip")
import pedro.records, pedro.players
from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.variants.options import make_ruleset
state = GameState(make_ruleset("cinch"), seed=7)
seats = [make_player("basic", seed=s) for s in range(4)]
for _ in range(12):
    state.apply(choose(seats[state.current_player], state))
f"{sys.version_info[0]}.{sys.version_info[1]} {pedro.__file__} {state.phase.name}"
`);
}"""


def test_the_loader_asks_only_for_files_of_the_tree() -> None:
    """What pyodide.mjs fetches beside itself (the runtime's file names in its code) is pinned."""
    tree = runtime_tree()
    loader = tree["pyodide/pyodide.mjs"].read_text(encoding="utf-8")
    asked = set(re.findall(r"[\w-]+(?:\.asm)?\.(?:mjs|wasm|zip|json)\b", loader))
    assert {"pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"} <= asked
    assert {f"pyodide/{name}" for name in asked} <= set(tree)


@pytest.mark.browser
def test_the_cached_app_runs_pedro_in_pyodide_with_no_network(
    browser: Browser, server: ServerProcess
) -> None:
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    page.goto("/play/")
    page.evaluate("navigator.serviceWorker.register('sw.js')")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    context.set_offline(True)
    page.reload()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    answer = page.evaluate(START)
    version, source, phase = str(answer).split()
    assert version == "3.14" and source == "/pedro.zip/pedro/__init__.py" and phase
    # everything came from the app's folder (through the service worker's cache)
    assert asked and all(url.startswith(f"{server.url}/play/") for url in asked), asked
