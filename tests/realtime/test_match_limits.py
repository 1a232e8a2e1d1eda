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


def farmed(server: str, **table: object) -> tuple[Guest, Guest, str, int]:
    """A host and a fresh guest at an Abstrac table with a short seat hold: the guest takes
    the seat and never connects; the host watches the table."""
    host, guest = Guest(server, "Farmer"), Guest(server, "Fresh guest")
    body = {"game": "abstrac", "seats": 2, "table": {"seat_hold_seconds": MIN_HOLD_S, **table}}
    answer = host.post("/api/rooms", body)
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    return host, guest, room_id, start(host, room_id)


def unrated(host: Guest, guest: Guest, match_id: int) -> dict[str, object]:
    summary = wait_finished(host.http, match_id)
    assert summary["rated"] is False
    assert [seat["rating"] for seat in summary["seats"]] == [None, None]
    ratings = host.http.get("/api/ratings", params={"game": "abstrac"}).json()["ratings"]
    assert {r["player"]["id"] for r in ratings}.isdisjoint({host.id, guest.id})
    return summary


def test_a_guest_who_never_plays_forfeits_nobody_a_rated_win(limited: str) -> None:
    """The farm: a fresh guest takes the other seat and never connects, the seat hold runs out
    and the seat forfeits. The host wins, but a match a human made no move of their own in is
    not rated (it was: 40 rated wins in 9 s, rank 1 above the hard bot)."""
    host, guest, room_id, match_id = farmed(limited, on_absent="forfeit")
    sock = host.socket(room_id)
    try:
        final = sock.expect_until("state", lambda m: m["over"], 10, "the forfeit")
    finally:
        sock.close()
    assert final["outcome"]["termination"] == "forfeit" and final["outcome"]["winners"] == [0]
    unrated(host, guest, match_id)


def test_a_claim_against_a_guest_who_never_played_is_not_rated(limited: str) -> None:
    host, guest, room_id, match_id = farmed(limited, on_absent="bot")
    sock = host.socket(room_id)
    try:
        sock.expect_until("room", lambda m: m["room"]["seats"][1]["stand_in"], 10, "a stand-in")
        claimed = host.post(f"/api/rooms/{room_id}/claim")
        assert claimed.status_code == 200, claimed.text
    finally:
        sock.close()
    summary = unrated(host, guest, match_id)
    assert summary["outcome"]["termination"] == "claimed"  # type: ignore[index]
