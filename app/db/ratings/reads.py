"""What the player pages show of ratings: the leaderboard, a player's ratings, a match's
changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import iso
from app.db.models import Match, Player, Rating, RatingChange
from app.db.ratings.model import BOT_SKILLS, Skill

RECENT = 10  # rating points per game in a player's stats (a trend line)


def _rating_json(row: Any, rank: int | None = None) -> dict[str, Any]:
    skill = Skill(row.mu, row.sigma)
    return {
        **skill.to_json(),
        "rank": rank,
        "matches": row.matches,
        "trend": round(row.last_delta, 2),
        "last_match_id": row.last_match_id,
        "updated_at": iso(row.updated_at),
    }


def bots_json() -> dict[str, dict[str, float]]:
    return {level: skill.to_json() for level, skill in BOT_SKILLS.items()}


async def leaderboard(db: AsyncEngine, game: str, limit: int = 50) -> list[dict[str, Any]]:
    """The best players of a game by ordinal (index ratings(game, ordinal)); ties share a rank."""
    async with db.connect() as conn:
        rows = (
            await conn.execute(
                select(Rating.__table__, Player.name)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.game == game)
                .order_by(Rating.ordinal.desc(), Rating.player_id)
                .limit(limit)
            )
        ).all()
    board: list[dict[str, Any]] = []
    for position, row in enumerate(rows, start=1):
        tied = board and rows[position - 2].ordinal == row.ordinal
        rank = board[-1]["rank"] if tied else position
        board.append({"player": {"id": row.player_id, "name": row.name}, **_rating_json(row, rank)})
    return board


async def player_ratings(conn: AsyncConnection, player_id: int) -> dict[str, dict[str, Any]]:
    """A player's rating in each game they are rated in: rank among the game's players, trend,
    and the ordinal after each of their latest rated matches (oldest first)."""
    rows = (await conn.execute(select(Rating.__table__).where(Rating.player_id == player_id))).all()
    result: dict[str, dict[str, Any]] = {}
    for row in rows:
        above = await conn.scalar(
            select(func.count())
            .select_from(Rating)
            .where(Rating.game == row.game, Rating.ordinal > row.ordinal)
        )
        rated = await conn.scalar(
            select(func.count()).select_from(Rating).where(Rating.game == row.game)
        )
        recent = (
            await conn.execute(
                select(
                    RatingChange.match_id,
                    RatingChange.ordinal_before,
                    RatingChange.ordinal_after,
                    RatingChange.at,
                    Match.has_bots,
                )
                .join(Match, Match.id == RatingChange.match_id)
                .where(RatingChange.player_id == player_id, RatingChange.game == row.game)
                .order_by(RatingChange.match_id.desc())
                .limit(RECENT)
            )
        ).all()
        result[row.game] = {
            **_rating_json(row, int(above or 0) + 1),
            "rated_players": int(rated or 0),
            "recent": [
                {
                    "match_id": r.match_id,
                    "ordinal": round(r.ordinal_after, 2),
                    "delta": round(r.ordinal_after - r.ordinal_before, 2),
                    "has_bots": r.has_bots,
                    "at": iso(r.at),
                }
                for r in reversed(recent)
            ],
        }
    return result


async def seat_changes(
    conn: AsyncConnection, match_ids: Sequence[int]
) -> dict[tuple[int, int], dict[str, float]]:
    """``(match_id, seat) -> {"before", "after", "delta"}`` (ordinals) for rated human seats."""
    if not match_ids:
        return {}
    rows = await conn.execute(
        select(
            RatingChange.match_id,
            RatingChange.seat,
            RatingChange.ordinal_before,
            RatingChange.ordinal_after,
        ).where(RatingChange.match_id.in_(list(match_ids)))
    )
    return {
        (r.match_id, r.seat): {
            "before": round(r.ordinal_before, 2),
            "after": round(r.ordinal_after, 2),
            "delta": round(r.ordinal_after - r.ordinal_before, 2),
        }
        for r in rows
    }
