"""What the rooms layer needs from the edges: a broker between processes, an audience, and
the notices it hands to whoever tells players their turn has come."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from app.db.players import PlayerRecord

BrokerHandler = Callable[[str, dict[str, Any]], Awaitable[None]]
PlayerHandler = Callable[[int, dict[str, Any]], Awaitable[None]]
Frames = str | Mapping[int, str]
"""One frame for every connection of a room, or each player's own (by id; a player missing
from it is sent nothing)."""


class Broker(Protocol):
    """Carries room events, and events about one player wherever their sockets are, to the
    other server processes (never back to the sender)."""

    async def start(
        self, handler: BrokerHandler, on_player: PlayerHandler | None = None
    ) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, room_id: str, event: dict[str, Any]) -> None: ...

    async def publish_player(self, player_id: int, event: dict[str, Any]) -> None: ...

    async def subscribe(self, room_id: str) -> None: ...

    async def unsubscribe(self, room_id: str) -> None: ...


class Audience(Protocol):
    """The local viewers of rooms (the WebSocket hub): it delivers what it is handed and never
    asks the room core anything back."""

    def deliver(self, room_id: str, frames: Frames, first: int | None = None) -> None:
        """Send each connection of the room its frame, the connections of player ``first``
        before the others."""
        ...

    def present(self, room_id: str) -> Mapping[int, PlayerRecord]:
        """The players connected to the room here, by id."""
        ...


@dataclass(frozen=True)
class TurnNotice:
    """What a player is told (``app/rooms/turns.py``): a turn of theirs has come, or its
    deadline nears. Never a card."""

    player_id: int
    room_id: str
    match_id: int
    game: str
    title: str  # the game's display name
    mover: str | None  # who moved just before, by name (None: a bot, or the match's start)
    deadline: datetime | None
    kind: str  # "your_turn" or "reminder"
    seq: int  # the match's move number: with the player and the kind, the notice's identity
