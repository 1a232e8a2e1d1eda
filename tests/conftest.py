"""Session fixtures: a real server over real sockets, on SQLite or a fresh Postgres database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import ServerProcess, free_port, fresh_database


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with fresh_database(tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="session")
def server_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server-logs")


@pytest.fixture(scope="session")
def server(database_url: str, server_log_dir: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        database_url=database_url,
        port=free_port(),
        env={"CARDROOM_BOT_DELAY_MS": "0", "CARDROOM_REDIS_URL": ""},
        log_path=server_log_dir / "server.log",
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="session")
def live_server(server: ServerProcess) -> str:
    return server.url
