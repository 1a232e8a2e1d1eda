"""The command path: every change of a room runs alone under its lock, then its effects go out.

A command changes the room's memory and the database together and returns :class:`Effects`,
what the change means for everyone else; :meth:`CommandRunner.run` then takes the steps that
follow every change, in one place: the frames to the local viewers (the mover's new state first:
it acknowledges the move), the event to the other processes, the match's review, and the
follow-ups (bots to act, the room's timer).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.rooms.clock import Clock
from app.rooms.errors import ActionRefused
from app.rooms.ports import Audience, Broker
from app.rooms.runtime import RoomRuntime
from app.rooms.views import room_frame, room_json, state_frames
from games.base import Seat


@dataclass(slots=True)
class Effects:
    """What a room change means for everyone else; :meth:`CommandRunner.run` acts on it."""

    room: bool = False  # seats, status or connections changed: a room message
    state: bool = False  # the match state changed: a state message to every viewer
    first: Seat | None = None  # whose sockets get the new state first (the mover's)
    event: dict[str, Any] | None = None  # for the other processes
    refusal: ActionRefused | None = None  # raised to the caller once the change is out
    ended: int | None = None  # the match this change ended, for ``on_match_end``


Command = Callable[[], Awaitable[Effects]]
FollowUp = Callable[[RoomRuntime], None]


class CommandRunner:
    def __init__(self, audience: Audience, broker: Broker, clock: Clock) -> None:
        self.audience = audience
        self.broker = broker
        self.clock = clock
        self.follow_ups: tuple[FollowUp, ...] = ()  # after every change (bots, timers)
        self.on_match_end: Callable[[int], object] | None = None
        """Told the id of every match that ends in this process with a result."""

    async def run(self, runtime: RoomRuntime, command: Command) -> Effects:
        """Run one change of the room, alone, then take the steps that follow it."""
        async with runtime.lock:
            effects = await command()
        await self._after(runtime, effects)
        if effects.refusal is not None:
            raise effects.refusal
        return effects

    async def answered(self, runtime: RoomRuntime, command: Command) -> dict[str, Any]:
        """A change asked over HTTP: answered with the room as it left it."""
        await self.run(runtime, command)
        return self.room_json(runtime)

    def room_json(self, runtime: RoomRuntime) -> dict[str, Any]:
        return room_json(runtime, self.audience.present(runtime.room.id), self.clock.now())

    def show(
        self, runtime: RoomRuntime, *, room: bool, state: bool, first: Seat | None = None
    ) -> None:
        """Send the local viewers the room and its state. A move's new state goes out first:
        it acknowledges the move. Otherwise the room does, since its seats and status frame
        the state that follows."""
        room_id = runtime.room.id
        connected = self.audience.present(room_id)
        if not connected:
            return
        if room and first is None:
            self.audience.deliver(room_id, room_frame(runtime, connected, self.clock.now()))
        if state:
            mover = runtime.room.seats[first].player if first is not None else None
            frames = state_frames(runtime, connected)
            self.audience.deliver(room_id, frames, mover.id if mover else None)
        if room and first is not None:
            self.audience.deliver(room_id, room_frame(runtime, connected, self.clock.now()))

    async def _after(self, runtime: RoomRuntime, effects: Effects) -> None:
        self.show(runtime, room=effects.room, state=effects.state, first=effects.first)
        if effects.event is not None:
            await self.broker.publish(runtime.room.id, effects.event)
        if effects.ended is not None and self.on_match_end is not None:
            self.on_match_end(effects.ended)
        for follow_up in self.follow_ups:
            follow_up(runtime)
