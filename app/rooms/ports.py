"""What the rooms layer needs from the edges: a broker between processes, an audience, and
the notices it hands to whoever tells players their turn has come."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

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


NoticeKind = Literal["your_turn", "reminder"]


@dataclass(frozen=True)
class TurnNotice:
    """What a player is told (``app/rooms/turns.py`` hands it to ``app/notify``): a turn of
    theirs has come, or its deadline nears. Public facts of the match only (who moved, which
    game and room, the deadline), never a card or a hand."""

    player_id: int
    room_id: str
    match_id: int
    game: str
    title: str  # the game's display name
    mover: str | None  # who moved just before, by name (None: a bot, or the match's start)
    deadline: datetime | None
    kind: NoticeKind
    seq: int  # the match's move number

    @property
    def key(self) -> str:
        """The same for a notice handed over twice, so it is sent once."""
        return f"{self.player_id}:{self.kind}:{self.match_id}:{self.seq}"

    def to_json(self) -> dict[str, Any]:
        fields = asdict(self)
        fields["deadline"] = self.deadline.isoformat() if self.deadline else None
        return fields

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnNotice:
        deadline = data["deadline"]
        return cls(**{**data, "deadline": datetime.fromisoformat(deadline) if deadline else None})
