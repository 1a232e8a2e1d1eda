"""Migration 0006 keeps every guest: a token from before it names the same player after it."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from alembic import command
from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.migrate import alembic_config
from app.db.models import Player
from app.db.players import PlayerDirectory
from tests.app.db.conftest import LoopThread

BEFORE_ACCOUNTS = "0005"


def migrate(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def test_a_guest_token_from_before_accounts_still_works(
    database_url: str, loop: LoopThread
) -> None:
    engine: AsyncEngine = make_engine(database_url)
    token = "a-guest-token-from-last-year"

    async def run() -> None:
        async with engine.begin() as conn:
            await conn.run_sync(migrate, BEFORE_ACCOUNTS)
            await conn.execute(
                insert(Player).values(
                    id=7,
                    name="Old Guest",
                    token_hash=hashlib.sha256(token.encode()).hexdigest(),
                    created_at=datetime(2025, 1, 1, tzinfo=UTC),
                )
            )
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "head")
        directory = PlayerDirectory(engine)
        caller = await directory.caller(token)
        assert caller is not None and caller.player.id == 7
        assert caller.player.name == "Old Guest"
        assert await directory.caller("another-token") is None
        await engine.dispose()

    loop.run_until_complete(run())
