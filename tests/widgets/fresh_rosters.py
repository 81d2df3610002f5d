"""An autouse fixture for tests of tools that share a chapter's roster: each test starts and
ends with no shared roster, outside the live book. A test module imports it by name
(``from tests.widgets.fresh_rosters import fresh``), which is how pytest finds it there."""

import pytest

from widgets.roster import forget_shared_rosters


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    monkeypatch.delenv("RULEBOOK_TARGET", raising=False)
    forget_shared_rosters()
    yield
    forget_shared_rosters()
