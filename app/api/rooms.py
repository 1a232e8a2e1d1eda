"""Rooms: create, list, seats, bots, start and rematch (design section 4)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import PlayerDep, ServicesDep
from app.api.errors import ApiError
from games import REGISTRY

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


class NewRoom(BaseModel):
    game: str = Field(max_length=32)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] | None = None
    private: bool = False


class BotRequest(BaseModel):
    level: str = "easy"


@router.post("", status_code=201)
async def create_room(body: NewRoom, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    engine = REGISTRY.get(body.game)
    if engine is None:
        raise ApiError(422, "unknown_game", f"There is no game {body.game!r}.")
    seats = body.seats if body.seats is not None else engine.info.min_players
    return await services.manager.create_room(
        player, game=body.game, seats=seats, options=body.options, private=body.private
    )


@router.get("")
async def open_rooms(services: ServicesDep) -> list[dict[str, Any]]:
    return await services.manager.open_rooms()


@router.get("/{room_id}")
async def get_room(room_id: str, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.room(room_id)


@router.post("/{room_id}/seats/{seat}")
async def take_seat(
    room_id: str, seat: int, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    return await services.manager.take_seat(room_id, seat, player)


@router.delete("/{room_id}/seats/{seat}")
async def leave_seat(
    room_id: str, seat: int, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    return await services.manager.leave_seat(room_id, seat, player)


@router.post("/{room_id}/seats/{seat}/bot")
async def add_bot(
    room_id: str, seat: int, body: BotRequest, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    return await services.manager.add_bot(room_id, seat, player, body.level)


@router.post("/{room_id}/start")
async def start(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.start(room_id, player, rematch=False)


@router.post("/{room_id}/rematch")
async def rematch(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.start(room_id, player, rematch=True)
