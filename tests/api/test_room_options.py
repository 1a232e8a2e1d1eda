"""Room options are checked against the game, the table size included, before a room exists."""

from __future__ import annotations

from tests.support.clients import Guest


def test_abspecken_first_roller_past_the_table_is_refused_at_creation(backend_server: str) -> None:
    """It was accepted; the start then answered 500 and left the room "playing"."""
    host = Guest(backend_server, "Host")
    refused = host.post(
        "/api/rooms", {"game": "abspecken", "seats": 2, "options": {"first_roller": 2}}
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_options"
    assert "first_roller" in refused.json()["error"]["message"]

    room = host.create_room("abspecken", 2, first_roller=1)
    room_id = room["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    host.post(f"/api/rooms/{room_id}/seats/1/bot", {"level": "easy"}).raise_for_status()
    started = host.post(f"/api/rooms/{room_id}/start")
    assert started.status_code == 200 and started.json()["status"] == "playing"
