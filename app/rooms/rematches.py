"""Rematches as commands of the room: a proposal, each answer, its lapse, and another
process's proposal followed here."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from app.db.players import PlayerRecord
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.errors import ErrorCode, RoomError, forbidden
from app.rooms.lifecycle import RoomStatus
from app.rooms.rematch import Proposal
from app.rooms.runtime import RoomRuntime


class Rematches:
    """Proposals, answers and lapses, each a command of the room."""

    def __init__(
        self,
        runner: CommandRunner,
        begin: Callable[[RoomRuntime], Awaitable[Effects]],
        clock: Clock,
        seconds: float,
    ) -> None:
        self.runner = runner
        self.begin = begin  # starts the new match, inside the command
        self.clock = clock
        self.seconds = seconds  # how long a proposal waits

    async def answer(
        self, runtime: RoomRuntime, player: PlayerRecord, *, accept: bool
    ) -> dict[str, Any]:
        """Propose or accept a rematch (``accept``), or decline one. The new match starts
        when every human seat has accepted: at once at a table with one human (or none, when
        the host calls it)."""

        async def agree() -> Effects:
            room = runtime.room
            if room.status != RoomStatus.FINISHED:
                raise RoomError(ErrorCode.NOT_FINISHED, "A rematch follows a finished match.")
            seat = runtime.seat_of(player.id)
            if seat is None and (not accept or player.id != room.host.id):
                raise forbidden("Only the host or a seated player can call a rematch.")
            now = self.clock.now()
            proposal = runtime.rematch
            if not accept or proposal is None or not proposal.live(now):
                runtime.drop_rematch()
                proposal = None
            if not accept:
                return _announced(None)
            if proposal is None:
                proposal = Proposal.new(room, now + timedelta(seconds=self.seconds))
            if seat is not None:
                proposal.accepted.add(seat)
            if proposal.agreed(room):
                runtime.drop_rematch()
                return await self.begin(runtime)
            if runtime.rematch is not proposal:
                runtime.rematch = proposal
                proposal.timer = asyncio.get_running_loop().create_task(
                    self._lapse(runtime, proposal), name=f"rematch {room.id}"
                )
            return _announced(proposal)

        return await self.runner.answered(runtime, agree)

    async def _lapse(self, runtime: RoomRuntime, proposal: Proposal) -> None:
        """A proposal nobody completed lapses at its time."""
        await self.clock.sleep((proposal.expires_at - self.clock.now()).total_seconds())

        async def lapse() -> Effects:
            if runtime.rematch is not proposal:
                return Effects()  # it started, or was declined, meanwhile
            proposal.timer = None  # this task: not cancelled by the drop
            runtime.drop_rematch()
            return _announced(None)

        await self.runner.run(runtime, lapse)

    async def follow(self, runtime: RoomRuntime, proposal: dict[str, Any] | None) -> None:
        """Another process's proposal (or its end), as a command of this room."""

        async def follow() -> Effects:
            runtime.drop_rematch()
            if proposal is not None and runtime.room.status == RoomStatus.FINISHED:
                runtime.rematch = Proposal.from_json(proposal)
            return Effects(room=True)

        await self.runner.run(runtime, follow)


def _announced(proposal: Proposal | None) -> Effects:
    """The room shows the proposal (or its end), here and on the other processes."""
    rematch = None if proposal is None else proposal.to_json()
    return Effects(room=True, event={"kind": "rematch", "rematch": rematch})
