"""The fast tier: tests that drive a browser or start server processes are slow wherever they are
(tests/tiers.py)."""

from __future__ import annotations

import pytest
from tests.tiers import SLOW, SLOW_BECAUSE


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Before ``-m`` selects: a browser or a server process makes a test slow."""
    for item in items:
        if any(item.get_closest_marker(name) for name in SLOW_BECAUSE) and not item.get_closest_marker(SLOW):
            item.add_marker(getattr(pytest.mark, SLOW))
