"""The move log's failure isolation (app/db/movelog.py), under each store, in process against a
real database: SQLite always, Postgres too when CARDROOM_TEST_DATABASE_URL names one."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.migrate import upgrade_to_head
from app.db.models import Match, Move, Player, Room
from app.db.movelog import MoveCommit, UnstorableMove
from app.db.store import Store, open_store
from tests.support.server import run_on_own_loop

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
ROOMS = 6
TAKE = {"type": "take", "count": 1}


async def _matches(db: AsyncEngine) -> list[int]:
    """A playing match in each of ROOMS rooms."""
    await upgrade_to_head(db)
    ids = []
    async with db.begin() as conn:
        await conn.execute(
            insert(Player), {"id": 1, "name": "Ada", "token_hash": "x" * 64, "created_at": NOW}
        )
        for n in range(ROOMS):
            room = {
                "id": f"r{n}",
                "game": "abstrac",
                "options": {},
                "seat_count": 2,
                "filled": 2,  # a playing room is full (migration 0004)
                "status": "playing",
                "host_id": 1,
                "created_at": NOW,
                "updated_at": NOW,
            }
            await conn.execute(insert(Room), room)
            match = {
                "room_id": f"r{n}",
                "game": "abstrac",
                "engine_version": "1",
                "options": {},
                "seed": 1,
                "players": 2,
                "status": "playing",
                "has_bots": False,
                "move_count": 0,
                "started_at": NOW,
            }
            ids.append((await conn.execute(_NEW_MATCH, match)).scalar_one())
    return ids


_NEW_MATCH = insert(Match).returning(Match.id)


def deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


async def _outcomes(store: Store, commits: list[MoveCommit]) -> list[object]:
    """Every commit appended at once (so they share a batch): True/False or the exception."""
    return await asyncio.gather(*(store.append(c) for c in commits), return_exceptions=True)


def test_a_move_that_cannot_be_stored_fails_alone(database_url: str) -> None:
    """In one batch with good moves: a move whose JSON does not encode and one the database
    refuses (a seat number past its integer column) fail with UnstorableMove; the good ones
    are written, in both pipelines."""

    async def run() -> tuple[list[object], list[object], set[tuple[int, int]]]:
        db = make_engine(database_url)
        store = open_store(db)
        try:
            ids = await _matches(db)
            await store.open()
            plain = [MoveCommit(f"r{n}", ids[n], 1, 0, TAKE, NOW) for n in range(ROOMS)]
            plain[1].action = {**TAKE, "x": deep(1000)}  # past every encoder's depth
            plain[4].seat = 2**70  # refused by the database, not by the encoder
            snapshots = [
                MoveCommit(f"r{n}", ids[n], 2, 0, TAKE, NOW, snapshot={"n": n})
                for n in range(ROOMS)
            ]
            snapshots[2].snapshot = {"cards": {1, 2}}  # a set: no JSON
            snapshots[3].seat = 2**70
            first = await _outcomes(store, plain)
            second = await _outcomes(store, snapshots)
            async with db.connect() as conn:
                rows = await conn.execute(select(Move.match_id, Move.seq))
                stored = {(match_id - ids[0], seq) for match_id, seq in rows}
            return first, second, stored
        finally:
            await store.close()
            await db.dispose()

    first, second, stored = run_on_own_loop(run())
    assert [type(o) for o in first] == [bool, UnstorableMove, bool, bool, UnstorableMove, bool]
    assert [type(o) for o in second] == [bool, bool, UnstorableMove, UnstorableMove, bool, bool]
    assert all(o is True for o in first + second if isinstance(o, bool))
    assert stored == {(0, 1), (2, 1), (3, 1), (5, 1), (0, 2), (1, 2), (4, 2), (5, 2)}


def test_refused_moves_never_keep_a_connection(database_url: str) -> None:
    """Sixty moves refused one after another: the log holds its two connections at most, and
    the pool still hands one out at once."""

    async def run() -> tuple[int, bool]:
        db = make_engine(database_url, pool_size=4, pool_timeout=1)
        store = open_store(db)
        try:
            ids = await _matches(db)
            await store.open()
            for n in range(60):
                bad = MoveCommit("r0", ids[0], n + 1, 2**70, TAKE, NOW, snapshot=None)
                if n % 2:
                    bad.snapshot = {"n": n}  # the other pipeline
                with pytest.raises(UnstorableMove):
                    await store.append(bad)
            held = db.pool.checkedout()
            good = MoveCommit("r1", ids[1], 1, 0, TAKE, NOW)
            stored = await asyncio.wait_for(store.append(good), 5)
            async with asyncio.timeout(2), db.connect() as conn:
                await conn.execute(select(1))
            return held, stored
        finally:
            await store.close()
            await db.dispose()

    held, stored = run_on_own_loop(run())
    assert held <= 2
    assert stored is True


def test_a_refused_statement_logs_no_values(database_url: str) -> None:
    """A database error never carries the statement's values into a log line: they may be
    a snapshot holding every hidden hand and the seed."""
    secret = "hidden-hand-7H-seed-424242"

    async def run() -> str:
        db = make_engine(database_url)
        try:
            await upgrade_to_head(db)
            async with db.begin() as conn:
                await conn.execute(text("SELECT * FROM no_such_table WHERE x = :x"), {"x": secret})
        except DBAPIError as error:
            return str(error)
        finally:
            await db.dispose()
        return ""

    message = run_on_own_loop(run())
    assert "no_such_table" in message and secret not in message
