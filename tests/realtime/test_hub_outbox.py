"""A connection's way out: a frame is written at once when nothing waits before it, frames
that come while a write waits leave after it in order, an idle socket holds no task, and a
client that stops reading is dropped once too far behind (the socket here stands in for an
ASGI server whose send waits while the client's buffers are full; uvicorn's never waits)."""

from __future__ import annotations

import asyncio

from app.db.players import PlayerRecord
from app.realtime.hub import CLOSE_TOO_SLOW, OUTBOX_LIMIT, Connection
from tests.support.server import run_on_own_loop


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


def test_a_frame_is_written_at_once_when_nothing_waits_before_it() -> None:
    async def run() -> tuple[list[str], bool]:
        socket = Socket(reading=True)
        link = connection(socket)
        for n in range(3):
            link.send(str(n))
        return list(socket.sent), link._sender is None

    sent_before_any_await, no_task = run_on_own_loop(run())
    assert sent_before_any_await == ["0", "1", "2"]
    assert no_task


def test_frames_behind_a_waiting_write_leave_in_order_and_the_task_goes() -> None:
    async def run() -> tuple[list[str], bool, list[str], bool]:
        socket = Socket(reading=False)
        link = connection(socket)
        for n in range(4):
            link.send(str(n))
        await asyncio.sleep(0)
        waiting = list(socket.sent), link._sender is not None
        socket.reading.set()
        for _ in range(10):
            await asyncio.sleep(0)
        link.send("4")
        return *waiting, socket.sent, link._sender is None

    sent_while_waiting, task_while_waiting, sent, idle_after = run_on_own_loop(run())
    assert sent_while_waiting == [] and task_while_waiting
    assert sent == ["0", "1", "2", "3", "4"]
    assert idle_after


def test_closing_while_a_write_waits_cancels_it() -> None:
    async def run() -> tuple[list[str], int | None, bool]:
        socket = Socket(reading=False)
        link = connection(socket)
        link.send("0")
        link.send("1")
        await asyncio.sleep(0)
        await link.close(1000)
        socket.reading.set()
        await asyncio.sleep(0)
        link.send("2")
        return socket.sent, socket.closed_with, link._sender is None

    sent, closed_with, no_task = run_on_own_loop(run())
    assert sent == [] and closed_with == 1000 and no_task


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
    # the frame being written, and OUTBOX_LIMIT behind it
    assert socket.sent == [str(n) for n in range(OUTBOX_LIMIT + 1)]
    assert pending == 0
