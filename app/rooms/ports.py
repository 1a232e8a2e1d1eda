"""What the rooms layer needs from the edges: a broker between processes and an audience."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

BrokerHandler = Callable[[str, dict[str, Any]], Awaitable[None]]


class Broker(Protocol):
    """Carries room events to the other server processes (never back to the sender)."""

    async def start(self, handler: BrokerHandler) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, room_id: str, event: dict[str, Any]) -> None: ...

    async def subscribe(self, room_id: str) -> None: ...

    async def unsubscribe(self, room_id: str) -> None: ...


class Audience(Protocol):
    """The local viewers of rooms (the WebSocket hub)."""

    def room_changed(self, room_id: str) -> None: ...

    def state_changed(self, room_id: str, first: int | None = None) -> None:
        """The room's match state changed: send it to every local viewer, ``first``'s seat
        before the others."""
        ...

    def chat(self, room_id: str, message: dict[str, Any]) -> None: ...

    def present(self, room_id: str) -> tuple[set[int], list[dict[str, Any]]]:
        """Player ids connected here, and the spectators connected here."""
        ...
