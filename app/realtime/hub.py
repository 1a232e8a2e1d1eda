"""The sockets of this process, by room: the rooms layer's audience, which only delivers.

Every connection has its own outbox, drained by a task of its own while it holds
frames, so one slow client never holds up a room's fan-out; a client too far
behind is dropped and reconnects into a fresh state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any

from starlette.types import Send

from app.db.players import PlayerRecord
from app.rooms.ports import Frames

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 256
CLOSE_TOO_SLOW = 4008
# a session of the player ended (signed out, a password changed): the client reconnects, and a
# token that names nobody any more then hears 4401
CLOSE_SIGNED_OUT = 4001


async def close_socket(send: Send, code: int, reason: str = "") -> None:
    """Close a socket through the server's ASGI send (before its accept: refuse it)."""
    with contextlib.suppress(Exception):  # the client may be gone already
        await send({"type": "websocket.close", "code": code, "reason": reason})


def start_now(coro: Coroutine[Any, Any, None]) -> Awaitable[None] | None:
    """Run a coroutine up to its first wait, here and now: ``None`` if it finished, else what
    to await for the rest. What Python 3.12's eager tasks do: uvicorn's send writes to the
    transport and returns without waiting, and a task per frame (created, scheduled, stepped)
    cost more CPU than the write."""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    return _Rest(coro, waiting)


class _Rest:
    """The rest of a coroutine that :func:`start_now` began: awaiting it hands the coroutine's
    waits to the awaiting task, as ``await coro`` would have from the start."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coro, self._waiting = coro, waiting

    def __await__(self) -> Generator[Any, None, None]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                yield waiting
            except BaseException as error:  # cancelled, say: the coroutine hears it
                try:
                    waiting = coro.throw(error)
                except StopIteration:
                    return
                continue
            try:
                waiting = coro.send(None)
            except StopIteration:
                return


class Connection:
    """One socket's way out. A frame is written at once when nothing waits before it; frames
    that come while the server's send waits (a slow client) queue in an outbox that a task
    drains. An idle socket holds no task (at thousands of sockets, the memory of one waiting
    task each is a good part of what a socket costs)."""

    __slots__ = ("_closed", "_outbox", "_send", "_sender", "player", "room_id")

    def __init__(self, send: Send, player: PlayerRecord, room_id: str) -> None:
        self._send = send  # the server's ASGI send
        self.player = player
        self.room_id = room_id
        # an empty deque still costs 0.7 KB: there is one only while frames wait
        self._outbox: deque[str | None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._closed = False

    def send(self, frame: str) -> None:
        if self._closed:
            return
        if self._sender is None:  # nothing waits: write it now, without a task
            try:
                rest = start_now(self._send({"type": "websocket.send", "text": frame}))
            except Exception:
                self._closed = True  # the socket is gone; its endpoint is leaving
                return
            if rest is not None:  # the server's send waits (the client's buffers are full)
                self._outbox = deque()
                self._sender = asyncio.get_running_loop().create_task(
                    self._drain(rest, self._outbox)
                )
            return
        assert self._outbox is not None
        if len(self._outbox) >= OUTBOX_LIMIT:
            log.info("dropping a slow client of room %s", self.room_id)
            self._closed = True
            self._outbox.append(None)
        else:
            self._outbox.append(frame)

    async def _drain(self, writing: Awaitable[None], outbox: deque[str | None]) -> None:
        try:
            await writing
            while outbox:
                frame = outbox.popleft()
                if frame is None:
                    await close_socket(self._send, CLOSE_TOO_SLOW)
                    return
                await self._send({"type": "websocket.send", "text": frame})
        except Exception:
            self._closed = True  # the socket is gone; its endpoint is leaving
        finally:
            self._sender = None
            self._outbox = None

    async def close(self, code: int | None = None) -> None:
        """Stop sending; with a ``code``, also close the socket with it."""
        self._closed = True
        self._outbox = None
        if self._sender is not None:
            self._sender.cancel()
            await asyncio.gather(self._sender, return_exceptions=True)
        if code is not None:
            await close_socket(self._send, code)


class Hub:
    """The connections of this process, by room: the room core's audience. It delivers the
    frames it is handed and asks the room core nothing."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}

    def join(self, connection: Connection) -> None:
        self._rooms.setdefault(connection.room_id, set()).add(connection)

    def leave(self, connection: Connection) -> None:
        members = self._rooms.get(connection.room_id)
        if members is None:
            return
        members.discard(connection)
        if not members:
            del self._rooms[connection.room_id]

    def connections(self) -> int:
        return sum(len(members) for members in self._rooms.values())

    async def close_player(self, player_id: int, code: int = CLOSE_SIGNED_OUT) -> int:
        """Close every socket of ``player_id`` on this process with ``code``: how many. Each
        socket's endpoint then leaves the hub as after any close."""
        mine = [c for members in self._rooms.values() for c in members if c.player.id == player_id]
        for connection in mine:
            await connection.close(code)
        return len(mine)

    # -- the audience the rooms layer talks to -----------------------------------------
    def present(self, room_id: str) -> dict[int, PlayerRecord]:
        return {c.player.id: c.player for c in self._rooms.get(room_id, ())}

    def deliver(self, room_id: str, frames: Frames, first: int | None = None) -> None:
        """Send every local connection of the room its frame; player ``first``'s (the mover,
        whose new state acknowledges its move) before the others."""
        members = self._rooms.get(room_id)
        if not members:
            return
        if isinstance(frames, str):
            for connection in sorted(members, key=lambda c: c.player.id != first):
                connection.send(frames)
            return
        if first is not None and first in frames:
            for connection in members:
                if connection.player.id == first:
                    connection.send(frames[first])
        for connection in members:
            player = connection.player.id
            if player != first and player in frames:
                connection.send(frames[player])
