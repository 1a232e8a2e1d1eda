"""Round trip of one move at light load, beside the echo floor measured in the same run.

    .venv/bin/python -m tests.bench.move_rtt [--moves 400] [--postgres]

One player sends a move and waits for its own new state; the other seat answers
the same way. Every move is committed to the database before it is acknowledged.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tests.support.clients import Guest
from tests.support.server import ROOT, ServerProcess, free_port, fresh_database

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


def echo_floor(samples: int) -> list[float]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "tests.bench.echo_app:create_app",
            "--factory",
            "--port",
            str(port),
            "--ws",
            "auto",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
    )
    try:
        _wait(f"http://127.0.0.1:{port}/healthz")
        with connect(f"ws://127.0.0.1:{port}/echo") as ws:
            frame = '{"type":"action","action":{"type":"take","count":1},"seq":0}'
            for _ in range(50):
                ws.send(frame)
                ws.recv()
            times = []
            for _ in range(samples):
                start = time.perf_counter()
                ws.send(frame)
                ws.recv()
                times.append(time.perf_counter() - start)
            return times
    finally:
        process.terminate()
        process.wait(10)


def _wait(url: str) -> None:
    for _ in range(100):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def move_round_trips(base: str, samples: int) -> list[float]:
    times: list[float] = []
    while len(times) < samples:
        host, guest = Guest(base, "A"), Guest(base, "B")
        room_id = host.create_room("abstrac", 2, target=5000)["id"]
        host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
        guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
        sockets = {0: host.socket(room_id), 1: guest.socket(room_id)}
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()
        state = sockets[0].expect("state", seq=0)
        while not state["over"] and len(times) < samples:
            mover = sockets[state["to_act"][0]]
            own = mover.state_at(state["seq"])
            start = time.perf_counter()
            mover.act(own["legal"][0], seq=own["seq"])
            state = mover.expect("state", seq=own["seq"] + 1)
            times.append(time.perf_counter() - start)
        for sock in sockets.values():
            sock.close()
    return times[20:] if len(times) > 40 else times


def describe(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{label:<24} n={len(ms):<5} p50={statistics.median(ms):6.2f} ms  p99={p99:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    floor = echo_floor(args.moves)
    with tempfile.TemporaryDirectory() as tmp:
        if args.postgres:
            import os

            os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
        with fresh_database(Path(tmp)) as url:
            env = {"CARDROOM_REDIS_URL": "", "CARDROOM_MESSAGES_PER_SECOND": "100000"}
            server = ServerProcess(url, free_port(), env, Path(tmp) / "log")
            server.start()
            try:
                moves = move_round_trips(server.url, args.moves)
            finally:
                server.stop()
    db = "postgres" if args.postgres else "sqlite"
    print(describe("echo floor", floor))
    print(describe(f"move round trip ({db})", moves))
    ratio = statistics.median(moves) / statistics.median(floor)
    print(f"ratio move/echo (p50): {ratio:.2f}x  (target: within 3x)")


if __name__ == "__main__":
    main()
