"""The limit on failed sign-ins, per username and per client address, kept in the database so
every server process counts the same failures.

A failure is stored against two keys (SHA-256 hashes, so neither a username nor an address is
stored as sent); once a key has ``most`` failures in the last ``window``, a sign-in through it
is refused until the oldest of them leaves the window, whether the username exists or not. A
sign-in that succeeds clears its username's failures.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import SigninFailure
from app.timestamps import aware


class TooManyFailures(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _key(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()


@dataclass
class SigninLimit:
    db: AsyncEngine
    now: Callable[[], datetime]
    window: timedelta
    per_username: int
    per_address: int

    def _keys(self, username_key: str, address: str) -> dict[str, int]:
        return {
            _key("username", username_key): self.per_username,
            _key("address", address): self.per_address,
        }

    async def check(self, username_key: str, address: str) -> None:
        """Raise :class:`TooManyFailures` (with the seconds until a try may succeed) if the
        username's or the address's failures reached their limit."""
        now = self.now()
        limits = self._keys(username_key, address)
        async with self.db.connect() as conn:
            rows = await conn.execute(
                select(SigninFailure.key, SigninFailure.at)
                .where(SigninFailure.key.in_(limits), SigninFailure.at > now - self.window)
                .order_by(SigninFailure.at.desc())
            )
            recent: dict[str, list[datetime]] = {}
            for key, at in rows:
                recent.setdefault(key, []).append(aware(at))
        waits = [
            (times[most - 1] + self.window - now).total_seconds()
            for key, most in limits.items()
            if len(times := recent.get(key, [])) >= most
        ]
        if waits:
            raise TooManyFailures(max(1, math.ceil(max(waits))))

    async def failed(self, username_key: str, address: str) -> None:
        now = self.now()
        async with self.db.begin() as conn:
            await conn.execute(delete(SigninFailure).where(SigninFailure.at <= now - self.window))
            await conn.execute(
                insert(SigninFailure),
                [{"key": key, "at": now} for key in self._keys(username_key, address)],
            )

    async def succeeded(self, username_key: str) -> None:
        async with self.db.begin() as conn:
            await conn.execute(
                delete(SigninFailure).where(SigninFailure.key == _key("username", username_key))
            )
