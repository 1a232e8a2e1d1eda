"""The store on SQLite (the embedded default): SQLAlchemy Core statements in SQLAlchemy's
transactions. SQLite runs one writer at a time, so nothing here locks rows."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.dialects.sqlite import insert as upsert
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.base_store import BaseStore, inside
from app.db.matches import MatchEnd, seat_results
from app.db.models import (
    Match,
    MatchSeat,
    Move,
    PlayerGame,
    Rating,
    RatingChange,
    Room,
    Snapshot,
)
from app.db.movelog import MoveCommit
from app.db.ratings.model import NEWCOMER, Skill
from app.db.ratings.writes import Key, Rows, rated_or_not


class RoomMovedOn(Exception):
    """The room was no longer in the status the start expected: roll the start back."""


class SqliteStore(BaseStore[AsyncConnection]):
    async def _start(
        self, match: dict[str, Any], seats: list[dict[str, Any]], from_status: str
    ) -> int | None:
        try:
            async with self.db.begin() as conn:
                match_id = (await conn.execute(_NEW_MATCH, match)).scalar_one()
                await conn.execute(_NEW_SEAT, [{"match_id": match_id, **seat} for seat in seats])
                claimed = await conn.execute(
                    _CLAIM_ROOM,
                    {
                        "room": match["room_id"],
                        "from_status": from_status,
                        "b_match": match_id,
                        "now": match["started_at"],
                    },
                )
                if claimed.first() is None:
                    raise RoomMovedOn
        except RoomMovedOn:
            return None
        return match_id

    def _transaction(self) -> AbstractAsyncContextManager[AsyncConnection]:
        return self.db.begin()

    async def connect(self, atomic: bool) -> AsyncConnection:
        conn = await self.db.connect()
        if not atomic:  # moves alone are one INSERT, which commits by itself
            await conn.execution_options(isolation_level="AUTOCOMMIT")
        return conn

    async def write(
        self, conn: AsyncConnection, batch: list[MoveCommit], atomic: bool
    ) -> set[tuple[int, int]]:
        if not atomic:  # moves alone: one INSERT on an autocommitting connection
            return await self._insert_moves(conn, batch)
        return await rated_or_not(
            lambda: inside(conn, conn.begin()), partial(self._write_batch, batch=batch)
        )

    async def _insert_moves(
        self, conn: AsyncConnection, batch: list[MoveCommit]
    ) -> set[tuple[int, int]]:
        rows = [
            {
                "match_id": c.match_id,
                "seq": c.seq,
                "seat": c.seat,
                "action": c.action,
                "at": c.at,
                "stand_in": c.stand_in,
            }
            for c in batch
        ]
        return {(r.match_id, r.seq) for r in await conn.execute(_INSERT_MOVES, rows)}

    async def _save_snapshots(self, conn: AsyncConnection, commits: list[MoveCommit]) -> None:
        await conn.execute(
            _SAVE_SNAPSHOT,
            [{"match_id": c.match_id, "seq": c.seq, "state": c.snapshot} for c in commits],
        )

    async def _close(self, conn: AsyncConnection, ends: list[MatchEnd], *, rate: bool) -> None:
        await conn.execute(
            _FINISH_MATCH,
            [
                {
                    "b_id": e.match_id,
                    "b_outcome": e.outcome,
                    "b_moves": e.move_count,
                    "b_at": e.at,
                    "b_rated": rate and e.changes_ratings,
                }
                for e in ends
            ],
        )
        seats = [
            {"mid": match_id, "s": seat, "b_score": score, "b_winner": won, "b_left": left}
            for match_id, seat, score, won, left in seat_results(ends)
        ]
        if seats:
            await conn.execute(_FINISH_SEAT, seats)
        snapshots = [{"mid": e.match_id} for e in ends if e.has_snapshot]
        if snapshots:
            await conn.execute(_DROP_SNAPSHOT, snapshots)
        await conn.execute(_ROOM_FINISHED, [{"rid": e.room_id, "at": e.at} for e in ends])

    async def lock_ratings(
        self, conn: AsyncConnection, keys: list[Key], at: datetime
    ) -> dict[Key, Skill]:
        await conn.execute(
            _NEWCOMERS,
            [
                {
                    "player_id": player_id,
                    "game": game,
                    "mu": NEWCOMER.mu,
                    "sigma": NEWCOMER.sigma,
                    "ordinal": NEWCOMER.ordinal,
                    "matches": 0,
                    "last_delta": 0.0,
                    "updated_at": at,
                }
                for player_id, game in keys
            ],
        )
        rows = await conn.execute(
            _CURRENT,
            {"players": sorted({p for p, _ in keys}), "games": sorted({g for _, g in keys})},
        )
        return {(player, game): Skill(mu, sigma) for player, game, mu, sigma in rows}

    async def write_ratings(
        self, conn: AsyncConnection, records: Rows, updates: Rows, changes: Rows
    ) -> None:
        if records:
            await conn.execute(_COUNT, records)
        if updates:
            await conn.execute(_RATE, updates)
            await conn.execute(_CHANGE, changes)


# -- a match's start --------------------------------------------------------------------------
_NEW_MATCH = insert(Match).returning(Match.id)
_NEW_SEAT = insert(MatchSeat)
_CLAIM_ROOM = (
    update(Room)
    .where(
        Room.id == bindparam("room"),
        Room.status == bindparam("from_status"),
        Room.filled == Room.seat_count,
    )
    .values(status="playing", match_id=bindparam("b_match"), updated_at=bindparam("now"))
    .returning(Room.id)
)

# -- moves and snapshots ----------------------------------------------------------------------
_INSERT_MOVES = (
    upsert(Move)
    .on_conflict_do_nothing(index_elements=["match_id", "seq"])
    .returning(Move.match_id, Move.seq)
)
_snapshot = upsert(Snapshot)
_SAVE_SNAPSHOT = _snapshot.on_conflict_do_update(
    index_elements=["match_id"],
    set_={"seq": _snapshot.excluded.seq, "state": _snapshot.excluded.state},
)

# -- a match's end ----------------------------------------------------------------------------
_FINISH_MATCH = (
    update(Match)
    .where(Match.id == bindparam("b_id"))
    .values(
        status="finished",
        outcome=bindparam("b_outcome", type_=Match.outcome.type),
        move_count=bindparam("b_moves"),
        finished_at=bindparam("b_at"),
        rated=bindparam("b_rated"),
    )
)
_FINISH_SEAT = (
    update(MatchSeat)
    .where(MatchSeat.match_id == bindparam("mid"), MatchSeat.seat == bindparam("s"))
    .values(score=bindparam("b_score"), winner=bindparam("b_winner"), abandoned=bindparam("b_left"))
)
_DROP_SNAPSHOT = delete(Snapshot).where(Snapshot.match_id == bindparam("mid"))
_ROOM_FINISHED = (
    update(Room)
    .where(Room.id == bindparam("rid"))
    .values(status="finished", updated_at=bindparam("at"))
)

# -- records and ratings ----------------------------------------------------------------------
_record = upsert(PlayerGame)
_COUNT = _record.on_conflict_do_update(
    index_elements=["player_id", "game"],
    set_={
        "played": PlayerGame.played + _record.excluded.played,
        "won": PlayerGame.won + _record.excluded.won,
        "lost": PlayerGame.lost + _record.excluded.lost,
        "drawn": PlayerGame.drawn + _record.excluded.drawn,
        "abandoned": PlayerGame.abandoned + _record.excluded.abandoned,
        "last_match_id": _record.excluded.last_match_id,
    },
)
_NEWCOMERS = upsert(Rating).on_conflict_do_nothing(index_elements=["player_id", "game"])
_CURRENT = select(Rating.player_id, Rating.game, Rating.mu, Rating.sigma).where(
    Rating.player_id.in_(bindparam("players", expanding=True)),
    Rating.game.in_(bindparam("games", expanding=True)),
)
_RATE = (
    update(Rating)
    .where(Rating.player_id == bindparam("pid"), Rating.game == bindparam("g"))
    .values(
        mu=bindparam("b_mu"),
        sigma=bindparam("b_sigma"),
        ordinal=bindparam("b_ordinal"),
        matches=Rating.matches + bindparam("b_n"),
        last_delta=bindparam("delta"),
        last_match_id=bindparam("mid"),
        updated_at=bindparam("at"),
    )
)
_CHANGE = insert(RatingChange)
