"""A bystander's move round trip while other sockets flood the server (issue 34, finding 7).

    .venv/bin/python -m tests.bench.flood_sockets [--moves 150] [--attackers 4]
        [--chat-sockets 40] [--postgres] [--no-pin]

One ``python -m app`` with the shipped limits (20 messages a second a socket, bursts of 40,
40 more dropped before 4029; chat 20 a minute a player). Two players play one match, each
move paced to 15 a second a socket (under the limit) and timed from its send to the mover's
new state, as tests.bench.move_rtt does. It is measured alone, then under each flood, run
from a process of its own:

- frames: ``--attackers`` sockets each writing tiny text messages as fast as the socket
  takes them (42 KB writes), reconnecting the moment the server closes them;
- pings: the same with protocol pings (48 KB of them a write);
- chat: one seated player with ``--chat-sockets`` sockets, each saying something 15 times a
  second (under the message limit, far over the chat limit).

Printed: each phase's median and p99, its ratio to the unloaded median (the target: within
2x), the server's CPU seconds in the phase, and what the attackers did (bytes written,
connections, closes heard by code). Bounded: at most 200 attacker sockets, each phase ends
with its moves or after 60 s, and the attackers stop with it. 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.bench._sys import cpu_seconds, run_delay_seconds
from tests.support.clients import Guest, RoomSocket
from tests.support.raw_ws import PING, Heard, RawSocket, text
from tests.support.server import ServerProcess, free_port, fresh_database

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
PACE_S = 1 / 15  # a socket's moves at most 15 a second: under the 20 a second limit
PHASE_LIMIT_S = 60.0
MOST_SOCKETS = 200
FRAMES = text('{"type":"ping"}') * 2000  # 42 KB of the smallest messages
PINGS = PING * 8000  # 48 KB of protocol pings
CONNECTION_BYTES = 1 << 20
SERVER_CORE, CLIENT_CORE = 0, 1


@dataclass
class Phase:
    name: str
    times: list[float]
    wall_s: float
    cpu_s: float  # the server's
    delay_s: float  # how long the server waited for a CPU
    attacker_cpu_s: float
    attack: dict[str, int]

    def median_ms(self) -> float:
        return statistics.median(self.times) * 1000

    def p99_ms(self) -> float:
        ms = sorted(t * 1000 for t in self.times)
        return ms[min(len(ms) - 1, int(len(ms) * 0.99))]


# -- the bystander ----------------------------------------------------------------------------
class Table:
    """Two players at one Abstrac table, moving in turn, each socket paced under its limit."""

    def __init__(self, base: str) -> None:
        self.base = base
        self._deal()

    def _deal(self) -> None:
        host, guest = Guest(self.base, "Bystander A"), Guest(self.base, "Bystander B")
        room_id = host.create_room("abstrac", 2, target=5000)["id"]
        host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
        guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
        self.sockets = {0: host.socket(room_id), 1: guest.socket(room_id)}
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()
        self.state = self.sockets[0].expect("state", seq=0)
        self.sent = {0: 0.0, 1: 0.0}

    def moves(self, count: int, limit_s: float) -> list[float]:
        times: list[float] = []
        deadline = time.monotonic() + limit_s
        while len(times) < count and time.monotonic() < deadline:
            if self.state["over"]:
                self.close()
                self._deal()
            seat = self.state["to_act"][0]
            mover = self.sockets[seat]
            own = mover.state_at(self.state["seq"])
            wait = self.sent[seat] + PACE_S - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            start = self.sent[seat] = time.monotonic()
            mover.act(own["legal"][0], seq=own["seq"])
            self.state = mover.expect("state", 30, seq=own["seq"] + 1)
            times.append(time.monotonic() - start)
        return times

    def close(self) -> None:
        for sock in self.sockets.values():
            sock.close()


# -- the attackers (a process of their own) ---------------------------------------------------
def attack(kind: str, base: str, sockets: list[str], stop: Any, ready: Any, report: Any) -> None:
    """Run ``kind``'s flood from one thread a socket path until ``stop``; put the counts."""
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    deadline = time.monotonic() + PHASE_LIMIT_S + 30

    def one(path: str) -> None:
        mine: Counter[str] = Counter()
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                raw = RawSocket(base, path, timeout=5)
            except (OSError, ConnectionError):
                mine["refused"] += 1
                time.sleep(0.05)
                continue
            mine["connections"] += 1
            ready.set()
            heard = Heard()
            try:
                if kind == "chat":
                    _chat(raw, stop, heard, mine)
                else:
                    _flood(raw, FRAMES if kind == "frames" else PINGS, stop, heard, mine)
            finally:
                raw.close()
            mine[f"closed {heard.close_code}"] += 1
        with lock:
            counts.update(mine)

    threads = [threading.Thread(target=one, args=(path,), daemon=True) for path in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PHASE_LIMIT_S + 40)
    report.put(dict(counts))


def _drain(raw: RawSocket, heard: Heard) -> bool:
    """Read what has come without waiting; False once the server closed the socket."""
    raw.sock.setblocking(False)
    try:
        while True:
            try:
                chunk = raw.sock.recv(1 << 20)
            except BlockingIOError:
                return heard.close_code is None
            except OSError:
                return False
            if not chunk:
                return False
            raw.buffer += chunk
            raw._parse(heard)
            if heard.close_code is not None:
                return False
    finally:
        raw.sock.settimeout(5)


def _flood(raw: RawSocket, data: bytes, stop: Any, heard: Heard, counts: Counter[str]) -> None:
    """Write ``data`` again and again, up to 1 MB a connection (the finding's flood wrote
    1.5 MB a second on one socket), then wait for the server to close it."""
    written = 0
    while not stop.is_set() and written < CONNECTION_BYTES:
        try:
            raw.sock.sendall(data)
        except OSError:
            return
        written += len(data)
        counts["bytes"] += len(data)
        if not _drain(raw, heard):
            return
    if not stop.is_set():
        raw.hear(5, heard)


def _chat(raw: RawSocket, stop: Any, heard: Heard, counts: Counter[str]) -> None:
    said = 0
    while not stop.is_set():
        said += 1
        if not raw.send(text(f'{{"type":"chat","text":"spam {said}"}}')):
            return
        counts["chat sent"] += 1
        if not _drain(raw, heard):
            return
        time.sleep(PACE_S)


# -- the run ----------------------------------------------------------------------------------
def seated(base: str, name: str) -> tuple[Guest, str]:
    """A player seated in a room of its own (waiting): it chats in the players' channel."""
    player = Guest(base, name)
    room_id = player.create_room("abstrac", 2)["id"]
    player.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    return player, room_id


def phase(
    name: str, server: ServerProcess, table: Table, moves: int, kind: str | None, paths: list[str]
) -> Phase:
    context = multiprocessing.get_context("fork")
    stop, ready, report = context.Event(), context.Event(), context.Queue()
    attacker = None
    if kind is not None:
        attacker = context.Process(
            target=attack, args=(kind, server.url, paths, stop, ready, report), daemon=True
        )
        attacker.start()
        if not ready.wait(30):
            raise RuntimeError(f"{name}: the attackers never connected")
        time.sleep(0.5)  # the flood under way
    assert server.process is not None
    pid = server.process.pid
    began, cpu, delay = time.monotonic(), cpu_seconds(pid) or 0.0, run_delay_seconds(pid) or 0.0
    attacker_cpu = cpu_seconds(attacker.pid) or 0.0 if attacker and attacker.pid else 0.0
    try:
        times = table.moves(moves, PHASE_LIMIT_S)
    finally:
        wall = time.monotonic() - began
        cpu = (cpu_seconds(pid) or 0.0) - cpu
        delay = (run_delay_seconds(pid) or 0.0) - delay
        if attacker is not None and attacker.pid:
            attacker_cpu = (cpu_seconds(attacker.pid) or 0.0) - attacker_cpu
        stop.set()
    counts: dict[str, int] = {}
    if attacker is not None:
        counts = report.get(timeout=PHASE_LIMIT_S + 60)
        attacker.join(30)
        if attacker.is_alive():
            attacker.kill()
    return Phase(name, times, wall, cpu, delay, attacker_cpu, counts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--chat-sockets", type=int, default=40)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument(
        "--no-pin", dest="pin", action="store_false", help="leave every process on every core"
    )
    args = parser.parse_args()
    if args.pin and len(os.sched_getaffinity(0)) < 2:
        args.pin = False
    if args.attackers + args.chat_sockets > MOST_SOCKETS:
        parser.error(f"at most {MOST_SOCKETS} attacker sockets")
    if args.postgres:
        os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp)) as url:
        # the shipped limits: nothing here raises them
        server = ServerProcess(url, free_port(), {"CARDROOM_REDIS_URL": ""}, Path(tmp) / "log")
        server.start()
        if args.pin:
            # the server on one core, this process and its attackers on the other
            assert server.process is not None
            os.sched_setaffinity(server.process.pid, {SERVER_CORE})
            os.sched_setaffinity(0, {CLIENT_CORE})
        try:
            phases = run(server, args)
        finally:
            server.stop()
    report(phases, "postgres" if args.postgres else "sqlite")


def run(server: ServerProcess, args: argparse.Namespace) -> list[Phase]:
    flooders = [Guest(server.url, f"Flooder {n}") for n in range(args.attackers)]
    flood_paths = [f"/ws/rooms/{g.create_room()['id']}?token={g.token}" for g in flooders]
    chatter, chat_room = seated(server.url, "Chatter")
    chat_paths = [f"/ws/rooms/{chat_room}?token={chatter.token}"] * args.chat_sockets
    listener = RoomSocket(server.url, chat_room, Guest(server.url, "Listener").token, {})
    table = Table(server.url)
    table.moves(40, PHASE_LIMIT_S)  # warm up
    phases = [phase("unloaded", server, table, args.moves, None, [])]
    phases.append(phase("frame flood", server, table, args.moves, "frames", flood_paths))
    phases.append(phase("ping flood", server, table, args.moves, "pings", flood_paths))
    phases.append(phase("chat flood", server, table, args.moves, "chat", chat_paths))
    stored = sum(1 for m in _drained(listener) if m.get("type") == "chat")
    phases[-1].attack["chat heard by a listener"] = stored
    phases.append(phase("unloaded again", server, table, args.moves, None, []))
    table.close()
    listener.close()
    return phases


def _drained(sock: RoomSocket) -> list[dict[str, Any]]:
    messages = []
    try:
        while True:
            messages.append(sock.recv(0.5))
    except Exception:  # nothing more within half a second, or closed: what it had
        return messages


def report(phases: list[Phase], db: str) -> None:
    base = phases[0].median_ms()
    print(f"bystander's move round trip ({db}, paced {1 / PACE_S:.0f}/s a socket)")
    for p in phases:
        ratio = p.median_ms() / base
        verdict = "" if p.name.startswith("unloaded") else ("  ok" if ratio <= 2 else "  OVER 2x")
        print(
            f"  {p.name:<15} n={len(p.times):<4} p50={p.median_ms():6.2f} ms  "
            f"p99={p.p99_ms():7.2f} ms  ratio={ratio:4.2f}x{verdict}"
        )
        print(
            f"      {p.wall_s:5.1f} s: server cpu {p.cpu_s:5.2f} s, waited for a cpu "
            f"{p.delay_s:5.2f} s; attackers' cpu {p.attacker_cpu_s:5.2f} s"
        )
        if p.attack:
            print("      attack: " + ", ".join(f"{k}={v}" for k, v in sorted(p.attack.items())))


if __name__ == "__main__":
    main()
