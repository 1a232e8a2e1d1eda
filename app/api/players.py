"""Guest identities: ``POST /api/players``, ``GET /api/me``, ``GET /api/players/{id}``.

Beside the contract: ``GET /api/players?name=&limit=`` (a name search, by prefix, any case),
``GET /api/players/{id}/stats`` (per-game record and rating) and ``GET /api/session`` (who is
calling, ``null`` for a visitor without a name: a first visit asks without a 401).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, StringConstraints

from app.api.deps import OptionalPlayerDep, PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.api.params import PathId
from app.db.history import player_stats, search_players
from app.db.players import create_player, player_by_id
from app.identity import COOKIE_NAME
from app.text import UnfitText, clean_text

router = APIRouter(prefix="/api", tags=["players"])

COOKIE_MAX_AGE = 400 * 24 * 3600


class NewPlayer(BaseModel):
    name: Annotated[str, StringConstraints(max_length=200)]


def clean_name(raw: str) -> str:
    try:
        return clean_text(raw, what="name", longest=32)
    except UnfitText as unfit:
        raise ApiError(422, "invalid_name", str(unfit)) from None


@router.post("/players", status_code=201)
async def register(body: NewPlayer, response: Response, services: ServicesDep) -> dict[str, object]:
    player, token = await create_player(services.db, clean_name(body.name))
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookies,
    )
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/me")
async def me(player: PlayerDep) -> dict[str, object]:
    return player.to_json()


@router.get("/session")
async def session(player: OptionalPlayerDep) -> dict[str, object]:
    return {"player": player.to_json() if player is not None else None}


@router.get("/players/{player_id}")
async def profile(player_id: PathId, services: ServicesDep) -> dict[str, object]:
    player = await player_by_id(services.db, player_id)
    if player is None:
        raise ApiError(404, "not_found", "No such player.")
    return player.to_json()


@router.get("/players")
async def find_players(
    services: ServicesDep,
    name: Annotated[str, Query(min_length=1, max_length=32)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> list[dict[str, Any]]:
    return await search_players(services.db, name, limit)


@router.get("/players/{player_id}/stats")
async def stats(player_id: PathId, services: ServicesDep) -> dict[str, Any]:
    found = await player_stats(services.db, player_id)
    if found is None:
        raise ApiError(404, "not_found", "No such player.")
    return found
