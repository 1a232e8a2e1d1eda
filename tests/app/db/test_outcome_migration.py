"""Migration 0008 gives every stored outcome its ``termination``, as the readers guessed it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.migrate import alembic_config
from app.db.models import Match, Player, Room
from games import Outcome
from tests.app.db.conftest import LoopThread, room_row
from tests.app.db.test_sessions_migration import migrate

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BATCH: int = ScriptDirectory.from_config(alembic_config()).get_revision("0008").module.BATCH

PLAYED = {"scores": [3, 1], "winners": [0], "rounds": [], "detail": {"deals": 2}}
FORFEIT = {"scores": [0, 1], "winners": [1], "rounds": [], "detail": {"forfeit": 0}}
CLAIMED = Outcome.claimed(2, away=[1], by=0).abandoning([1]).to_json()


def match_row(outcome: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "room_id": "r1",
        "game": "abstrac",
        "engine_version": "1",
        "options": {},
        "seed": 1,
        "players": 2,
        "status": "playing" if outcome is None else "finished",
        "started_at": NOW,
        "finished_at": None if outcome is None else NOW,
        "outcome": outcome,
    }


def test_every_stored_outcome_gets_its_termination(database_url: str, loop: LoopThread) -> None:
    engine: AsyncEngine = make_engine(database_url)
    # more rows than a batch, so that the last ones are in a batch of their own
    rows = [PLAYED, FORFEIT, CLAIMED, None, *[PLAYED] * BATCH, FORFEIT]

    async def run() -> list[dict[str, Any] | None]:
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "0007")
            await conn.execute(
                insert(Player), {"id": 1, "name": "Ada", "token_hash": "x" * 64, "created_at": NOW}
            )
            await conn.execute(insert(Room), room_row("r1", status="playing"))
            await conn.execute(insert(Match), [match_row(outcome) for outcome in rows])
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "head")
        async with engine.connect() as conn:
            stored = list(await conn.scalars(select(Match.outcome).order_by(Match.id)))
        await engine.dispose()
        return stored

    stored = loop.run_until_complete(run())
    assert stored[:4] == [
        {**PLAYED, "termination": "normal"},
        {**FORFEIT, "termination": "forfeit"},
        CLAIMED,
        None,
    ]
    assert stored[4:] == [{**PLAYED, "termination": "normal"}] * BATCH + [
        {**FORFEIT, "termination": "forfeit"}
    ]
    assert Outcome.from_json(stored[2]) == Outcome.claimed(2, away=[1], by=0).abandoning([1])
