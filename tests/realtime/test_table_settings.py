"""Turn timers, the seat hold, bot takeover, forfeits, spectator chat and play-now, live.

Each timing test waits for the message the server sends when its time is up; what happens at
which exact second is tested in process on a manual clock, in tests/app/rooms/test_referee.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from app.rooms.views import SPECTATOR_NAMES
from tests.support.clients import Guest
from tests.support.waiting import until

THINKING = timedelta(seconds=0.5)


def moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def started(live_server: str, **table: Any) -> tuple[Guest, Guest, str, dict[str, Any]]:
    host, guest = Guest(live_server, "Host"), Guest(live_server, "Guest")
    answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
    assert answer.status_code == 201, answer.text
    room = answer.json()
    assert room["table"] | table == room["table"]
    host.post(f"/api/rooms/{room['id']}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room['id']}/seats/1").raise_for_status()
    host.post(f"/api/rooms/{room['id']}/start").raise_for_status()
    return host, guest, room["id"], room


def test_bad_table_settings_are_refused(live_server: str) -> None:
    host = Guest(live_server, "Host")
    for table in ({"turn_seconds": -1}, {"on_absent": "shrug"}, {"clock": "yes"}, {"x": 1}):
        answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_table"


def test_a_turn_timer_plays_the_games_fallback_move(live_server: str) -> None:
    host, _, room_id, _ = started(live_server, turn_seconds=1)
    sock = host.socket(room_id)
    first = sock.expect("state", seq=0)
    (seat,) = first["to_act"]
    deadline = moment(first["deadlines"][str(seat)])
    assert deadline - datetime.now(UTC) <= timedelta(seconds=1)  # at most the turn's second on
    match = host.http.get(f"/api/matches/{first['match_id']}").json()
    assert deadline == moment(match["started_at"]) + timedelta(seconds=1)
    moved = sock.expect("state", seq=1, timeout=5)
    fallback = {"type": "order", "first": True}  # Abstrac's fallback: its first legal action
    assert moved["last"] == {"seat": seat, "action": fallback}


def test_a_timeout_forfeits_when_the_room_says_so(live_server: str) -> None:
    host, _, room_id, _ = started(live_server, turn_seconds=1, on_absent="forfeit")
    sock = host.socket(room_id)
    (seat,) = sock.expect("state", seq=0)["to_act"]
    over = sock.expect("state", seq=0, over=True, timeout=5)
    assert over["outcome"]["detail"] == {"forfeit": seat, "reason": "timeout"}
    assert over["outcome"]["termination"] == "forfeit"
    assert over["outcome"]["winners"] == [1 - seat] and over["legal"] == []
    match = host.http.get(f"/api/matches/{over['match_id']}").json()
    assert match["status"] == "finished" and match["winners"] == [1 - seat]
    assert host.http.get(f"/api/rooms/{room_id}").json()["status"] == "finished"


def test_a_chess_clock_spends_each_seats_own_bank(live_server: str) -> None:
    """The deadline sent is the bank less the time spent, by the server's own time stamps;
    once the bank is spent the seat forfeits (the room says so)."""
    host, guest, room_id, _ = started(live_server, turn_seconds=2, clock=True, on_absent="forfeit")
    sockets = {0: host.socket(room_id), 1: guest.socket(room_id)}
    state = sockets[0].expect("state", seq=0)
    (slow,) = state["to_act"]
    started_at = moment(host.http.get(f"/api/matches/{state['match_id']}").json()["started_at"])
    thought = started_at + THINKING  # the slow seat thinks before its first move
    until(lambda: datetime.now(UTC) >= thought, "the slow seat's thinking", every_s=0.01)
    sockets[slow].act(sockets[slow].state_at(0)["legal"][0], seq=0)
    state = sockets[slow].state_at(1)
    while slow not in state["to_act"]:
        mover = sockets[state["to_act"][0]]
        mover.act(mover.state_at(state["seq"])["legal"][0], seq=state["seq"])
        state = mover.state_at(state["seq"] + 1)
    deadline = moment(state["deadlines"][str(slow)])
    over = sockets[slow].expect("state", seq=state["seq"], over=True, timeout=5)
    assert over["outcome"]["detail"] == {"forfeit": slow, "reason": "timeout"}
    match = host.http.get(f"/api/matches/{state['match_id']}").json()
    moves = host.http.get(f"/api/matches/{state['match_id']}/replay").json()["actions"]
    assert len(moves) == state["seq"] and moves[0]["seat"] == slow
    spent = moment(moves[0]["at"]) - moment(match["started_at"])  # slow's only turn so far
    assert spent >= THINKING
    banked = moment(moves[-1]["at"]) + timedelta(seconds=2) - spent
    assert abs(deadline - banked) <= timedelta(milliseconds=1)


def test_an_absent_player_is_stood_in_for_by_a_bot_and_gets_the_seat_back(
    live_server: str,
) -> None:
    host, guest, room_id, _ = started(live_server, seat_hold_seconds=1)
    watch = host.socket(room_id)
    away_sock = guest.socket(room_id)
    away_sock.expect("state", seq=0)
    away_sock.close()
    room = watch.expect("room", timeout=5)
    while room["room"]["seats"][1]["connected"]:
        room = watch.expect("room", timeout=5)
    while not room["room"]["seats"][1]["away"]:
        room = watch.expect("room", timeout=5)
    state = watch.state_at(0)
    for _ in range(6):  # the host plays; the stand-in bot answers for seat 1
        if 0 in state["to_act"]:
            watch.act(state["legal"][0], seq=state["seq"])
        state = watch.expect("state", seq=state["seq"] + 1, timeout=5)
    assert any(
        m.get("last", {}) and m["last"]["seat"] == 1 for m in watch.received if m["type"] == "state"
    )
    back = guest.socket(room_id)
    assert back.expect("hello")["you"]["seat"] == 1
    room = watch.expect("room", timeout=5)
    while room["room"]["seats"][1]["away"]:
        room = watch.expect("room", timeout=5)
    assert room["room"]["seats"][1]["connected"] is True


def test_an_absent_player_forfeits_when_the_room_says_so(live_server: str) -> None:
    host, guest, room_id, _ = started(live_server, seat_hold_seconds=1, on_absent="forfeit")
    watch = host.socket(room_id)
    watch.expect("state", seq=0)
    gone = guest.socket(room_id)
    gone.expect("hello")
    gone.close()
    over = watch.expect("state", over=True, timeout=6)
    assert over["outcome"]["detail"] == {"forfeit": 1, "reason": "absent"}


def test_spectators_chat_among_themselves_during_play(live_server: str) -> None:
    host, _, room_id, _ = started(live_server)
    player = host.socket(room_id)
    fan = Guest(live_server, "Fan").socket(room_id)
    other_fan = Guest(live_server, "Other fan").socket(room_id)
    fan.send({"type": "chat", "text": "who wins?"})
    assert other_fan.expect("chat")["channel"] == "spectators"
    player.send({"type": "chat", "text": "gl hf"})
    said = other_fan.expect("chat")
    assert said["text"] == "gl hf" and said["channel"] == "players"
    assert [m["text"] for m in player.received if m["type"] == "chat"] == []
    assert player.expect("chat")["text"] == "gl hf"  # only its own channel's


def test_play_now_seats_you_against_bots_in_one_request(live_server: str) -> None:
    me = Guest(live_server, "Me")
    room = me.post("/api/play-now", {"game": "abstrac", "level": "easy", "opponents": 1}).json()
    assert room["status"] == "playing" and room["private"] is True
    assert room["seats"][0]["player"]["id"] == me.id and room["seats"][1]["bot"] == "easy"
    state = me.socket(room["id"]).expect("state")
    assert state["match_id"] == room["match_id"]
    solo = me.post("/api/play-now", {"game": "balance", "opponents": 0}).json()
    assert len(solo["seats"]) == 1 and solo["status"] == "playing"
    refused = me.post("/api/play-now", {"game": "abstrac", "opponents": 4})
    assert refused.status_code == 422
    assert httpx.post(f"{live_server}/api/play-now", json={"game": "abstrac"}).status_code == 401


def test_a_crowd_is_counted_and_only_the_first_names_are_listed(live_server: str) -> None:
    host, _, room_id, _ = started(live_server)
    player = host.socket(room_id)
    crowd = [Guest(live_server, f"Fan {i}").socket(room_id) for i in range(SPECTATOR_NAMES + 2)]
    room = player.expect_until(
        "room", lambda m: m["room"]["spectator_count"] >= len(crowd), 10, "the crowd counted"
    )["room"]
    assert room["spectator_count"] == len(crowd)
    assert len(room["spectators"]) == SPECTATOR_NAMES
    assert [s["name"] for s in room["spectators"]][:2] == ["Fan 0", "Fan 1"]
    for fan in crowd:
        fan.drop()
    room = player.expect_until(
        "room", lambda m: not m["room"]["spectator_count"], 20, "the crowd gone"
    )["room"]
    assert room["spectator_count"] == 0 and room["spectators"] == []


def test_a_running_match_changes_pace_when_both_players_agree_over_a_socket_and_http(
    live_server: str,
) -> None:
    host, guest, room_id, _ = started(live_server)
    watcher = Guest(live_server, "Watcher")
    theirs, mine, watching = host.socket(room_id), guest.socket(room_id), watcher.socket(room_id)
    for sock in (theirs, mine, watching):
        sock.expect("hello")
    theirs.send({"type": "pace", "pace": "sometimes"})
    assert theirs.expect("error")["code"] == "bad_message"
    theirs.send({"type": "pace", "pace": "turn_based", "turn_seconds": 86400})
    vote = watching.expect_until("room", lambda m: m["room"]["pace_vote"] is not None)
    assert vote["room"]["pace_vote"]["accepted"] == [0]
    assert vote["room"]["table"]["pace"] == "live"
    answer = watcher.post(f"/api/rooms/{room_id}/pace", {"pace": "turn_based"})
    assert answer.status_code == 403  # a spectator has no say
    answer = guest.post(f"/api/rooms/{room_id}/pace", {"pace": "turn_based", "turn_seconds": 86400})
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["pace"] == "turn_based" and answer.json()["pace_vote"] is None
    switched = watching.expect_until("room", lambda m: m["room"]["table"]["pace"] == "turn_based")
    assert switched["room"]["table"]["turn_seconds"] == 86400
    # back to live: one declines, over the socket
    assert guest.post(f"/api/rooms/{room_id}/pace", {"pace": "live"}).status_code == 200
    mine.expect_until("room", lambda m: m["room"]["pace_vote"] is not None)
    theirs.send({"type": "pace", "accept": False})
    mine.expect_until("room", lambda m: m["room"]["pace_vote"] is None)
    assert httpx.get(f"{live_server}/api/rooms/{room_id}").json()["table"]["pace"] == "turn_based"
    wrong = host.post(f"/api/rooms/{room_id}/pace", {"pace": "turn_based"})
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "invalid_table"
