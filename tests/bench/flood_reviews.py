"""A flood of reviews from a few players against a bystander's (issue 34, finding 4): the
bystander's finished match gets its review, and the bystander's move round trip stays near
what it is on an idle server.

    .venv/bin/python -m tests.bench.flood_reviews [--flooders 3] [--forfeits 120] [--long 2]
        [--long-moves 600] [--moves 200] [--postgres]

One server on 127.0.0.1 with the shipped review settings (every finished match queued at once,
the shipped budget and shares), its match cap at ``--long-moves``. Then:

1. the bystanders' round trip on the idle server: ``--moves`` moves at a two-person Abstrac
   table (tests.bench.review_rtt's ``Table``), each timed from the action sent to the mover's
   new state;
2. the flood, from ``--flooders`` players: each hosts ``--forfeits`` matches against another
   flooder who never connects, each forfeited by absence after the one-second seat hold with
   no move made (the flood that once filled the queue to 256 and turned every review away),
   and ``--long`` matches of six easy bots each, which the cap stops at ``--long-moves``;
3. once the flood has finished, while its reviews compute: a bystander plays a short match
   against a bot; its review is asked for (it must be queued, not refused) and the round trip
   is measured again, for as long as the queue is busy;
4. the bystander's review is waited for.

Printed: how the flood's matches ended and how much of it the queue took, the round trips idle
and loaded (p50, p99) and their ratio (target: p50 within 2x), and when the bystander's review
was queued, at which position, and how long it took. Bounded: every wait gives up after
``--limit`` seconds, and the server and its worker are stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.bench.move_rtt import POSTGRES, describe
from tests.bench.review_rtt import Table
from tests.support.clients import Guest
from tests.support.play import play_match
from tests.support.server import ServerProcess, free_port, fresh_database


def forfeit_match(host: Guest, partner: Guest) -> int:
    """A match the partner takes a seat in and nobody plays: both away, the hold (1 s) ends it."""
    table = {"seat_hold_seconds": 1, "on_absent": "forfeit"}
    room = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
    room.raise_for_status()
    room_id = room.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    partner.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    started = host.post(f"/api/rooms/{room_id}/start")
    started.raise_for_status()
    return int(started.json()["match_id"])


def long_match(host: Guest) -> int:
    """Six easy bots at ABSOLUTE: a long match (650 to 1,200 moves), stopped by the cap."""
    room_id = host.create_room("absolute", 6)["id"]
    for seat in range(6):
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    started = host.post(f"/api/rooms/{room_id}/start")
    started.raise_for_status()
    return int(started.json()["match_id"])


def wait(what: str, done: Any, limit: float, every: float = 0.5) -> Any:
    deadline = time.monotonic() + limit
    while not (answer := done()):
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what} after {limit:.0f} s")
        time.sleep(every)
    return answer


def finished(http: httpx.Client, match_ids: list[int]) -> list[dict[str, Any]] | None:
    summaries = [http.get(f"/api/matches/{m}").json() for m in match_ids]
    return summaries if all(s["status"] == "finished" for s in summaries) else None


def reviews(http: httpx.Client) -> dict[str, int]:
    return http.get("/healthz").json()["reviews"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flooders", type=int, default=3)
    parser.add_argument("--forfeits", type=int, default=120, help="per flooder")
    parser.add_argument("--long", type=int, default=2, help="long matches per flooder")
    parser.add_argument("--long-moves", type=int, default=600, help="the server's match cap")
    parser.add_argument("--moves", type=int, default=200, help="round trips per measurement")
    parser.add_argument("--limit", type=float, default=900, help="seconds any wait may take")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    if args.postgres:
        os.environ["CARDROOM_TEST_DATABASE_URL"] = POSTGRES
    with tempfile.TemporaryDirectory() as tmp, fresh_database(Path(tmp)) as url:
        env = {
            "CARDROOM_HOST": "127.0.0.1",
            "CARDROOM_REDIS_URL": "",
            "CARDROOM_MESSAGES_PER_SECOND": "100000",
            "CARDROOM_BOT_DELAY_MS": "0",
            "CARDROOM_BOT_QUICK_MS": "0",
            # the flood is as fast as the few flooders can make it: no per-host room limits
            "CARDROOM_MAX_OPEN_ROOMS": "100000",
            "CARDROOM_MAX_BOT_MATCHES": "100000",
            "CARDROOM_MIN_SEAT_HOLD_SECONDS": "1",
            "CARDROOM_MAX_MATCH_MOVES": str(args.long_moves),
            "CARDROOM_REVIEW_ON_FINISH": "true",
        }
        server = ServerProcess(url, free_port(), env, Path(tmp) / "server.log")
        server.start()
        try:
            run(server.url, args)
        finally:
            server.stop()


def run(base: str, args: argparse.Namespace) -> None:
    watcher = Guest(base, "Watcher")
    table = [Table(base)]
    for _ in range(20):  # warm up
        table[0].round_trip()
    idle = [t for t in (table[0].round_trip() for _ in range(args.moves)) if t is not None]
    print(describe("round trip, idle", idle), flush=True)

    flooders = [Guest(base, f"Flooder {n}") for n in range(args.flooders)]
    began = time.monotonic()
    jobs = [
        (flooder, flooders[(n + 1) % len(flooders)])
        for n, flooder in enumerate(flooders)
        for _ in range(args.forfeits)
    ]
    with ThreadPoolExecutor(8) as pool:
        long_ids = list(pool.map(long_match, [f for f in flooders for _ in range(args.long)]))
        forfeit_ids = list(pool.map(lambda job: forfeit_match(*job), jobs))
    print(
        f"flood: {len(forfeit_ids)} forfeits and {len(long_ids)} long matches started in "
        f"{time.monotonic() - began:.1f} s",
        flush=True,
    )
    summaries = wait(
        "the flood's matches to end",
        lambda: finished(watcher.http, forfeit_ids + long_ids),
        args.limit,
    )
    moves = [s["move_count"] for s in summaries[len(forfeit_ids) :]]
    ended = {s["outcome"]["termination"] for s in summaries[: len(forfeit_ids)]}
    capped = sum(s["outcome"]["detail"].get("reason") == "move_limit" for s in summaries)
    forfeit_moves = sum(s["move_count"] for s in summaries[: len(forfeit_ids)])
    print(
        f"flood ended: forfeits {sorted(ended)} with {forfeit_moves} moves in all; long "
        f"matches {moves} moves, {capped} stopped at the cap",
        flush=True,
    )
    queued = reviews(watcher.http)
    refused = sum(
        watcher.http.get(f"/api/matches/{m}/review").status_code == 409 for m in forfeit_ids[:20]
    )
    print(
        f"review queue after the flood: {queued['waiting']} waiting "
        f"(forfeits asked: {refused} of 20 answered 409 nothing_to_review)",
        flush=True,
    )

    bystander = Guest(base, "Bystander")
    played = play_match([bystander], "abstrac", ("easy",), seed=5, target=100)
    asked_at = time.monotonic()
    first = bystander.http.get(f"/api/matches/{played.match_id}/review")
    print(
        f"bystander's match {played.match_id} ({played.summary['move_count']} moves): review "
        f"asked -> {first.status_code} {first.json()}",
        flush=True,
    )
    if first.status_code not in (200, 202):
        raise SystemExit("the bystander's review was refused")

    loaded: list[float] = []
    while reviews(watcher.http)["waiting"] > 0 and len(loaded) < 5 * args.moves:
        window = [t for t in (table[0].round_trip() for _ in range(50)) if t is not None]
        loaded += window
        if table[0].state["over"]:
            table[0].close()
            table[0] = Table(base)
    if not loaded:
        print("the queue drained before the loaded round trips: use more --long or --forfeits")
    else:
        print(describe("round trip, flooded", loaded))
        ratio = statistics.median(loaded) / statistics.median(idle)
        print(f"ratio flooded/idle (p50): {ratio:.2f}  (target: at most 2)", flush=True)

    def done() -> dict[str, Any] | None:
        answer = bystander.http.get(f"/api/matches/{played.match_id}/review")
        if answer.status_code not in (200, 202):
            raise SystemExit(f"the bystander's review failed: {answer.status_code} {answer.text}")
        return answer.json() if answer.status_code == 200 else None

    review = wait("the bystander's review", done, args.limit)
    print(
        f"bystander's review done {time.monotonic() - asked_at:.1f} s after it was asked: "
        f"{len(review['decisions'])} decisions, sample {review['sample']}; "
        f"queue still {reviews(watcher.http)['waiting']} waiting",
        flush=True,
    )
    table[0].close()


if __name__ == "__main__":
    main()
