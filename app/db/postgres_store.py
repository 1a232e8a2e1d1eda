"""The store on Postgres (production): plain SQL on asyncpg, one statement of one text for any
batch, arrays passed whole and unnested (JSON values as text, cast ``::json``). SQLAlchemy only
lends the pooled connections (app/db/driver.py).

Each of these statements was a round trip or several; a busy server waits a turn of its event
loop for every one, and SQLAlchemy's execution layer costs more CPU than asyncpg's whole round
trip (measured here: 0.8 ms against 0.3 ms for a one-row batch of moves).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime
from functools import partial
from typing import Any

import orjson
from asyncpg import Connection as AsyncpgConnection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.base_store import BaseStore, inside
from app.db.driver import HeldDriver, connection_errors, driver_of, transaction
from app.db.matches import MatchEnd, seat_results
from app.db.movelog import MoveCommit
from app.db.ratings.model import NEWCOMER, Skill
from app.db.ratings.writes import Key, Rows, rated_or_not
from app.db.startlog import StartLog, StartRequest


class PostgresStore(BaseStore[AsyncpgConnection]):
    def __init__(self, db: AsyncEngine) -> None:
        super().__init__(db)
        self._held = HeldDriver(db)  # the starts' connection: one batch runs at a time
        self.starts = StartLog(self._start_many)

    async def close(self) -> None:
        await super().close()
        await self.starts.close()
        await self._held.close()

    async def _start(
        self, match: dict[str, Any], seats: list[dict[str, Any]], from_status: str
    ) -> int | None:
        """The start goes with others that wait (app/db/startlog.py)."""
        return await self.starts.start(match, seats, from_status)

    async def _start_many(self, batch: list[StartRequest]) -> dict[str, int]:
        async with self._held.driver() as driver:
            return await _start_many(driver, batch)

    def _transaction(self) -> AbstractAsyncContextManager[AsyncpgConnection]:
        return transaction(self.db)

    async def connect(self, atomic: bool) -> AsyncConnection:
        conn = await self.db.connect()
        # SQLAlchemy never opens a transaction on it: the log drives its transactions on the
        # driver; moves alone are one INSERT, which commits by itself
        await conn.execution_options(isolation_level="AUTOCOMMIT")
        return conn

    async def write(
        self, conn: AsyncConnection, batch: list[MoveCommit], atomic: bool
    ) -> set[tuple[int, int]]:
        driver = await driver_of(conn)
        with connection_errors():
            if not atomic:
                return await self._insert_moves(driver, batch)
            return await rated_or_not(
                lambda: inside(driver, driver.transaction()),
                partial(self._write_batch, batch=batch),
            )

    async def _insert_moves(
        self, driver: AsyncpgConnection, batch: list[MoveCommit]
    ) -> set[tuple[int, int]]:
        rows = await driver.fetch(
            _INSERT_MOVES,
            [c.match_id for c in batch],
            [c.seq for c in batch],
            [c.seat for c in batch],
            [c.action_json for c in batch],
            [c.at for c in batch],
            [c.stand_in for c in batch],
        )
        return {(match_id, seq) for match_id, seq in rows}

    async def _save_snapshots(self, driver: AsyncpgConnection, commits: list[MoveCommit]) -> None:
        await driver.execute(
            _SAVE_SNAPSHOTS,
            [c.match_id for c in commits],
            [c.seq for c in commits],
            [c.snapshot_json for c in commits],
        )

    async def _close(self, driver: AsyncpgConnection, ends: list[MatchEnd], *, rate: bool) -> None:
        seats = seat_results(ends)
        await driver.execute(
            _CLOSE_MATCHES,
            [e.match_id for e in ends],
            [orjson.dumps(e.outcome, option=orjson.OPT_NON_STR_KEYS).decode() for e in ends],
            [e.move_count for e in ends],
            [e.at for e in ends],
            [row[0] for row in seats],
            [row[1] for row in seats],
            [row[2] for row in seats],
            [row[3] for row in seats],
            [e.match_id for e in ends if e.has_snapshot],
            [e.room_id for e in ends],
            [e.at for e in ends],
            [rate and e.changes_ratings for e in ends],
            [row[4] for row in seats],
        )

    async def lock_ratings(
        self, driver: AsyncpgConnection, keys: list[Key], at: datetime
    ) -> dict[Key, Skill]:
        players, games = [p for p, _ in keys], [g for _, g in keys]
        newcomer = (NEWCOMER.mu, NEWCOMER.sigma, NEWCOMER.ordinal, at)
        for _ in range(2):
            rows = await driver.fetch(_LOCK_ON_POSTGRES, players, games, *newcomer)
            current = {(row[0], row[1]): Skill(row[2], row[3]) for row in rows}
            if len(current) == len(keys):
                break
            # another transaction made a newcomer's row after this statement began: the next
            # statement sees it, and locks it
        return current

    async def write_ratings(
        self, driver: AsyncpgConnection, records: Rows, updates: Rows, changes: Rows
    ) -> None:
        if not (records or updates):
            return
        await driver.execute(
            _WRITE_ON_POSTGRES,
            *_columns(updates, _UPDATE_COLUMNS),
            *_columns(changes, _CHANGE_COLUMNS),
            *_columns(records, _RECORD_COLUMNS),
        )


# It writes what SqliteStore._start writes (tests/app/db/test_store_contract.py compares
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


async def _start_many(driver: AsyncpgConnection, batch: list[StartRequest]) -> dict[str, int]:
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


# Moves: the json codec SQLAlchemy installs on the connection takes the JSON text.
_INSERT_MOVES = (
    "INSERT INTO moves (match_id, seq, seat, action, at, stand_in) "
    "SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::json[], "
    "$5::timestamptz[], $6::boolean[]) ON CONFLICT (match_id, seq) DO NOTHING "
    "RETURNING match_id, seq"
)
_SAVE_SNAPSHOTS = (
    "INSERT INTO snapshots (match_id, seq, state) "
    "SELECT * FROM unnest($1::integer[], $2::integer[], $3::json[]) "
    "ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq, state = excluded.state"
)

# A match's end: the four writes of SqliteStore._close in one statement.
_CLOSE_MATCHES = """
WITH ended AS (
    UPDATE matches AS m
    SET status = 'finished', outcome = x.outcome, move_count = x.moves, finished_at = x.at,
        rated = x.rated
    FROM unnest($1::integer[], $2::json[], $3::integer[], $4::timestamptz[], $12::boolean[])
        AS x(id, outcome, moves, at, rated)
    WHERE m.id = x.id
), scored AS (
    UPDATE match_seats AS s SET score = x.score, winner = x.winner, abandoned = x.abandoned
    FROM unnest($5::integer[], $6::integer[], $7::float8[], $8::boolean[], $13::boolean[])
        AS x(match_id, seat, score, winner, abandoned)
    WHERE s.match_id = x.match_id AND s.seat = x.seat
), dropped AS (
    DELETE FROM snapshots WHERE match_id = ANY($9::integer[])
)
UPDATE rooms AS r SET status = 'finished', updated_at = x.at
FROM unnest($10::text[], $11::timestamptz[]) AS x(id, at)
WHERE r.id = x.id AND r.id = ANY($10)
"""

# A finish rates its matches in two statements: the first makes the newcomers' rows and locks
# every row it returns, in (player, game) order, as the records are locked after them; the
# second writes ratings, their history and the records.
_LOCK_ON_POSTGRES = """
WITH keys AS (
    SELECT * FROM unnest($1::integer[], $2::text[]) AS k(player_id, game)
), fresh AS (
    INSERT INTO ratings (player_id, game, mu, sigma, ordinal, matches, last_delta, updated_at)
    SELECT player_id, game, $3, $4, $5, 0, 0, $6 FROM keys ORDER BY player_id, game
    ON CONFLICT (player_id, game) DO NOTHING
    RETURNING player_id, game, mu, sigma
), held AS (
    SELECT r.player_id, r.game, r.mu, r.sigma FROM ratings AS r JOIN keys USING (player_id, game)
    WHERE r.player_id = ANY($1)
    ORDER BY r.player_id, r.game FOR UPDATE OF r
)
SELECT * FROM held UNION ALL SELECT * FROM fresh
"""

_WRITE_ON_POSTGRES = """
WITH rated AS (
    UPDATE ratings AS r
    SET mu = x.mu, sigma = x.sigma, ordinal = x.ordinal, matches = r.matches + x.n,
        last_delta = x.delta, last_match_id = x.mid, updated_at = x.at
    FROM unnest($1::integer[], $2::text[], $3::float8[], $4::float8[], $5::float8[],
                $6::integer[], $7::float8[], $8::integer[], $9::timestamptz[])
        AS x(player_id, game, mu, sigma, ordinal, n, delta, mid, at)
    WHERE r.player_id = x.player_id AND r.game = x.game AND r.player_id = ANY($1)
), changed AS (
    INSERT INTO rating_history (match_id, seat, player_id, game, mu_before, sigma_before,
                                mu_after, sigma_after, ordinal_before, ordinal_after, at)
    SELECT * FROM unnest($10::integer[], $11::integer[], $12::integer[], $13::text[],
                         $14::float8[], $15::float8[], $16::float8[], $17::float8[],
                         $18::float8[], $19::float8[], $20::timestamptz[])
)
INSERT INTO player_games AS p (player_id, game, played, won, lost, drawn, last_match_id,
                              abandoned)
SELECT * FROM unnest($21::integer[], $22::text[], $23::integer[], $24::integer[],
                     $25::integer[], $26::integer[], $27::integer[], $28::integer[])
ON CONFLICT (player_id, game) DO UPDATE
SET played = p.played + excluded.played, won = p.won + excluded.won,
    lost = p.lost + excluded.lost, drawn = p.drawn + excluded.drawn,
    abandoned = p.abandoned + excluded.abandoned, last_match_id = excluded.last_match_id
"""
_UPDATE_COLUMNS = ("pid", "g", "b_mu", "b_sigma", "b_ordinal", "b_n", "delta", "mid", "at")
_CHANGE_COLUMNS = (
    "match_id",
    "seat",
    "player_id",
    "game",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "ordinal_before",
    "ordinal_after",
    "at",
)
_RECORD_COLUMNS = (
    "player_id",
    "game",
    "played",
    "won",
    "lost",
    "drawn",
    "last_match_id",
    "abandoned",
)


def _columns(rows: list[dict[str, Any]], names: tuple[str, ...]) -> list[list[Any]]:
    return [[row[name] for row in rows] for name in names]
