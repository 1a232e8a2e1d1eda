"""Players, and who a token names (through its session, app/db/sessions.py)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import (
    Account,
    ChatMessage,
    KnownDevice,
    MatchSeat,
    PasskeyChallenge,
    Player,
    PlayerGame,
    Rating,
    Room,
    RoomSeat,
)
from app.db.models import Session as SessionRow
from app.db.sessions import add_session, hash_token, new_token, session_by_token
from app.timestamps import utcnow


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    name: str

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class Caller:
    """The player a request's token names, and the session (device) it names."""

    player: PlayerRecord
    session_id: int


async def create_player(db: AsyncEngine, name: str, label: str = "") -> tuple[PlayerRecord, str]:
    """A new guest and the token of its first session."""
    token, token_hash = new_token()
    async with db.begin() as conn:
        result = await conn.execute(
            insert(Player)
            .values(name=name, token_hash=token_hash, created_at=utcnow())
            .returning(Player.id)
        )
        player_id = result.scalar_one()
        await add_session(conn, player_id, token_hash, label)
    return PlayerRecord(player_id, name), token


async def forget_unused_guests(
    db: AsyncEngine, before: datetime, after: int = 0, batch: int = 500
) -> tuple[int, int]:
    """Delete the guests among the next ``batch`` players made before ``before`` (by id, past
    ``after``) that nobody used: no account, never seated, never a host, never a word of chat,
    no match, no rating, and no session seen since ``before``. ``(guests deleted, the id to go
    on after)``, that id 0 once the batch reached the end (the next pass starts over)."""
    async with db.begin() as conn:
        examined = list(
            (
                await conn.execute(
                    select(Player.id)
                    .where(Player.id > after, Player.created_at < before)
                    .order_by(Player.id)
                    .limit(batch)
                )
            ).scalars()
        )
        if not examined:
            return 0, 0
        used = (
            exists().where(Account.player_id == Player.id),
            exists().where(MatchSeat.player_id == Player.id),
            exists().where(Room.host_id == Player.id),
            exists().where(RoomSeat.player_id == Player.id),
            exists().where(ChatMessage.player_id == Player.id),
            exists().where(Rating.player_id == Player.id),
            exists().where(PlayerGame.player_id == Player.id),
            exists().where(SessionRow.player_id == Player.id, SessionRow.last_seen_at >= before),
        )
        unused = list(
            (
                await conn.execute(
                    select(Player.id).where(Player.id.in_(examined), *(~u for u in used))
                )
            ).scalars()
        )
        go_on = examined[-1] if len(examined) == batch else 0
        if not unused:
            return 0, go_on
        try:
            async with conn.begin_nested():
                for table in (PasskeyChallenge, KnownDevice, SessionRow):
                    await conn.execute(delete(table).where(table.player_id.in_(unused)))
                await conn.execute(delete(Player).where(Player.id.in_(unused)))
        except IntegrityError:  # one came back to play meanwhile: next pass
            return 0, go_on
    return len(unused), go_on


async def player_by_id(db: AsyncEngine, player_id: int) -> PlayerRecord | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(Player.id, Player.name).where(Player.id == player_id))
        ).first()
    return PlayerRecord(row.id, row.name) if row else None


class PlayerDirectory:
    """Who a token names, the answers kept for ``ttl`` seconds (the most recent ``size``
    tokens): a session ended is forgotten at once (:meth:`forget`, told by the broker when it
    ended on another process); one whose news was lost names nobody here after ``ttl``."""

    def __init__(self, db: AsyncEngine, size: int = 50_000, ttl: float = 10.0) -> None:
        self._db = db
        self._size = size
        self._ttl = ttl
        self._known: OrderedDict[str, tuple[Caller, float]] = OrderedDict()

    async def by_token(self, token: str) -> PlayerRecord | None:
        caller = await self.caller(token)
        return caller.player if caller is not None else None

    async def caller(self, token: str) -> Caller | None:
        token_hash = hash_token(token)
        now = time.monotonic()
        known = self._known.get(token_hash)
        if known is not None and now - known[1] < self._ttl:
            self._known.move_to_end(token_hash)
            return known[0]
        found = await session_by_token(self._db, token_hash)
        if found is None:
            self._known.pop(token_hash, None)
            return None
        session_id, player_id, name = found
        caller = Caller(PlayerRecord(player_id, name), session_id)
        self._known[token_hash] = (caller, now)
        self._known.move_to_end(token_hash)
        if len(self._known) > self._size:
            self._known.popitem(last=False)
        return caller

    def forget(self, token_hashes: Iterable[str]) -> None:
        """Sessions just ended: their tokens name nobody from now on."""
        for token_hash in token_hashes:
            self._known.pop(token_hash, None)
