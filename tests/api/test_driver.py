"""SQLAlchemy statements run on asyncpg (app/db/driver.py): the writes of a match's start and
end on Postgres. A real database; the live server's tests cover the same path end to end."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import Row, func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.driver import ConnectionLost, HeldDriver, connection_errors, transaction
from app.db.engine import make_engine
from app.db.matches import _NEW_MATCH, MatchEnd, _start_in_transaction, _start_on_postgres
from app.db.migrate import upgrade_to_head
from app.db.models import Match, MatchSeat, Move, Player, Room
from app.db.movelog import _FINISH_MATCH, MoveCommit, MoveLog
from app.db.startlog import StartLog
from tests.server import fresh_database, run_on_own_loop
from tests.waiting import until_waiting_on_a_lock

pytestmark = pytest.mark.skipif(
    not os.environ.get("CARDROOM_TEST_DATABASE_URL"), reason="the driver path is Postgres's"
)

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    with fresh_database(tmp_path) as url:
        yield url


async def _with_room(db: AsyncEngine) -> None:
    await upgrade_to_head(db)
    async with db.begin() as conn:
        await conn.execute(
            insert(Player), {"id": 1, "name": "Ada", "token_hash": "x" * 64, "created_at": NOW}
        )
        await conn.execute(insert(Room), _room("r1"))


def _room(room_id: str) -> dict[str, object]:
    """A room's row without the columns that have Python-side defaults (table, private)."""
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
    }


def _match(**extra: object) -> dict[str, object]:
    return {
        "room_id": "r1",
        "game": "abstrac",
        "engine_version": "1",
        "options": {"target": 7},
        "seed": 2**62,
        "players": 2,
        "status": "playing",
        "has_bots": True,
        "move_count": 0,
        "started_at": NOW,
        **extra,
    }


def test_statements_on_the_driver_write_what_sqlalchemy_reads_back(database_url: str) -> None:
    async def run() -> list[tuple[object, ...]]:
        db = make_engine(database_url)
        try:
            await _with_room(db)
            async with transaction(db) as conn:
                first = (await conn.execute(_NEW_MATCH, _match())).scalar_one()
                second = (await conn.execute(_NEW_MATCH, _match(has_bots=False))).scalar_one()
                await conn.execute(  # many rows, and a value bound in the statement (status)
                    _FINISH_MATCH,
                    [
                        {
                            "b_id": m,
                            "b_outcome": {"winners": [m % 2], "scores": [1.5, None]},
                            "b_moves": 9,
                            "b_at": NOW,
                        }
                        for m in (first, second)
                    ],
                )
            async with db.connect() as conn:
                rows = await conn.execute(
                    select(
                        Match.options,
                        Match.seed,
                        Match.has_bots,
                        Match.status,
                        Match.outcome,
                        Match.move_count,
                        Match.finished_at,
                    ).order_by(Match.id)
                )
                return [tuple(r) for r in rows]
        finally:
            await db.dispose()

    rows = run_on_own_loop(run())
    assert [r[:4] for r in rows] == [
        ({"target": 7}, 2**62, True, "finished"),
        ({"target": 7}, 2**62, False, "finished"),
    ]
    assert [r[4]["scores"] for r in rows] == [[1.5, None], [1.5, None]]
    assert {r[5] for r in rows} == {9} and {r[6] for r in rows} == {NOW}


def test_what_the_driver_cannot_do_is_refused_before_anything_is_written(
    database_url: str,
) -> None:
    async def run() -> int:
        db = make_engine(database_url)
        try:
            await _with_room(db)
            attempts = [
                (insert(Room), _room("r2"), "Python-side column defaults"),
                (_FINISH_MATCH, {"b_id": 1, "b_outcome": {}, "b_moves": 1}, "b_at"),
                (_NEW_MATCH, [_match(), _match()], "rows returned"),
            ]
            for statement, params, says in attempts:
                with pytest.raises((ValueError, KeyError), match=says):
                    async with transaction(db) as conn:
                        await conn.execute(_NEW_MATCH, _match())
                        await conn.execute(statement, params)
            async with db.connect() as conn:
                return await conn.scalar(select(func.count()).select_from(Match))
        finally:
            await db.dispose()

    assert run_on_own_loop(run()) == 0


def test_a_lost_connection_is_dropped_from_the_pool_and_the_next_start_works(
    database_url: str,
) -> None:
    async def run() -> tuple[int, int, int]:
        db = make_engine(database_url, pool_size=1, max_overflow=0)
        try:
            await _with_room(db)
            with pytest.raises(ConnectionLost):
                async with transaction(db) as conn:
                    lost = (await conn.execute(select(func.pg_backend_pid()), {})).scalar_one()
                    admin = await asyncpg.connect(database_url.replace("+asyncpg", ""))
                    await admin.execute("SELECT pg_terminate_backend($1)", lost)
                    await admin.close()
                    await conn.execute(_NEW_MATCH, _match())
            async with transaction(db) as conn:  # the only pooled connection was replaced
                again = (await conn.execute(select(func.pg_backend_pid()), {})).scalar_one()
                await conn.execute(_NEW_MATCH, _match())
            async with db.connect() as conn:
                return lost, again, await conn.scalar(select(func.count()).select_from(Match))
        finally:
            await db.dispose()

    lost, again, matches = run_on_own_loop(run())
    assert again != lost
    assert matches == 1


def test_the_held_driver_reuses_its_connection_and_drops_a_doubtful_one(
    database_url: str,
) -> None:
    """Starts run on a connection kept out of the pool: the same backend each time, kept
    after a database error, replaced after a lost connection or one left inside a
    transaction; a second user at once gets one of its own, and all go back on close."""

    async def run() -> tuple[list[int], list[int], list[int], int]:
        db = make_engine(database_url, pool_size=2, max_overflow=0)
        held = HeldDriver(db)
        pid = "SELECT pg_backend_pid()"
        try:
            await _with_room(db)
            pids = []
            for _ in range(2):
                async with held.driver() as driver:
                    pids.append(await driver.fetchval(pid))
            async with held.driver() as one, held.driver() as other:
                both = [await one.fetchval(pid), await other.fetchval(pid)]
                checked_out = [db.pool.checkedout()]
            checked_out.append(db.pool.checkedout())  # one of the two went back to the pool
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
            with pytest.raises(asyncpg.UniqueViolationError):
                async with held.driver() as driver:
                    await driver.execute("INSERT INTO rooms SELECT * FROM rooms")
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
                admin = await asyncpg.connect(database_url.replace("+asyncpg", ""))
                await admin.execute("SELECT pg_terminate_backend($1)", pids[-1])
                await admin.close()
            with pytest.raises(ConnectionLost):
                async with held.driver() as driver:
                    await driver.fetchval(pid)
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
                await driver.execute("BEGIN")
            async with held.driver() as driver:
                pids.append(await driver.fetchval(pid))
            checked_out.append(db.pool.checkedout())
            await held.close()
            checked_out.append(db.pool.checkedout())
            async with db.connect() as conn:  # the pool still serves
                rooms = await conn.scalar(select(func.count()).select_from(Room))
            return pids, both, checked_out, rooms
        finally:
            await db.dispose()

    pids, both, checked_out, rooms = run_on_own_loop(run())
    first, again, kept, after_error, after_lost, after_open_transaction = pids
    assert first == again == both[0] != both[1]
    assert kept in both and after_error == kept
    assert after_lost != kept and after_open_transaction != after_lost
    assert checked_out == [2, 1, 1, 0]
    assert rooms == 1


def test_a_backend_terminated_while_idle_is_always_a_lost_connection(database_url: str) -> None:
    """The backend's farewell can be read before its end of stream: asyncpg then fails the next
    statement with an internal protocol error, which must count as lost too (about one try in
    eight here; the move log retries only on a lost connection)."""

    async def run() -> int:
        plain = database_url.replace("+asyncpg", "")
        admin = await asyncpg.connect(plain)
        lost = 0
        try:
            for _ in range(40):
                conn = await asyncpg.connect(plain)
                await admin.execute("SELECT pg_terminate_backend($1)", conn.get_server_pid())
                with pytest.raises(ConnectionLost), connection_errors():
                    async with conn.transaction():
                        await conn.execute("SELECT 1")
                lost += 1
                conn.terminate()
        finally:
            await admin.close()
        return lost

    # asyncpg's own error varies with the race (closed, does not exist, internal): each is lost
    assert run_on_own_loop(run()) == 40


def test_a_plain_move_is_committed_while_a_finish_waits(database_url: str) -> None:
    """The move log's two pipelines: a finish held up (its match row locked by someone else)
    delays no other room's moves, and completes once the lock goes."""

    async def run() -> tuple[bool, bool, bool, int]:
        db = make_engine(database_url)
        try:
            await _with_room(db)
            async with db.begin() as conn:
                await conn.execute(insert(Room), _room("r2"))
                ending = (await conn.execute(_NEW_MATCH, _match())).scalar_one()
                other = (await conn.execute(_NEW_MATCH, _match(room_id="r2"))).scalar_one()
            movelog = MoveLog(db)
            movelog.start()
            async with db.connect() as blocker:
                await blocker.execute(
                    text("SELECT id FROM matches WHERE id = :id FOR UPDATE"), {"id": ending}
                )
                end = MatchEnd("r1", ending, "abstrac", ((1, None), (None, "easy")), 1, {}, NOW)
                finish = asyncio.ensure_future(
                    movelog.append(MoveCommit("r1", ending, 1, 0, {"type": "pass"}, NOW, end))
                )
                await until_waiting_on_a_lock(db)
                held = not finish.done()
                plain = MoveCommit("r2", other, 1, 0, {"type": "pass"}, NOW)
                stored = await asyncio.wait_for(movelog.append(plain), 5)
                still_held = not finish.done()
                await blocker.rollback()
            finished = await asyncio.wait_for(finish, 5)
            await movelog.stop()
            async with db.connect() as conn:
                moves = await conn.scalar(select(func.count()).select_from(Move))
            return held and still_held, stored, finished, moves
        finally:
            await db.dispose()

    held, stored, finished, moves = run_on_own_loop(run())
    assert held  # the finish waited for the lock all along
    assert stored and finished and moves == 2


def _start(room_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What ``start_match`` writes for a room of one player and one bot."""
    seats = [
        {"seat": 0, "player_id": 1, "bot": None, "name": "Ada"},
        {"seat": 1, "player_id": None, "bot": "hard", "name": "Bot (hard)"},
    ]
    return _match(room_id=room_id), seats


def test_the_one_statement_start_writes_what_the_transaction_writes(database_url: str) -> None:
    """On Postgres a match starts in one statement; SQLite's path (SQLAlchemy's statements in
    a transaction, run here on Postgres) must leave the same rows, and neither may start a
    match in a room that has moved on."""

    async def run() -> tuple[list[int | None], list[Row[Any]], list[Row[Any]], list[Row[Any]]]:
        db = make_engine(database_url)
        try:
            await _with_room(db)
            async with db.begin() as conn:
                await conn.execute(insert(Room), _room("r2"))
                await conn.execute(insert(Room), {**_room("r3"), "status": "finished"})
            starts = [
                await _start_on_postgres(db, *_start("r1"), "waiting"),
                await _start_in_transaction(db, *_start("r2"), "waiting"),
                await _start_on_postgres(db, *_start("r3"), "waiting"),
                await _start_in_transaction(db, *_start("r3"), "waiting"),
            ]
            async with db.connect() as conn:
                matches = await conn.execute(select(Match.__table__).order_by(Match.id))
                seats = await conn.execute(
                    select(MatchSeat.__table__).order_by(MatchSeat.match_id, MatchSeat.seat)
                )
                rooms = await conn.execute(
                    select(Room.id, Room.status, Room.match_id, Room.updated_at).order_by(Room.id)
                )
                return starts, list(matches), list(seats), list(rooms)
        finally:
            await db.dispose()

    starts, matches, seats, rooms = run_on_own_loop(run())
    one, other, moved_on, moved_on_too = starts
    assert moved_on is None and moved_on_too is None
    assert [m.id for m in matches] == [one, other]
    assert tuple(matches[0])[1:] == (
        "r1",
        "abstrac",
        "1",
        {"target": 7},
        2**62,
        2,
        "playing",
        True,
        0,
        None,
        NOW,
        None,
    )
    assert tuple(matches[1])[2:] == tuple(matches[0])[2:]
    expected_seats = [(0, 1, None, "Ada", None, None), (1, None, "hard", "Bot (hard)", None, None)]
    assert [tuple(s)[1:] for s in seats if s.match_id == one] == expected_seats
    assert [tuple(s)[1:] for s in seats if s.match_id == other] == expected_seats
    assert [tuple(r) for r in rooms] == [
        ("r1", "playing", one, NOW),
        ("r2", "playing", other, NOW),
        ("r3", "finished", None, NOW),  # moved on: untouched
    ]


def test_starts_that_wait_go_together_in_one_statement(database_url: str) -> None:
    """Starts of several rooms made at once take one statement; a second start of a room
    waits for the next one and finds its room moved on, as does a room that had."""

    async def run() -> tuple[list[int | None], int, list[tuple[str, int | None]]]:
        db = make_engine(database_url)
        starts = StartLog(db)
        try:
            await _with_room(db)
            async with db.begin() as conn:
                await conn.execute(
                    insert(Room), [_room("r2"), {**_room("r3"), "status": "finished"}]
                )
            results = await asyncio.gather(
                *(starts.start(*_start(room_id), "waiting") for room_id in ("r1", "r2", "r3", "r1"))
            )
            async with db.connect() as conn:
                rooms = await conn.execute(select(Room.id, Room.match_id).order_by(Room.id))
                return list(results), starts.statements, [tuple(r) for r in rooms]
        finally:
            await starts.close()
            await db.dispose()

    (first, second, moved_on, again), statements, rooms = run_on_own_loop(run())
    assert first is not None and second is not None and first != second
    assert moved_on is None and again is None
    assert statements == 2  # r1, r2 and r3 together, then r1 again
    assert rooms == [("r1", first), ("r2", second), ("r3", None)]
