"""Rooms: create, list, seats, bots, start, rematch and claim (design section 4;
rematch by agreement and claim: docs/contract.md)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import PlayerDep, ServicesDep
from app.api.errors import ApiError
from app.api.params import PathNumber
from games import REGISTRY

router = APIRouter(prefix="/api/rooms", tags=["rooms"])
play_router = APIRouter(prefix="/api", tags=["rooms"])


class NewRoom(BaseModel):
    game: str = Field(max_length=32)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] | None = None
    private: bool = False
    table: dict[str, Any] | None = None


class PlayNow(BaseModel):
    game: str = Field(max_length=32)
    level: str = "normal"
    opponents: int = Field(default=1, ge=0, le=15)


class PaceRequest(BaseModel):
    pace: Literal["live", "turn_based"]
    turn_seconds: int | None = Field(None, ge=0)


class BotRequest(BaseModel):
    level: str = "easy"


NO_BODY = BotRequest()


@router.post("", status_code=201)
async def create_room(body: NewRoom, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    engine = REGISTRY.get(body.game)
    if engine is None:
        raise ApiError(422, "unknown_game", f"There is no game {body.game!r}.")
    seats = body.seats if body.seats is not None else engine.info.min_players
    return await services.manager.create_room(
        player,
        game=body.game,
        seats=seats,
        options=body.options,
        private=body.private,
        table=body.table,
    )


@play_router.post("/play-now", status_code=201)
async def play_now(body: PlayNow, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Beside the contract: a started table against bots, the caller seated, in one request."""
    return await services.manager.play_now(
        player, game=body.game, level=body.level, opponents=body.opponents
    )


@router.get("")
async def open_rooms(services: ServicesDep) -> list[dict[str, Any]]:
    return await services.manager.open_rooms()


@router.get("/{room_id}")
async def get_room(room_id: str, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.room(room_id)


@router.post("/{room_id}/seats/{seat}")
async def take_seat(
    room_id: str, seat: PathNumber, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    return await services.manager.take_seat(room_id, seat, player)


@router.delete("/{room_id}/seats/{seat}")
async def leave_seat(
    room_id: str, seat: PathNumber, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    return await services.manager.leave_seat(room_id, seat, player)


@router.post("/{room_id}/seats/{seat}/bot")
async def add_bot(
    room_id: str,
    seat: PathNumber,
    player: PlayerDep,
    services: ServicesDep,
    body: BotRequest | None = None,
) -> dict[str, Any]:
    return await services.manager.add_bot(room_id, seat, player, (body or NO_BODY).level)


@router.post("/{room_id}/start")
async def start(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.start(room_id, player)


@router.post("/{room_id}/rematch")
async def rematch(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Propose a rematch, or accept the one proposed (docs/contract.md)."""
    return await services.manager.rematch(room_id, player, accept=True)


@router.delete("/{room_id}/rematch")
async def decline_rematch(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.rematch(room_id, player, accept=False)


@router.post("/{room_id}/pace")
async def pace(
    room_id: str, body: PaceRequest, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    """Propose a running match's new pace, or accept the one proposed (docs/contract.md)."""
    return await services.manager.pace(room_id, player, body.pace, body.turn_seconds)


@router.delete("/{room_id}/pace")
async def decline_pace(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    return await services.manager.pace(room_id, player, None)


@router.post("/{room_id}/claim")
async def claim(room_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """End the match, won, when every opponent is away past the seat hold."""
    return await services.manager.claim(room_id, player)
