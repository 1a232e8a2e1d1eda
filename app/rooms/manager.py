"""The room core's one door: a facade over the modules that each do one job of it.

Every change of a room (a seat taken or left, a bot added, a start or rematch, a move, a
stand-in, a forfeit, a presence change, an event of another process) is a command run alone for
that room by :class:`~app.rooms.commands.CommandRunner`, which then takes the steps that follow
every change (the frames to the viewers, the other processes, bots, timers). The database backs
the same rules with constraints (migration 0004), so two processes cannot break them either.

=================  ==========================================================================
``directory``      the rooms in memory: load, set aside, evict (:mod:`app.rooms.directory`)
``runner``         the command path and its follow-up steps (:mod:`app.rooms.commands`)
``play``           moves, forfeits, claims (:mod:`app.rooms.play`)
``seating``        rooms, seats, bots' seats, starts (:mod:`app.rooms.seating`)
``rematches``      rematch proposals (:mod:`app.rooms.rematches`)
``paces``          a running match's pace switched by agreement (:mod:`app.rooms.paces`)
``turns``          whom matches wait for; turn-based deadlines and notices (:mod:`app.rooms.turns`)
``attendance``     presence, seat holds and turn timers (:mod:`app.rooms.attendance`)
``bot_turns``      bots' moves (:mod:`app.rooms.bot_turns`)
``chat``           chat (:mod:`app.rooms.chat`)
``replication``    other processes' events (:mod:`app.rooms.replication`)
=================  ==========================================================================
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from app.db.players import PlayerRecord
from app.db.store import Store
from app.rooms.attendance import Attendance
from app.rooms.bot_turns import BotTurns
from app.rooms.bots import BotPlayer
from app.rooms.chat import Chat
from app.rooms.clock import SYSTEM_CLOCK, Clock
from app.rooms.commands import CommandRunner
from app.rooms.directory import RoomDirectory
from app.rooms.paces import Paces
from app.rooms.play import Play
from app.rooms.ports import Audience, Broker
from app.rooms.rematches import Rematches
from app.rooms.replication import Replication
from app.rooms.runtime import RoomRuntime
from app.rooms.seating import RoomLimits, Seating
from app.rooms.turns import TurnKeeper
from app.rooms.views import hello_frame, room_json, state_frame

log = logging.getLogger(__name__)

__all__ = ["RoomLimits", "RoomManager"]


class RoomManager:
    def __init__(
        self,
        store: Store,
        broker: Broker,
        audience: Audience,
        *,
        bot_delay: float,
        snapshot_every: int,
        bot_think: float = 0.3,
        bot_quick: float = 0.025,
        limits: RoomLimits | None = None,
        clock: Clock = SYSTEM_CLOCK,
        rematch_seconds: float = 60.0,
        heartbeat: float = 5.0,
        turns_gather: float = 1.0,
    ) -> None:
        self.store = store
        self.audience = audience
        self.limits = limits or RoomLimits()
        self.clock = clock  # timers, seat holds, idle rooms, bots' pace and move time stamps
        snapshot_every = max(1, snapshot_every)
        self.directory = RoomDirectory(
            store,
            broker,
            audience,
            clock,
            idle_seconds=self.limits.idle_seconds,
            snapshot_every=snapshot_every,
        )
        self.runner = CommandRunner(audience, broker, clock)
        self.play = Play(
            self.runner,
            store,
            clock,
            snapshot_every=snapshot_every,
            max_moves=self.limits.match_moves,
        )
        self.seating = Seating(self.runner, self.directory, store, clock, self.limits)
        self.rematches = Rematches(self.runner, self.seating.begin, clock, rematch_seconds)
        self.paces = Paces(self.runner, store, clock, rematch_seconds, self.limits.min_turn)
        self.bots = BotPlayer(
            bot_think, quick_s=bot_quick, clock=clock.monotonic, sleep=clock.sleep
        )
        self.bot_turns = BotTurns(self.play, self.bots, clock, bot_delay)
        self.attendance = Attendance(
            self.runner, self.play, audience, broker, clock, uuid.uuid4().hex, heartbeat=heartbeat
        )
        self.turns = TurnKeeper(
            store, self.directory, self.attendance, audience, clock, turns_gather
        )
        self.chat_room = Chat(store, audience, broker)
        self.replication = Replication(
            self.directory,
            self.runner,
            store,
            clock,
            attendance=self.attendance,
            rematches=self.rematches,
            paces=self.paces,
            seating=self.seating,
            chat=self.chat_room,
        )
        # the steps the modules take on each other's behalf, wired here and nowhere else
        self.runner.follow_ups = (
            self.bot_turns.schedule,
            self.attendance.watch,
            self.turns.after_change,
        )
        self.directory.on_open = self.attendance.opened
        self.seating.on_begin = self.attendance.check
        # what the facade serves as its modules do
        self.runtime = self.directory.runtime
        self.loaded = self.directory.loaded
        self.evict_idle = self.directory.evict_idle
        self.sweep = self.directory.sweep
        self.create_room = self.seating.create_room
        self.play_now = self.seating.play_now
        self.chat_history = self.chat_room.history
        self.on_event = self.replication.on_event

    # -- rooms in memory ---------------------------------------------------------------
    @property
    def rooms_in_memory(self) -> int:
        return self.directory.in_memory

    @property
    def loads_under_way(self) -> int:
        return self.directory.loads_under_way

    async def beat(self) -> None:
        """Tell the other processes, every heartbeat until cancelled, who is connected here."""
        await self.attendance.beat(self.directory)

    async def resume(self) -> None:
        """After a start: every live room in play gets its bots, timers and seat holds going
        again. A turn-based one stays in the database, where its job waits."""
        playing = await self.store.playing_rooms()
        await self.turns.resume([room for room in playing if room.turn_based])
        for room_id in (room.room_id for room in playing if not room.turn_based):
            try:
                runtime = await self.runtime(room_id)
            except Exception:
                log.exception("could not resume room %s", room_id)
                continue
            self.bot_turns.schedule(runtime)

    async def close(self) -> None:
        """Stop every room's timer and bots, then the bots' worker processes."""
        tasks = [
            task
            for runtime in self.directory
            for task in (
                runtime.timer,
                runtime.rematch.timer if runtime.rematch else None,
                *runtime.bot_tasks.values(),
            )
            if task is not None
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.bots.close()

    # -- reading -----------------------------------------------------------------------
    def room_json(self, runtime: RoomRuntime) -> dict[str, Any]:
        return self.runner.room_json(runtime)

    async def room(self, room_id: str) -> dict[str, Any]:
        return self.room_json(await self.runtime(room_id))

    async def open_rooms(self) -> list[dict[str, Any]]:
        now = self.clock.now()
        result = []
        for room in await self.store.list_open_rooms():
            runtime = self.loaded(room.id)
            if runtime is not None:
                result.append(self.room_json(runtime))
            else:
                result.append(room_json(RoomRuntime(room), {}, now))
        return result

    def hello(self, runtime: RoomRuntime, player: PlayerRecord) -> str:
        """The first frame of a socket: who it is, and the room."""
        connected = self.audience.present(runtime.room.id)
        return hello_frame(runtime, player, connected, self.clock.now())

    @staticmethod
    def state_frame(runtime: RoomRuntime, player_id: int) -> str | None:
        """The current ``state`` frame for one player (none before a match)."""
        return state_frame(runtime, player_id)

    # -- changes -----------------------------------------------------------------------
    async def take_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        return await self.seating.take_seat(await self.runtime(room_id), seat, player)

    async def leave_seat(self, room_id: str, seat: int, player: PlayerRecord) -> dict[str, Any]:
        return await self.seating.leave_seat(await self.runtime(room_id), seat, player)

    async def add_bot(
        self, room_id: str, seat: int, player: PlayerRecord, level: str
    ) -> dict[str, Any]:
        return await self.seating.add_bot(await self.runtime(room_id), seat, player, level)

    async def start(self, room_id: str, player: PlayerRecord) -> dict[str, Any]:
        return await self.seating.start(await self.runtime(room_id), player)

    async def rematch(self, room_id: str, player: PlayerRecord, *, accept: bool) -> dict[str, Any]:
        return await self.rematches.answer(await self.runtime(room_id), player, accept=accept)

    async def pace(
        self,
        room_id: str,
        player: PlayerRecord,
        pace: str | None,
        turn_seconds: int | None = None,
    ) -> dict[str, Any]:
        """Propose or accept a running match's new pace, or decline it (``pace`` None)."""
        runtime = await self.runtime(room_id)
        return await self.paces.answer(runtime, player, pace=pace, turn_seconds=turn_seconds)

    async def claim(self, room_id: str, player: PlayerRecord) -> dict[str, Any]:
        return await self.play.claim(await self.runtime(room_id), player)

    async def submit(
        self, room_id: str, player_id: int, action: Any, seq: int | None = None
    ) -> None:
        await self.play.submit(await self.runtime(room_id), player_id, action, seq)

    async def chat(self, room_id: str, player: PlayerRecord, text: str) -> None:
        await self.chat_room.say(await self.runtime(room_id), player, text)

    async def presence_changed(self, room_id: str) -> None:
        """A socket of this process joined or left the room; a room left with nobody and no
        match leaves memory."""
        runtime = self.loaded(room_id)
        if runtime is None:
            return
        if runtime.shared:  # a (re)connecting player sees every stored move, wherever made
            await self.replication.catch_up(runtime)
        await self.attendance.changed_here(runtime)
        self.directory.forget(room_id)
