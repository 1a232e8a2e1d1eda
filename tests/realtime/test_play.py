"""Real-time play over real sockets: a whole match, a spectator, and every refusal."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.conftest import FLOOD_RATE
from tests.support.clients import Guest, RoomSocket
from tests.support.server import ServerProcess


def seated_room(live_server: str, **options: Any) -> tuple[Guest, Guest, str]:
    host, guest = Guest(live_server, "Host"), Guest(live_server, "Guest")
    room_id = host.create_room("abstrac", 2, **options)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    return host, guest, room_id


def play_out(sockets: dict[int, RoomSocket], state: dict[str, Any]) -> dict[str, Any]:
    """Each seat to act plays its first legal action until the match is over."""
    while not state["over"]:
        mover = sockets[state["to_act"][0]]
        own = mover.state_at(state["seq"])
        mover.act(own["legal"][0], seq=own["seq"])
        state = mover.state_at(state["seq"] + 1)
    return state


def test_hello_room_state_and_a_whole_match_with_a_spectator(live_server: str) -> None:
    host, guest, room_id = seated_room(live_server, target=50)
    watcher = Guest(live_server, "Watcher")
    a, b = host.socket(room_id), guest.socket(room_id)
    hello = a.expect("hello")
    assert hello["you"] == {"player_id": host.id, "seat": 0}
    assert hello["room"]["status"] == "waiting"
    assert b.expect("hello")["you"]["seat"] == 1
    spectator = watcher.socket(room_id)
    assert spectator.expect("hello")["you"]["seat"] is None
    room = a.expect("room", timeout=5)
    assert room["room"]["seats"][0]["connected"] is True

    started = host.post(f"/api/rooms/{room_id}/start").json()
    first = a.expect("state", seq=0)
    assert first["match_id"] == started["match_id"] and first["view"]["phase"] == "choose_order"
    b.expect("state", seq=0)
    watched = spectator.expect("state", seq=0)
    assert watched["legal"] == [] and watched["view"] == first["view"]

    spectator.act({"type": "take", "count": 1})
    refused = spectator.expect("error")
    assert refused["code"] == "not_seated"

    final = play_out({0: a, 1: b}, first)
    assert final["outcome"]["winners"] and max(final["view"]["totals"]) >= 50
    seen = spectator.expect("state", seq=final["seq"])
    assert seen["over"] and seen["outcome"] == final["outcome"]
    assert a.expect("room")["room"]["status"] == "finished"

    match = httpx.get(f"{live_server}/api/matches/{final['match_id']}").json()
    assert match["status"] == "finished" and match["move_count"] == final["seq"]
    assert [s["score"] for s in match["seats"]] == final["outcome"]["scores"]
    history = httpx.get(f"{live_server}/api/matches", params={"player": guest.id}).json()
    assert history[0]["id"] == final["match_id"]
    replay = httpx.get(f"{live_server}/api/matches/{final['match_id']}/replay").json()
    assert len(replay["actions"]) == final["seq"]
    end = httpx.get(f"{live_server}/api/matches/{final['match_id']}/replay/{final['seq']}")
    assert end.json()["views"][0] == final["view"] == end.json()["view"]
    assert "rng" not in end.text

    proposed = guest.post(f"/api/rooms/{room_id}/rematch").json()  # by agreement (issue 24)
    assert proposed["status"] == "finished" and proposed["rematch"]["accepted"] == [1]
    rematch = host.post(f"/api/rooms/{room_id}/rematch").json()
    assert rematch["status"] == "playing" and rematch["match_id"] != final["match_id"]
    assert a.expect("state", seq=0)["match_id"] == rematch["match_id"]
    for sock in (a, b, spectator):
        sock.close()


def test_refused_actions_change_nothing(live_server: str) -> None:
    host, guest, room_id = seated_room(live_server)
    a, b = host.socket(room_id), guest.socket(room_id)
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    state = a.expect("state", seq=0)
    b.expect("state", seq=0)
    mover = {0: a, 1: b}[state["to_act"][0]]
    idle = {0: a, 1: b}[1 - state["to_act"][0]]

    idle.act({"type": "order", "first": True}, ref="r1")
    assert idle.expect("error") | {"message": ""} == {
        "type": "error",
        "code": "not_your_turn",
        "message": "",
        "ref": "r1",
    }
    mover.act({"type": "take", "count": 9}, ref=7)
    illegal = mover.expect("error")
    assert illegal["code"] == "illegal_action" and illegal["ref"] == 7 and illegal["message"]
    mover.ws.send("{this is not json")
    assert mover.expect("error")["code"] == "bad_message"
    mover.send({"type": "action"})
    assert mover.expect("error")["code"] == "bad_message"
    mover.send({"type": "warp"})
    assert mover.expect("error")["code"] == "bad_message"
    mover.act({"type": "order", "first": True}, seq=5)
    assert mover.expect("error")["code"] == "stale"
    mover.send({"type": "ping"})
    assert mover.expect("pong") == {"type": "pong"}

    assert mover.latest_state() is None and idle.latest_state() is None  # nothing moved
    match = httpx.get(f"{live_server}/api/matches/{state['match_id']}").json()
    assert match["move_count"] == 0 and match["status"] == "playing"
    assert httpx.get(f"{live_server}/api/matches/{state['match_id']}/replay").status_code == 409

    mover.act({"type": "order", "first": True}, seq=0)
    assert mover.expect("state", seq=1)["last"]["action"] == {"type": "order", "first": True}
    idle.expect("state", seq=1)


def test_reconnect_gets_hello_room_and_the_latest_state(live_server: str) -> None:
    host, _guest, room_id = seated_room(live_server)
    a = host.socket(room_id)
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    state = a.expect("state", seq=0)
    if state["to_act"] == [0]:
        a.act(state["legal"][0])
        a.expect("state", seq=1)
    a.close()
    again = host.socket(room_id)
    assert again.expect("hello")["you"]["seat"] == 0
    again.expect("room")
    latest = again.expect("state")
    assert latest["seq"] == (1 if state["to_act"] == [0] else 0)


def test_chat_reaches_everyone_as_plain_text(live_server: str) -> None:
    host, guest, room_id = seated_room(live_server)
    a, b = host.socket(room_id), guest.socket(room_id)
    a.send({"type": "chat", "text": "  <script>alert(1)</script>  "})
    said = b.expect("chat")
    assert said["text"] == "<script>alert(1)</script>"
    assert said["from"] == {"id": host.id, "name": "Host"} and said["at"].endswith("Z")
    a.send({"type": "chat", "text": "x" * 501})
    assert a.expect("error")["code"] == "bad_message"
    a.send({"type": "chat", "text": "   "})
    assert a.expect("error")["code"] == "bad_message"


def test_upgrades_without_identity_or_from_a_foreign_origin_are_refused(live_server: str) -> None:
    host = Guest(live_server, "Host")
    room_id = host.create_room()["id"]
    for token, room, code in (
        (None, room_id, 4401),
        ("not-a-token", room_id, 4401),
        (host.token, "no-such-room", 4404),
        (host.token, "%00", 4404),
        ("a%00b", room_id, 4401),
    ):
        sock = RoomSocket(live_server, room, token, {})
        with pytest.raises(ConnectionClosed) as closed:
            sock.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code
    with pytest.raises(InvalidStatus) as refused:
        host.socket(room_id, Origin="http://evil.example")
    assert refused.value.response.status_code == 403
    same = host.socket(room_id, Origin=live_server)
    assert same.expect("hello")["you"]["player_id"] == host.id


def test_a_frame_over_16_kb_is_closed_with_1009(live_server: str) -> None:
    host = Guest(live_server, "Host")
    sock = host.socket(host.create_room()["id"])
    sock.expect("hello")
    sock.send({"type": "chat", "text": "x" * 20_000})
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            sock.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_flooding_is_rate_limited(live_server: str) -> None:
    host = Guest(live_server, "Host")
    sock = host.socket(host.create_room()["id"])
    sock.expect("hello")
    flood = FLOOD_RATE  # a second's worth at once: far past the burst the server allows
    for _ in range(flood):
        sock.send({"type": "ping"})
    codes = []
    with contextlib.suppress(TimeoutError):
        while True:
            codes.append(sock.recv(1).get("code", "pong"))
    assert codes.count("rate_limited") == 1  # said once, not once per dropped message
    assert 0 < codes.count("pong") < flood
    sock.send({"type": "ping"})  # the connection survives and recovers
    assert sock.expect("pong", timeout=5)


def test_bots_play_a_whole_match(live_server: str) -> None:
    host = Guest(live_server, "Host")
    room_id = host.create_room("abstrac", 2, target=50)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0/bot", {"level": "easy"}).raise_for_status()
    host.post(f"/api/rooms/{room_id}/seats/1/bot", {"level": "easy"}).raise_for_status()
    watch = host.socket(room_id)
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    while True:
        state = watch.expect("state", timeout=20)
        if state["over"]:
            break
    match = httpx.get(f"{live_server}/api/matches/{state['match_id']}").json()
    assert match["status"] == "finished" and match["has_bots"] is True


def test_a_token_in_the_socket_address_stays_out_of_the_server_log(server: ServerProcess) -> None:
    host = Guest(server.url, "Host")
    sock = RoomSocket(server.url, host.create_room()["id"], host.token, {})
    assert sock.expect("hello")["you"]["player_id"] == host.id
    sock.close()
    log = server.log_path.read_text()
    assert "token=[redacted]" in log
    assert host.token not in log
