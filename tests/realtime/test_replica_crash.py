"""A replica that crashes leaves no player present for ever: what it said of its sockets holds
for three heartbeats, then its players are absent, their seat holds run out, and a stand-in
plays for them on the replica that is left (which may then let the others claim the win)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.clients import Guest
from tests.support.server import ServerProcess, free_port
from tests.support.waiting import until

HEARTBEAT_S = 0.2
SEAT_HOLD_S = 1


@pytest.fixture
def replicas(database_url: str, redis_url: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    processes = [
        ServerProcess(
            database_url=database_url,
            port=free_port(),
            env={
                "CARDROOM_BOT_DELAY_MS": "0",
                "CARDROOM_REDIS_URL": redis_url,
                "CARDROOM_PRESENCE_HEARTBEAT_SECONDS": str(HEARTBEAT_S),
                "CARDROOM_MIN_SEAT_HOLD_SECONDS": str(SEAT_HOLD_S),
            },
            log_path=tmp_path / f"replica-{n}.log",
        )
        for n in range(2)
    ]
    for process in processes:
        process.start()
    yield processes
    for process in processes:
        process.stop()


def test_a_crashed_replicas_player_becomes_absent_and_a_stand_in_plays(
    replicas: list[ServerProcess],
) -> None:
    one, two = replicas
    host, guest = Guest(one.url, "Host"), Guest(two.url, "Guest")
    answer = host.post(
        "/api/rooms",
        {"game": "abstrac", "seats": 2, "table": {"seat_hold_seconds": SEAT_HOLD_S}},
    )
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    host_socket = host.socket(room_id)
    guest_socket = guest.socket(room_id)  # on the other replica
    guest_socket.expect("hello")
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    state = host_socket.expect("state", seq=0)

    def seat_of_guest() -> dict[str, Any]:
        return host.http.get(f"/api/rooms/{room_id}").json()["seats"][1]

    until(lambda: seat_of_guest()["connected"], "replica one hearing of the guest")
    two.kill()
    until(lambda: not seat_of_guest()["connected"], "the crashed replica's guest absent")
    seat = until(lambda: (s := seat_of_guest())["stand_in"] and s, "a stand-in for the guest")
    assert seat["away"] and seat["player"]["name"] == "Guest"
    # the stand-in plays the guest's turns on the replica that is left
    while state["to_act"] == [0]:
        host_socket.act(state["legal"][0], seq=state["seq"])
        state = host_socket.state_at(state["seq"] + 1)
    moved = host_socket.state_at(state["seq"] + 1)
    assert moved["last"]["seat"] == 1
    claimed = host.post(f"/api/rooms/{room_id}/claim")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["status"] == "finished"
