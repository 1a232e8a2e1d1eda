"""The Redis broker against a real Redis: bursts, order, and no event back to its sender."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from app.realtime.broker import RedisBroker
from tests.support.server import run_on_own_loop


async def _burst(url: str, rooms: int, per_room: int) -> tuple[dict[str, list[int]], int]:
    received: dict[str, list[int]] = {}
    echoed = 0
    everything = asyncio.Event()

    async def on_b(room_id: str, event: dict[str, Any]) -> None:
        received.setdefault(room_id, []).append(event["n"])
        if sum(map(len, received.values())) == rooms * per_room:
            everything.set()

    async def on_a(room_id: str, event: dict[str, Any]) -> None:
        nonlocal echoed
        echoed += 1

    a, b = RedisBroker(url), RedisBroker(url)
    await a.start(on_a)
    await b.start(on_b)
    names = [f"test-{uuid.uuid4().hex[:8]}" for _ in range(rooms)]
    try:
        for name in names:
            await a.subscribe(name)
            await b.subscribe(name)
        # far more events at once than redis-py's pool has connections (100)
        await asyncio.gather(
            *(a.publish(name, {"n": n}) for n in range(per_room) for name in names)
        )
        await asyncio.wait_for(everything.wait(), 20)
    finally:
        await a.stop()
        await b.stop()
    return received, echoed


def test_a_burst_of_events_arrives_whole_and_in_order(redis_url: str) -> None:
    received, echoed = run_on_own_loop(_burst(redis_url, rooms=40, per_room=100))
    assert len(received) == 40
    assert all(events == list(range(100)) for events in received.values())
    assert echoed == 0  # a process never hears its own events
