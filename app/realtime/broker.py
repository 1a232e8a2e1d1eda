"""Brokers that carry room events between server processes.

``MemoryBroker`` serves one process (the embedded default); brokers sharing one
``MemoryBus`` behave like processes sharing Redis, which tests use. ``RedisBroker``
uses Redis pub/sub, one channel per room and one for events about players, which every
process hears. Neither delivers an event back to the
process that published it: that process has already told its own viewers.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import orjson
from redis import asyncio as aioredis

from app.rooms.ports import BrokerHandler, PlayerHandler

log = logging.getLogger(__name__)


class MemoryBus:
    def __init__(self) -> None:
        self.brokers: list[MemoryBroker] = []


class MemoryBroker:
    def __init__(self, bus: MemoryBus | None = None) -> None:
        self._bus = bus or MemoryBus()
        self._handler: BrokerHandler | None = None
        self._on_player: PlayerHandler | None = None
        self._rooms: set[str] = set()

    async def start(self, handler: BrokerHandler, on_player: PlayerHandler | None = None) -> None:
        self._handler, self._on_player = handler, on_player
        self._bus.brokers.append(self)

    async def stop(self) -> None:
        if self in self._bus.brokers:
            self._bus.brokers.remove(self)

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        for broker in self._bus.brokers:
            if broker is not self and room_id in broker._rooms and broker._handler:
                await broker._handler(room_id, event)

    async def publish_player(self, player_id: int, event: dict[str, Any]) -> None:
        for broker in self._bus.brokers:
            if broker is not self and broker._on_player:
                await broker._on_player(player_id, event)

    async def subscribe(self, room_id: str) -> None:
        self._rooms.add(room_id)

    async def unsubscribe(self, room_id: str) -> None:
        self._rooms.discard(room_id)


CHANNEL_PREFIX = "cardroom:room:"
PLAYERS_CHANNEL = "cardroom:players"
OUTBOX_LIMIT = 100_000  # events waiting for Redis before new ones are dropped
SEND_BATCH = 500
SEND_ATTEMPTS = 3


class RedisBroker:
    """Publishing never waits for Redis: events queue up and one task sends what has queued
    in one pipeline (in order, one round trip), so a burst of moves neither opens a
    connection per event nor fails a player's request when Redis is slow or away."""

    def __init__(self, url: str) -> None:
        self._redis = aioredis.from_url(url)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._origin = uuid.uuid4().hex
        self._handler: BrokerHandler | None = None
        self._on_player: PlayerHandler | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(OUTBOX_LIMIT)

    async def start(self, handler: BrokerHandler, on_player: PlayerHandler | None = None) -> None:
        self._handler, self._on_player = handler, on_player
        await self._pubsub.subscribe(PLAYERS_CHANNEL)  # also keeps the reader alive when idle
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="redis-broker-read"),
            loop.create_task(self._send(), name="redis-broker-send"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._pubsub.aclose()
        await self._redis.aclose()

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        self._queue(CHANNEL_PREFIX + room_id, {"origin": self._origin, "event": event})

    async def publish_player(self, player_id: int, event: dict[str, Any]) -> None:
        self._queue(PLAYERS_CHANNEL, {"origin": self._origin, "player": player_id, "event": event})

    def _queue(self, channel: str, payload: dict[str, Any]) -> None:
        try:
            self._outbox.put_nowait((channel, orjson.dumps(payload)))
        except asyncio.QueueFull:  # Redis has been away for a long while
            log.error("redis broker outbox full: an event on %s is dropped", channel)

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self._outbox.get_nowait())
            for attempt in range(SEND_ATTEMPTS):
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, message in batch:
                            pipe.publish(channel, message)
                        await pipe.execute()
                    break
                except (ConnectionError, aioredis.RedisError):
                    log.exception("redis broker could not publish %d events", len(batch))
                    await asyncio.sleep(0.2 * (attempt + 1))
            else:
                log.error("redis broker dropped %d events", len(batch))

    async def subscribe(self, room_id: str) -> None:
        await self._pubsub.subscribe(CHANNEL_PREFIX + room_id)

    async def unsubscribe(self, room_id: str) -> None:
        await self._pubsub.unsubscribe(CHANNEL_PREFIX + room_id)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (ConnectionError, aioredis.RedisError):
                log.exception("redis broker lost its connection; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            payload = orjson.loads(message["data"])
            if payload["origin"] == self._origin:
                continue
            channel = message["channel"].decode()
            try:
                await self._heard(channel, payload)
            except Exception:
                log.exception("handling a broker event on %s failed", channel)

    async def _heard(self, channel: str, payload: dict[str, Any]) -> None:
        if channel == PLAYERS_CHANNEL:
            if self._on_player is not None:
                await self._on_player(payload["player"], payload["event"])
        elif self._handler is not None:
            await self._handler(channel[len(CHANNEL_PREFIX) :], payload["event"])
