"""Match starts on Postgres: the starts of many rooms in one statement.

A start is one statement: the room is claimed, its match and seats inserted. Starts that
arrive while one is under way wait and go together in the next statement, as the move log
commits the moves of many rooms together: under load a hundred rematches cost one round trip,
not a hundred (a round trip costs the server about 250 µs of CPU here, and a turn of its
event loop). One task runs the statements while starts wait, on a held connection.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import orjson
from asyncpg import Connection as AsyncpgConnection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.driver import HeldDriver

Seats = list[dict[str, Any]]


@dataclass
class StartRequest:
    match: dict[str, Any]  # the matches row, without its id
    seats: Seats  # the match_seats rows, without the match id
    from_status: str  # the room's status the start expects; another means it moved on
    done: asyncio.Future[int | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    @property
    def room_id(self) -> str:
        return str(self.match["room_id"])


class StartLog:
    def __init__(self, db: AsyncEngine) -> None:
        self._held = HeldDriver(db)  # one statement runs at a time
        self._waiting: list[StartRequest] = []
        self._runner: asyncio.Task[None] | None = None
        self.statements = 0

    async def start(self, match: dict[str, Any], seats: Seats, from_status: str) -> int | None:
        """The new match's id; ``None`` if the room was no longer in ``from_status``."""
        request = StartRequest(match, seats, from_status)
        self._waiting.append(request)
        if self._runner is None:
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="starts")
        return await request.done

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
        await self._held.close()

    async def _run(self) -> None:
        batch: list[StartRequest] = []
        try:
            while self._waiting:
                batch = self._next_batch()
                try:
                    async with self._held.driver() as driver:
                        started = await start_many(driver, batch)
                except Exception as error:  # every waiter hears why
                    _settle(batch, error=error)
                else:
                    self.statements += 1
                    _settle(batch, started=started)
        finally:  # normally nothing is left; when cancelled, whatever is
            self._runner = None
            for request in batch + self._waiting:
                request.done.cancel()
            self._waiting = []

    def _next_batch(self) -> list[StartRequest]:
        """The waiting starts of distinct rooms; a second start of a room waits for the next
        statement, in which its room has moved on."""
        batch: list[StartRequest] = []
        later: list[StartRequest] = []
        rooms: set[str] = set()
        for request in self._waiting:
            (later if request.room_id in rooms else batch).append(request)
            rooms.add(request.room_id)
        self._waiting = later
        return batch


def _settle(
    batch: list[StartRequest],
    *,
    started: dict[str, int] | None = None,
    error: Exception | None = None,
) -> None:
    for request in batch:
        if request.done.done():
            continue
        if error is not None:
            request.done.set_exception(error)
        else:
            assert started is not None
            request.done.set_result(started.get(request.room_id))


# It writes what matches._start_in_transaction writes (tests/api/test_driver.py compares
# them). Rooms are claimed first, so a room that moved on gets no match at all; the rooms of
# one statement are distinct.
_START_MANY = """
WITH wanted AS (
    SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::varchar[],
                         $5::varchar[], $6::json[], $7::bigint[], $8::integer[], $9::boolean[])
        AS w(room_id, from_status, at, game, engine_version, options, seed, players, has_bots)
), claimed AS (
    UPDATE rooms SET status = 'playing', updated_at = wanted.at,
        match_id = nextval(pg_get_serial_sequence('matches', 'id'))
    FROM wanted
    WHERE rooms.id = wanted.room_id AND rooms.status = wanted.from_status AND rooms.id = ANY($1)
        AND rooms.filled = rooms.seat_count
    RETURNING rooms.id AS room_id, rooms.match_id
), started AS (
    INSERT INTO matches (id, room_id, game, engine_version, options, seed, players, status,
        has_bots, move_count, started_at)
    SELECT claimed.match_id, room_id, game, engine_version, options, seed, players, 'playing',
        has_bots, 0, at
    FROM claimed JOIN wanted USING (room_id)
    RETURNING id, room_id
), seated AS (
    INSERT INTO match_seats (match_id, seat, player_id, bot, name)
    SELECT started.id, s.seat, s.player_id, s.bot, s.name
    FROM started JOIN unnest($10::varchar[], $11::integer[], $12::integer[], $13::varchar[],
                             $14::varchar[]) AS s(room_id, seat, player_id, bot, name)
        USING (room_id)
)
SELECT room_id, id FROM started
"""


async def start_many(driver: AsyncpgConnection, batch: list[StartRequest]) -> dict[str, int]:
    """Start the matches of distinct rooms in one statement: the new match id by room, for
    the rooms that were still in the status their start expected."""
    matches = [request.match for request in batch]
    seats = [(request.room_id, seat) for request in batch for seat in request.seats]
    rows = await driver.fetch(
        _START_MANY,
        [m["room_id"] for m in matches],
        [request.from_status for request in batch],
        [m["started_at"] for m in matches],
        [m["game"] for m in matches],
        [m["engine_version"] for m in matches],
        [orjson.dumps(m["options"]).decode() for m in matches],
        [m["seed"] for m in matches],
        [m["players"] for m in matches],
        [m["has_bots"] for m in matches],
        [room_id for room_id, _ in seats],
        [seat["seat"] for _, seat in seats],
        [seat["player_id"] for _, seat in seats],
        [seat["bot"] for _, seat in seats],
        [seat["name"] for _, seat in seats],
    )
    return {room_id: match_id for room_id, match_id in rows}
