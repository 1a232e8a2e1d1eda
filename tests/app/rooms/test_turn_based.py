"""Turn-based tables in process, on a real database and a :class:`ManualClock`: matches that
wait days for a move, leave memory while they wait, tell each player when their turn has come
(and remind them when a quarter of the time is left), and answer a missed deadline with a
stand-in for that one turn, or a forfeit. Nobody has a socket here, so nobody watches."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from app.db import matches as match_db
from app.db.players import PlayerRecord
from app.db.turns import games_of
from app.rooms.clock import ManualClock
from app.rooms.errors import RoomError
from app.rooms.manager import RoomManager
from app.rooms.ports import TurnNotice
from app.rooms.runtime import RoomRuntime
from app.services import Services
from games import REGISTRY
from tests.app.rooms.in_process import new_player, with_services
from tests.support.waiting import until_async

HOUR = 3600.0
DAY = 24 * HOUR
BOT_DELAY_S = 0.5
SETTINGS = {
    "bot_delay_ms": int(BOT_DELAY_S * 1000),
    "bot_quick_ms": 0,
    "jobs_poll_seconds": 10 * DAY,  # what another process schedules: none here
    "min_turn_seconds": 60,
    "turns_gather_seconds": 0,  # written at once: each move's notices follow it
}


@dataclass
class TurnTable:
    services: Services
    clock: ManualClock
    room_id: str
    players: list[PlayerRecord]
    notices: list[TurnNotice] = field(default_factory=list)

    @property
    def manager(self) -> RoomManager:
        return self.services.manager

    async def runtime(self) -> RoomRuntime:
        return await self.manager.runtime(self.room_id)

    async def move(self, rng: random.Random) -> tuple[int, int]:
        """A seat to act plays a random legal action: (seat, the number of moves before it)."""
        runtime = await self.runtime()
        assert runtime.state is not None
        seat, seq = rng.choice(sorted(runtime.to_act())), runtime.seq
        action = rng.choice(runtime.engine.legal_actions(runtime.state, seat))
        await self.manager.submit(self.room_id, self.players[seat].id, action, seq)
        return seat, seq

    async def advance(self, seconds: float) -> None:
        """Move the clock on once what the last change set going has settled: whom the match
        waits for written, and the job runner asleep until its next job (both run in real
        time, on the database)."""

        async def settled() -> bool:
            return not self.manager.turns.writing and self.services.jobs.idle

        await until_async(settled, "the turns written and the job runner asleep")
        await self.clock.advance(seconds)

    async def told(self, *wanted: tuple[int, str, int]) -> None:
        """Wait (the job runs after the move's write, in real time) until the notices
        ``(player seat, kind, seq)`` have been given."""
        ids = {p.id: n for n, p in enumerate(self.players)}

        async def given() -> bool:
            seen = {(ids[n.player_id], n.kind, n.seq) for n in self.notices}
            return set(wanted) <= seen

        await until_async(given, f"the notices {wanted}, among {self.notices}")


async def turn_table(
    services: Services, clock: ManualClock, game: str, players: int, **table: Any
) -> TurnTable:
    manager = services.manager
    people = [await new_player(services, f"P{n}") for n in range(players)]
    table = {"pace": "turn_based", **table}
    engine = REGISTRY[game]
    options = engine.check_options(None, players)
    room = await manager.create_room(
        people[0], game=game, seats=players, options=options, private=False, table=table
    )
    for seat, person in enumerate(people):
        await manager.take_seat(room["id"], seat, person)
    turns = TurnTable(services, clock, room["id"], people)

    async def note(notice: TurnNotice) -> None:
        # as the notifier does: a notice is given once, however often the keeper hands it
        if notice not in turns.notices:
            turns.notices.append(notice)

    manager.turns.notify = note
    await manager.start(room["id"], people[0])
    return turns


def run(database_url: str, work: Any, **settings: Any) -> Any:
    clock = ManualClock()
    return with_services(
        database_url,
        lambda services: work(services, clock),
        clock=clock,
        **{**SETTINGS, **settings},
    )


def test_a_turn_based_table_needs_its_pace_in_range(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        host = await new_player(services, "Host")
        manager = services.manager

        async def create(table: dict[str, Any]) -> dict[str, Any]:
            return await manager.create_room(
                host, game="abstrac", seats=2, options=None, private=False, table=table
            )

        assert (await create({"pace": "turn_based"}))["table"]["turn_seconds"] == DAY
        for wrong in (
            {"pace": "turn_based", "turn_seconds": 30},  # under the server's minimum (60)
            {"pace": "turn_based", "turn_seconds": 15 * int(DAY)},
            {"pace": "correspondence"},
            {"pace": "live", "turn_seconds": 2 * int(DAY)},  # a live turn is a day at most
        ):
            with pytest.raises(RoomError) as refused:
                await create(wrong)
            assert refused.value.code == "invalid_table", wrong

    run(database_url, work)


def test_a_match_waits_days_out_of_memory_and_tells_each_turn_once(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await turn_table(services, clock, "abstrac", 2, turn_seconds=int(DAY))
        rng = random.Random(7)
        runtime = await table.runtime()
        [first] = runtime.to_act()
        await table.told((first, "your_turn", 0))
        games = await games_of(services.db, table.players[first].id)
        assert [(g["room_id"], g["your_turn"], g["pace"]) for g in games] == [
            (table.room_id, True, "turn_based")
        ]
        assert games[0]["deadline"] is not None
        await table.advance(2 * HOUR)
        seat, seq = await table.move(rng)
        runtime = await table.runtime()
        [second] = runtime.to_act()
        await table.told((second, "your_turn", seq + 1))
        for n, player in enumerate(table.players):
            assert (await games_of(services.db, player.id))[0]["your_turn"] is (n == second)
        # a day passes with nobody at the table: the room leaves memory while it waits
        await table.advance(17 * HOUR)
        assert services.manager.loaded(table.room_id) is None
        assert not any(n.kind == "reminder" for n in table.notices)
        await table.advance(1 * HOUR)  # a quarter of the day left: a reminder, once
        reminders = [n for n in table.notices if n.kind == "reminder"]
        assert [(n.player_id, n.seq) for n in reminders] == [(table.players[second].id, seq + 1)]
        assert reminders[0].deadline == clock.now() + timedelta(hours=6)
        await table.advance(5.5 * HOUR)
        assert (await table.runtime()).seq == seq + 1  # nothing played for them yet
        assert len([n for n in table.notices if n.seq == seq + 1]) == 2  # told once, reminded
        # the deadline passes: a stand-in plays that one turn, and the seat is theirs again
        services.manager.evict_idle(clock.monotonic() + DAY)
        await table.advance(0.5 * HOUR)
        runtime = await table.runtime()
        assert runtime.away == {second}  # a stand-in is at the seat, for the bot's delay
        await table.advance(BOT_DELAY_S)

        async def stood_in() -> bool:  # the bot decides in real time, after its delay
            return runtime.seq == seq + 2

        await until_async(stood_in, "the stand-in's move")
        assert runtime.away == set()
        assert runtime.match is not None
        moves = await match_db.load_moves(services.db, runtime.match.id)
        assert [(m.seat, m.stand_in) for m in moves] == [(seat, False), (second, True)]
        [third] = runtime.to_act()
        await table.told((third, "your_turn", seq + 2))

    run(database_url, work)


def test_a_live_match_switched_to_turn_based_and_back_finishes(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await turn_table(services, clock, "abstrac", 2, pace="live", seat_hold_seconds=60)
        manager, room_id = services.manager, table.room_id
        one, two = table.players
        outsider = await new_player(services, "Outsider")
        with pytest.raises(RoomError) as refused:
            await manager.pace(room_id, outsider, "turn_based")
        assert refused.value.code == "forbidden"
        with pytest.raises(RoomError) as refused:
            await manager.pace(room_id, one, "live")
        assert refused.value.code == "invalid_table"  # live already
        proposed = await manager.pace(room_id, one, "turn_based", 3 * int(DAY))
        assert proposed["table"]["pace"] == "live"
        assert proposed["pace_vote"]["accepted"] == [0]
        assert (proposed["pace_vote"]["pace"], proposed["pace_vote"]["turn_seconds"]) == (
            "turn_based",
            3 * int(DAY),
        )
        switched = await manager.pace(room_id, two, "turn_based", 3 * int(DAY))
        assert switched["pace_vote"] is None
        assert (switched["table"]["pace"], switched["table"]["turn_seconds"]) == (
            "turn_based",
            3 * int(DAY),
        )
        stored = await services.store.load_room(room_id)
        assert stored is not None and stored.table["pace"] == "turn_based"
        runtime = await table.runtime()
        [first] = runtime.to_act()
        await table.told((first, "your_turn", 0))  # told now it is turn-based
        # back to live, with no timer: one declines first, then both agree
        await manager.pace(room_id, two, "live")
        declined = await manager.pace(room_id, one, None)
        assert declined["pace_vote"] is None and declined["table"]["pace"] == "turn_based"
        await manager.pace(room_id, two, "live")
        assert (await manager.pace(room_id, one, "live"))["table"]["pace"] == "live"
        rng = random.Random(3)
        while (await table.runtime()).playing:
            await table.move(rng)
        runtime = await table.runtime()
        assert runtime.terminal is not None and runtime.terminal.termination == "normal"
        with pytest.raises(RoomError) as refused:
            await manager.pace(room_id, one, "turn_based")
        assert refused.value.code == "not_playing"

    run(database_url, work)


GAPS_H = (3, 20, 47, 9)  # hours between moves, turn by turn: days between some of them
# the long games' moves between two waits (the moves between come at once): a week or more in
# all for every game, and a whole match in seconds of real time
WAIT_EVERY = {"absolute": 25, "abspecken": 10, "plus_minus": 10}


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_whole_turn_based_match_of_each_game_with_days_between_moves(
    database_url: str, game: str
) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        engine = REGISTRY[game]
        players = min(max(2, engine.info.min_players), engine.info.max_players)
        table = await turn_table(services, clock, game, players, turn_seconds=3 * int(DAY))
        rng = random.Random(11)
        began = clock.now()
        to_tell = []  # (seat, seq) for every seat to act when the table waited for it
        moves = waits = 0
        while (runtime := await table.runtime()).playing:
            if moves % WAIT_EVERY.get(game, 1) == 0:
                to_tell += [(seat, runtime.seq) for seat in runtime.to_act()]
                await table.advance(GAPS_H[waits % len(GAPS_H)] * HOUR)
                waits += 1
            await table.move(rng)
            moves += 1
        assert runtime.terminal is not None and runtime.terminal.termination == "normal"
        assert clock.now() - began >= timedelta(days=7)
        assert runtime.match is not None
        stored = await match_db.load_moves(services.db, runtime.match.id)
        assert len(stored) == moves and not any(m.stand_in for m in stored)  # none missed
        # each seat was told of each turn it was waited for, once, and never reminded
        ids = {p.id: n for n, p in enumerate(table.players)}
        told = [(ids[n.player_id], n.seq) for n in table.notices if n.kind == "your_turn"]
        await table.told(*((seat, "your_turn", seq) for seat, seq in to_tell))
        assert sorted(set(told)) == sorted(told) and set(to_tell) <= set(told)
        assert not any(n.kind == "reminder" for n in table.notices)
        assert await games_of(services.db, table.players[0].id) == []  # over: not listed

    # the idle sweep looks a few times a day, not every 75 s of the simulated weeks
    run(database_url, work, room_idle_seconds=DAY)


def test_a_missed_deadline_forfeits_and_a_player_watching_is_not_told(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await turn_table(
            services, clock, "abstrac", 2, turn_seconds=int(DAY), on_absent="forfeit"
        )
        runtime = await table.runtime()
        [first] = runtime.to_act()
        await table.told((first, "your_turn", 0))
        # the other player watches the table (connected on another process) as the first moves
        watcher = 1 - first
        event = {"kind": "presence", "process": "elsewhere", "ttl": 10 * DAY}
        await services.manager.on_event(
            table.room_id, {**event, "players": [table.players[watcher].id]}
        )
        _, seq = await table.move(random.Random(5))
        runtime = await table.runtime()
        await table.advance(0)  # its job has run
        waited = {(n.player_id, n.seq) for n in table.notices}
        for acting in runtime.to_act():
            told = (table.players[acting].id, seq + 1) in waited
            assert told is (acting != watcher), (acting, watcher, table.notices)
        [late] = runtime.to_act()
        await table.advance(DAY)  # nobody moves: the seat to act forfeits
        runtime = await table.runtime()
        assert not runtime.playing and runtime.terminal is not None
        assert runtime.terminal.termination == "forfeit"
        assert late not in runtime.terminal.winners

    run(database_url, work)
