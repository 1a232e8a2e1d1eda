"""Real server processes for tests, each on a free port, against a real database.

A server is ``python -m app`` (or another ASGI server serving ``app.main:create_app``); the
session's own are tests/conftest.py's fixtures, a test's own :func:`private_server`."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import httpx
from sqlalchemy.engine import make_url

from tests.support.clients import PLAIN
from tests.support.waiting import until

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]

SCRIPTED_CLIENTS = {
    "CARDROOM_GUESTS_PER_ADDRESS": "1000000",
    "CARDROOM_CHALLENGES_PER_ADDRESS": "1000000",
    "CARDROOM_CLAIMS_PER_ADDRESS": "1000000",
    "CARDROOM_HASH_BURST_PER_ADDRESS": "1000000",
}
"""Every scripted client comes from 127.0.0.1, so every server a test or a benchmark starts
lets that address make guests, claims and passkey challenges without a limit, and hash
without pacing, unless its own environment sets them (tests/api/test_abuse_limits.py,
tests/bench/flood_signin.py)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def default_backend() -> str:
    """``postgres`` when CARDROOM_TEST_DATABASE_URL names a Postgres server, else ``sqlite``."""
    return "postgres" if os.environ.get("CARDROOM_TEST_DATABASE_URL") else "sqlite"


@contextmanager
def fresh_database(tmp_dir: Path, backend: str | None = None) -> Iterator[str]:
    """A new empty database on ``backend`` (the default backend when None): a SQLite file in
    ``tmp_dir``, or a database of its own on the Postgres named by CARDROOM_TEST_DATABASE_URL."""
    backend = backend or default_backend()
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_dir / f'cardroom-{uuid.uuid4().hex[:8]}.db'}"
        return
    admin_url = os.environ.get("CARDROOM_TEST_DATABASE_URL")
    if not admin_url:
        raise RuntimeError("a Postgres database needs CARDROOM_TEST_DATABASE_URL")
    url = make_url(admin_url).set(drivername="postgresql")
    name = f"cardroom_test_{uuid.uuid4().hex[:10]}"
    dsn = url.render_as_string(hide_password=False)
    run_sql(dsn, f'CREATE DATABASE "{name}"')
    try:
        yield url.set(drivername="postgresql+asyncpg", database=name).render_as_string(
            hide_password=False
        )
    finally:
        run_sql(dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_on_own_loop(work: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: a test may already run an event loop on this
    one (Playwright's sync API does), and asyncio.run refuses to nest."""
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, work).result()


def run_sql(dsn: str, statement: str) -> None:
    async def run() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    run_on_own_loop(run())


@dataclass
class ServerProcess:
    database_url: str
    port: int
    env: dict[str, str]
    log_path: Path
    # the interpreter's arguments; ``{port}`` in them is the port (``python -m app`` reads it
    # from the environment)
    args: tuple[str, ...] = ("-m", "app")
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        env = {**os.environ, **SCRIPTED_CLIENTS, **self.env}
        env.update(CARDROOM_DATABASE_URL=self.database_url, CARDROOM_PORT=str(self.port))
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, *(arg.format(port=self.port) for arg in self.args)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )

        def healthy() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                return httpx.get(f"{self.url}/healthz", timeout=1, verify=PLAIN).status_code == 200
            except httpx.HTTPError:
                return False

        try:
            until(healthy, "the server's start", timeout, every_s=0.05)
        except TimeoutError:
            self.stop()  # never healthy (it answers 500, say): not left running after the test
            raise RuntimeError(
                f"server did not start: {self.log_path.read_text()[-3000:]}"
            ) from None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def private_server(
    tmp_dir: Path,
    env: dict[str, str],
    args: tuple[str, ...] = ("-m", "app"),
    backend: str | None = None,
) -> Iterator[ServerProcess]:
    """A server of a test's own on a fresh database of ``backend`` (see :func:`fresh_database`),
    without Redis, ``env`` added to its environment, its log in ``tmp_dir``, run with ``args``
    (see :class:`ServerProcess`)."""
    with fresh_database(tmp_dir, backend) as url:
        process = ServerProcess(
            database_url=url,
            port=free_port(),
            env={"CARDROOM_REDIS_URL": "", **env},
            log_path=tmp_dir / "server.log",
            args=args,
        )
        process.start()
        try:
            yield process
        finally:
            process.stop()
