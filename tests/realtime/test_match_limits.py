"""Limits on what a match can be made to do (issue 34), over a real server of its own: the
server-wide cap on a match's length, and the shortest seat hold a room may ask for."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.support.clients import Guest
from tests.support.play import drive, open_table, start, wait_finished
from tests.support.server import private_server

MAX_MOVES = 8
MIN_HOLD_S = 2


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_QUICK_MS": "0",
        "CARDROOM_REVIEW_ON_FINISH": "false",
        "CARDROOM_MAX_MATCH_MOVES": str(MAX_MOVES),
        "CARDROOM_MIN_SEAT_HOLD_SECONDS": str(MIN_HOLD_S),
    }
    with private_server(tmp_path_factory.mktemp("limits"), env) as server:
        yield server.url


def test_a_match_that_reaches_the_move_limit_is_aborted_unrated(limited: str) -> None:
    """Two players who draw the discard and discard it back (ABSOLUTE's default options allow
    it for ever) meet the server's cap: the move that reaches it ends the match, aborted, with
    no winner and no rating, and the outcome says why."""
    ann, ben = Guest(limited, "Ann"), Guest(limited, "Ben")
    room_id, sockets = open_table([ann, ben], "absolute")
    try:
        match_id = start(ann, room_id)
        final = drive(sockets, random.Random(3), timeout=30)
    finally:
        for sock in sockets.values():
            sock.close()
    outcome = final["outcome"]
    assert final["seq"] == MAX_MOVES and final["legal"] == []
    assert outcome["termination"] == "aborted" and outcome["winners"] == []
    assert outcome["detail"] == {"reason": "move_limit", "limit": MAX_MOVES}
    summary = wait_finished(ann.http, match_id)
    assert summary["move_count"] == MAX_MOVES and summary["rated"] is False
    assert all(seat["rating"] is None for seat in summary["seats"])
    assert ann.http.get(f"/api/rooms/{room_id}").json()["status"] == "finished"
    last = ann.http.get(f"/api/matches/{match_id}/replay/{MAX_MOVES}").json()
    assert last["over"] and last["outcome"]["detail"]["reason"] == "move_limit"
    ratings = ann.http.get("/api/ratings", params={"game": "absolute"}).json()["ratings"]
    assert {r["player"]["id"] for r in ratings}.isdisjoint({ann.id, ben.id})


def test_two_mirroring_bots_end_at_the_limit_at_the_latest(limited: str) -> None:
    host = Guest(limited, "Host")
    room_id = host.create_room("abspecken", 2)["id"]
    for seat in (0, 1):
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "normal"}).raise_for_status()
    summary = wait_finished(host.http, start(host, room_id), timeout=30)
    assert summary["move_count"] <= MAX_MOVES


def test_a_room_cannot_ask_for_a_seat_hold_under_the_servers_minimum(limited: str) -> None:
    host = Guest(limited, "Host")
    short = {"game": "abstrac", "seats": 2, "table": {"seat_hold_seconds": MIN_HOLD_S - 1}}
    refused = host.post("/api/rooms", short)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_table"
    assert f"from {MIN_HOLD_S} to" in refused.json()["error"]["message"]
    enough = {**short, "table": {"seat_hold_seconds": MIN_HOLD_S}}
    assert host.post("/api/rooms", enough).status_code == 201
