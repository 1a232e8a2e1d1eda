"""Load clients for ``tests.bench.load``: one process drives many rooms over real WebSockets.

    python -m tests.bench._client          (driven by tests.bench.load, not by hand)

The parent writes one JSON config line on stdin, then commands, one a line; each command is
answered by one JSON line on stdout:

- ``setup``   (cardroom) register the players, create the rooms, take the seats over HTTP
- ``connect`` open every socket and wait until each has its ``hello`` (echo: is open)
- ``start``   (cardroom) the hosts start their matches; (echo) the first move of every room
- ``measure`` zero the counters: the measured window starts
- ``report``  the window's figures (play goes on)
- ``stop``    stop playing, close everything, exit

Two modes. ``cardroom``: seated clients play whole matches, each sending a random legal
action as soon as its own ``state`` says it is to act (or after a think time), and every seat
asks for the rematch over its socket when a match ends; watchers only receive. ``echo`` (the
floor): the same rooms, seats and watchers on ``/echo``; a move is the mover sending an
action-sized frame while every other member of the room sends a state-sized one, so each member
receives one frame per move as in cardroom; the next seat moves when its own echo is back.

Times are ``time.perf_counter`` (CLOCK_MONOTONIC), so every figure of one room is taken on one
clock: a room's clients always live in the same process.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter, deque
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

now = time.perf_counter

MOVE_TIMEOUT = 5.0  # a move not answered by then is counted and its socket reconnected
STALL_TIMEOUT = 10.0  # a room with no new state for that long (plus 3 think times) is nudged
SETUP_CONCURRENCY = 32
CONNECT_CONCURRENCY = 64
MAX_RECONNECTS = 5
REMATCH = orjson.dumps({"type": "rematch"}).decode()


class Stats:
    def __init__(self) -> None:
        self.errors: Counter[str] = Counter()  # since the start, not only the window
        self.reset(measuring=False)

    def reset(self, measuring: bool) -> None:
        self.measuring = measuring
        self.t0 = now()
        self.cpu0 = time.process_time()
        self.moves = 0
        self.msgs = 0
        self.bytes = 0
        self.types: Counter[str] = Counter()
        self.rtt: list[float] = []
        self.fanout: list[float] = []
        self.rematch: list[float] = []
        self.matches = 0
        self.window_errors: Counter[str] = Counter()
        self.stale = 0
        self.contended = 0

    def error(self, code: str) -> None:
        self.errors[code] += 1
        if self.measuring:
            self.window_errors[code] += 1

    def report(self) -> dict[str, Any]:
        elapsed = now() - self.t0
        return {
            "seconds": elapsed,
            "client_cpu_s": time.process_time() - self.cpu0,
            "moves": self.moves,
            "msgs": self.msgs,
            "bytes": self.bytes,
            "types": dict(self.types),
            "rtt": [round(x, 6) for x in self.rtt],
            "fanout": [round(x, 6) for x in self.fanout],
            "rematch": [round(x, 6) for x in self.rematch],
            "matches": self.matches,
            "errors": dict(self.window_errors),
            "errors_total": dict(self.errors),
            "stale": self.stale,
            "contended": self.contended,
        }


class Pending:
    __slots__ = ("expected", "in_window", "match", "ref", "t0")

    def __init__(self, match: int, expected: int, t0: float, ref: int, in_window: bool) -> None:
        self.match, self.expected, self.t0, self.ref, self.in_window = (
            match,
            expected,
            t0,
            ref,
            in_window,
        )


class Conn:
    """One WebSocket of one room member (a seat, or a watcher when ``seat`` is None)."""

    def __init__(self, room: Room, index: int, seat: int | None, base: str) -> None:
        self.room = room
        self.index = index
        self.seat = seat
        self.base = base
        self.token = ""
        self.ws: ClientConnection | None = None
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.reconnects = 0
        # cardroom
        self.pending: Pending | None = None
        self.latest: dict[str, Any] | None = None
        self.thinking: tuple[int, int] | None = None
        # echo
        self.fifo: deque[int] = deque()


class Room:
    def __init__(self, index: int, conns_per_room: int) -> None:
        self.index = index
        self.id = ""
        self.conns: list[Conn] = []
        self.size = conns_per_room
        self.match: int | None = None
        self.fan: dict[Any, list[Any]] = {}
        self.rematch_for: int | None = None
        self.t_over = 0.0
        self.progress = now()
        self.counted_over: int | None = None
        self.http: HttpLink | None = None  # the host's, for the first start
        # echo
        self.k = 0
        self.movers: dict[int, tuple[Conn, float, bool]] = {}


class HttpLink:
    """One keep-alive HTTP/1.1 connection of a room's host, for the start of its first match.

    httpx, in a client loop busy with a thousand sockets, took seconds a request at 500 rooms
    (3.3 s at p50 for a rematch the server handled in 28 ms; /healthz answered another process
    in 7 ms meanwhile), so the harness measured itself. This writes the request and reads the
    answer in two awaits. A connection the server closed while idle (uvicorn, after 5 s) fails
    before its request is read: the request goes again on a new one.
    """

    def __init__(self, base: str) -> None:
        self.host, _, port = base.removeprefix("http://").partition(":")
        self.port = int(port or 80)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, token: str) -> tuple[int, bytes]:
        """POST without a body; the answer's status and body."""
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Length: 0\r\n\r\n"
        ).encode()
        for attempt in range(2):
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                self.writer.write(request)
                head = await self.reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = await self.reader.readexactly(length)
                return int(head.split(b" ", 2)[1]), body
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Driver:
    def __init__(self, config: dict[str, Any]) -> None:
        self.cfg = config
        self.mode: str = config["mode"]
        self.servers: list[str] = config["servers"]
        self.seats: int = config["seats"]
        self.watchers: int = config["watchers"]
        self.think = config["think_ms"] / 1000
        self.compression = "deflate" if config["compression"] else None
        self.rng = random.Random(config["seed"])
        self.stats = Stats()
        self.stopping = False
        self.playing = False
        self.refs = 0
        self.rooms: list[Room] = []
        per_room = self.seats + self.watchers
        for index in config["room_indexes"]:
            room = Room(index, per_room)
            for j in range(per_room):
                seat = j if j < self.seats else None
                spread = j if config.get("spread", "socket") == "socket" else 0
                base = self.servers[(index + spread) % len(self.servers)]
                room.conns.append(Conn(room, j, seat, base))
            room.http = HttpLink(room.conns[0].base)
            self.rooms.append(room)
        self.http: dict[str, httpx.AsyncClient] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        pad = max(0, int(config.get("echo_frame_bytes", 400)) - 40)
        self.echo_pad = orjson.dumps({"type": "state", "pad": "x" * pad}).decode()
        self.echo_action = orjson.dumps(
            {"type": "action", "action": {"type": "take", "count": 1}, "seq": 0, "ref": 0}
        ).decode()

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def client(self, base: str) -> httpx.AsyncClient:
        if base not in self.http:
            self.http[base] = httpx.AsyncClient(
                base_url=base,
                timeout=30,
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=64),
            )
        return self.http[base]

    # -- setup (cardroom) ---------------------------------------------------------------
    async def setup(self) -> dict[str, Any]:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        failures: list[str] = []

        async def one(room: Room) -> None:
            async with gate:
                try:
                    await self._setup_room(room)
                except Exception as error:
                    failures.append(f"room {room.index}: {error!r}"[:300])

        await asyncio.gather(*(one(room) for room in self.rooms))
        return {"rooms": len(self.rooms) - len(failures), "failures": failures[:5]}

    async def _post(
        self, base: str, path: str, token: str = "", body: Any = None
    ) -> httpx.Response:
        """POST, retried on a transport error: a keep-alive connection the server was closing
        (uvicorn drops idle ones after 5 s) fails before the request is read."""
        headers = _auth(token) if token else None
        for attempt in range(3):
            try:
                return await self.client(base).post(path, json=body, headers=headers)
            except httpx.TransportError as error:
                self.stats.error(f"http:{type(error).__name__}")
                if attempt == 2:
                    raise
                await asyncio.sleep(0.05)
        raise AssertionError("unreachable")

    async def _setup_room(self, room: Room) -> None:
        host = room.conns[0]
        for conn in room.conns:
            name = f"r{room.index}{'s' if conn.seat is not None else 'w'}{conn.index}"
            answer = await self._post(host.base, "/api/players", body={"name": name})
            answer.raise_for_status()
            conn.token = answer.json()["token"]
        body = {"game": self.cfg["game"], "seats": self.seats, "options": self.cfg["options"]}
        answer = await self._post(host.base, "/api/rooms", host.token, body)
        if answer.status_code != 201:
            raise RuntimeError(f"create room: {answer.status_code} {answer.text[:200]}")
        room.id = answer.json()["id"]
        for conn in room.conns[: self.seats]:
            path = f"/api/rooms/{room.id}/seats/{conn.seat}"
            answer = await self._post(host.base, path, conn.token)
            if answer.status_code != 200 and "already_seated" not in answer.text:
                raise RuntimeError(f"take seat: {answer.status_code} {answer.text[:200]}")

    # -- sockets ------------------------------------------------------------------------
    def _url(self, conn: Conn) -> str:
        ws_base = conn.base.replace("http://", "ws://")
        if self.mode == "echo":
            return f"{ws_base}/echo"
        return f"{ws_base}/ws/rooms/{conn.room.id}?token={conn.token}"

    async def connect_all(self) -> dict[str, Any]:
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
        conns = [c for room in self.rooms if room.id or self.mode == "echo" for c in room.conns]

        async def one(conn: Conn) -> None:
            async with gate:
                conn.task = self._spawn(self._serve(conn))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(conn.ready.wait(), 60)

        await asyncio.gather(*(one(c) for c in conns))
        ready = sum(c.ready.is_set() for c in conns)
        return {"sockets": len(conns), "ready": ready}

    async def _serve(self, conn: Conn) -> None:
        url = self._url(conn)
        while not self.stopping and conn.reconnects <= MAX_RECONNECTS:
            try:
                async with connect(
                    url,
                    compression=self.compression,
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                    max_queue=None,
                ) as ws:
                    conn.ws = ws
                    if self.mode == "echo":
                        conn.ready.set()
                    async for frame in ws:
                        await self._on_frame(conn, frame)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                if self.stopping:
                    return
                self.stats.error(f"socket:{type(error).__name__}")
            conn.ws = None
            if self.stopping:
                return
            conn.reconnects += 1
            conn.fifo.clear()
            await asyncio.sleep(0.2)

    async def _on_frame(self, conn: Conn, frame: str | bytes) -> None:
        t = now()
        stats = self.stats
        if stats.measuring:
            stats.msgs += 1
            stats.bytes += len(frame)
        if self.mode == "echo":
            await self._on_echo(conn, t)
            return
        message = orjson.loads(frame)
        kind = message.get("type")
        if stats.measuring:
            stats.types[kind] += 1
        if kind == "state":
            await self._on_state(conn, message, t)
        elif kind == "hello":
            conn.ready.set()
        elif kind == "error":
            self._on_error(conn, message)

    # -- cardroom play ------------------------------------------------------------------
    async def _on_state(self, conn: Conn, message: dict[str, Any], t: float) -> None:
        room, stats = conn.room, self.stats
        match, seq = message["match_id"], message["seq"]
        room.progress = t
        fan = room.fan.get((match, seq))
        if fan is not None:
            fan[1] -= 1
            if fan[1] <= 0:
                del room.fan[(match, seq)]
                if fan[2] and stats.measuring:
                    stats.fanout.append(t - fan[0])
        if room.match != match:
            room.match = match
            room.fan = {k: v for k, v in room.fan.items() if k[0] == match}
        if conn.seat == 0 and room.rematch_for is not None and room.rematch_for != match:
            if stats.measuring and room.t_over:
                stats.rematch.append(t - room.t_over)
            room.rematch_for, room.t_over = None, 0.0
        conn.latest = message
        pending = conn.pending
        if pending is not None and (pending.match != match or seq >= pending.expected):
            conn.pending = None
            last = message.get("last") or {}
            mine = seq > pending.expected or last.get("seat") == conn.seat
            if pending.match == match and mine:
                if pending.in_window and stats.measuring:
                    stats.moves += 1
                    stats.rtt.append(t - pending.t0)
            elif stats.measuring:
                stats.contended += 1
        if message["over"]:
            if conn.seat == 0 and room.counted_over != match:
                room.counted_over = match
                if stats.measuring:
                    stats.matches += 1
                if room.rematch_for != match and not self.stopping:
                    room.rematch_for, room.t_over = match, t
                    self._spawn(self._rematch(room, match))
            return
        await self._maybe_act(conn)

    async def _maybe_act(self, conn: Conn) -> None:
        message = conn.latest
        if (
            message is None
            or conn.seat is None
            or conn.pending is not None
            or not self.playing
            or self.stopping
            or message["over"]
            or conn.seat not in message["to_act"]
            or not message["legal"]
        ):
            return
        key = (message["match_id"], message["seq"])
        if self.think > 0:
            if conn.thinking == key:
                return
            conn.thinking = key
            delay = self.think * (0.5 + self.rng.random())
            asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._after_thinking(conn, key))
            )
            return
        await self._send_move(conn, message)

    async def _after_thinking(self, conn: Conn, key: tuple[int, int]) -> None:
        if conn.thinking != key:
            return
        conn.thinking = None
        message = conn.latest
        if (
            message is not None
            and (message["match_id"], message["seq"]) == key
            and conn.pending is None
            and not self.stopping
            and not message["over"]
        ):
            await self._send_move(conn, message)

    async def _send_move(self, conn: Conn, message: dict[str, Any]) -> None:
        ws = conn.ws
        if ws is None:
            return
        self.refs += 1
        match, seq = message["match_id"], message["seq"]
        action = self.rng.choice(message["legal"])
        frame = orjson.dumps({"type": "action", "action": action, "seq": seq, "ref": self.refs})
        t = now()
        measuring = self.stats.measuring
        conn.pending = Pending(match, seq + 1, t, self.refs, measuring)
        conn.room.fan[(match, seq + 1)] = [t, conn.room.size, measuring]
        with contextlib.suppress(ConnectionClosed):
            await ws.send(frame.decode())

    def _on_error(self, conn: Conn, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        pending = conn.pending
        if pending is not None and message.get("ref") == pending.ref:
            conn.pending = None
            if code == "stale":  # lost a race to another seat's move: expected, not an error
                if self.stats.measuring:
                    self.stats.stale += 1
                self._spawn(self._maybe_act(conn))
                return
        self.stats.error(f"ws:{code}")

    async def _rematch(self, room: Room, match: int) -> None:
        """Every seated player agrees to the rematch (issue 24: it starts when all have), over
        its socket, as the table page does; a refusal comes back as an error frame, which
        ``_on_error`` counts."""
        for conn in room.conns:
            if conn.seat is not None and conn.ws is not None and not self.stopping:
                with contextlib.suppress(ConnectionClosed):
                    await conn.ws.send(REMATCH)

    async def start(self) -> dict[str, Any]:
        self.playing = True
        for room in self.rooms:
            room.progress = now()
        if self.mode == "echo":
            for room in self.rooms:
                self._spawn(self._echo_move(room, 0))
            return {"started": len(self.rooms)}
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        failures = 0

        async def one(room: Room) -> None:
            nonlocal failures
            assert room.http is not None
            async with gate:
                # the watchdog counts a room's silence from when its start is asked for
                room.progress = now()
                status, body = await room.http.post(
                    f"/api/rooms/{room.id}/start", room.conns[0].token
                )
            room.progress = now()
            if status != 200 and b"already_started" not in body:
                failures += 1
                self.stats.error(f"http:start {status}")

        await asyncio.gather(*(one(room) for room in self.rooms if room.id))
        return {"started": len(self.rooms) - failures}

    # -- echo play (the floor) ----------------------------------------------------------
    async def _echo_move(self, room: Room, seat: int) -> None:
        if self.stopping:
            return
        k = room.k
        room.k += 1
        t = now()
        measuring = self.stats.measuring
        mover = room.conns[seat]
        room.movers[k] = (mover, t, measuring)
        room.fan[k] = [t, room.size, measuring]
        room.progress = t
        for conn in [mover, *(c for c in room.conns if c is not mover)]:
            ws = conn.ws
            if ws is None:
                room.fan[k][1] -= 1
                continue
            conn.fifo.append(k)
            with contextlib.suppress(ConnectionClosed):
                await ws.send(self.echo_action if conn is mover else self.echo_pad)

    async def _on_echo(self, conn: Conn, t: float) -> None:
        if not conn.fifo:
            return
        room, stats = conn.room, self.stats
        k = conn.fifo.popleft()
        mover, t0, in_window = room.movers.get(k, (None, 0.0, False))
        fan = room.fan.get(k)
        if fan is not None:
            fan[1] -= 1
            if fan[1] <= 0:
                del room.fan[k]
                room.movers.pop(k, None)
                if fan[2] and stats.measuring:
                    stats.fanout.append(t - fan[0])
        if mover is None:
            return
        if conn is mover and in_window and stats.measuring:
            stats.moves += 1
            stats.rtt.append(t - t0)
        if conn.seat == ((mover.seat or 0) + 1) % self.seats:
            # the next seat "has its new state": it moves (after its think time)
            seat = conn.seat or 0
            if self.think > 0:
                delay = self.think * (0.5 + self.rng.random())
                asyncio.get_running_loop().call_later(
                    delay, lambda: self._spawn(self._echo_move(room, seat))
                )
            else:
                await self._echo_move(room, seat)

    # -- watchdog -----------------------------------------------------------------------
    async def watchdog(self) -> None:
        while not self.stopping:
            await asyncio.sleep(1.0)
            if not self.playing:
                continue
            t = now()
            for room in self.rooms:
                if self.mode == "echo":
                    oldest = min((m[1] for m in room.movers.values()), default=t)
                    if t - oldest > MOVE_TIMEOUT:
                        self.stats.error("timeout")
                        room.movers.clear()
                        room.fan.clear()
                        for conn in room.conns:
                            conn.fifo.clear()
                        self._spawn(self._echo_move(room, 0))
                    continue
                for conn in room.conns:
                    if conn.pending is not None and t - conn.pending.t0 > MOVE_TIMEOUT:
                        self.stats.error("timeout")
                        conn.pending = None
                        await self._reconnect(conn)
                if room.id and t - room.progress > STALL_TIMEOUT + 3 * self.think:
                    self.stats.error("stall")
                    room.progress = t
                    latest = room.conns[0].latest
                    if latest is not None and latest["over"] and room.rematch_for is None:
                        room.rematch_for, room.t_over = latest["match_id"], 0.0
                        self._spawn(self._rematch(room, latest["match_id"]))
                    else:
                        for conn in room.conns[: self.seats]:
                            await self._reconnect(conn)

    async def _reconnect(self, conn: Conn) -> None:
        ws = conn.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)

    async def stop(self) -> dict[str, Any]:
        self.stopping = True
        self.playing = False
        sockets = [c.ws for room in self.rooms for c in room.conns if c.ws is not None]

        async def close(ws: ClientConnection) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)

        await asyncio.gather(*(close(ws) for ws in sockets))
        tasks = [c.task for room in self.rooms for c in room.conns if c.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for http in self.http.values():
            await http.aclose()
        for room in self.rooms:
            if room.http is not None:
                room.http.close()
        return {"closed": len(sockets)}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _reply(payload: dict[str, Any]) -> None:
    sys.stdout.buffer.write(orjson.dumps(payload) + b"\n")
    sys.stdout.buffer.flush()


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    config = orjson.loads(await reader.readline())
    driver = Driver(config)
    watchdog = asyncio.create_task(driver.watchdog())
    while True:
        line = (await reader.readline()).strip().decode()
        if not line:  # the parent went away
            await driver.stop()
            break
        if line == "setup":
            _reply(await driver.setup())
        elif line == "connect":
            _reply(await driver.connect_all())
        elif line == "start":
            _reply(await driver.start())
        elif line == "measure":
            driver.stats.reset(measuring=True)
            _reply({"ok": True})
        elif line == "report":
            report = driver.stats.report()
            driver.stats.measuring = False
            _reply(report)
        elif line == "stop":
            _reply(await driver.stop())
            break
        else:
            _reply({"error": f"unknown command {line!r}"})
    watchdog.cancel()


def run() -> None:
    try:
        import uvloop
    except ImportError:
        asyncio.run(main())
    else:
        uvloop.run(main())


if __name__ == "__main__":
    run()
