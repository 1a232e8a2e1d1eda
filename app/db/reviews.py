"""Match reviews: stored once per finished match (the same SQLAlchemy Core on every backend)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import MatchReview


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
