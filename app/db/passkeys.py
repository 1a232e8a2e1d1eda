"""Passkeys (WebAuthn credentials) of accounts, and the challenges handed out for them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import Passkey, PasskeyChallenge
from app.timestamps import aware, iso


class KnownPasskey(Exception):
    """That credential is registered already."""


@dataclass(frozen=True)
class PasskeyRecord:
    id: int
    player_id: int
    credential_id: str
    public_key: str
    sign_count: int
    transports: list[Any]
    created_at: datetime
    last_used_at: datetime | None
    label: str

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "created_at": iso(self.created_at),
            "last_used_at": iso(self.last_used_at),
        }


_COLUMNS = (
    Passkey.id,
    Passkey.player_id,
    Passkey.credential_id,
    Passkey.public_key,
    Passkey.sign_count,
    Passkey.transports,
    Passkey.created_at,
    Passkey.last_used_at,
    Passkey.label,
)


def _record(row: Any) -> PasskeyRecord:
    created, used = row.created_at, row.last_used_at
    return PasskeyRecord(
        *row[:6], aware(created), aware(used) if used is not None else None, row.label
    )


async def save_challenge(
    db: AsyncEngine,
    challenge: str,
    purpose: str,
    player_id: int | None,
    *,
    now: datetime,
    expires_at: datetime,
) -> None:
    """Keep a challenge handed out (base64url) until it is answered or ``expires_at``; the
    expired ones go."""
    async with db.begin() as conn:
        await conn.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < now))
        await conn.execute(
            insert(PasskeyChallenge).values(
                challenge=challenge, purpose=purpose, player_id=player_id, expires_at=expires_at
            )
        )


async def take_challenge(
    db: AsyncEngine, challenge: str, purpose: str, now: datetime
) -> tuple[bool, int | None]:
    """Use up a challenge: whether it was handed out for ``purpose`` and has not expired, and
    whom it was handed to. A challenge answers once."""
    async with db.begin() as conn:
        await conn.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < now))
        row = (
            await conn.execute(
                delete(PasskeyChallenge)
                .where(PasskeyChallenge.challenge == challenge, PasskeyChallenge.purpose == purpose)
                .returning(PasskeyChallenge.player_id)
            )
        ).first()
    return (row is not None, row.player_id if row is not None else None)


async def add_passkey(
    db: AsyncEngine,
    player_id: int,
    credential_id: str,
    public_key: str,
    sign_count: int,
    transports: list[str],
    at: datetime,
    label: str = "",
) -> PasskeyRecord:
    try:
        async with db.begin() as conn:
            row = (
                await conn.execute(
                    insert(Passkey)
                    .values(
                        player_id=player_id,
                        credential_id=credential_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        transports=transports,
                        created_at=at,
                        label=label,
                    )
                    .returning(*_COLUMNS)
                )
            ).one()
    except IntegrityError:
        raise KnownPasskey from None
    return _record(row)


async def passkey_by_credential(db: AsyncEngine, credential_id: str) -> PasskeyRecord | None:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(*_COLUMNS).where(Passkey.credential_id == credential_id))
        ).first()
    return _record(row) if row else None


async def passkeys_of(db: AsyncEngine, player_id: int) -> list[PasskeyRecord]:
    async with db.connect() as conn:
        rows = await conn.execute(
            select(*_COLUMNS).where(Passkey.player_id == player_id).order_by(Passkey.id)
        )
        return [_record(row) for row in rows]


async def passkey_used(db: AsyncEngine, passkey_id: int, sign_count: int, at: datetime) -> None:
    async with db.begin() as conn:
        await conn.execute(
            update(Passkey)
            .where(Passkey.id == passkey_id)
            .values(sign_count=sign_count, last_used_at=at)
        )


async def remove_passkey(db: AsyncEngine, player_id: int, passkey_id: int) -> bool:
    async with db.begin() as conn:
        gone = await conn.execute(
            delete(Passkey)
            .where(Passkey.player_id == player_id, Passkey.id == passkey_id)
            .returning(Passkey.id)
        )
        return gone.first() is not None


async def remove_passkeys(db: AsyncEngine, player_id: int) -> int:
    """Remove every passkey of the player: how many there were."""
    async with db.begin() as conn:
        gone = await conn.execute(
            delete(Passkey).where(Passkey.player_id == player_id).returning(Passkey.id)
        )
        return len(gone.all())
