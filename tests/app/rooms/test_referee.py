"""The table settings' verdicts, in process on a :class:`ManualClock`: seat holds, turn timers,
chess-clock banks and forfeits, each at the exact second the clock is moved to, with no real
waiting. tests/realtime/test_table_settings.py sees the same verdicts over real sockets.

Nobody has a socket here: a player is present when "another process" says so, with the
``presence`` event that process would publish."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson
import pytest

from app.db import matches as match_db
from app.db.players import PlayerRecord
from app.rooms import referee
from app.rooms.clock import ManualClock
from app.rooms.manager import RoomManager
from app.rooms.referee import StandIn, TimerMove
from app.rooms.runtime import RoomRuntime
from app.rooms.views import StateFrames
from app.services import Services
from app.timestamps import aware
from tests.app.rooms.in_process import new_player, with_services

# Times are sums of powers of two, so the clock's float arithmetic lands on them exactly.
BOT_DELAY_S = 0.5  # how long a stand-in bot waits before its move
QUICK_S = 0.125  # and how long it takes at least to decide
FOR_EVER_S = 10.0**6
SETTINGS = {"bot_delay_ms": int(BOT_DELAY_S * 1000), "bot_quick_ms": int(QUICK_S * 1000)}


@dataclass(frozen=True)
class StoppedClock:
    """One moment, to ask the referee about without the manager carrying anything out."""

    at_monotonic: float
    at: datetime

    def monotonic(self) -> float:
        return self.at_monotonic

    def now(self) -> datetime:
        return self.at

    async def sleep(self, seconds: float) -> None:
        raise AssertionError("a stopped clock is only read")

    def later(self, seconds: float) -> StoppedClock:
        return StoppedClock(self.at_monotonic + seconds, self.at + timedelta(seconds=seconds))


@dataclass
class Table:
    """A started two-seat Abstrac table of two people, on a manual clock."""

    manager: RoomManager
    clock: ManualClock
    room_id: str
    players: tuple[PlayerRecord, PlayerRecord]

    @property
    def runtime(self) -> RoomRuntime:
        runtime = self.manager.loaded(self.room_id)
        assert runtime is not None
        return runtime

    async def present(self, *seats: int, ttl: float = FOR_EVER_S) -> None:
        """Only the players of ``seats`` are connected (on another process, whose word holds
        ``ttl`` seconds: by default longer than any test, as if it kept saying so)."""
        players = [self.players[seat].id for seat in seats]
        event = {"kind": "presence", "process": "elsewhere", "players": players, "ttl": ttl}
        await self.manager.on_event(self.room_id, event)

    async def move(self, seat: int) -> None:
        """``seat`` plays its first legal action."""
        runtime = self.runtime
        assert runtime.state is not None
        action = runtime.engine.legal_actions(runtime.state, seat)[0]
        await self.manager.submit(self.room_id, self.players[seat].id, action, runtime.seq)

    async def stored_match(self) -> match_db.MatchRecord:
        assert self.runtime.match is not None
        match = await self.manager.store.load_match(self.runtime.match.id)
        assert match is not None
        return match


async def started(
    services: Services, manual: ManualClock, *, present: tuple[int, ...], **table: Any
) -> Table:
    """A table with ``table`` settings, started with the players of ``present`` connected."""
    manager = services.manager
    host, guest = await new_player(services, "Host"), await new_player(services, "Guest")
    room = await manager.create_room(
        host, game="abstrac", seats=2, options=None, private=False, table=table
    )
    await manager.take_seat(room["id"], 0, host)
    await manager.take_seat(room["id"], 1, guest)
    started = Table(manager, manual, room["id"], (host, guest))
    await started.present(*present)
    await manager.start(room["id"], host)
    return started


def no_timer_but_the_word_of_elsewhere(runtime: RoomRuntime, clock: ManualClock) -> bool:
    """Nothing timed at the table but when the other process's word runs out (never, here)."""
    due = referee.next_due(runtime, clock)
    return runtime.timer is not None and due is not None and due > FOR_EVER_S / 2


def run(database_url: str, work: Any) -> Any:
    clock = ManualClock()
    return with_services(
        database_url, lambda services: work(services, clock), clock=clock, **SETTINGS
    )


def test_a_silent_process_s_players_become_absent_when_its_word_runs_out(
    database_url: str,
) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0,), seat_hold_seconds=10)
        runtime = table.runtime
        await table.present(0, 1, ttl=15)  # the other process's word, renewed by its heartbeat
        assert runtime.absent_since == {}
        await clock.advance(14.75)
        await table.present(0, 1, ttl=15)  # heard again in time: still there
        await clock.advance(14.75)
        assert runtime.absent_since == {} and runtime.away == set()
        room = await services.manager.room(table.room_id)
        assert room["seats"][1]["connected"] is True
        await clock.advance(0.25)  # then nothing more: it has crashed
        assert runtime.absent_since == {0: clock.monotonic(), 1: clock.monotonic()}
        room = await services.manager.room(table.room_id)
        assert room["seats"][1]["connected"] is False
        await clock.advance(10)
        assert runtime.away == {0, 1}  # their seat holds ran out: stand-ins play

    run(database_url, work)


def test_a_seat_hold_running_out_hands_the_seat_to_a_stand_in_bot(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0,), seat_hold_seconds=10)
        runtime = table.runtime
        assert runtime.absent_since == {1: clock.monotonic()}
        assert referee.next_due(runtime, clock) == 10
        await clock.advance(9.75)
        assert runtime.away == set() and referee.verdicts(runtime, clock) == []
        assert (await services.manager.room(table.room_id))["seats"][1]["away"] is False
        assert referee.next_due(runtime, clock) == 0.25
        await clock.advance(0.25)
        assert runtime.away == {1} and runtime.absent_since == {}
        room = await services.manager.room(table.room_id)
        assert room["seats"][1]["away"] is True and room["seats"][0]["away"] is False
        assert runtime.bot_level(1) == "normal" and runtime.bot_level(0) is None
        # the stand-in plays seat 1's turns, each after the bot delay
        for _ in range(4):
            while 0 in runtime.to_act():
                await table.move(0)
            assert runtime.to_act() == {1}
            seq = runtime.seq
            await clock.advance(BOT_DELAY_S)
            assert runtime.seq == seq  # it has waited out its delay and decided, not played
            await clock.advance(QUICK_S - 0.0625)
            assert runtime.seq == seq
            await clock.advance(0.0625)
            assert runtime.seq == seq + 1 and runtime.last is not None
            assert runtime.last[0] == 1
        moves = await match_db.load_moves(services.db, (await table.stored_match()).id)
        assert [m.seq for m in moves] == list(range(1, runtime.seq + 1))
        # its player comes back: the seat is theirs again at once, with no timer left running
        await table.present(0, 1)
        assert runtime.away == set() and runtime.absent_since == {}
        assert runtime.bot_level(1) is None and no_timer_but_the_word_of_elsewhere(runtime, clock)
        assert (await services.manager.room(table.room_id))["seats"][1]["away"] is False

    run(database_url, work)


def test_a_player_back_before_the_hold_ends_keeps_the_seat(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(
            services, clock, present=(0,), seat_hold_seconds=10, on_absent="forfeit"
        )
        runtime = table.runtime
        assert runtime.timer is not None
        await clock.advance(9.5)
        await table.present(0, 1)
        assert runtime.absent_since == {} and no_timer_but_the_word_of_elsewhere(runtime, clock)
        await clock.advance(250)  # nothing is timed any more (nor idle long enough to drop)
        assert runtime.away == set() and runtime.playing and runtime.seq == 0
        assert runtime.terminal is None and referee.verdicts(runtime, clock) == []
        assert (await table.stored_match()).status == "playing"
        # gone again, the hold starts afresh from now
        await table.present(0)
        assert runtime.absent_since == {1: clock.monotonic()}
        await clock.advance(9.75)
        assert runtime.playing
        await clock.advance(0.25)
        assert runtime.terminal is not None
        assert runtime.terminal.to_json()["detail"] == {"forfeit": 1, "reason": "absent"}

    run(database_url, work)


def test_a_turn_timer_plays_the_games_fallback_move(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0, 1), turn_seconds=5)
        runtime = table.runtime
        (seat,) = runtime.to_act()
        started_at = clock.now()
        assert runtime.deadlines() == {seat: started_at + timedelta(seconds=5)}
        message = orjson.loads(StateFrames(runtime).of(seat) or "null")
        assert message["deadlines"] == {str(seat): "2026-01-01T00:00:05Z"}
        assert runtime.state is not None
        fallback = runtime.engine.fallback_action(runtime.state, seat)
        assert fallback == {"type": "order", "first": True}  # Abstrac's: its first legal action
        await clock.advance(4.75)
        assert runtime.seq == 0 and referee.verdicts(runtime, clock) == []
        await clock.advance(0.25)
        assert runtime.seq == 1 and runtime.last == (seat, fallback)
        (move,) = await match_db.load_moves(services.db, (await table.stored_match()).id)
        assert (move.seq, move.seat, move.action) == (1, seat, fallback)
        # the next seat's five seconds run from that move
        (after,) = runtime.to_act()
        assert runtime.deadlines() == {after: clock.now() + timedelta(seconds=5)}
        assert referee.next_due(runtime, clock) == 5
        await table.move(after)
        assert runtime.seq == 2  # a move in time: the timer waits for the seat after it

    run(database_url, work)


def test_the_verdicts_stand_in_for_the_absent_before_timing_out_the_slow(
    database_url: str,
) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0, 1), turn_seconds=5)
        runtime = table.runtime
        (seat,) = runtime.to_act()
        assert runtime.state is not None
        fallback = runtime.engine.fallback_action(runtime.state, seat)
        now = StoppedClock(clock.monotonic(), clock.now())
        assert referee.verdicts(runtime, now) == []
        assert referee.verdicts(runtime, now.later(5)) == [TimerMove(seat, fallback)]
        await table.present(seat)  # the other seat's player is gone too
        assert referee.next_due(runtime, now) == 5
        assert referee.verdicts(runtime, now.later(60)) == [
            StandIn(1 - seat),
            TimerMove(seat, fallback),
        ]
        await table.present(0, 1)
        assert referee.verdicts(runtime, now.later(60)) == [TimerMove(seat, fallback)]
        assert runtime.seq == 0 and runtime.away == set()  # only judged, nothing carried out

    run(database_url, work)


@pytest.mark.parametrize("reason", ["timeout", "absent"])
def test_on_absent_forfeit_ends_the_match_with_a_forfeit(database_url: str, reason: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        if reason == "timeout":
            table = await started(
                services, clock, present=(0, 1), turn_seconds=5, on_absent="forfeit"
            )
            (loser,) = table.runtime.to_act()
            due = 5.0
        else:
            table = await started(
                services, clock, present=(0,), seat_hold_seconds=7, on_absent="forfeit"
            )
            loser, due = 1, 7.0
        runtime = table.runtime
        assert referee.next_due(runtime, clock) == due
        await clock.advance(due - 0.25)
        assert runtime.playing and referee.verdicts(runtime, clock) == []
        await clock.advance(0.25)
        assert not runtime.playing and runtime.seq == 0 and runtime.timer is None
        assert runtime.terminal is not None
        outcome = runtime.terminal.to_json()
        assert outcome["detail"] == {"forfeit": loser, "reason": reason}
        assert outcome["termination"] == "forfeit" and outcome["winners"] == [1 - loser]
        assert outcome["scores"] == [0 if s == loser else 1 for s in range(2)]
        stored = await table.stored_match()
        assert stored.status == "finished" and stored.outcome == outcome
        room = await services.manager.room(table.room_id)
        assert room["status"] == "finished"

    run(database_url, work)


def test_a_chess_clock_spends_each_seats_own_bank(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        table = await started(services, clock, present=(0, 1), turn_seconds=10, clock=True)
        runtime = table.runtime
        (slow,) = runtime.to_act()
        await clock.advance(4)  # the slow seat thinks before its first move
        await table.move(slow)
        assert runtime.clock_used == {slow: 4.0}
        while slow not in runtime.to_act():  # the others answer at once
            (mover,) = runtime.to_act()
            assert runtime.deadlines() == {mover: clock.now() + timedelta(seconds=10)}
            await table.move(mover)
        assert runtime.deadlines() == {slow: clock.now() + timedelta(seconds=6)}  # 10 less 4
        seq, other = runtime.seq, 1 - slow
        assert runtime.clock_used.get(other, 0.0) == 0.0  # its moves took no time
        await clock.advance(5.75)
        assert runtime.seq == seq
        await clock.advance(0.25)  # the bank is spent: the fallback moves are played
        assert runtime.seq > seq and runtime.clock_used[slow] == 10.0
        moves = await match_db.load_moves(services.db, (await table.stored_match()).id, seq)
        assert {m.seat for m in moves} == {slow}  # with an empty bank, every turn at once
        assert all(aware(m.at) == clock.now() for m in moves)
        assert runtime.to_act() == {other}
        assert runtime.deadlines() == {other: clock.now() + timedelta(seconds=10)}

    run(database_url, work)


def test_the_sweep_drops_idle_rooms_on_the_clock(database_url: str) -> None:
    async def work(services: Services, clock: ManualClock) -> None:
        manager = services.manager
        host = await new_player(services, "Host")
        room = await manager.create_room(host, game="abstrac", seats=2, options=None, private=False)
        idle = manager.limits.idle_seconds
        await clock.advance(idle - 1)
        assert manager.loaded(room["id"]) is not None
        await clock.advance(idle / 4 + 1)  # the first sweep after the idle time is up
        assert manager.loaded(room["id"]) is None

    run(database_url, work)
