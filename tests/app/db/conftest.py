"""Helpers for the store's tests (their database is ``tests/app/conftest.py``'s)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.migrate import upgrade_to_head
from app.db.store import Store, open_store

T = TypeVar("T")

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def room_row(room_id: str, **extra: object) -> dict[str, object]:
    """A full, waiting room's row of two seats hosted by player 1, without the columns that
    have Python-side defaults (table, private)."""
    return {
        "id": room_id,
        "game": "abstrac",
        "options": {},
        "seat_count": 2,
        "filled": 2,  # a start needs every seat filled (migration 0004)
        "status": "waiting",
        "host_id": 1,
        "created_at": NOW,
        "updated_at": NOW,
        **extra,
    }


class LoopThread:
    """An event loop on a thread of its own, kept for a whole test (an engine's connections
    belong to one loop): this thread may already run one, Playwright's, after browser tests."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def run_until_complete(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


@pytest.fixture
def loop() -> Iterator[LoopThread]:
    running = LoopThread()
    yield running
    running.close()


@pytest.fixture
def db(database_url: str, loop: LoopThread) -> Iterator[AsyncEngine]:
    engine = make_engine(database_url)
    loop.run_until_complete(upgrade_to_head(engine))
    yield engine
    loop.run_until_complete(engine.dispose())


@pytest.fixture
def store(db: AsyncEngine, loop: LoopThread) -> Iterator[Store]:
    """The database's store, open."""
    opened = open_store(db)
    loop.run_until_complete(opened.open())
    yield opened
    loop.run_until_complete(opened.close())
