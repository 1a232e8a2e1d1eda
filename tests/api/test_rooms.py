"""Rooms over real HTTP: creation, seats, bots, start, and every refusal."""

from __future__ import annotations

import httpx

from tests.support.clients import Guest


def test_create_take_seats_and_start(live_server: str) -> None:
    host, guest = Guest(live_server, "Host"), Guest(live_server, "Guest")
    room = host.create_room("abstrac", 2, target=100)
    assert room["status"] == "waiting" and room["host"]["id"] == host.id
    assert room["options"] == {"target": 100}
    assert [s["player"] for s in room["seats"]] == [None, None]
    assert (
        host.post(f"/api/rooms/{room['id']}/seats/0").json()["seats"][0]["player"]["id"] == host.id
    )
    taken = guest.post(f"/api/rooms/{room['id']}/seats/0")
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    early = host.post(f"/api/rooms/{room['id']}/start")
    assert early.status_code == 409 and early.json()["error"]["code"] == "seats_empty"
    guest.post(f"/api/rooms/{room['id']}/seats/1").raise_for_status()
    not_host = guest.post(f"/api/rooms/{room['id']}/start")
    assert not_host.status_code == 403
    started = host.post(f"/api/rooms/{room['id']}/start").json()
    assert started["status"] == "playing" and started["match_id"]
    again = host.post(f"/api/rooms/{room['id']}/start")
    assert again.status_code == 409
    assert guest.http.get(f"/api/rooms/{room['id']}").json()["match_id"] == started["match_id"]
    listed = {r["id"] for r in httpx.get(f"{live_server}/api/rooms").json()}
    assert room["id"] in listed


def test_seat_rules(live_server: str) -> None:
    host, guest = Guest(live_server, "H"), Guest(live_server, "G")
    room_id = host.create_room()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    twice = host.post(f"/api/rooms/{room_id}/seats/1")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "already_seated"
    assert host.post(f"/api/rooms/{room_id}/seats/7").status_code == 404
    foreign = guest.http.delete(f"/api/rooms/{room_id}/seats/0")
    assert foreign.status_code == 403
    left = host.http.delete(f"/api/rooms/{room_id}/seats/0").json()
    assert left["seats"][0]["player"] is None
    assert httpx.post(f"{live_server}/api/rooms/{room_id}/seats/0").status_code == 401


def test_bots_are_for_the_host(live_server: str) -> None:
    host, guest = Guest(live_server, "H"), Guest(live_server, "G")
    room_id = host.create_room()["id"]
    refused = guest.post(f"/api/rooms/{room_id}/seats/1/bot", {"level": "easy"})
    assert refused.status_code == 403
    bad = host.post(f"/api/rooms/{room_id}/seats/1/bot", {"level": "godlike"})
    assert bad.status_code == 422
    room = host.post(f"/api/rooms/{room_id}/seats/1/bot", {"level": "easy"}).json()
    assert room["seats"][1]["bot"] == "easy" and room["seats"][1]["connected"] is True
    removed = host.http.delete(f"/api/rooms/{room_id}/seats/1").json()
    assert removed["seats"][1]["bot"] is None


def test_bad_room_requests(live_server: str) -> None:
    host = Guest(live_server, "H")
    cases = [
        ({"game": "chess", "seats": 2}, 422),
        ({"game": "abstrac", "seats": 3}, 422),
        ({"game": "abstrac", "seats": 2, "options": {"target": -5}}, 422),
        ({"game": "abstrac", "seats": 2, "options": {"bogus": 1}}, 422),
        ({"game": "abstrac", "seats": "two"}, 422),
        ({"seats": 2}, 422),
    ]
    for body, status in cases:
        answer = host.post("/api/rooms", body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"]["message"]
    assert host.http.get("/api/rooms/nope").status_code == 404
    assert host.post("/api/rooms/nope/start").status_code == 404
