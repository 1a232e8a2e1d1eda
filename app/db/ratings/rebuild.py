"""Every record and rating computed again from the finished matches: ``python -m
app.db.ratings rebuild``. The ratings are written by the database's store (``Store.rerate``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.matches import MatchEnd, own_move_counts
from app.db.models import Match, MatchSeat, PlayerGame, Rating, RatingChange
from app.db.store import open_store
from games.types import Termination

# Every player's record per game, counted again from the finished matches (migration 0003
# fills the table with the same statement).
RECORDS = """
INSERT INTO player_games (player_id, game, played, won, lost, drawn, abandoned, last_match_id)
SELECT ms.player_id, m.game, count(*),
       sum(CASE WHEN ms.winner AND NOT EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       sum(CASE WHEN NOT ms.winner THEN 1 ELSE 0 END),
       sum(CASE WHEN ms.winner AND EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       sum(CASE WHEN ms.abandoned THEN 1 ELSE 0 END),
       max(m.id)
FROM match_seats ms JOIN matches m ON m.id = ms.match_id
WHERE ms.player_id IS NOT NULL AND m.status = 'finished' AND ms.winner IS NOT NULL
GROUP BY ms.player_id, m.game
"""


async def rebuild(db: AsyncEngine, *, batch: int = 500) -> int:
    """Count every record again and rate all finished matches again, in the order they
    finished; returns how many matches were rated."""
    async with db.begin() as conn:
        await conn.execute(delete(RatingChange))
        await conn.execute(delete(Rating))
        await conn.execute(delete(PlayerGame))
        await conn.execute(text(RECORDS))
    store = open_store(db)  # its rating writes: nothing is opened
    rated, after = 0, (None, 0)
    while True:
        async with db.connect() as conn:
            query = select(
                Match.id, Match.room_id, Match.game, Match.outcome, Match.finished_at
            ).where(Match.status == "finished", Match.players > 1)
            if after[0] is not None:
                query = query.where(
                    (Match.finished_at > after[0])
                    | ((Match.finished_at == after[0]) & (Match.id > after[1]))
                )
            rows = (
                await conn.execute(query.order_by(Match.finished_at, Match.id).limit(batch))
            ).all()
            seats = await _seats_of(conn, [row.id for row in rows])
            own = await own_move_counts(conn, [row.id for row in rows])
            ends = [
                MatchEnd(
                    room_id=row.room_id,
                    match_id=row.id,
                    game=row.game,
                    seats=seats.get(row.id, ((), frozenset()))[0],
                    move_count=0,
                    outcome=row.outcome or {},
                    at=row.finished_at,
                    rated=_has_result(row.outcome),
                    abandoned=seats.get(row.id, ((), frozenset()))[1],
                    own_moves=_own(own.get(row.id, {}), len(seats.get(row.id, ((),))[0])),
                )
                for row in rows
            ]
        await store.rerate(ends)
        if not rows:
            return rated
        rated += len(rows)
        after = (rows[-1].finished_at, rows[-1].id)


def _own(counted: dict[int, int], seats: int) -> tuple[int, ...]:
    """Each seat's moves of its own, as a finish counts them (MatchEnd.own_moves)."""
    return tuple(counted.get(seat, 0) for seat in range(seats))


def _has_result(outcome: dict[str, Any] | None) -> bool:
    """An aborted match has none: it was never rated."""
    return (outcome or {}).get("termination") != Termination.ABORTED


async def _seats_of(
    conn: AsyncConnection, match_ids: list[int]
) -> dict[int, tuple[tuple[tuple[int | None, str | None], ...], frozenset[int]]]:
    """Each match's (player id, bot level) by seat, and its abandoned seats."""
    rows = await conn.execute(
        select(
            MatchSeat.match_id,
            MatchSeat.seat,
            MatchSeat.player_id,
            MatchSeat.bot,
            MatchSeat.abandoned,
        )
        .where(MatchSeat.match_id.in_(match_ids))
        .order_by(MatchSeat.match_id, MatchSeat.seat)
    )
    seats: dict[int, list[tuple[int | None, str | None]]] = {}
    left: dict[int, set[int]] = {}
    for row in rows:
        seats.setdefault(row.match_id, []).append((row.player_id, row.bot))
        if row.abandoned:
            left.setdefault(row.match_id, set()).add(row.seat)
    return {
        match_id: (tuple(taken), frozenset(left.get(match_id, ())))
        for match_id, taken in seats.items()
    }
