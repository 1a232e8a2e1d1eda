"""Match starts in batches: the starts of many rooms in one statement.

Starts that arrive while one batch is under way wait and go together in the next, as the move
log commits the moves of many rooms together: under load a hundred rematches cost one round
trip, not a hundred (a round trip costs the server about 250 µs of CPU here, and a turn of its
event loop). One task runs the batches while starts wait; what a batch runs is the backend's
(on Postgres one statement claims the rooms and inserts their matches and seats:
app/db/postgres_store.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

Seats = list[dict[str, Any]]


@dataclass
class StartRequest:
    match: dict[str, Any]  # the matches row, without its id
    seats: Seats  # the match_seats rows, without the match id
    from_status: str  # the room's status the start expects; another means it moved on
    done: asyncio.Future[int | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    @property
    def room_id(self) -> str:
        return str(self.match["room_id"])


StartMany = Callable[[list["StartRequest"]], Awaitable[dict[str, int]]]
"""Start the matches of distinct rooms together: the new match id by room, for the rooms
that were still in the status their start expected."""


class StartLog:
    def __init__(self, start_many: StartMany) -> None:
        self._start_many = start_many  # one batch runs at a time
        self._waiting: list[StartRequest] = []
        self._runner: asyncio.Task[None] | None = None
        self.statements = 0

    async def start(self, match: dict[str, Any], seats: Seats, from_status: str) -> int | None:
        """The new match's id; ``None`` if the room was no longer in ``from_status``."""
        request = StartRequest(match, seats, from_status)
        self._waiting.append(request)
        if self._runner is None:
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="starts")
        return await request.done

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)

    async def _run(self) -> None:
        batch: list[StartRequest] = []
        try:
            while self._waiting:
                batch = self._next_batch()
                try:
                    started = await self._start_many(batch)
                except Exception as error:  # every waiter hears why
                    _settle(batch, error=error)
                else:
                    self.statements += 1
                    _settle(batch, started=started)
        finally:  # normally nothing is left; when cancelled, whatever is
            self._runner = None
            for request in batch + self._waiting:
                request.done.cancel()
            self._waiting = []

    def _next_batch(self) -> list[StartRequest]:
        """The waiting starts of distinct rooms; a second start of a room waits for the next
        statement, in which its room has moved on."""
        batch: list[StartRequest] = []
        later: list[StartRequest] = []
        rooms: set[str] = set()
        for request in self._waiting:
            (later if request.room_id in rooms else batch).append(request)
            rooms.add(request.room_id)
        self._waiting = later
        return batch


def _settle(
    batch: list[StartRequest],
    *,
    started: dict[str, int] | None = None,
    error: Exception | None = None,
) -> None:
    for request in batch:
        if request.done.done():
            continue
        if error is not None:
            request.done.set_exception(error)
        else:
            assert started is not None
            request.done.set_result(started.get(request.room_id))
