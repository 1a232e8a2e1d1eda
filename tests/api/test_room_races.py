"""Room changes that race each other over real HTTP: each room takes them one at a time."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.clients import Guest
from tests.support.races import race_start_and_leave, together
from tests.support.server import run_on_own_loop

TRIALS = 10


def _room(guest: Guest, room_id: str) -> dict[str, Any]:
    answer = guest.http.get(f"/api/rooms/{room_id}")
    answer.raise_for_status()
    return answer.json()


def test_one_player_racing_for_every_seat_gets_exactly_one(backend_server: str) -> None:
    player = Guest(backend_server, "Greedy")
    for _ in range(TRIALS):
        room_id = player.create_room("absolute", 4)["id"]
        answers = run_on_own_loop(
            together(*((player, "POST", f"/api/rooms/{room_id}/seats/{s}") for s in range(4)))
        )
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        assert {a.json()["error"]["code"] for a in answers if a.status_code == 409} <= {
            "already_seated",
            "seat_taken",
        }
        seats = _room(player, room_id)["seats"]
        assert [s["player"]["id"] for s in seats if s["player"]] == [player.id]


def test_a_start_racing_a_leave_never_plays_with_an_empty_seat(backend_server: str) -> None:
    host, guest = Guest(backend_server, "Host"), Guest(backend_server, "Leaver")
    for _ in range(2 * TRIALS):
        room_id, started = race_start_and_leave(host, guest)
        room = _room(host, room_id)
        if started:
            assert room["status"] == "playing" and all(s["player"] for s in room["seats"])
        else:
            assert room["status"] == "waiting" and room["seats"][1]["player"] is None


def test_unknown_rooms_leave_nothing_in_memory(backend_server: str) -> None:
    guest = Guest(backend_server, "Prober")
    before = guest.http.get("/healthz").json()
    asked = [(guest, "GET", f"/api/rooms/unknown{i}") for i in range(200)]
    answers = run_on_own_loop(together(*asked))
    assert {a.status_code for a in answers} == {404}
    for i in range(20):  # sockets to unknown rooms are told why, and leave nothing either
        with pytest.raises(ConnectionClosed) as closed:
            guest.socket(f"nosocket{i}").recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    after = guest.http.get("/healthz").json()
    assert after["loads_under_way"] == 0
    assert after["rooms_in_memory"] <= before["rooms_in_memory"]
