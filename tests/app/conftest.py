"""The room core and the store run in process on a real database: each test on SQLite, and on
a fresh Postgres database too when CARDROOM_TEST_DATABASE_URL names a server (always in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import default_backend, fresh_database


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgres" and default_backend() != "postgres":
        pytest.skip("no Postgres here: set CARDROOM_TEST_DATABASE_URL")
    with fresh_database(tmp_path, request.param) as url:
        yield url
