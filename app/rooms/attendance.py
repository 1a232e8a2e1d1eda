"""Attendance: who is connected to a room (here and on the other processes), the seat holds and
turn timers that follow from it, and the referee's verdicts carried out as commands."""

from __future__ import annotations

import asyncio
import logging

from app.rooms import referee
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.errors import ActionRefused
from app.rooms.play import Play
from app.rooms.ports import Audience, Broker
from app.rooms.referee import Forfeit, StandIn, TimerMove, Verdict
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
    ) -> None:
        self.runner = runner
        self.play = play
        self.audience = audience
        self.broker = broker
        self.clock = clock
        self.process_id = process_id

    # -- presence ------------------------------------------------------------------------
    def check(self, runtime: RoomRuntime) -> bool:
        """Note who is absent or back, inside a command; ``True`` when a seat was handed back
        to its player (the room and the state change)."""
        present = set(self.audience.present(runtime.room.id))
        present.update(*runtime.remote_present.values())
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
            effects.event = self.presence(runtime.room.id)
            return effects

        await self.runner.run(runtime, noted)

    async def changed_there(self, runtime: RoomRuntime, process: str, players: list[int]) -> None:
        """Another process says who is connected to the room there."""

        async def noted() -> Effects:
            runtime.remote_present[process] = set(players)
            effects = await self._checked(runtime)
            effects.room = True
            return effects

        await self.runner.run(runtime, noted)

    def presence(self, room_id: str) -> dict[str, object]:
        """The event telling the other processes who is connected to the room here."""
        players = sorted(self.audience.present(room_id))
        return {"kind": "presence", "process": self.process_id, "players": players}

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
        try:
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
        elif isinstance(verdict, Forfeit):
            await self.play.forfeit(runtime, verdict.seat, verdict.reason)
        elif isinstance(verdict, TimerMove):
            await self.play.play_for(runtime, verdict.seat, verdict.action, runtime.seq)

    async def _stand_in(self, runtime: RoomRuntime, seat: Seat) -> Effects:
        if not runtime.playing or runtime.absent_since.pop(seat, None) is None:
            return Effects()  # its player came back meanwhile
        runtime.set_away(seat, True)
        return Effects(room=True, state=True)
