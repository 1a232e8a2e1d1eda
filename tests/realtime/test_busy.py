"""A server whose every database connection is taken: a request waits a while for one, then
answers 503 with Retry-After, and a socket closes with 1013 (try again later); never a 500,
and everything works again once the connections come free."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import asyncpg
import httpx
import pytest
from sqlalchemy import make_url
from websockets.exceptions import ConnectionClosed

from tests.support.clients import Guest
from tests.support.server import ServerProcess, private_server

POOL = 4


@pytest.fixture
def small_pool_server(tmp_path: Path) -> Iterator[ServerProcess]:
    if not os.environ.get("CARDROOM_TEST_DATABASE_URL"):
        pytest.skip("holding the server's connections in a lock needs Postgres")
    env = {"CARDROOM_DB_POOL_SIZE": str(POOL), "CARDROOM_DB_POOL_TIMEOUT": "0.5"}
    with private_server(tmp_path, env) as process:
        yield process


class TableLock:
    """``LOCK TABLE`` held by a connection of our own until released: every query of the
    table waits, holding its pool connection."""

    def __init__(self, dsn: str, table: str) -> None:
        self._dsn, self._table = dsn, table
        self._locked, self._release = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(self._hold(),))

    async def _hold(self) -> None:
        conn = await asyncpg.connect(self._dsn)
        try:
            async with conn.transaction():
                await conn.execute(f"LOCK TABLE {self._table} IN ACCESS EXCLUSIVE MODE")
                self._locked.set()
                await asyncio.to_thread(self._release.wait, 20)
        finally:
            await conn.close()

    def __enter__(self) -> TableLock:
        self._thread.start()
        assert self._locked.wait(10)
        return self

    def __exit__(self, *_: object) -> None:
        self._release.set()
        self._thread.join(10)


def test_requests_and_sockets_hear_try_again_while_every_connection_is_taken(
    small_pool_server: ServerProcess,
) -> None:
    server = small_pool_server
    host = Guest(server.url, "Host")
    room_id = host.create_room("abstrac", 2)["id"]
    server.stop()  # a fresh process: the room and the player are no longer in its memory
    server.start()
    dsn = make_url(server.database_url).set(drivername="postgresql")

    def history() -> httpx.Response:
        return httpx.get(f"{server.url}/api/matches", timeout=20)

    pool = ThreadPoolExecutor(POOL + 2)
    try:
        with TableLock(dsn.render_as_string(hide_password=False), "matches"):
            answers = [pool.submit(history) for _ in range(POOL + 2)]
            # POOL of them wait on the lock, holding every connection; the first two answers
            # are the others', which waited 0.5 s for a connection and got none
            first = as_completed(answers, timeout=15)
            turned_away = [next(first).result(), next(first).result()]
            assert sum(a.done() for a in answers) == 2  # the rest still wait on the lock
            with pytest.raises(ConnectionClosed) as closed:
                host.socket(room_id).recv(timeout=10)
        statuses = sorted(a.result(timeout=20).status_code for a in answers)
    finally:
        pool.shutdown()
    assert [a.status_code for a in turned_away] == [503, 503]
    assert all(a.json()["error"]["code"] == "busy" for a in turned_away)
    assert all(a.headers["retry-after"] == "2" for a in turned_away)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    assert statuses == [200] * POOL + [503] * 2
    assert host.socket(room_id).expect("hello")["room"]["id"] == room_id
    assert history().status_code == 200
