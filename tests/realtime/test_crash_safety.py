"""Kill the server with SIGKILL at random moments, 20 times, while several rooms play.

Every move a client saw acknowledged (its own new state came back) must be in the log after
the restart, at the same position; every match must go on from its last acknowledged move,
bots and timers included; and every finished match must replay to its stored result.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games import get_game
from tests.support.clients import Guest, RoomSocket
from tests.support.server import ServerProcess, free_port, private_server
from tests.support.waiting import until

KILLS = 20
HUMAN_ROOMS = 3


CRASHY = {
    "CARDROOM_BOT_DELAY_MS": "40",
    "CARDROOM_BOT_QUICK_MS": "0",
    "CARDROOM_SNAPSHOT_EVERY": "4",
    "CARDROOM_MESSAGES_PER_SECOND": "10000",
}


@pytest.fixture
def crashy_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with private_server(tmp_path, CRASHY) as process:
        yield process


@pytest.fixture
def crashy_replicas(
    database_url: str, redis_url: str, tmp_path: Path
) -> Iterator[list[ServerProcess]]:
    """Two processes behind Redis; the second is the one killed."""
    env = {**CRASHY, "CARDROOM_REDIS_URL": redis_url, "CARDROOM_PRESENCE_HEARTBEAT_SECONDS": "0.5"}
    processes = [
        ServerProcess(database_url, free_port(), env, tmp_path / f"replica-{n}.log")
        for n in range(2)
    ]
    for process in processes:
        process.start()
    yield processes
    for process in processes:
        process.stop()


class Table:
    """Two scripted players at one room, remembering every move acknowledged to them."""

    def __init__(self, bases: tuple[str, str], rng: random.Random) -> None:
        self.rng = rng
        self.guests = [Guest(bases[0], "A"), Guest(bases[1], "B")]
        self.room_id = self.guests[0].create_room("abstrac", 2, target=150)["id"]
        for seat, guest in enumerate(self.guests):
            guest.post(f"/api/rooms/{self.room_id}/seats/{seat}").raise_for_status()
        self.sockets: list[RoomSocket] = []
        self.acked: dict[int, dict[str, Any]] = {}  # (match) seq -> action
        self.match_id: int | None = None
        self.state: dict[str, Any] | None = None

    def connect(self) -> None:
        self.sockets = [guest.socket(self.room_id) for guest in self.guests]
        self.state = self.sockets[0].expect("state")

    def step(self) -> bool:
        """One move by whoever is to act; False when the match is over."""
        state = self.state
        assert state is not None
        if state["over"]:
            return False
        seat = state["to_act"][0]
        mover = self.sockets[seat]
        own = mover.state_at(state["seq"])
        action = self.rng.choice(own["legal"])
        mover.act(action, seq=own["seq"])
        reply = mover.expect("state", seq=own["seq"] + 1)
        assert reply["last"] == {"seat": seat, "action": action}
        self.acked[reply["seq"]] = action
        self.match_id = reply["match_id"]
        self.state = reply
        return True


def test_twenty_sigkills_lose_no_acknowledged_move(crashy_server: ServerProcess) -> None:
    base = crashy_server.url
    kill_and_check(crashy_server, (base, base), KILLS)


def test_sigkills_of_one_of_two_replicas_lose_no_acknowledged_move(
    crashy_replicas: list[ServerProcess],
) -> None:
    """Each table's second player plays on the replica that is killed, the first on the one
    that stays; bots and timers run on both."""
    one, two = crashy_replicas
    kill_and_check(two, (one.url, two.url), KILLS // 2)


def kill_and_check(victim: ServerProcess, bases: tuple[str, str], kills: int) -> None:
    base = bases[0]
    rng = random.Random(20)
    tables = [Table(bases, rng) for _ in range(HUMAN_ROOMS)]
    host = tables[0].guests[0]
    bot_room = host.create_room("abstrac", 2, target=300)["id"]
    for seat in (0, 1):
        host.post(f"/api/rooms/{bot_room}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    # nobody moves there: a timer plays each move, a second apiece. Its 25 or so moves (up to
    # 100 at the default target, which left the test waiting a minute after the kills) last
    # about as long as the kills do, so its timers run across them.
    timed_room = host.post(
        "/api/rooms",
        {"game": "abstrac", "seats": 2, "options": {"target": 100}, "table": {"turn_seconds": 1}},
    ).json()["id"]
    host.post(f"/api/rooms/{timed_room}/seats/0").raise_for_status()
    tables[0].guests[1].post(f"/api/rooms/{timed_room}/seats/1").raise_for_status()
    for table in tables:
        table.guests[0].post(f"/api/rooms/{table.room_id}/start").raise_for_status()
    for room_id in (bot_room, timed_room):
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()

    for _ in range(kills):
        for table in tables:
            table.connect()
        killer = threading.Timer(rng.uniform(0.05, 0.4), victim.kill)
        killer.start()
        try:  # play until the kill cuts the sockets, mid-move or between moves
            while True:
                progressed = False
                for table in tables:
                    progressed |= table.step()
                if not progressed:
                    break
        except (ConnectionClosed, TimeoutError, OSError, InvalidStatus):
            pass
        killer.join()
        victim.kill()
        victim.start()
        for table in tables:
            check_acknowledged(base, table)

    bot_match = finish_all(base, tables, bot_room, timed_room)
    for table in tables:
        replay = httpx.get(f"{base}/api/matches/{table.match_id}/replay").json()
        logged = {m["seq"]: m["action"] for m in replay["actions"]}
        assert all(logged[seq] == action for seq, action in table.acked.items())
        assert_replays_to_stored_result(base, table.match_id)
    assert_replays_to_stored_result(base, bot_match)


def check_acknowledged(base: str, table: Table) -> None:
    """The server is at or past every acknowledged move, and its last one is ours."""
    sock = table.guests[0].socket(table.room_id)
    state = sock.expect("state")
    newest = max(table.acked, default=0)
    assert state["match_id"] == table.match_id or not table.acked
    assert state["seq"] >= newest
    if state["seq"] == newest and newest:
        assert state["last"]["action"] == table.acked[newest]
    sock.close()


def finish_all(base: str, tables: list[Table], bot_room: str, timed_room: str) -> int:
    for table in tables:
        table.connect()
        while table.step():
            pass
    watcher = tables[0].guests[0]

    def finished(room_id: str) -> bool:
        return watcher.http.get(f"/api/rooms/{room_id}").json()["status"] == "finished"

    for room_id in (bot_room, timed_room):
        until(partial(finished, room_id), f"room {room_id}'s end", 120, every_s=0.3)
    return watcher.http.get(f"/api/rooms/{bot_room}").json()["match_id"]


def assert_replays_to_stored_result(base: str, match_id: int | None) -> None:
    match = httpx.get(f"{base}/api/matches/{match_id}").json()
    replay = httpx.get(f"{base}/api/matches/{match_id}/replay").json()
    engine = get_game(match["game"])
    state = engine.setup(len(match["seats"]), replay["seed"], replay["options"])
    for seq, move in enumerate(replay["actions"], start=1):
        assert move["seq"] == seq  # no gaps, no duplicates
        state = engine.apply(state, move["seat"], move["action"])
    outcome = engine.outcome(state)
    assert outcome is not None
    assert {**outcome.to_json(), "termination": "normal"} == match["outcome"]
