"""What the player pages read of ratings (app/db/ratings/reads.py), on each backend."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.matches import MatchEnd
from app.db.models import Player, Room
from app.db.players import PlayerRecord
from app.db.ratings.reads import RECENT, leaderboard, player_ratings
from app.db.rooms import RoomRecord, SeatRecord
from app.db.store import Store
from tests.app.db.conftest import NOW, LoopThread, room_row

PLAYERS = [PlayerRecord(n, f"P{n}") for n in range(1, 5)]


async def _play(store: Store, db: AsyncEngine, games: list[tuple[str, int, int | str]]) -> None:
    """Matches played one after another in one room each game: (game, winner, loser), a bot
    level as a loser; each finish rated."""
    async with db.begin() as conn:
        await conn.execute(
            insert(Player),
            [
                {"id": p.id, "name": p.name, "token_hash": p.name, "created_at": NOW}
                for p in PLAYERS
            ],
        )
        await conn.execute(insert(Room), [room_row(g, game=g) for g in {g for g, _, _ in games}])
    status: dict[str, str] = {}
    for game, winner, loser in games:
        second = (
            SeatRecord(1, PLAYERS[loser - 1])
            if isinstance(loser, int)
            else SeatRecord(1, bot=loser)
        )
        room = RoomRecord(
            id=game,
            game=game,
            options={},
            table={},
            status="waiting",
            host=PLAYERS[0],
            private=False,
            match_id=None,
            created_at=NOW,
            seats=[SeatRecord(0, PLAYERS[winner - 1]), second],
        )
        match = await store.start_match(
            room, seed=1, engine_version="1", from_status=status.get(game, "waiting")
        )
        assert match is not None
        status[game] = "finished"
        seats = tuple((s.player.id, None) if s.player else (None, s.bot) for s in room.seats)
        outcome = {"scores": [2, 1], "winners": [0], "rounds": [], "detail": {}}
        await store.finish(MatchEnd(game, match.id, game, seats, 3, outcome, NOW))


def test_a_players_ratings_in_one_query(store: Store, db: AsyncEngine, loop: LoopThread) -> None:
    """Rank and rated players per game, the latest RECENT changes oldest first (bots marked),
    in one statement however many games and matches."""
    games: list[tuple[str, int, int | str]] = [("abstrac", 1, 2)] * (RECENT + 3)
    games += [("abstrac", 3, 1), ("abstrac", 4, 3), ("balance", 2, 1), ("balance", 1, "hard")]
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    async def run() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        await _play(store, db, games)
        event.listen(db.sync_engine, "before_cursor_execute", count)
        try:
            async with db.connect() as conn:
                ada = await player_ratings(conn, 1)
        finally:
            event.remove(db.sync_engine, "before_cursor_execute", count)
        async with db.connect() as conn:
            ben = await player_ratings(conn, 2)
        return ada, ben, await leaderboard(db, "abstrac")

    ada, ben, board = loop.run_until_complete(run())
    assert len(statements) == 1
    assert set(ada) == {"abstrac", "balance"}
    abstrac = ada["abstrac"]
    assert abstrac["matches"] == RECENT + 4 and abstrac["rated_players"] == 4
    ranks = {row["player"]["id"]: row["rank"] for row in board}
    assert abstrac["rank"] == ranks[1] and ben["abstrac"]["rank"] == ranks[2]
    recent = abstrac["recent"]
    assert len(recent) == RECENT
    assert [r["match_id"] for r in recent] == sorted(r["match_id"] for r in recent)
    assert recent[-1]["ordinal"] == abstrac["ordinal"]
    assert recent[-1]["delta"] < 0  # lost to player 3
    assert not any(r["has_bots"] for r in recent)
    balance = ada["balance"]
    assert [r["has_bots"] for r in balance["recent"]] == [False, True]
    assert balance["rated_players"] == 2 and balance["rank"] == 1
    assert ben["balance"]["rank"] == 2 and len(ben["balance"]["recent"]) == 1


@pytest.mark.parametrize("player", [1, 99])
def test_a_player_without_ratings_has_none(
    store: Store, db: AsyncEngine, loop: LoopThread, player: int
) -> None:
    async def run() -> dict[str, Any]:
        async with db.connect() as conn:
            return await player_ratings(conn, player)

    assert loop.run_until_complete(run()) == {}
