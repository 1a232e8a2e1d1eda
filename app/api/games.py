"""``GET /api/games``: every registered game with its option specs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from games import REGISTRY

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    return [engine.info.to_json() for engine in REGISTRY.values()]
