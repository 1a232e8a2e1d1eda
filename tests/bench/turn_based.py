"""Many turn-based matches waiting for a move (issue 35): what they cost a server's memory, and
how fast a player seated in many of them gets their list of games.

    .venv/bin/python -m tests.bench.turn_based [--matches 10000] [--mine 200] [--postgres]
        [--concurrency 16] [--asks 100]

One server on 127.0.0.1 (``python -m app``, SQLite unless ``--postgres``), rooms leaving memory
after 5 s unused. Its memory is read idle (after a first request of each kind). Then
``--matches`` two-seat turn-based Abstrac matches are started over HTTP (a week for each move:
none falls due during the run), ``--mine`` of them with one player ("me") in a seat, the rest
between pairs of other guests; nobody connects. Once every room has left memory, its memory
is read again (target: within 50 MB of idle), and ``GET /api/me/games`` is asked ``--asks``
times for "me" (target: p50 under 50 ms; the answer must list all ``--mine``).
Bounded: every wait gives up after ``--limit`` seconds; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from tests.bench._sys import rss_bytes
from tests.bench.move_rtt import POSTGRES
from tests.support.clients import PLAIN
from tests.support.server import ServerProcess, free_port, fresh_database

WEEK = 7 * 24 * 3600
TABLE = {"pace": "turn_based", "turn_seconds": WEEK}


async def guest(client: httpx.AsyncClient, name: str) -> str:
    made = await client.post("/api/players", json={"name": name})
    made.raise_for_status()
    return str(made.json()["token"])


async def start_match(client: httpx.AsyncClient, host: str, other: str) -> None:
    def as_(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    made = await client.post(
        "/api/rooms", json={"game": "abstrac", "seats": 2, "table": TABLE}, headers=as_(host)
    )
    made.raise_for_status()
    room_id = made.json()["id"]
    for seat, token in enumerate((host, other)):
        taken = await client.post(f"/api/rooms/{room_id}/seats/{seat}", headers=as_(token))
        taken.raise_for_status()
    (await client.post(f"/api/rooms/{room_id}/start", headers=as_(host))).raise_for_status()


async def fill(base: str, matches: int, mine: int, concurrency: int) -> str:
    """Start the matches; "me"'s token."""
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits, verify=PLAIN) as client:
        me = await guest(client, "Me")
        others = [await guest(client, f"G{n}") for n in range(2 * concurrency)]
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n in range(matches):
            queue.put_nowait(n)

        async def worker(k: int) -> None:
            while not queue.empty():
                n = queue.get_nowait()
                host = me if n < mine else others[2 * k]
                await start_match(client, host, others[2 * k + 1])
                if n % 1000 == 0:
                    print(f"  {n} matches started", flush=True)

        await asyncio.gather(*(worker(k) for k in range(concurrency)))
        return me


def rooms_in_memory(base: str) -> int:
    return int(httpx.get(f"{base}/healthz", verify=PLAIN, timeout=10).json()["rooms_in_memory"])


def wait_for(condition: object, what: str, limit: float) -> None:
    deadline = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what} after {limit} s")
        time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--mine", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--asks", type=int, default=100)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--limit", type=float, default=1800)
    args = parser.parse_args()
    if args.postgres:
        os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
    backend = "postgres" if args.postgres else "sqlite"
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp), backend) as url:
        env = {"CARDROOM_ROOM_IDLE_SECONDS": "5", "CARDROOM_MAX_OPEN_ROOMS": "1000000"}
        server = ServerProcess(url, free_port(), env, Path(tmp) / "server.log")
        server.start()
        try:
            base = server.url
            assert server.process is not None
            pid = server.process.pid
            print(f"{backend}: {args.matches} turn-based matches, {args.mine} of them mine")
            httpx.get(f"{base}/api/rooms", verify=PLAIN, timeout=10)
            idle = rss_bytes(pid) or 0
            started = time.monotonic()
            me = asyncio.run(fill(base, args.matches, args.mine, args.concurrency))
            print(f"{args.matches} matches started in {time.monotonic() - started:.0f} s")
            wait_for(lambda: rooms_in_memory(base) == 0, "every room out of memory", args.limit)
            waiting = rss_bytes(pid) or 0
            headers = {"Authorization": f"Bearer {me}"}
            times = []
            with httpx.Client(base_url=base, headers=headers, verify=PLAIN, timeout=30) as c:
                for _ in range(args.asks):
                    begun = time.perf_counter()
                    games = c.get("/api/me/games").json()["games"]
                    times.append((time.perf_counter() - begun) * 1000)
            assert len(games) == args.mine, len(games)
            assert all(g["pace"] == "turn_based" for g in games)
            mb = 1024 * 1024
            print(f"RSS idle                 {idle / mb:8.1f} MB")
            print(f"RSS, {args.matches} waiting   {waiting / mb:8.1f} MB")
            grown = (waiting - idle) / mb
            print(f"grown                    {grown:8.1f} MB  (target: within 50 MB)")
            p50, p95 = statistics.median(times), statistics.quantiles(times, n=20)[-1]
            print(
                f"GET /api/me/games, {args.mine} games: p50 {p50:.1f} ms  p95 {p95:.1f} ms  "
                "(target: p50 under 50 ms)"
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
