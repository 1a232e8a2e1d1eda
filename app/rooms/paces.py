"""Switching a running match between live and turn-based by agreement: a seated human
proposes a pace (and the time for each move), and the match switches when every human seat
has accepted the same proposal, as a rematch starts. Anyone declining ends the proposal; it
lapses unanswered after the rematch's time. Every viewer sees it in the room's ``pace_vote``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.db.players import PlayerRecord
from app.db.store import Store
from app.rooms.clock import Clock
from app.rooms.commands import CommandRunner, Effects
from app.rooms.errors import ErrorCode, RoomError, forbidden
from app.rooms.rematch import PaceVote, Proposal
from app.rooms.runtime import RoomRuntime
from app.rooms.table import TableSettings


class Paces:
    def __init__(
        self, runner: CommandRunner, store: Store, clock: Clock, seconds: float, min_turn: int
    ) -> None:
        self.runner = runner
        self.store = store
        self.clock = clock
        self.seconds = seconds  # how long a proposal waits for its answers
        self.min_turn = min_turn

    async def answer(
        self,
        runtime: RoomRuntime,
        player: PlayerRecord,
        *,
        pace: str | None = None,
        turn_seconds: int | None = None,
    ) -> dict[str, Any]:
        """Propose a pace, or accept the same proposal (``pace`` given), or decline it
        (``pace`` None)."""

        async def vote() -> Effects:
            seat = runtime.seat_of(player.id)
            if seat is None:
                raise forbidden("Only a seated player can change the match's pace.")
            if not runtime.playing:
                raise RoomError(ErrorCode.NOT_PLAYING, "The pace changes only during a match.")
            if pace is None:
                runtime.pace_vote = None
                return _announced(None)
            wanted = self._wanted(runtime.table, pace, turn_seconds)
            now = self.clock.now()
            current = runtime.pace_vote
            if current is None or current.table != wanted or not current.votes.live(now):
                expires = now + timedelta(seconds=self.seconds)
                current = PaceVote(wanted, Proposal.new(runtime.room, expires))
            current.votes.accepted.add(seat)
            if not current.votes.agreed(runtime.room):
                runtime.pace_vote = current
                return _announced(current)
            runtime.pace_vote = None
            if not await self.store.set_table(runtime.room.id, wanted.to_json()):
                raise RoomError(ErrorCode.NOT_PLAYING, "The match has ended meanwhile.")
            runtime.switch_table(wanted)
            return Effects(room=True, state=True, event={"kind": "room"})

        return await self.runner.answered(runtime, vote)

    def _wanted(self, table: TableSettings, pace: str, turn_seconds: int | None) -> TableSettings:
        """The table at ``pace``: a turn-based one's time for each move a day unless said, a
        live one's the live timer asked for (none unless said)."""
        if pace == table.pace:
            raise RoomError(ErrorCode.INVALID_TABLE, f"The match is {pace} already.", 422)
        raw = {**table.to_json(), "pace": pace, "turn_seconds": turn_seconds or 0}
        return TableSettings.parse(raw, min_turn=self.min_turn)

    async def follow(self, runtime: RoomRuntime, vote: dict[str, Any] | None) -> None:
        """Another process's proposal (or its end), as a command of this room."""

        async def follow() -> Effects:
            runtime.pace_vote = None
            if vote is not None and runtime.playing:
                runtime.pace_vote = PaceVote.from_json(vote, runtime.table)
            return Effects(room=True)

        await self.runner.run(runtime, follow)


def _announced(vote: PaceVote | None) -> Effects:
    """The room shows the proposal (or its end), here and on the other processes."""
    shown = None if vote is None else vote.to_json()
    return Effects(room=True, event={"kind": "pace", "pace_vote": shown})
