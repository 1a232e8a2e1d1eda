"""Room changes that race each other over real HTTP: each room takes them one at a time."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.clients import Guest
from tests.server import run_on_own_loop

TRIALS = 10


Request = tuple[Guest, str, str] | tuple[Guest, str, str, Any]


async def _together(*requests: Request) -> list[httpx.Response]:
    """Send the requests (guest, method, path and maybe a JSON body) at once, each on a client
    of its own, and wait for every answer."""

    async def send(guest: Guest, method: str, path: str, body: Any = None) -> httpx.Response:
        async with httpx.AsyncClient(
            base_url=guest.base_url,
            headers={"Authorization": f"Bearer {guest.token}"},
            timeout=20,
        ) as client:
            return await client.request(method, path, json=body)

    return list(await asyncio.gather(*(send(*r) for r in requests)))


def _room(guest: Guest, room_id: str) -> dict[str, Any]:
    answer = guest.http.get(f"/api/rooms/{room_id}")
    answer.raise_for_status()
    return answer.json()


def test_one_player_racing_for_every_seat_gets_exactly_one(live_server: str) -> None:
    player = Guest(live_server, "Greedy")
    for _ in range(TRIALS):
        room_id = player.create_room("absolute", 4)["id"]
        answers = run_on_own_loop(
            _together(*((player, "POST", f"/api/rooms/{room_id}/seats/{s}") for s in range(4)))
        )
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        assert {a.json()["error"]["code"] for a in answers if a.status_code == 409} <= {
            "already_seated",
            "seat_taken",
        }
        seats = _room(player, room_id)["seats"]
        assert [s["player"]["id"] for s in seats if s["player"]] == [player.id]


def test_a_start_racing_a_leave_never_plays_with_an_empty_seat(live_server: str) -> None:
    host, guest = Guest(live_server, "Host"), Guest(live_server, "Leaver")
    outcomes = set()
    for _ in range(2 * TRIALS):
        room_id = host.create_room("abstrac", 2)["id"]
        host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
        guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
        start, leave = run_on_own_loop(
            _together(
                (host, "POST", f"/api/rooms/{room_id}/start"),
                (guest, "DELETE", f"/api/rooms/{room_id}/seats/1"),
            )
        )
        assert (start.status_code, leave.status_code) in {(200, 409), (409, 200)}
        room = _room(host, room_id)
        if start.status_code == 200:
            assert room["status"] == "playing" and all(s["player"] for s in room["seats"])
            outcomes.add("started")
        else:
            assert start.json()["error"]["code"] == "seats_empty"
            assert room["status"] == "waiting" and room["seats"][1]["player"] is None
            outcomes.add("left")
    assert outcomes  # every trial ended in one of the two orders, consistently


def test_unknown_rooms_leave_nothing_in_memory(live_server: str) -> None:
    guest = Guest(live_server, "Prober")
    before = guest.http.get("/healthz").json()
    asked = [(guest, "GET", f"/api/rooms/unknown{i}") for i in range(200)]
    answers = run_on_own_loop(_together(*asked))
    assert {a.status_code for a in answers} == {404}
    for i in range(20):  # sockets to unknown rooms are told why, and leave nothing either
        with pytest.raises(ConnectionClosed) as closed:
            guest.socket(f"nosocket{i}").recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    after = guest.http.get("/healthz").json()
    assert after["loads_under_way"] == 0
    assert after["rooms_in_memory"] <= before["rooms_in_memory"]
