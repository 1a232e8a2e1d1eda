"""Guest identities: ``POST /api/players``, ``GET /api/me``, ``GET /api/players/{id}``.

Beside the contract: ``GET /api/players?name=&limit=`` (a name search, by prefix, any case),
``GET /api/players/{id}/stats`` (per-game record and rating) and ``GET /api/session`` (who is
calling, ``null`` for a visitor without a name: a first visit asks without a 401).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, StringConstraints

from app.api.addresses import client_key
from app.api.deps import OptionalPlayerDep, PlayerDep, ServicesDep, give_token
from app.api.errors import ApiError
from app.api.params import PathId
from app.api.sessions import within_limit
from app.db.accounts import account_of
from app.db.history import player_stats, search_players
from app.db.players import PlayerRecord, create_player, player_by_id
from app.db.turns import games_of
from app.identity import device_label
from app.services import Services
from app.text import UnfitText, clean_text

router = APIRouter(prefix="/api", tags=["players"])


class NewPlayer(BaseModel):
    name: Annotated[str, StringConstraints(max_length=200)]


def clean_name(raw: str) -> str:
    try:
        return clean_text(raw, what="name", longest=32)
    except UnfitText as unfit:
        raise ApiError(422, "invalid_name", str(unfit)) from None


@router.post("/players", status_code=201)
async def register(
    body: NewPlayer, request: Request, response: Response, services: ServicesDep
) -> dict[str, object]:
    name = clean_name(body.name)
    await within_limit(
        services.limits.new_guest(client_key(request)), "Too many new players from here."
    )
    await services.limits.tidy()  # guests nobody used go (a batch at most once a minute)
    player, token = await create_player(services.db, name, device_label(request))
    give_token(response, services, token)
    return {"id": player.id, "name": player.name, "token": token}


async def with_username(services: Services, player: PlayerRecord) -> dict[str, object]:
    """The player as ``GET /api/me`` shows them: with their account's username (``None`` for
    a guest)."""
    account = await account_of(services.db, player.id)
    return {**player.to_json(), "username": account.username if account else None}


@router.get("/me")
async def me(player: PlayerDep, services: ServicesDep) -> dict[str, object]:
    return await with_username(services, player)


@router.get("/me/games")
async def my_games(player: PlayerDep, services: ServicesDep) -> dict[str, object]:
    """Every running match the caller is seated in, those waiting for them first."""
    return {"games": await games_of(services.db, player.id)}


@router.get("/session")
async def session(player: OptionalPlayerDep, services: ServicesDep) -> dict[str, object]:
    return {"player": await with_username(services, player) if player is not None else None}


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
