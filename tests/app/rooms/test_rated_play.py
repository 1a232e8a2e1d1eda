"""A match is rated only when every human seat made moves of its own (``MIN_OWN_MOVES``), in
process on a manual clock: a timer's fallback for an absent player is not one of theirs, a
player who played and then left still counts, and the count survives a reload from a snapshot.
The farm itself (a guest who never connects) is tested over a real server in
tests/realtime/test_match_limits.py."""

from __future__ import annotations

from sqlalchemy import select

from app.db import matches as match_db
from app.db.matches import MIN_OWN_MOVES
from app.db.models import Match
from app.rooms.clock import ManualClock
from app.services import Services
from tests.app.rooms.in_process import with_services
from tests.app.rooms.test_referee import SETTINGS, Table, started

HOLD_S = 30


async def rated(services: Services, table: Table) -> bool:
    match = await table.stored_match()
    async with services.db.connect() as conn:
        return bool(await conn.scalar(select(Match.rated).where(Match.id == match.id)))


async def play_while(table: Table, seat: int, moves: int) -> None:
    """``seat`` plays its first legal action whenever it is to act, ``moves`` times, the clock
    moving a second at a time (a turn timer plays for the other seat)."""
    made = 0
    while made < moves:
        runtime = table.runtime
        if seat in runtime.to_act():
            await table.move(seat)
            made += 1
        else:
            await table.clock.advance(1)


def test_a_timers_fallbacks_for_an_absent_player_are_not_moves_of_theirs(
    database_url: str,
) -> None:
    async def work(services: Services) -> None:
        clock = services.clock
        assert isinstance(clock, ManualClock)
        table = await started(
            services, clock, present=(0,), turn_seconds=1, seat_hold_seconds=HOLD_S
        )
        await play_while(table, 0, 2 * MIN_OWN_MOVES)
        runtime = table.runtime
        match = await table.stored_match()
        guest_moves = [m for m in await match_db.load_moves(services.db, match.id) if m.seat == 1]
        assert len(guest_moves) >= MIN_OWN_MOVES  # the timer played for the absent guest
        assert all(m.stand_in for m in guest_moves) and runtime.own_moves[1] == 0
        assert runtime.played_for[1]  # and the guest is told what was played for them
        await clock.advance(HOLD_S)
        assert runtime.stand_in(1) is not None
        await services.manager.claim(table.room_id, table.players[0])
        assert not await rated(services, table)

    clock = ManualClock()
    with_services(database_url, work, clock=clock, **SETTINGS)


def test_a_player_who_played_and_then_left_is_rated_when_the_win_is_claimed(
    database_url: str,
) -> None:
    async def work(services: Services) -> None:
        clock = services.clock
        assert isinstance(clock, ManualClock)
        table = await started(services, clock, present=(0, 1), seat_hold_seconds=HOLD_S)
        runtime = table.runtime
        while min(runtime.own_moves) < MIN_OWN_MOVES:
            await table.move(min(runtime.to_act()))
        await table.present(0)  # the guest leaves
        await clock.advance(HOLD_S)
        assert runtime.stand_in(1) is not None
        await services.manager.claim(table.room_id, table.players[0])
        assert await rated(services, table)

    clock = ManualClock()
    with_services(database_url, work, clock=clock, **SETTINGS)


def test_the_moves_of_their_own_are_counted_again_from_a_snapshot(database_url: str) -> None:
    async def work(services: Services) -> None:
        clock = services.clock
        assert isinstance(clock, ManualClock)
        table = await started(services, clock, present=(0, 1))
        runtime = table.runtime
        for _ in range(7):
            await table.move(min(runtime.to_act()))
        counted = list(runtime.own_moves)
        assert sum(counted) == 7
        assert await services.store.load_snapshot(runtime.match.id) is not None  # type: ignore[union-attr]
        await services.manager.directory.load_match(runtime)
        assert runtime.seq == 7 and runtime.own_moves == counted

    clock = ManualClock()
    with_services(database_url, work, clock=clock, snapshot_every=3, **SETTINGS)
