"""What one player may hold at once, how long an unused room stays in memory, and matches
stored under other rules, over real HTTP."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.clients import Guest
from tests.support.play import play_bots
from tests.support.races import together
from tests.support.server import ServerProcess, private_server, run_on_own_loop, run_sql
from tests.support.waiting import until

OPEN_ROOMS, BOT_MATCHES = 3, 1


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[ServerProcess]:
    """A server with low caps, shared by the module's tests: each caps players of its own."""
    with private_server(
        tmp_path_factory.mktemp(f"capped-{backend}"),
        {
            "CARDROOM_MAX_OPEN_ROOMS": str(OPEN_ROOMS),
            "CARDROOM_MAX_BOT_MATCHES": str(BOT_MATCHES),
            "CARDROOM_BOT_DELAY_MS": "60000",  # the bots' matches stay running
        },
        backend=backend,
    ) as process:
        yield process


def test_a_player_holds_a_few_open_rooms_however_fast_they_ask(capped: ServerProcess) -> None:
    spammer, other = Guest(capped.url, "Spammer"), Guest(capped.url, "Other")
    create = (spammer, "POST", "/api/rooms", {"game": "abstrac", "seats": 2})
    answers = run_on_own_loop(together(*[create] * (3 * OPEN_ROOMS)))
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] * OPEN_ROOMS + [429] * (2 * OPEN_ROOMS)
    refused = spammer.post("/api/rooms", {"game": "abstrac", "seats": 2})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_rooms"
    assert other.post("/api/rooms", {"game": "abstrac", "seats": 2}).status_code == 201
    listed = [r for r in other.http.get("/api/rooms").json() if r["host"]["id"] == spammer.id]
    assert len(listed) == OPEN_ROOMS


def test_a_host_runs_few_matches_of_bots_alone(capped: ServerProcess) -> None:
    host = Guest(capped.url, "Host")
    rooms = [host.create_room("abstrac", 2)["id"] for _ in range(2)]
    for room_id in rooms:
        for seat in (0, 1):
            host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "hard"})
    assert host.post(f"/api/rooms/{rooms[0]}/start").status_code == 200
    refused = host.post(f"/api/rooms/{rooms[1]}/start")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_bot_matches"
    assert host.http.get(f"/api/rooms/{rooms[1]}").json()["status"] == "waiting"
    # a table where the host plays is not a match of bots alone
    host.http.delete(f"/api/rooms/{rooms[1]}/seats/0").raise_for_status()
    host.post(f"/api/rooms/{rooms[1]}/seats/0").raise_for_status()
    assert host.post(f"/api/rooms/{rooms[1]}/start").status_code == 200


def test_a_match_of_other_rules_is_not_replayed_with_these(tmp_path: Path, backend: str) -> None:
    with private_server(tmp_path, {"CARDROOM_BOT_DELAY_MS": "0"}, backend=backend) as server:
        host = Guest(server.url, "Host")
        room = host.post("/api/play-now", {"game": "abstrac", "level": "easy"}).json()
        match_id = room["match_id"]
        server.stop()
        set_version = f"UPDATE matches SET engine_version = 'old' WHERE id = {match_id}"
        if server.database_url.startswith("sqlite"):
            with sqlite3.connect(server.database_url.split(":///", 1)[1]) as db:
                db.execute(set_version)
        else:
            run_sql(server.database_url.replace("+asyncpg", ""), set_version)
        server.start()
        room = host.http.get(f"/api/rooms/{room['id']}").json()
        assert room["status"] == "finished"
        match = host.http.get(f"/api/matches/{match_id}").json()
        assert match["status"] == "finished" and match["outcome"]["termination"] == "aborted"
        replay = host.http.get(f"/api/matches/{match_id}/replay")
        assert replay.status_code == 409 and replay.json()["error"]["code"] == "rules_changed"
        again = host.post(f"/api/rooms/{room['id']}/rematch")
        assert again.status_code == 200 and again.json()["status"] == "playing"


def test_idle_rooms_leave_memory_and_come_back_from_the_database(
    tmp_path: Path, backend: str
) -> None:
    """Every room ever loaded stayed in memory until a restart."""
    env = {
        "CARDROOM_ROOM_IDLE_SECONDS": "0.5",
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_QUICK_MS": "0",
    }
    with private_server(tmp_path, env, backend=backend) as server:
        host = Guest(server.url, "Host")
        waiting = host.create_room("abstrac", 2)["id"]
        host.post(f"/api/rooms/{waiting}/seats/1").raise_for_status()
        match_id = play_bots(host, "abstrac", ("easy", "easy"))
        finished = host.http.get(f"/api/matches/{match_id}").json()["room_id"]
        before = {room: host.http.get(f"/api/rooms/{room}").json() for room in (waiting, finished)}

        def in_memory() -> int:
            return host.http.get("/healthz").json()["rooms_in_memory"]

        until(lambda: in_memory() == 0, "the idle rooms' eviction")
        for room, seen in before.items():
            assert host.http.get(f"/api/rooms/{room}").json() == seen
        assert in_memory() == 2
        sock = host.socket(finished)
        assert sock.expect("hello")["you"]["seat"] is None
        final = sock.expect("state")
        assert final["over"] and final["match_id"] == match_id
        sock.close()
