"""Beside the contract: ``GET /api/ratings?game=&limit=``, a game's leaderboard.

Answers ``{"game", "ratings": [{"rank", "player": {"id", "name"}, "ordinal", "mu", "sigma",
"matches", "trend", "last_match_id", "updated_at"}], "bots": {level: {"mu", "sigma",
"ordinal"}}}``; ``bots`` are the fixed, published ratings of the server's bots.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.db.ratings.reads import bots_json, leaderboard
from games import REGISTRY

router = APIRouter(prefix="/api/ratings", tags=["ratings"])


@router.get("")
async def ratings(
    services: ServicesDep,
    game: Annotated[str, Query(max_length=32)],
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    if game not in REGISTRY:
        raise ApiError(404, "not_found", f"There is no game {game!r}.")
    return {
        "game": game,
        "ratings": await leaderboard(services.db, game, limit),
        "bots": bots_json(),
    }
