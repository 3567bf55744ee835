"""The offline app's budgets, measured in Debian's Chromium driven by Playwright.

Starts a real ``pedro serve`` (a fresh SQLite file) and opens its offline app (``/play/``) in a
new browser profile, then prints:

- **first visit**: bytes transferred (every response of the page, its Web Worker and its service
  worker, as Chromium counts them on the wire) and seconds until the engine is ready and until the
  first hand of a new cinch game is on the table and the person may act;
- **later visit**: seconds until the engine is ready again, from the service worker's cache, with
  the network cut off;
- **decisions**: the ``club`` level's (``heuristic``) decision times in the worker, median and 99th
  percentile, per variant (a game of club computers, the person's seat played by the computer
  too), and the longest task the page's main thread ran meanwhile (the worker thinks, the page
  stays responsive).

"Engine ready" is the page's own ``pedro-engine-ready`` User Timing mark, in seconds from the start
of the navigation: the moment the page shows the engine ready. (Playwright sees it some 0.2-0.4 s
later, its own round trips; "first hand playable" is timed by Playwright, from its ``goto``.)

    python benchmarks/offline.py [--decisions 300] [--variants cinch,pidro,eighty_three]
        [--chromium /usr/bin/chromium]

The figures mean something only on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import BrowserContext, Page, sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
READY = '[data-testid="engine-status"][data-state="ready"]'

#: Plays a game in the worker from the page and times its decisions (a function of [variant, n]).
DECISIONS_SCRIPT = (Path(__file__).parent / "offline_decisions.js").read_text(encoding="utf-8")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (folder / "serve.log").open("wb")
    command = [sys.executable, "-m", "pedro.cli.main", "serve", "--port", str(port)]
    command += ["--database", f"sqlite:///{folder / 'pedro.sqlite3'}"]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("pedro serve did not start within 60 s")


def counted_bytes(context: BrowserContext) -> list[int]:
    """A running total of the bytes every response of ``context`` took on the wire."""
    total = [0]

    def finished(request: object) -> None:
        sizes = request.sizes()  # type: ignore[attr-defined]
        total[0] += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    context.on("requestfinished", finished)
    return total


def wait_ready(page: Page) -> float:
    """Seconds from the start of the page's navigation until its engine was ready (its mark)."""
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    mark: float = page.evaluate('performance.getEntriesByName("pedro-engine-ready")[0].startTime')
    return mark / 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=300, help="club decisions timed per variant")
    parser.add_argument("--variants", default="cinch,pidro,eighty_three")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server, url = start_server(Path(tmp))
        try:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            context = browser.new_context(base_url=url)
            total = counted_bytes(context)
            page = context.new_page()
            began = time.perf_counter()
            page.goto("/play/")
            ready = wait_ready(page)
            page.locator('[data-testid="solo-form"] input[name=name]').fill("Bench")
            page.locator('[data-testid="solo-start"]').click()
            page.wait_for_selector('body[data-turn="true"]', state="attached", timeout=120_000)
            playable = time.perf_counter() - began
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.wait_for_timeout(1000)  # the service worker's own downloads, counted too
            print(
                f"first visit: {total[0] / 1e6:.1f} MB transferred; engine ready {ready:.1f} s; "
                f"first hand playable {playable:.1f} s"
            )
            page.close()

            context.set_offline(True)
            page = context.new_page()
            page.goto("/play/")
            print(f"later visit, offline, from the cache: engine ready {wait_ready(page):.1f} s")
            context.set_offline(False)

            for variant in args.variants.split(","):
                measured = page.evaluate(DECISIONS_SCRIPT, [variant, args.decisions])
                times = sorted(measured["times"])
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(
                    f"{variant}: club decision in the worker median {statistics.median(times):.1f} ms, "
                    f"p99 {p99:.1f} ms, max {times[-1]:.1f} ms ({len(times)} decisions); "
                    f"longest main-thread task {measured['longest']:.0f} ms"
                )
            browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
