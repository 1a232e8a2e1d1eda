"""Sessions: one per device, each its own token, kept only as a SHA-256 hash.

A guest's first session opens with the player (app/db/players.py); a sign-in opens another.
Ending a session deletes its row: its token names nobody from then on.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.models import KnownDevice, Player
from app.db.models import Session as SessionRow
from app.timestamps import aware, iso, utcnow

# how stale a session's last-seen time may be before a lookup stamps it again
SEEN_EVERY = timedelta(minutes=5)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


@dataclass(frozen=True)
class SessionInfo:
    id: int
    label: str
    created_at: datetime
    last_seen_at: datetime

    def to_json(self, current_id: int) -> dict[str, object]:
        return {
            "id": self.id,
            "device": self.label,
            "created_at": iso(self.created_at),
            "last_seen_at": iso(self.last_seen_at),
            "current": self.id == current_id,
        }


async def add_session(
    conn: AsyncConnection, player_id: int, token_hash: str, label: str, *, signed_in: bool = False
) -> int:
    """A session row; ``signed_in``: the device just proved who it is (a password, a passkey)."""
    now = utcnow()
    result = await conn.execute(
        insert(SessionRow)
        .values(
            player_id=player_id,
            token_hash=token_hash,
            label=label,
            created_at=now,
            last_seen_at=now,
            authenticated_at=now if signed_in else None,
        )
        .returning(SessionRow.id)
    )
    return result.scalar_one()


async def open_session(db: AsyncEngine, player_id: int, label: str) -> str:
    """A new session for ``player_id``, signed in just now: its token (shown once, to the
    device)."""
    token, token_hash = new_token()
    async with db.begin() as conn:
        await add_session(conn, player_id, token_hash, label, signed_in=True)
    return token


async def signed_in_at(db: AsyncEngine, session_id: int) -> datetime | None:
    """When the session's device last proved who it is (``None``: never, a guest's)."""
    async with db.connect() as conn:
        at = (
            await conn.execute(
                select(SessionRow.authenticated_at).where(SessionRow.id == session_id)
            )
        ).scalar()
    return aware(at) if at is not None else None


async def mark_signed_in(db: AsyncEngine | AsyncConnection, session_id: int) -> None:
    """The session's device proved who it is just now (a claim, a password typed again)."""
    statement = (
        update(SessionRow).where(SessionRow.id == session_id).values(authenticated_at=utcnow())
    )
    if isinstance(db, AsyncConnection):
        await db.execute(statement)
        return
    async with db.begin() as conn:
        await conn.execute(statement)


async def remember_device(db: AsyncEngine, player_id: int) -> str:
    """A device cookie for a browser that signed in to ``player_id``'s account: its token."""
    token, token_hash = new_token()
    async with db.begin() as conn:
        await conn.execute(
            insert(KnownDevice).values(
                token_hash=token_hash, player_id=player_id, created_at=utcnow()
            )
        )
    return token


async def device_owner(db: AsyncEngine, token: str) -> int | None:
    """The player whose account signed in on the browser holding device cookie ``token``."""
    async with db.connect() as conn:
        return (
            await conn.execute(
                select(KnownDevice.player_id).where(KnownDevice.token_hash == hash_token(token))
            )
        ).scalar()


async def session_by_token(db: AsyncEngine, token_hash: str) -> tuple[int, int, str] | None:
    """``(session id, player id, player name)`` of the session whose token hashes to
    ``token_hash``; its last-seen time is stamped if older than :data:`SEEN_EVERY`."""
    now = utcnow()
    async with db.begin() as conn:
        row = (
            await conn.execute(
                select(SessionRow.id, SessionRow.last_seen_at, Player.id, Player.name)
                .join(Player, Player.id == SessionRow.player_id)
                .where(SessionRow.token_hash == token_hash)
            )
        ).first()
        if row is None:
            return None
        session_id, seen, player_id, name = row
        if now - aware(seen) > SEEN_EVERY:
            await conn.execute(
                update(SessionRow).where(SessionRow.id == session_id).values(last_seen_at=now)
            )
    return session_id, player_id, name


async def list_sessions(db: AsyncEngine, player_id: int) -> list[SessionInfo]:
    async with db.connect() as conn:
        rows = await conn.execute(
            select(SessionRow.id, SessionRow.label, SessionRow.created_at, SessionRow.last_seen_at)
            .where(SessionRow.player_id == player_id)
            .order_by(SessionRow.last_seen_at.desc(), SessionRow.id.desc())
        )
        return [
            SessionInfo(r.id, r.label, aware(r.created_at), aware(r.last_seen_at)) for r in rows
        ]


async def end_sessions(
    db: AsyncEngine | AsyncConnection,
    player_id: int,
    *,
    only: int | None = None,
    keep: int | None = None,
) -> list[str]:
    """End ``player_id``'s session ``only`` (or all of them but ``keep``): the token hashes
    of those ended."""
    statement = delete(SessionRow).where(SessionRow.player_id == player_id)
    if only is not None:
        statement = statement.where(SessionRow.id == only)
    if keep is not None:
        statement = statement.where(SessionRow.id != keep)
    statement = statement.returning(SessionRow.token_hash)
    if isinstance(db, AsyncConnection):
        return list((await db.execute(statement)).scalars())
    async with db.begin() as conn:
        return list((await conn.execute(statement)).scalars())
