"""Chat: players' messages reach everyone; spectators' stay among spectators while a match runs."""

from __future__ import annotations

from typing import Any

from app.db.players import PlayerRecord
from app.db.store import Store
from app.rooms.ports import Audience, Broker
from app.rooms.runtime import RoomRuntime
from app.rooms.views import chat_frames
from app.timestamps import iso

CHAT_HISTORY = 50  # chat messages a (re)connecting reader gets back


class Chat:
    def __init__(self, store: Store, audience: Audience, broker: Broker) -> None:
        self.store = store
        self.audience = audience
        self.broker = broker

    async def say(self, runtime: RoomRuntime, player: PlayerRecord, text: str) -> None:
        """Keep the message, show it here, and send it to the other processes. (It changes no
        room state, so it needs no command.)"""
        room_id = runtime.room.id
        channel = "players" if runtime.seat_of(player.id) is not None else "spectators"
        at = await self.store.add_chat(room_id, player.id, text, channel)
        message = {
            "type": "chat",
            "from": player.to_json(),
            "text": text,
            "at": iso(at),
            "channel": channel,
        }
        self.show(runtime, message)
        await self.broker.publish(room_id, {"kind": "chat", "message": message})

    def show(self, runtime: RoomRuntime, message: dict[str, Any]) -> None:
        room_id = runtime.room.id
        connected = self.audience.present(room_id)
        if connected:
            self.audience.deliver(room_id, chat_frames(runtime, message, connected))

    async def history(self, runtime: RoomRuntime, player_id: int) -> dict[str, Any]:
        """The ``chat_history`` message for a reader who (re)connects: the room's latest chat
        they may see, oldest first (a seated player's holds no spectators' chat while the
        match runs)."""
        players_only = runtime.playing and runtime.seat_of(player_id) is not None
        messages = await self.store.recent_chat(
            runtime.room.id, players_only=players_only, limit=CHAT_HISTORY
        )
        return {"type": "chat_history", "messages": messages}
