"""What the player pages show of ratings: the leaderboard, a player's ratings, a match's
changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.orm import aliased

from app.db.models import Match, Player, Rating, RatingChange
from app.db.ratings.model import BOT_SKILLS, Skill
from app.timestamps import iso

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
    and the ordinal after each of their latest rated matches (oldest first). One query: a row
    per game and recent match (index ratings(game, ordinal) counts the game's players,
    rating_history(player_id, game, match_id) finds the latest)."""
    other = aliased(Rating)
    standing = (
        select(
            Rating.game,
            func.count().filter(other.ordinal > Rating.ordinal).label("above"),
            func.count().label("rated"),
        )
        .join(other, other.game == Rating.game)
        .where(Rating.player_id == player_id)
        .group_by(Rating.game)
        .subquery()
    )
    latest = (
        select(RatingChange.match_id)
        .where(RatingChange.player_id == player_id, RatingChange.game == Rating.game)
        .order_by(RatingChange.match_id.desc())
        .limit(RECENT)
        .correlate(Rating)
    )
    rows = await conn.execute(
        select(
            Rating.__table__,
            standing.c.above,
            standing.c.rated,
            RatingChange.match_id.label("change_match_id"),
            RatingChange.ordinal_before,
            RatingChange.ordinal_after,
            RatingChange.at,
            Match.has_bots,
        )
        .join(standing, standing.c.game == Rating.game)
        .outerjoin(
            RatingChange,
            and_(
                RatingChange.player_id == Rating.player_id,
                RatingChange.game == Rating.game,
                RatingChange.match_id.in_(latest),
            ),
        )
        .outerjoin(Match, Match.id == RatingChange.match_id)
        .where(Rating.player_id == player_id)
        .order_by(Rating.game, RatingChange.match_id)
    )
    result: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row.game not in result:
            result[row.game] = {
                **_rating_json(row, int(row.above or 0) + 1),
                "rated_players": int(row.rated or 0),
                "recent": [],
            }
        if row.change_match_id is not None:
            result[row.game]["recent"].append(
                {
                    "match_id": row.change_match_id,
                    "ordinal": round(row.ordinal_after, 2),
                    "delta": round(row.ordinal_after - row.ordinal_before, 2),
                    "has_bots": row.has_bots,
                    "at": iso(row.at),
                }
            )
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
