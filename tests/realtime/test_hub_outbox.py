"""A connection's outbox: frames leave in order, an idle socket holds no task, and a client
that stops reading is dropped once too far behind (the socket here stands in for uvicorn's,
whose send waits while the client's buffers are full)."""

from __future__ import annotations

import asyncio

from app.db.players import PlayerRecord
from app.realtime.hub import CLOSE_TOO_SLOW, OUTBOX_LIMIT, Connection
from tests.server import run_on_own_loop


class Socket:
    def __init__(self, reading: bool) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.reading = asyncio.Event()
        if reading:
            self.reading.set()

    async def __call__(self, message: dict[str, object]) -> None:
        """uvicorn's ASGI send."""
        if message["type"] == "websocket.close":
            self.closed_with = message["code"]  # type: ignore[assignment]
            return
        await self.reading.wait()
        self.sent.append(message["text"])  # type: ignore[arg-type]


def connection(socket: Socket) -> Connection:
    return Connection(socket, PlayerRecord(1, "Ann"), "room")  # type: ignore[arg-type]


def test_frames_leave_in_order_and_an_idle_socket_holds_no_task() -> None:
    async def run() -> tuple[list[str], bool, bool]:
        socket = Socket(reading=True)
        link = connection(socket)
        idle_at_start = link._sender is None
        for n in range(5):
            link.send(str(n))
        busy = link._sender is not None
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        link.send("5")
        await asyncio.sleep(0)
        return socket.sent, idle_at_start and busy, link._sender is None

    sent, task_while_busy_only, idle_after = run_on_own_loop(run())
    assert sent == ["0", "1", "2", "3", "4", "5"]
    assert task_while_busy_only and idle_after


def test_a_client_too_far_behind_is_dropped_and_hears_nothing_more() -> None:
    async def run() -> tuple[Socket, int]:
        socket = Socket(reading=False)
        link = connection(socket)
        for n in range(OUTBOX_LIMIT + 1):
            link.send(str(n))
        link.send("after")
        socket.reading.set()  # the kernel buffers drain at last
        for _ in range(OUTBOX_LIMIT + 10):
            await asyncio.sleep(0)
        pending = len(link._outbox or ())
        await link.close()
        return socket, pending

    socket, pending = run_on_own_loop(run())
    assert socket.closed_with == CLOSE_TOO_SLOW
    assert socket.sent == [str(n) for n in range(OUTBOX_LIMIT)]
    assert pending == 0
