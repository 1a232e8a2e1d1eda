"""The room core in process: a real RoomManager on a real database (SQLite, or the Postgres
named by CARDROOM_TEST_DATABASE_URL), with the process's real move log, broker and hub."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError

from app.db.models import Room, RoomSeat
from app.rooms.commands import Effects
from app.rooms.errors import RoomError
from app.rooms.lifecycle import InvalidTransition, RoomStatus
from app.services import Services
from tests.app.rooms.in_process import new_player, with_services


def test_unknown_room_ids_leave_nothing_behind(database_url: str) -> None:
    async def work(services: Services) -> tuple[int, int, int]:
        manager = services.manager
        refused = 0
        for attempt in range(300):
            asked = [manager.runtime(f"nope{attempt}x{i}") for i in range(3)]  # together
            for answer in await asyncio.gather(*asked, return_exceptions=True):
                refused += isinstance(answer, RoomError) and answer.status == 404
        return refused, manager.loads_under_way, manager.rooms_in_memory

    refused, loading, loaded = with_services(database_url, work)
    assert refused == 900 and loading == 0 and loaded == 0


def test_idle_rooms_leave_memory_and_come_back_from_the_database(database_url: str) -> None:
    async def work(services: Services) -> tuple[list[str], list[str], list[str], dict[str, Any]]:
        manager = services.manager
        host = await new_player(services, "Host")
        waiting = await manager.create_room(
            host, game="abstrac", seats=2, options=None, private=False
        )
        playing = (await manager.play_now(host, game="abstrac", level="easy", opponents=1))["id"]
        now = manager.clock.monotonic()
        early = manager.evict_idle(now + 1)
        late = manager.evict_idle(now + manager.limits.idle_seconds + 1)
        room = await manager.room(waiting["id"])  # loaded again from the database
        kept = [room_id for room_id in (playing, waiting["id"]) if manager.loaded(room_id)]
        return early, late, [playing, waiting["id"], *kept], room

    early, late, ids, room = with_services(database_url, work, bot_delay_ms=60_000)
    playing, waiting, *kept = ids
    assert early == []
    assert late == [waiting]  # the running match has its seat hold and its bot to time
    assert kept == [playing, waiting]
    assert room["id"] == waiting and room["status"] == "waiting"


def test_the_database_keeps_one_seat_a_player_and_full_playing_rooms(database_url: str) -> None:
    async def work(services: Services) -> list[str]:
        host = await new_player(services, "Host")
        room_id = (
            await services.manager.create_room(
                host, game="abstrac", seats=2, options=None, private=False
            )
        )["id"]
        refused = []
        attempts: list[Any] = [
            update(RoomSeat).where(RoomSeat.room_id == room_id).values(player_id=host.id),
            update(Room).where(Room.id == room_id).values(status="playing"),
        ]
        for statement in attempts:
            try:
                async with services.db.begin() as conn:
                    await conn.execute(statement)
            except IntegrityError:
                refused.append(str(statement).split()[1])
        return refused

    assert with_services(database_url, work) == ["room_seats", "rooms"]


def test_a_match_of_other_rules_is_aborted_unrated_not_resumed(database_url: str) -> None:
    """Its replay is refused too: tests/api/test_room_limits.py."""

    async def start(services: Services) -> tuple[str, int]:
        host = await new_player(services, "Host")
        room = await services.manager.play_now(host, game="abstrac", level="easy", opponents=1)
        async with services.db.begin() as conn:
            await conn.execute(text("UPDATE matches SET engine_version = 'old'"))
        return room["id"], room["match_id"]

    room_id, match_id = with_services(database_url, start, bot_delay_ms=60_000)

    async def reopen(services: Services) -> tuple[dict[str, Any], dict[str, Any] | None]:
        room = await services.manager.room(room_id)
        async with services.db.connect() as conn:
            row = (
                await conn.execute(
                    text("SELECT status, outcome FROM matches WHERE id = :id"), {"id": match_id}
                )
            ).one()
            rated = await conn.scalar(text("SELECT count(*) FROM rating_history"))
        outcome = json.loads(row.outcome) if isinstance(row.outcome, str) else row.outcome
        return room, {"status": row.status, "outcome": outcome, "rated": rated}

    room, stored = with_services(database_url, reopen, bot_delay_ms=60_000)
    assert room["status"] == "finished"
    assert stored is not None and stored["status"] == "finished" and stored["rated"] == 0
    assert stored["outcome"]["termination"] == "aborted" and stored["outcome"]["winners"] == []


def test_the_lifecycle_refuses_what_the_rules_forbid() -> None:
    assert RoomStatus.WAITING.moved_to(RoomStatus.PLAYING) is RoomStatus.PLAYING
    assert RoomStatus.FINISHED.moved_to(RoomStatus.PLAYING) is RoomStatus.PLAYING
    for old, new in [
        (RoomStatus.WAITING, RoomStatus.FINISHED),
        (RoomStatus.PLAYING, RoomStatus.WAITING),
        (RoomStatus.PLAYING, RoomStatus.PLAYING),
        (RoomStatus.FINISHED, RoomStatus.WAITING),
    ]:
        with pytest.raises(InvalidTransition):
            old.moved_to(new)


def test_a_match_its_engine_cannot_rebuild_is_aborted_not_wedged(database_url: str) -> None:
    async def start(services: Services) -> str:
        host = await new_player(services, "Host")
        room = await services.manager.play_now(host, game="abspecken", level="easy", opponents=1)
        async with services.db.begin() as conn:  # as a bug of an older release might store
            await conn.execute(text("UPDATE matches SET seed = -1, options = '{\"x\": 1}'"))
        return str(room["id"])

    room_id = with_services(database_url, start, bot_delay_ms=60_000)

    async def reopen(services: Services) -> tuple[dict[str, Any], dict[str, Any]]:
        room = await services.manager.room(room_id)
        runtime = await services.manager.runtime(room_id)
        assert runtime.terminal is not None
        return room, runtime.terminal.to_json()

    room, outcome = with_services(database_url, reopen, bot_delay_ms=60_000)
    assert room["status"] == "finished"
    assert outcome["termination"] == "aborted" and outcome["detail"] == {"reason": "cannot_rebuild"}


def test_a_match_reloaded_at_a_snapshot_knows_its_last_move_and_when_it_was_made(
    database_url: str,
) -> None:
    """Reloaded from a snapshot with no move after it, a room forgot its last move (``last``
    was null) and counted the turn from the match's start."""

    async def play(services: Services) -> tuple[str, int, tuple[int, Any]]:
        manager = services.manager
        host, guest = await new_player(services, "Host"), await new_player(services, "Guest")
        room = await manager.create_room(host, game="abstrac", seats=2, options=None, private=False)
        await manager.take_seat(room["id"], 0, host)
        await manager.take_seat(room["id"], 1, guest)
        await manager.start(room["id"], host)
        runtime = await manager.runtime(room["id"])
        players = {0: host.id, 1: guest.id}
        for seq in range(4):  # a snapshot every 4 moves: the fourth is the snapshot's
            (seat,) = runtime.to_act()
            action = runtime.engine.legal_actions(runtime.state, seat)[0]
            await manager.submit(room["id"], players[seat], action, seq)
        assert runtime.match is not None and runtime.last is not None
        return room["id"], runtime.match.id, runtime.last

    async def reload(services: Services, room_id: str) -> tuple[Any, Any, Any, Any]:
        runtime = await services.manager.runtime(room_id)
        assert runtime.match is not None
        (fourth,) = await services.store.load_moves(runtime.match.id, 3)
        return runtime.seq, runtime.last, runtime.changed_at, fourth.at

    room_id, _, last = with_services(database_url, play, snapshot_every=4)
    seq, reloaded_last, changed_at, made_at = with_services(
        database_url, lambda services: reload(services, room_id), snapshot_every=4
    )
    assert seq == 4 and reloaded_last == last
    assert changed_at is not None and changed_at.timestamp() == made_at.timestamp()


async def _during_a_command(services: Services, room_id: str, event: dict[str, Any]) -> bool:
    """Deliver another process's ``event`` while a command of the room is under way; ``True``
    if it changed the room before that command ended."""
    manager = services.manager
    runtime = await manager.runtime(room_id)

    def seen() -> tuple[dict[str, set[int]], Any]:
        return dict(runtime.remote_present), runtime.rematch

    before = seen()
    arrivals: list[asyncio.Future[None]] = []
    interleaved = []

    async def command() -> Effects:
        arrivals.append(asyncio.ensure_future(manager.on_event(room_id, event)))
        for _ in range(20):  # steps of the loop, not time: the event has every chance to run
            await asyncio.sleep(0)
        interleaved.append(seen() != before)
        return Effects()

    await manager.runner.run(runtime, command)
    await arrivals[0]
    assert seen() != before  # it did arrive, once the command was done
    return interleaved[0]


def test_presence_and_rematch_events_wait_for_the_command_under_way(database_url: str) -> None:
    async def work(services: Services) -> tuple[bool, bool]:
        host = await new_player(services, "Host")
        room = await services.manager.play_now(host, game="abstrac", level="easy", opponents=1)
        presence = {"kind": "presence", "process": "elsewhere", "players": [host.id]}
        during_presence = await _during_a_command(services, room["id"], presence)
        runtime = await services.manager.runtime(room["id"])
        await services.manager.play.forfeit(runtime, 1, "timeout")
        proposal = {"accepted": [0], "expires_at": "2099-01-01T00:00:00Z"}
        rematch = {"kind": "rematch", "rematch": proposal}
        during_rematch = await _during_a_command(services, room["id"], rematch)
        return during_presence, during_rematch

    assert with_services(database_url, work, bot_delay_ms=60_000) == (False, False)
