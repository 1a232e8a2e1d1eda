"""Session fixtures: a real server over real sockets, on SQLite or a fresh Postgres database."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.support.server import ServerProcess, default_backend, free_port, fresh_database

IN_CI = os.environ.get("CI") == "true"
SLOW_FIRST = ("redis", "tests/e2e/", "tests/realtime/")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On xdist workers (``make test``: ``-n 2 --dist loadgroup``) a module's tests stay on one
    worker, which starts its module-scoped servers once; the modules that share Redis all go to
    one worker, one at a time (a process hears every other's events about players, whatever
    its database); and the longest groups start first, so none is left running alone at the
    end."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    on_redis = {item.module.__name__ for item in items if "redis_url" in item.fixturenames}
    groups: dict[pytest.Item, str] = {}
    for item in items:
        module = item.module.__name__
        groups[item] = "redis" if module in on_redis else item.nodeid.split("::")[0]
        item.add_marker(pytest.mark.xdist_group(groups[item]))

    def slowness(item: pytest.Item) -> int:
        group = groups[item]
        return next((n for n, slow in enumerate(SLOW_FIRST) if group.startswith(slow)), 99)

    items.sort(key=slowness)


FLOOD_RATE = 2000


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if IN_CI and not os.environ.get("CARDROOM_TEST_DATABASE_URL"):
        pytest.fail("CI must run against Postgres: set CARDROOM_TEST_DATABASE_URL")
    with fresh_database(tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="session")
def server_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server-logs")


# the session's servers: scripted clients, no Redis
SESSION_ENV = {
    "CARDROOM_BOT_DELAY_MS": "0",
    "CARDROOM_BOT_QUICK_MS": "0",
    "CARDROOM_REDIS_URL": "",
    # scripted clients move far faster than people; the flood test floods harder
    "CARDROOM_MESSAGES_PER_SECOND": str(FLOOD_RATE),
    "CARDROOM_MESSAGE_BURST": str(FLOOD_RATE // 20),
    # ... and no socket is closed for it, nor chat limited (tests/realtime/test_abuse.py tests
    # the shipped limits on a server of its own)
    "CARDROOM_MESSAGE_OVERFLOW": "1000000",
    "CARDROOM_CHAT_PER_MINUTE": str(FLOOD_RATE * 60),
    "CARDROOM_CHAT_BURST": "100000",
    # the suite's players open many rooms each; tests/api/test_room_limits.py tests the caps
    "CARDROOM_MAX_OPEN_ROOMS": "100000",
    "CARDROOM_MAX_BOT_MATCHES": "100000",
    # seat holds of a second, so the tests of what follows a hold do not wait for it
    # (tests/realtime/test_match_limits.py tests the shipped minimum's refusal)
    "CARDROOM_MIN_SEAT_HOLD_SECONDS": "1",
    # reviews only when a test asks (tests/api/test_review.py has a server reviewing
    # every match), on a small budget
    "CARDROOM_REVIEW_ON_FINISH": "false",
    "CARDROOM_REVIEW_ITERATIONS": "8",
    "CARDROOM_REVIEW_PLAYOUTS": "4",
}


@pytest.fixture(scope="session")
def server(database_url: str, server_log_dir: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        database_url=database_url,
        port=free_port(),
        env=SESSION_ENV,
        log_path=server_log_dir / "server.log",
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="session")
def live_server(server: ServerProcess) -> str:
    return server.url


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("CARDROOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError:
        if IN_CI:
            pytest.fail(f"CI needs Redis at {url}")
        pytest.skip(f"no Redis at {url}")
    return url


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend in turn, for the tests that must hold on both (the room core's): SQLite
    always, Postgres when CARDROOM_TEST_DATABASE_URL names one (always in CI)."""
    if request.param == "postgres" and default_backend() != "postgres":
        pytest.skip("no Postgres here: set CARDROOM_TEST_DATABASE_URL")
    return request.param


@pytest.fixture(scope="session")
def backend_server(
    backend: str,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    server_log_dir: Path,
) -> Iterator[str]:
    """The session's server when it runs on ``backend``; otherwise one like it on a fresh
    database of that backend (SQLite, in CI)."""
    if backend == default_backend():
        yield request.getfixturevalue("live_server")
        return
    with fresh_database(tmp_path_factory.mktemp(f"db-{backend}"), backend) as url:
        process = ServerProcess(
            database_url=url,
            port=free_port(),
            env=SESSION_ENV,
            log_path=server_log_dir / f"server-{backend}.log",
        )
        process.start()
        yield process.url
        process.stop()
