"""Brokers that carry room events between server processes.

``MemoryBroker`` serves one process (the embedded default); brokers sharing one
``MemoryBus`` behave like processes sharing Redis, which tests use. ``RedisBroker``
uses Redis pub/sub, one channel per room. Neither delivers an event back to the
process that published it: that process has already told its own viewers.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import orjson
from redis import asyncio as aioredis

from app.rooms.ports import BrokerHandler

log = logging.getLogger(__name__)


class MemoryBus:
    def __init__(self) -> None:
        self.brokers: list[MemoryBroker] = []


class MemoryBroker:
    def __init__(self, bus: MemoryBus | None = None) -> None:
        self._bus = bus or MemoryBus()
        self._handler: BrokerHandler | None = None
        self._rooms: set[str] = set()

    async def start(self, handler: BrokerHandler) -> None:
        self._handler = handler
        self._bus.brokers.append(self)

    async def stop(self) -> None:
        if self in self._bus.brokers:
            self._bus.brokers.remove(self)

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        for broker in self._bus.brokers:
            if broker is not self and room_id in broker._rooms and broker._handler:
                await broker._handler(room_id, event)

    async def subscribe(self, room_id: str) -> None:
        self._rooms.add(room_id)

    async def unsubscribe(self, room_id: str) -> None:
        self._rooms.discard(room_id)


CHANNEL_PREFIX = "cardroom:room:"


class RedisBroker:
    def __init__(self, url: str) -> None:
        self._redis = aioredis.from_url(url)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._origin = uuid.uuid4().hex
        self._handler: BrokerHandler | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: BrokerHandler) -> None:
        self._handler = handler
        await self._pubsub.subscribe(f"{CHANNEL_PREFIX}-")  # keeps the reader alive when idle
        self._task = asyncio.create_task(self._read(), name="redis-broker")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._pubsub.aclose()
        await self._redis.aclose()

    async def publish(self, room_id: str, event: dict[str, Any]) -> None:
        message = orjson.dumps({"origin": self._origin, "event": event})
        await self._redis.publish(CHANNEL_PREFIX + room_id, message)

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
            if payload["origin"] == self._origin or self._handler is None:
                continue
            room_id = message["channel"].decode()[len(CHANNEL_PREFIX) :]
            try:
                await self._handler(room_id, payload["event"])
            except Exception:
                log.exception("handling a broker event for room %s failed", room_id)
