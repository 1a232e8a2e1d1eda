"""Whose turn it is in every running match, kept in the database; and turn-based tables'
deadlines, reminders and "your turn" notices, kept as one due job (``app/db/jobs.py``) per
match, so a match waiting days for a move costs no memory and no process has to hold it.

After a match's start and each of its moves, every process that sees it writes whom the
match waits for (``app/db/turns.py``: what a player's list of games shows): ``gather``
seconds after the first change not yet written, the changes of every match made meanwhile in
one transaction (a busy server writes once a ``gather``, not once a move). A turn-based
match's job
(``turns:{match}``) is made due *now* in the same transaction, so the next player is told
at once. When it runs,
the room is loaded if no process holds it, a deadline that has passed is carried out
(``Attendance.enforce``: a stand-in plays that turn, or the seat forfeits), each human seat
to act that is not watching the table is told it is their turn, and reminded when a quarter
of its time is left; then the job is kept for the next of those times. Each notice names its
move, so a job that runs twice (a process died in it) tells nobody twice. A job that runs
early (a move's rescheduling was lost with its process) finds nothing due and waits for the
right time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime

from app.db.jobs import Job
from app.db.rooms import PlayingRoom
from app.db.store import Store
from app.db.turns import TurnRow
from app.rooms.attendance import Attendance
from app.rooms.clock import Clock
from app.rooms.directory import RoomDirectory
from app.rooms.errors import ErrorCode, RoomError
from app.rooms.ports import Audience, NoticeKind, TurnNotice
from app.rooms.runtime import RoomRuntime

log = logging.getLogger(__name__)

Notify = Callable[[TurnNotice], Awaitable[None]]


async def tell_nobody(notice: TurnNotice) -> None:
    """The notices of a server without notifications."""


class TurnKeeper:
    def __init__(
        self,
        store: Store,
        directory: RoomDirectory,
        attendance: Attendance,
        audience: Audience,
        clock: Clock,
        gather: float = 1.0,
    ) -> None:
        self.store = store
        self.directory = directory
        self.attendance = attendance
        self.audience = audience
        self.clock = clock
        self.gather = gather
        self.notify: Notify = tell_nobody
        self.wake: Callable[[], None] = lambda: None  # the job runner's: a job is due now
        # told, once a write is committed, the players whose lists of games it changed
        self.on_written: Callable[[set[int]], None] = lambda players: None
        self._pending: dict[int, TurnRow] = {}
        self._seated: set[int] = set()  # the players of the pending rows' matches
        self._writing: asyncio.Task[None] | None = None

    @property
    def writing(self) -> bool:
        return self._writing is not None

    def after_change(self, runtime: RoomRuntime) -> None:
        """A follow-up of every change: after a match's start and each of its moves, whom it
        waits for is written (and a turn-based match's job made due)."""
        match = runtime.match
        if match is None or not runtime.playing or runtime.turns_kept == (match.id, runtime.seq):
            return
        runtime.turns_kept = (match.id, runtime.seq)
        self._note(runtime, self._row(runtime))

    def _note(self, runtime: RoomRuntime, row: TurnRow) -> None:
        self._pending[row.match_id] = row
        self._seated.update(s.player.id for s in runtime.room.seats if s.player is not None)
        if self._writing is None:
            self._writing = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Write what is pending, until nothing is: the changes made during a write go in the
        next one."""
        try:
            while self._pending:
                if self.gather:
                    await self.clock.sleep(self.gather)
                rows, self._pending = list(self._pending.values()), {}
                seated, self._seated = self._seated, set()
                try:
                    await self.store.record_turns(rows, self.clock.now())
                except Exception:  # a turns job keeps its earlier time, no later than this
                    log.exception("could not write whom %d matches wait for", len(rows))
                    continue
                if any(row.turn_based for row in rows):
                    self.wake()
                self.on_written(seated)
        finally:
            self._writing = None

    def _row(self, runtime: RoomRuntime) -> TurnRow:
        assert runtime.match is not None and runtime.changed_at is not None
        deadlines = runtime.deadlines()
        seats = runtime.room.seats
        return TurnRow(
            match_id=runtime.match.id,
            room_id=runtime.room.id,
            seq=runtime.seq,
            waiting_for=[player.id for seat in runtime.to_act() if (player := seats[seat].player)],
            deadline=min(deadlines.values(), default=None),
            last_move_at=runtime.changed_at,
            turn_based=runtime.table.turn_based,
        )

    async def resume(self, playing: list[PlayingRoom]) -> None:
        """After a start: a turn-based match without its job (its process died between the
        match's start and the job) gets one, due now."""
        await self.store.keep_turns_of(playing, self.clock.now())
        self.wake()

    async def run(self, job: Job) -> datetime | None:
        """The match's job: carry out what is due, tell whom it concerns; when to run again."""
        room_id, match_id = job.payload["room_id"], job.payload["match_id"]
        try:
            runtime = await self.directory.runtime(room_id)
        except RoomError as error:
            if error.code != ErrorCode.NOT_FOUND:
                raise
            return None  # the room is gone (its game too)
        if not self._waiting(runtime, match_id) or not runtime.table.turn_based:
            return None  # over, or live now
        await self.attendance.enforce(runtime)
        if not self._waiting(runtime, match_id):
            return None
        # whom it waits for, written again (a crash may have lost the last write); the job
        # keeps itself, so the write does not make it due
        self._note(runtime, replace(self._row(runtime), turn_based=False))
        now = self.clock.now()
        watching = set(self.audience.present(room_id)) | runtime.remote_players(now)
        later: list[datetime] = []
        for seat, deadline in runtime.deadlines().items():
            player = runtime.room.seats[seat].player
            assert runtime.changed_at is not None and player is not None  # a human seat to act
            remind_at = deadline - (deadline - runtime.changed_at) / 4
            if player.id not in watching:
                await self.notify(self._notice(runtime, player.id, deadline, "your_turn"))
                if remind_at <= now:
                    await self.notify(self._notice(runtime, player.id, deadline, "reminder"))
            later += [moment for moment in (remind_at, deadline) if moment > now]
        return min(later, default=None)

    @staticmethod
    def _waiting(runtime: RoomRuntime, match_id: int) -> bool:
        match = runtime.match
        return match is not None and match.id == match_id and runtime.playing

    @staticmethod
    def _notice(
        runtime: RoomRuntime, player_id: int, deadline: datetime, kind: NoticeKind
    ) -> TurnNotice:
        assert runtime.match is not None
        mover = None
        if runtime.last is not None:
            seated = runtime.room.seats[runtime.last[0]].player
            mover = seated.name if seated is not None else None
        return TurnNotice(
            player_id=player_id,
            room_id=runtime.room.id,
            match_id=runtime.match.id,
            game=runtime.room.game,
            title=runtime.engine.info.title,
            mover=mover,
            deadline=deadline,
            kind=kind,
            seq=runtime.seq,
        )
