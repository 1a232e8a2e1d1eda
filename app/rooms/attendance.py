"""Attendance: who is connected to a room (here and on the other processes), the seat holds and
turn timers that follow from it, and the referee's verdicts carried out as commands.

Each process says who is connected to its rooms whenever that changes and again every
``heartbeat`` seconds; what it said holds for three heartbeats. A process that crashed says
nothing more, so its players become absent when that time is up, and their seat holds begin.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from app.rooms import referee
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.errors import ActionRefused
from app.rooms.play import Play
from app.rooms.ports import Audience, Broker
from app.rooms.referee import Forfeit, StandIn, StandInTurn, TimerMove, Verdict
from app.rooms.runtime import RoomRuntime
from games.base import Seat

log = logging.getLogger(__name__)


class Attendance:
    def __init__(
        self,
        runner: CommandRunner,
        play: Play,
        audience: Audience,
        broker: Broker,
        clock: Clock,
        process_id: str,
        *,
        heartbeat: float = 5.0,
    ) -> None:
        self.runner = runner
        self.play = play
        self.audience = audience
        self.broker = broker
        self.clock = clock
        self.process_id = process_id
        self.heartbeat = heartbeat  # seconds between two words of this process's presence

    # -- presence ------------------------------------------------------------------------
    def check(self, runtime: RoomRuntime) -> bool:
        """Note who is absent or back, inside a command; ``True`` when a seat was handed back
        to its player (the room and the state change)."""
        present = set(self.audience.present(runtime.room.id))
        present |= runtime.remote_players(self.clock.now())
        return referee.attendance(runtime, present, self.clock)

    async def opened(self, runtime: RoomRuntime) -> None:
        """A room just loaded: the seat holds of its absent players start."""
        await self.runner.run(runtime, lambda: self._checked(runtime))

    async def _checked(self, runtime: RoomRuntime) -> Effects:
        back = self.check(runtime)
        return Effects(room=back, state=back)

    async def changed_here(self, runtime: RoomRuntime) -> None:
        """A socket of this process joined or left the room: everyone sees who is there, and
        the other processes hear who is connected here."""

        async def noted() -> Effects:
            effects = await self._checked(runtime)
            effects.room = True
            effects.event = self.presence(runtime)
            return effects

        await self.runner.run(runtime, noted)

    async def changed_there(self, runtime: RoomRuntime, event: dict[str, Any]) -> None:
        """Another process says who is connected to the room there (a change, or its
        heartbeat): true for the time it gives."""
        ttl = timedelta(seconds=float(event.get("ttl", 3 * self.heartbeat)))

        async def noted() -> Effects:
            until = self.clock.now() + ttl
            changed = runtime.heard(event["process"], set(event["players"]), until)
            effects = await self._checked(runtime)
            effects.room = effects.room or changed
            return effects

        await self.runner.run(runtime, noted)

    def presence(self, runtime: RoomRuntime) -> dict[str, Any]:
        """The event telling the other processes who is connected to the room here, and how
        far its match has gone here (a process that missed a move learns of it so)."""
        return {
            "kind": "presence",
            "process": self.process_id,
            "players": sorted(self.audience.present(runtime.room.id)),
            "ttl": 3 * self.heartbeat,
            "match_id": runtime.match.id if runtime.match is not None else None,
            "seq": runtime.seq,
        }

    async def beat(self, rooms: Iterable[RoomRuntime]) -> None:
        """Say again, every heartbeat until cancelled, who is connected to each room here."""
        while True:
            await self.clock.sleep(self.heartbeat)
            for runtime in rooms:
                if self.audience.present(runtime.room.id):
                    await self.broker.publish(runtime.room.id, self.presence(runtime))

    async def _silence(self, runtime: RoomRuntime) -> Effects:
        """Processes not heard from in time: their players are absent now."""
        if not runtime.forget_silent(self.clock.now()):
            return Effects()
        effects = await self._checked(runtime)
        effects.room = True
        return effects

    # -- timers --------------------------------------------------------------------------
    def watch(self, runtime: RoomRuntime) -> None:
        """(Re)arm the room's timer for its next deadline or seat hold (a timer still waiting
        is cancelled; one that is due has let go of ``runtime.timer`` and runs to its end)."""
        if runtime.timer is not None:
            runtime.timer.cancel()
        runtime.timer = None
        delay = referee.next_due(runtime, self.clock)
        if delay is not None:
            runtime.timer = asyncio.get_running_loop().create_task(
                self._time(runtime, delay), name=f"timer {runtime.room.id}"
            )

    async def _time(self, runtime: RoomRuntime, delay: float) -> None:
        await self.clock.sleep(delay)
        # Due now: from here on no other change may cancel this task (it would stop a move
        # half made). Changes meanwhile arm timers of their own; the last one here re-arms.
        if runtime.timer is asyncio.current_task():
            runtime.timer = None
        await self.enforce(runtime)

    async def enforce(self, runtime: RoomRuntime) -> None:
        """Carry out what the table settings demand now: a timer that is due, or a turn-based
        deadline's job."""
        try:
            if runtime.remote_until:
                await self.runner.run(runtime, lambda: self._silence(runtime))
            for verdict in referee.verdicts(runtime, self.clock):
                await self._carry_out(runtime, verdict)
        except ActionRefused as refused:
            log.info("a timer's move in %s was refused: %s", runtime.room.id, refused.code)
        except Exception:
            log.exception("enforcing the table settings of room %s failed", runtime.room.id)
        self.watch(runtime)

    async def _carry_out(self, runtime: RoomRuntime, verdict: Verdict) -> None:
        if isinstance(verdict, StandIn):
            await self.runner.run(runtime, lambda: self._stand_in(runtime, verdict.seat))
        elif isinstance(verdict, StandInTurn):
            await self.runner.run(runtime, lambda: self._stand_in_turn(runtime, verdict.seat))
        elif isinstance(verdict, Forfeit):
            await self.play.forfeit(runtime, verdict.seat, verdict.reason)
        elif isinstance(verdict, TimerMove):
            await self.play.play_for(runtime, verdict.seat, verdict.action, runtime.seq)

    async def _stand_in_turn(self, runtime: RoomRuntime, seat: Seat) -> Effects:
        """The seat is away for one move: a stand-in plays it (``Play`` hands the seat back
        after it), as it does for an absent player at a live table."""
        deadline = runtime.deadlines().get(seat)
        if deadline is None or deadline > self.clock.now():
            return Effects()  # moved meanwhile (here or on another process)
        runtime.set_away(seat, True)
        return Effects(room=True, state=True)

    async def _stand_in(self, runtime: RoomRuntime, seat: Seat) -> Effects:
        if not runtime.playing or runtime.absent_since.pop(seat, None) is None:
            return Effects()  # its player came back meanwhile
        runtime.set_away(seat, True)
        return Effects(room=True, state=True)
