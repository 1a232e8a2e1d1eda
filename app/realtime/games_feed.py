"""The ``/ws/me`` sockets of this process, by player, and what they are told: how many of the
player's matches wait for them (``{"type":"games","waiting": n}``).

Told that players' lists of games may have changed (:meth:`GamesFeed.changed`: a write of whom
matches wait for, here or on another process), the feed counts again for those of them with a
socket here. One task counts, a player at a time: changes that come while it counts are
gathered for its next round, so a burst of moves costs a player one count, and every count a
socket is sent began after the change it answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from app.realtime.hub import Connection
from app.realtime.protocol import encode

log = logging.getLogger(__name__)

CLOSE_TRY_AGAIN = 1013  # the count could not be read: the client reconnects with backoff

Count = Callable[[int], Awaitable[int]]


def games_frame(waiting: int) -> str:
    return encode({"type": "games", "waiting": waiting})


class GamesFeed:
    def __init__(self, count: Count) -> None:
        self.count = count  # how many matches wait for a player (app/db/turns.py)
        self._sockets: dict[int, set[Connection]] = {}
        self._due: set[int] = set()
        self._counting: asyncio.Task[None] | None = None

    def join(self, connection: Connection) -> None:
        """A new socket: it is sent the count (the player's other sockets too, alike)."""
        self._sockets.setdefault(connection.player.id, set()).add(connection)
        self.changed((connection.player.id,))

    def leave(self, connection: Connection) -> None:
        mine = self._sockets.get(connection.player.id)
        if mine is None:
            return
        mine.discard(connection)
        if not mine:
            del self._sockets[connection.player.id]

    def changed(self, players: Iterable[int]) -> None:
        """These players' lists of games may have changed: count again for those with a socket
        here."""
        self._due.update(player for player in players if player in self._sockets)
        if self._due and self._counting is None:
            self._counting = asyncio.get_running_loop().create_task(self._count_due())

    async def close_player(self, player_id: int, code: int) -> None:
        for connection in list(self._sockets.get(player_id, ())):
            await connection.close(code)

    async def _count_due(self) -> None:
        try:
            while self._due:
                player = self._due.pop()
                try:
                    waiting = await self.count(player)
                except Exception:
                    log.exception("could not count the games waiting for player %d", player)
                    await self.close_player(player, CLOSE_TRY_AGAIN)
                    continue
                frame = games_frame(waiting)
                for connection in self._sockets.get(player, ()):
                    connection.send(frame)
        finally:
            self._counting = None

    async def close(self) -> None:
        if self._counting is not None:
            self._counting.cancel()
            await asyncio.gather(self._counting, return_exceptions=True)
