"""Guest players and their tokens (kept only as a SHA-256 hash)."""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.clock import utcnow
from app.db.models import Player


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    name: str

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def create_player(db: AsyncEngine, name: str) -> tuple[PlayerRecord, str]:
    token = secrets.token_urlsafe(32)
    async with db.begin() as conn:
        result = await conn.execute(
            insert(Player)
            .values(name=name, token_hash=hash_token(token), created_at=utcnow())
            .returning(Player.id)
        )
        player_id = result.scalar_one()
    return PlayerRecord(player_id, name), token


async def player_by_token(db: AsyncEngine, token: str) -> PlayerRecord | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(
                select(Player.id, Player.name).where(Player.token_hash == hash_token(token))
            )
        ).first()
    return PlayerRecord(row.id, row.name) if row else None


async def player_by_id(db: AsyncEngine, player_id: int) -> PlayerRecord | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(Player.id, Player.name).where(Player.id == player_id))
        ).first()
    return PlayerRecord(row.id, row.name) if row else None


class PlayerDirectory:
    """``player_by_token`` with the answers kept: a player's id and name never change, so a
    token seen once needs no query again (the most recent ``size`` tokens are kept)."""

    def __init__(self, db: AsyncEngine, size: int = 50_000) -> None:
        self._db = db
        self._size = size
        self._known: OrderedDict[str, PlayerRecord] = OrderedDict()

    async def by_token(self, token: str) -> PlayerRecord | None:
        player = self._known.get(token)
        if player is not None:
            self._known.move_to_end(token)
            return player
        player = await player_by_token(self._db, token)
        if player is not None:
            self._known[token] = player
            if len(self._known) > self._size:
                self._known.popitem(last=False)
        return player
