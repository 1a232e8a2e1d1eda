"""Match reviews: stored once per finished match (the same SQLAlchemy Core on every backend)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.matches import MIN_OWN_MOVES, own_move_counts
from app.db.models import Match, MatchReview, MatchSeat, Room


@dataclass(frozen=True)
class Claim:
    """Whose share of the review queue a finished match takes, and whether it was played."""

    owners: tuple[int, ...]  # its seated people, or (bots alone) its room's host
    played: bool  # a seat made MIN_OWN_MOVES moves of its own: there is play to review


async def review_claims(db: AsyncEngine, match_ids: list[int]) -> dict[int, Claim]:
    """The claim of each finished match of ``match_ids`` (others are left out)."""
    if not match_ids:
        return {}
    async with db.connect() as conn:
        hosts = dict(
            (
                await conn.execute(
                    select(Match.id, Room.host_id)
                    .join(Room, Room.id == Match.room_id)
                    .where(Match.id.in_(match_ids), Match.status == "finished")
                )
            ).all()
        )
        seated = await conn.execute(
            select(MatchSeat.match_id, MatchSeat.player_id).where(
                MatchSeat.match_id.in_(list(hosts)), MatchSeat.player_id.is_not(None)
            )
        )
        people: dict[int, set[int]] = {}
        for match_id, player_id in seated:
            people.setdefault(match_id, set()).add(player_id)
        own = await own_move_counts(conn, list(hosts))
    return {
        match_id: Claim(
            owners=tuple(sorted(people.get(match_id) or {host})),
            played=any(count >= MIN_OWN_MOVES for count in own.get(match_id, {}).values()),
        )
        for match_id, host in hosts.items()
    }


async def load_review(db: AsyncEngine, match_id: int) -> dict[str, Any] | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(MatchReview.review).where(MatchReview.match_id == match_id))
        ).first()
    return row.review if row else None


async def save_review(db: AsyncEngine, match_id: int, review: dict[str, Any], at: datetime) -> None:
    """Store ``review``; one computed by another process first is kept (they are equal)."""
    try:
        async with db.begin() as conn:
            await conn.execute(
                insert(MatchReview).values(match_id=match_id, review=review, computed_at=at)
            )
    except IntegrityError:
        pass
