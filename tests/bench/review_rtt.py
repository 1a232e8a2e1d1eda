"""Whether match reviews slow live play: the move round trip at light load, measured in turns
while the review worker is idle and while it computes.

    .venv/bin/python -m tests.bench.review_rtt [--moves 300] [--rounds 3] [--postgres]

One server, reviews queued only when asked (``CARDROOM_REVIEW_ON_FINISH=false``). First a few
long bot matches are finished, unreviewed. Then, ``--rounds`` times: ``--moves`` round trips
with the worker idle, then the next finished match is asked for its review and ``--moves``
round trips are measured while ``/healthz`` says it is still being computed (the window is
dropped and retried if the review ended inside it). Printed: p50 and p99 of each kind over all
rounds, and the ratio of the p50s. Target (issue 28): within 10%.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from tests.bench.move_rtt import POSTGRES, describe
from tests.support.clients import Guest, RoomSocket
from tests.support.play import play_bots
from tests.support.server import ServerProcess, free_port, fresh_database

REVIEWED = ("absolute", ("normal", "normal"), {"turn_limit": 12})
"""The matches reviewed: ABSOLUTE, the costliest review per decision, kept to about ten
seconds of review a match by its turn limit."""


class Table:
    """A two-seat Abstrac match that does not end soon, for one round trip at a time."""

    def __init__(self, base: str) -> None:
        host, guest = Guest(base, "A"), Guest(base, "B")
        room_id = host.create_room("abstrac", 2, target=5000)["id"]
        host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
        guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
        self.sockets: dict[int, RoomSocket] = {0: host.socket(room_id), 1: guest.socket(room_id)}
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()
        self.state = self.sockets[0].expect("state", seq=0)

    def round_trip(self) -> float | None:
        if self.state["over"]:
            return None
        mover = self.sockets[self.state["to_act"][0]]
        own = mover.state_at(self.state["seq"])
        start = time.perf_counter()
        mover.act(own["legal"][0], seq=own["seq"])
        self.state = mover.expect("state", seq=own["seq"] + 1)
        return time.perf_counter() - start

    def close(self) -> None:
        for sock in self.sockets.values():
            sock.close()


def measure(base: str, table: list[Table], moves: int) -> list[float]:
    times: list[float] = []
    while len(times) < moves:
        took = table[0].round_trip()
        if took is None:
            table[0].close()
            table[0] = Table(base)
            continue
        times.append(took)
    return times


def computing(http: httpx.Client) -> bool:
    return http.get("/healthz").json()["reviews"]["waiting"] > 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    if args.postgres:
        os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
    idle: list[float] = []
    busy: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp)) as url:
        env = {
            "CARDROOM_REDIS_URL": "",
            "CARDROOM_MESSAGES_PER_SECOND": "100000",
            "CARDROOM_BOT_DELAY_MS": "0",
            "CARDROOM_BOT_QUICK_MS": "0",
            "CARDROOM_MAX_BOT_MATCHES": "100",
            "CARDROOM_REVIEW_ON_FINISH": "false",
        }
        server = ServerProcess(url, free_port(), env, Path(tmp) / "log")
        server.start()
        try:
            host = Guest(server.url, "Reviewer")
            game, levels, options = REVIEWED
            finished = [play_bots(host, game, levels, **options) for _ in range(args.rounds + 1)]
            table = [Table(server.url)]
            measure(server.url, table, 50)  # warm up
            for match_id in finished:
                if len(busy) >= args.moves * args.rounds:
                    break
                idle += measure(server.url, table, args.moves)
                assert host.http.get(f"/api/matches/{match_id}/review").status_code == 202
                time.sleep(2)  # the worker process starts (the first time) and gets going
                window = measure(server.url, table, args.moves)
                if computing(host.http):
                    busy += window
                else:
                    print(f"match {match_id}'s review ended inside the window; dropped")
                deadline = time.monotonic() + 600
                while computing(host.http) and time.monotonic() < deadline:
                    time.sleep(0.5)
            table[0].close()
        finally:
            server.stop()
    if not busy:
        raise SystemExit("no window fell inside a review: use fewer --moves")
    print(describe("reviews idle", idle))
    print(describe("reviews computing", busy))
    ratio = statistics.median(busy) / statistics.median(idle)
    print(f"ratio computing/idle (p50): {ratio:.3f}  (target: at most 1.10)")


if __name__ == "__main__":
    main()
