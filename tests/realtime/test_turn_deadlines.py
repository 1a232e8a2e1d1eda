"""Turn-based deadlines on three processes behind Postgres and Redis, two of them killed and
restarted on the way: every match's deadlines keep firing (none lost), each once and never
early (a stand-in's move a deadline after the move before), and each turn is pushed to its
player once; only a push under way in a process as it is killed may go again, after the
job's lease, under the same Topic (the push service keeps one). Nobody moves or watches:
every move is a missed deadline's stand-in."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.engine import make_engine
from app.db.models import Move, Room
from tests.support.clients import Guest
from tests.support.push_service import Browser, PushService, push_service
from tests.support.server import ServerProcess, default_backend, free_port, run_on_own_loop
from tests.support.waiting import until

# the suite's; the 200: CARDROOM_TEST_TURN_MATCHES=200 (about two minutes here)
MATCHES = int(os.environ.get("CARDROOM_TEST_TURN_MATCHES", "45"))
TURN_S = 2


@dataclass
class Table:
    room_id: str
    match_id: int
    browsers: list[Browser]  # each seat's player's


def moves_by_match(database_url: str) -> dict[int, list[Move]]:
    async def read() -> dict[int, list[Move]]:
        db = make_engine(database_url)
        try:
            async with db.connect() as conn:
                rows = (await conn.execute(select(Move).order_by(Move.match_id, Move.seq))).all()
        finally:
            await db.dispose()
        found: dict[int, list[Move]] = {}
        for row in rows:
            found.setdefault(row.match_id, []).append(row)
        return found

    return run_on_own_loop(read())


def match_ids(database_url: str) -> dict[str, int]:
    async def read() -> dict[str, int]:
        db = make_engine(database_url)
        try:
            async with db.connect() as conn:
                rows = await conn.execute(select(Room.id, Room.match_id))
                return {room_id: match_id for room_id, match_id in rows}
        finally:
            await db.dispose()

    return run_on_own_loop(read())


@pytest.fixture
def three(
    database_url: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[list[ServerProcess], PushService]]:
    if default_backend() != "postgres":
        pytest.skip("three processes share Postgres: set CARDROOM_TEST_DATABASE_URL")
    with push_service() as push:
        env = {
            "CARDROOM_REDIS_URL": redis_url,
            "CARDROOM_BOT_DELAY_MS": "0",
            "CARDROOM_BOT_QUICK_MS": "0",
            "CARDROOM_MIN_TURN_SECONDS": "1",
            "CARDROOM_PUSH_ENDPOINT_ORIGINS": json.dumps([push.origin]),
            "CARDROOM_JOBS_POLL_SECONDS": "0.25",
            "CARDROOM_JOBS_LEASE_SECONDS": "5",
            "CARDROOM_MAX_OPEN_ROOMS": "1000",
        }
        processes = [
            ServerProcess(database_url, free_port(), env, tmp_path / f"server-{n}.log")
            for n in range(3)
        ]
        for process in processes:
            process.start()
        try:
            yield processes, push
        finally:
            for process in processes:
                process.stop()


def test_deadlines_fire_once_and_none_is_lost_across_restarts(
    three: tuple[list[ServerProcess], PushService], database_url: str
) -> None:
    processes, push = three
    tables = []
    for n in range(MATCHES):
        # each room made on one process (its seats seen there at once), the rooms spread
        host, other = Guest(processes[n % 3].url, "Host"), Guest(processes[n % 3].url, "Far")
        browsers = []
        for guest in (host, other):
            browser = Browser(push, f"/push/{n}-{guest.id}")
            assert guest.post("/api/push/subscriptions", browser.subscription()).status_code == 201
            browsers.append(browser)
        table = {"pace": "turn_based", "turn_seconds": TURN_S, "on_absent": "bot"}
        made = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
        assert made.status_code == 201, made.text
        room_id = made.json()["id"]
        host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
        other.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()
        tables.append((room_id, browsers))
    matches = match_ids(database_url)
    started = [Table(room_id, matches[room_id], browsers) for room_id, browsers in tables]

    def every_match_has(count: int) -> bool:
        moves = moves_by_match(database_url)
        return all(len(moves.get(t.match_id, [])) >= count for t in started)

    until(lambda: every_match_has(1), "every match's first deadline", 60)
    kills = ((0, 2), (1, 3))
    for victim, later in kills:  # a process dies, whatever it was doing
        processes[victim].kill()
        processes[victim].start()
        until(lambda count=later: every_match_has(count), f"{later} deadlines each", 90)

    def all_told() -> bool:
        """Every player whose turn was missed has been told of it (a push whose process was
        killed goes once its job's lease is over)."""
        moves, pushed = moves_by_match(database_url), {r.path for r in push.received}
        return all(
            {m.seat for m in moves[t.match_id]}
            <= {
                s
                for s, b in enumerate(t.browsers)
                if b.endpoint.removeprefix(push.origin) in pushed
            }
            for t in started
        )

    until(all_told, "every missed turn's player told of it", 60)
    for process in processes:
        process.stop()

    moves = moves_by_match(database_url)
    for table in started:
        made = moves[table.match_id]
        assert [m.seq for m in made] == list(range(1, len(made) + 1))
        assert all(m.stand_in for m in made)  # nobody moved: each a missed deadline's
        times = [m.at for m in made]
        gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
        assert min(gaps) >= TURN_S, (table.match_id, gaps)  # never early, never twice
    # each player's turn pushed once (a notice's topic names it), but for at most the one push
    # each killed process had under way
    again = 0
    for table in started:
        for browser in table.browsers:
            path = browser.endpoint.removeprefix(push.origin)
            topics = [request.headers["topic"] for request in push.to(path)]
            again += len(topics) - len(set(topics))
    assert again <= len(kills)
