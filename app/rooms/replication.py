"""Replication: the events other processes publish about a room this process holds, each
followed as a command of that room (chat is only shown)."""

from __future__ import annotations

from typing import Any

from app.db.matches import MoveRow
from app.db.store import Store
from app.rooms.attendance import Attendance
from app.rooms.chat import Chat
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.directory import RoomDirectory
from app.rooms.paces import Paces
from app.rooms.rematches import Rematches
from app.rooms.runtime import RoomRuntime
from app.rooms.seating import Seating


class Replication:
    def __init__(
        self,
        directory: RoomDirectory,
        runner: CommandRunner,
        store: Store,
        clock: Clock,
        *,
        attendance: Attendance,
        rematches: Rematches,
        paces: Paces,
        seating: Seating,
        chat: Chat,
    ) -> None:
        self.directory = directory
        self.runner = runner
        self.store = store
        self.clock = clock
        self.attendance = attendance
        self.rematches = rematches
        self.paces = paces
        self.seating = seating
        self.chat = chat

    async def on_event(self, room_id: str, event: dict[str, Any]) -> None:
        runtime = self.directory.loaded(room_id)
        if runtime is None:
            return
        kind = event.get("kind")
        if kind == "chat":
            self.chat.show(runtime, event["message"])
        elif kind == "presence_query":
            await self.runner.broker.publish(room_id, self.attendance.presence(runtime))
        elif kind == "presence":
            await self.attendance.changed_there(runtime, event)
            if self._behind(runtime, event):  # a move whose event never came (its sender died)
                await self.runner.run(runtime, lambda: self._follow(runtime, event))
        elif kind == "rematch":
            await self.rematches.follow(runtime, event["rematch"])
        elif kind == "pace":
            await self.paces.follow(runtime, event["pace_vote"])
        else:
            await self.runner.run(runtime, lambda: self._follow(runtime, event))

    async def catch_up(self, runtime: RoomRuntime) -> None:
        """Read the moves stored after ours: another process may have made some whose events
        never came (it died between its commit and its publish)."""

        async def caught_up() -> Effects:
            match = runtime.match
            if match is None or not runtime.playing:
                return Effects()
            seq = runtime.seq
            runtime.catch_up(await self.store.load_moves(match.id, seq))
            runtime.settle()
            moved = runtime.seq != seq
            return Effects(room=moved and runtime.terminal is not None, state=moved)

        await self.runner.run(runtime, caught_up)

    @staticmethod
    def _behind(runtime: RoomRuntime, event: dict[str, Any]) -> bool:
        """Another process's match of this room is further on than this one's."""
        match = runtime.match
        return (
            match is not None
            and event.get("match_id") == match.id
            and (int(event.get("seq") or 0) > runtime.seq)
        )

    async def _follow(self, runtime: RoomRuntime, event: dict[str, Any]) -> Effects:
        """A move made elsewhere (applied from the event itself, or a gap filled from the
        database), a gap another process's presence tells of, or any other change of the
        room (its row read again)."""
        match = runtime.match
        kind = event.get("kind")
        if kind in ("move", "presence") and match is not None and event["match_id"] == match.id:
            if kind == "move" and event["seq"] == runtime.seq + 1:
                move = MoveRow(
                    event["seq"],
                    event["seat"],
                    event["action"],
                    self.clock.now(),
                    bool(event.get("stand_in")),
                )
                runtime.catch_up([move])
            elif event["seq"] > runtime.seq:
                runtime.catch_up(await self.store.load_moves(match.id, runtime.seq))
            runtime.settle()
        else:
            await self.seating.reload(runtime)
        return Effects(room=True, state=True)
