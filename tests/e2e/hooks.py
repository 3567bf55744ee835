"""The page's hooks a browser test drives, looked for in the client as the server serves it.

The browser tests are slow (a Chromium, a ``pedro serve`` each); beside them each module of
tests/e2e keeps a fast test that the client still sets every hook the module selects: each
``data-testid`` value, and each ``data-*`` attribute (written in the page or a script, or set as
``dataset.name``, a ``dataset: {name: ...}`` key, or ``.name =`` on a dataset). The client is
read through the app in this process, the page and every script it imports from
``static/app.js`` on, and the offline app's page (``/play/``) and every script from
``static/solo.js`` on, so a renamed or dropped hook, or a script the page no longer gets, is found
in the fast tier.
"""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path

from starlette.testclient import TestClient

from pedro.server.app import ServerSettings, create_app

#: a ``[data-name`` attribute selector, and a ``[data-testid="value"]`` one (quotes maybe escaped)
SELECTOR = re.compile(r"\[data-([a-z][a-z-]*)")
TESTID = re.compile(r"""\[data-testid=\\?["']([a-z0-9-]+)""")
#: a script's imports of its sibling scripts
IMPORT = re.compile(r"""(?:from|import)\s+["']\./([\w.-]+\.js)["']""")
#: each page, and the script it starts from
ENTRIES = {"/": "app.js", "/play/": "solo.js"}


@cache
def client() -> str:
    """The page and every script it loads, as served (each must be there: 200)."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(ServerSettings(database=f"sqlite:///{tmp}/db.sqlite3", start_workers=False))
        http = TestClient(app)
        texts, queue, seen = [], [], set()
        for address, entry in ENTRIES.items():
            page = http.get(address)
            assert page.status_code == 200 and f"static/{entry}" in page.text, address
            texts.append(page.text)
            queue.append(entry)
        while queue:
            name = queue.pop()
            if name in seen:
                continue
            seen.add(name)
            script = http.get(f"/static/{name}")
            assert script.status_code == 200, f"static/{name}: {script.status_code}"
            texts.append(script.text)
            queue += IMPORT.findall(script.text)
    return "\n".join(texts)


def _camel(name: str) -> str:
    return re.sub(r"-([a-z])", lambda m: m.group(1).upper(), name)


def missing_hooks(*test_files: str | Path) -> list[str]:
    """The hooks the given test modules select that the served client never sets."""
    source = "\n".join(Path(f).read_text(encoding="utf-8") for f in test_files)
    js = client()
    missing = [
        f'data-testid="{testid}"'
        for testid in sorted(set(TESTID.findall(source)))
        if not re.search(rf"""["']{re.escape(testid)}["']""", js)
    ]
    for name in sorted(set(SELECTOR.findall(source)) - {"testid"}):
        camel = _camel(name)
        if f"data-{name}" not in js and not re.search(
            rf"dataset\.{camel}\b|\b{camel}\s*:|\.{camel}\s*=(?!=)", js
        ):
            missing.append(f"data-{name}")
    return missing
