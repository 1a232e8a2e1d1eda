"""A rematch proposal's life on a :class:`ManualClock`: it waits for the other human, lapses
at the operator's time to the second, and a decline clears it. The live proposal, accept and
decline are tested over real sockets in tests/realtime/test_fair_tables.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

from app.rooms.clock import ManualClock
from app.services import Services
from tests.app.rooms.in_process import with_services
from tests.app.rooms.test_referee import SETTINGS, started

REMATCH_S = 8.0


def run(database_url: str, work: Callable[[Services, ManualClock], Awaitable[None]]) -> None:
    clock = ManualClock()
    with_services(
        database_url,
        lambda services: work(services, clock),
        clock=clock,
        rematch_seconds=REMATCH_S,
        **SETTINGS,
    )


def test_a_proposal_lapses_at_its_time_and_a_decline_clears_it(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0, 1))
        manager, (host, guest) = services.manager, table.players
        await manager.play.forfeit(table.runtime, 1, "timeout")
        proposed = await manager.rematch(table.room_id, guest, accept=True)
        assert proposed["rematch"]["accepted"] == [1] and proposed["status"] == "finished"
        expires = clock.now() + timedelta(seconds=REMATCH_S)
        assert proposed["rematch"]["expires_at"] == expires.isoformat().replace("+00:00", "Z")
        await clock.advance(REMATCH_S - 0.25)
        assert (await manager.room(table.room_id))["rematch"]["accepted"] == [1]
        await clock.advance(0.25)
        assert table.runtime.rematch is None
        assert (await manager.room(table.room_id))["rematch"] is None

        again = await manager.rematch(table.room_id, host, accept=True)  # a new proposal
        assert again["rematch"]["accepted"] == [0]
        declined = await manager.rematch(table.room_id, guest, accept=False)
        assert declined["rematch"] is None and declined["status"] == "finished"
        await clock.advance(REMATCH_S)  # its lapse finds nothing to clear
        assert (await manager.room(table.room_id))["status"] == "finished"

        await manager.rematch(table.room_id, host, accept=True)
        await clock.advance(REMATCH_S / 2)
        begun = await manager.rematch(table.room_id, guest, accept=True)
        assert begun["status"] == "playing" and begun["rematch"] is None
        await clock.advance(REMATCH_S)
        assert (await manager.room(table.room_id))["status"] == "playing"

    run(database_url, work)
