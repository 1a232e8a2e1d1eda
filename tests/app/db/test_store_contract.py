"""The Store protocol (app/db/store.py), the same suite on each backend: SQLite always, Postgres
when CARDROOM_TEST_DATABASE_URL names a server. Each backend writes with its own statements;
what they leave in the database, and what the store reads back, must be the same."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.bot_names import bot_name
from app.db.matches import MatchEnd, MatchRecord
from app.db.models import Match, MatchSeat, Player, PlayerGame, Rating, RatingChange, Room, Snapshot
from app.db.movelog import MoveCommit
from app.db.players import PlayerRecord
from app.db.rooms import RoomRecord, SeatRecord
from app.db.store import Store
from app.timestamps import aware
from tests.app.db.conftest import NOW, LoopThread, room_row

ADA, BEN = PlayerRecord(1, "Ada"), PlayerRecord(2, "Ben")
TAKE = {"type": "take", "count": 1}


def _room(room_id: str, second: PlayerRecord | None = None) -> RoomRecord:
    """What the room core starts: Ada, and Ben or a hard bot."""
    return RoomRecord(
        id=room_id,
        game="abstrac",
        options={"target": 7},
        table={},
        status="waiting",
        host=ADA,
        private=False,
        match_id=None,
        created_at=NOW,
        seats=[SeatRecord(0, ADA), SeatRecord(1, second) if second else SeatRecord(1, bot="hard")],
    )


async def _setup(db: AsyncEngine, *rooms: dict[str, object]) -> None:
    async with db.begin() as conn:
        for player in (ADA, BEN):
            await conn.execute(
                insert(Player),
                {
                    "id": player.id,
                    "name": player.name,
                    "token_hash": str(player.id) * 64,
                    "created_at": NOW,
                },
            )
        await conn.execute(insert(Room), list(rooms))


async def _start(store: Store, room: RoomRecord) -> MatchRecord:
    match = await store.start_match(room, seed=2**62, engine_version="1", from_status="waiting")
    assert match is not None
    return match


async def _rows(db: AsyncEngine, table: Any, *order: Any) -> list[tuple[Any, ...]]:
    return await _select(db, select(table.__table__).order_by(*order))


async def _select(db: AsyncEngine, query: Any) -> list[tuple[Any, ...]]:
    """The rows, their times aware (SQLite hands back naive ones)."""
    async with db.connect() as conn:
        return [
            tuple(aware(v) if isinstance(v, datetime) else v for v in row)
            for row in await conn.execute(query)
        ]


def _end(
    match: MatchRecord, seats: tuple[tuple[int | None, str | None], ...], **extra: Any
) -> MatchEnd:
    fields: dict[str, Any] = {
        "room_id": match.room_id,
        "match_id": match.id,
        "game": match.game,
        "seats": seats,
        "move_count": 9,
        "outcome": {"winners": [0], "scores": [1.5, None], "rounds": [], "detail": {}},
        "at": NOW,
        **extra,
    }
    return MatchEnd(**fields)


def test_a_start_writes_the_match_its_seats_and_claims_the_room(
    store: Store, db: AsyncEngine, loop: LoopThread
) -> None:
    """Both backends leave the same rows; a start in a room that moved on (another status) or
    is not full writes nothing."""

    async def run() -> tuple[list[Any], ...]:
        await _setup(
            db,
            room_row("r1"),
            room_row("r2"),
            room_row("r3", status="finished"),
            room_row("r4", filled=1),
        )
        one = await _start(store, _room("r1"))
        other = await _start(store, _room("r2"))
        refused = [
            await store.start_match(
                _room(room_id), seed=1, engine_version="1", from_status="waiting"
            )
            for room_id in ("r3", "r4")
        ]
        return (
            [one, other, *refused],
            await _rows(db, Match, Match.id),
            await _rows(db, MatchSeat, MatchSeat.match_id, MatchSeat.seat),
        )

    (one, other, moved_on, not_full), matches, seats = loop.run_until_complete(run())
    assert moved_on is None and not_full is None
    assert one.status == "playing" and one.seed == 2**62 and one.options == {"target": 7}
    assert one.players == 2 and one.room_id == "r1"
    assert [m[0] for m in matches] == [one.id, other.id]
    assert matches[0][1:] == (
        "r1",
        "abstrac",
        "1",
        {"target": 7},
        2**62,
        2,
        "playing",
        True,
        0,
        None,
        one.started_at,
        None,
        False,  # rated: not while it runs
    )
    assert matches[1][2:10] == matches[0][2:10]
    for match, room_id in ((one, "r1"), (other, "r2")):
        assert [s[1:] for s in seats if s[0] == match.id] == [
            (0, 1, None, "Ada", None, None, False),
            (1, None, "hard", bot_name(room_id, 1), None, None, False),
        ]

    rooms = _select(
        db, select(Room.id, Room.status, Room.match_id, Room.updated_at).order_by(Room.id)
    )
    assert loop.run_until_complete(rooms) == [
        ("r1", "playing", one.id, one.started_at),
        ("r2", "playing", other.id, other.started_at),
        ("r3", "finished", None, NOW),  # moved on: untouched
        ("r4", "waiting", None, NOW),  # a seat is empty: untouched
    ]


def test_moves_are_appended_once_and_read_back(
    store: Store, db: AsyncEngine, loop: LoopThread
) -> None:
    """A move wins its seq or loses it to the move stored first; a snapshot replaces the last;
    the reads give back the match, the latest snapshot and the moves after it."""

    async def run() -> tuple[Any, ...]:
        await _setup(db, room_row("r1"))
        match = await _start(store, _room("r1"))
        first = await store.append(MoveCommit("r1", match.id, 1, 0, TAKE, NOW))
        lost = await store.append(MoveCommit("r1", match.id, 1, 1, {"type": "pass"}, NOW))
        for seq in (2, 3):
            snapshot = {"seq": seq, "cards": [seq, "x"]}
            assert await store.append(MoveCommit("r1", match.id, seq, 1, TAKE, NOW, None, snapshot))
        assert await store.append(MoveCommit("r1", match.id, 4, 0, {"type": "pass"}, NOW))
        return (
            first,
            lost,
            await store.load_match(match.id),
            await store.load_snapshot(match.id),
            await store.load_moves(match.id),
            await store.load_moves(match.id, 3),
            await store.load_move_count(match.id),
            await store.load_room("r1"),
            await store.load_match(match.id + 100),
            await store.load_snapshot(match.id + 100),
        )

    first, lost, match, snapshot, moves, after, count, room, no_match, no_snapshot = (
        loop.run_until_complete(run())
    )
    assert first is True and lost is False
    assert match is not None and match.status == "playing" and match.outcome is None
    assert snapshot == (3, {"seq": 3, "cards": [3, "x"]})
    assert [(m.seq, m.seat, m.action) for m in moves] == [
        (1, 0, TAKE),
        (2, 1, TAKE),
        (3, 1, TAKE),
        (4, 0, {"type": "pass"}),
    ]
    assert [m.seq for m in after] == [4] and count == 4
    assert room is not None and room.status == "playing" and room.match_id == match.id
    assert no_match is None and no_snapshot is None


def test_a_finishing_move_ends_and_rates_the_match(
    store: Store, db: AsyncEngine, loop: LoopThread
) -> None:
    """The move that ends a match commits its end: the match, its seats' scores, the room, the
    snapshot gone, and the players' records and ratings (the bot's seat has none)."""

    async def run() -> tuple[Any, ...]:
        await _setup(db, room_row("r1"))
        match = await _start(store, _room("r1"))
        assert await store.append(MoveCommit("r1", match.id, 1, 0, TAKE, NOW, snapshot={"n": 1}))
        end = _end(match, ((1, None), (None, "hard")), move_count=2)
        assert await store.append(MoveCommit("r1", match.id, 2, 1, TAKE, NOW, end))
        return (
            await store.load_match(match.id),
            await store.load_snapshot(match.id),
            await _rows(db, MatchSeat, MatchSeat.seat),
            await store.load_room("r1"),
            await _rows(db, PlayerGame, PlayerGame.player_id),
            await _rows(db, RatingChange, RatingChange.seat),
            await _rows(db, Rating, Rating.player_id),
        )

    match, snapshot, seats, room, records, changes, ratings = loop.run_until_complete(run())
    assert match is not None and match.status == "finished"
    assert match.outcome == {"winners": [0], "scores": [1.5, None], "rounds": [], "detail": {}}
    assert snapshot is None
    assert [(s[1], s[5], s[6]) for s in seats] == [(0, 1.5, True), (1, None, False)]
    assert room is not None and room.status == "finished"
    assert [r[:6] for r in records] == [(1, "abstrac", 1, 1, 0, 0)]
    assert [(c[1], c[2]) for c in changes] == [(0, 1)]  # the bot's seat never moves
    assert [(r[0], r[1], r[5]) for r in ratings] == [(1, "abstrac", 1)]
    assert ratings[0][4] > 0  # ordinal: a newcomer who beat a hard bot


def test_finishes_rated_and_unrated(store: Store, db: AsyncEngine, loop: LoopThread) -> None:
    """A forfeit's finish (no move) counts and rates; an aborted one (``rated=False``) writes
    the end alone. Both store the outcome, the move count and the time."""

    async def run() -> tuple[Any, ...]:
        await _setup(db, room_row("r1"), room_row("r2"))
        rated = await _start(store, _room("r1", BEN))
        aborted = await _start(store, _room("r2", BEN))
        await store.finish(_end(rated, ((1, None), (2, None)), has_snapshot=False))
        abort = {"scores": [0, 0], "winners": [], "rounds": [], "detail": {"reason": "x"}}
        await store.finish(_end(aborted, ((1, None), (2, None)), outcome=abort, rated=False))
        finished = await _select(
            db, select(Match.status, Match.move_count, Match.finished_at).order_by(Match.id)
        )
        return (
            rated.id,
            aborted.id,
            finished,
            await store.load_match(aborted.id),
            await _rows(db, PlayerGame, PlayerGame.player_id),
            await _rows(db, RatingChange, RatingChange.match_id, RatingChange.seat),
        )

    rated, aborted, finished, match, records, changes = loop.run_until_complete(run())
    assert finished == [("finished", 9, NOW), ("finished", 9, NOW)]
    assert match is not None and match.outcome is not None
    assert match.outcome["detail"] == {"reason": "x"}
    assert [r[:6] for r in records] == [(1, "abstrac", 1, 1, 0, 0), (2, "abstrac", 1, 0, 1, 0)]
    assert {r[6] for r in records} == {rated}  # last_match_id: the aborted one was not counted
    assert {(c[0], c[1]) for c in changes} == {(rated, 0), (rated, 1)}
    assert aborted not in {c[0] for c in changes}


def test_starts_and_moves_of_many_rooms_at_once(
    store: Store, db: AsyncEngine, loop: LoopThread
) -> None:
    """Starts and moves made together (one batch on Postgres) each get their own answer; a
    second start of a room finds it moved on."""

    async def run() -> tuple[list[Any], list[bool], list[Any]]:
        await _setup(db, *(room_row(f"r{n}") for n in range(4)))
        starts = await asyncio.gather(
            *(
                store.start_match(_room(room_id), seed=1, engine_version="1", from_status="waiting")
                for room_id in ("r0", "r1", "r2", "r3", "r0")
            )
        )
        stored = await asyncio.gather(
            *(
                store.append(MoveCommit(m.room_id, m.id, 1, 0, TAKE, NOW))
                for m in starts
                if m is not None
            )
        )
        async with db.connect() as conn:
            rooms = [tuple(r) for r in await conn.execute(select(Room.id, Room.match_id))]
        return starts, stored, rooms

    starts, stored, rooms = loop.run_until_complete(run())
    assert starts[4] is None and all(m is not None for m in starts[:4])
    assert len({m.id for m in starts[:4] if m is not None}) == 4
    assert stored == [True] * 4
    assert sorted(rooms) == sorted((m.room_id, m.id) for m in starts[:4] if m is not None)


def test_snapshots_replace_each_other(store: Store, db: AsyncEngine, loop: LoopThread) -> None:
    async def run() -> list[tuple[Any, ...]]:
        await _setup(db, room_row("r1"))
        match = await _start(store, _room("r1"))
        for seq in (1, 2):
            state = {"seq": seq, "nested": {"a": [1, 2.5, None, True]}}
            assert await store.append(MoveCommit("r1", match.id, seq, 0, TAKE, NOW, None, state))
        return await _rows(db, Snapshot, Snapshot.match_id)

    [(_, seq, state)] = loop.run_until_complete(run())
    assert seq == 2 and state == {"seq": 2, "nested": {"a": [1, 2.5, None, True]}}


@pytest.mark.parametrize("rated", [True, False])
def test_history_reads_see_what_the_store_wrote(
    store: Store, db: AsyncEngine, loop: LoopThread, rated: bool
) -> None:
    """The history and player pages (app/db/history.py, app/db/ratings/reads.py) read the
    finished match back, its seats' rating changes if it was rated."""
    from app.db.history import match_summary, player_stats

    async def run() -> tuple[Any, Any]:
        await _setup(db, room_row("r1"))
        match = await _start(store, _room("r1", BEN))
        await store.finish(_end(match, ((1, None), (2, None)), rated=rated))
        return await match_summary(db, match.id), await player_stats(db, 1)

    summary, stats = loop.run_until_complete(run())
    assert summary is not None and summary["status"] == "finished"
    changes = [s["rating"] for s in summary["seats"]]
    games = {g["game"]: g for g in stats["games"]} if stats else {}
    if rated:
        assert changes[0]["delta"] > 0 > changes[1]["delta"]
        assert games["abstrac"]["rating"]["matches"] == 1
        assert games["abstrac"]["rating"]["recent"][-1]["match_id"] == summary["id"]
    else:
        assert changes == [None, None] and "abstrac" not in games
