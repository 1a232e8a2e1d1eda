"""Shared request dependencies: the process's services and the calling player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.api.errors import ApiError
from app.db.players import PlayerRecord
from app.identity import token_of
from app.services import Services


async def get_services(request: Request) -> Services:
    # async, though it awaits nothing: FastAPI runs a plain ``def`` dependency on its thread
    # pool, a thread hop on every request
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(get_services)]


async def optional_player(request: Request, services: ServicesDep) -> PlayerRecord | None:
    token = token_of(request)
    return await services.players.by_token(token) if token else None


OptionalPlayerDep = Annotated[PlayerRecord | None, Depends(optional_player)]


async def current_player(player: OptionalPlayerDep) -> PlayerRecord:
    if player is None:
        raise ApiError(401, "unauthorized", "Choose a name first (POST /api/players).")
    return player


PlayerDep = Annotated[PlayerRecord, Depends(current_player)]
