from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import fresh_database


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """A fresh database of the test's own (the session's is the live server's)."""
    with fresh_database(tmp_path) as url:
        yield url
