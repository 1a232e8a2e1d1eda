"""Fair tables (issue 24), live over real sockets on the suite's database (SQLite, or Postgres
with CARDROOM_TEST_DATABASE_URL): a leaver's stand-in is shown and he abandons the match, a
match every human left is not rated, a rematch waits for every human (asked for over HTTP or
the socket), chat comes back on a reconnect and after a restart, and bots have names of their
own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.db.matches import MIN_OWN_MOVES
from tests.support.clients import Guest, RoomSocket
from tests.support.server import private_server
from tests.support.waiting import play_until


def started(live_server: str, **table: Any) -> tuple[Guest, Guest, str]:
    host, guest = Guest(live_server, "Host"), Guest(live_server, "Bob")
    answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    return host, guest, room_id


def room_until(sock: RoomSocket, test: Any, since: int = 0, timeout: float = 10) -> dict[str, Any]:
    """The first room (from a hello or a room message, received from ``since`` on) that
    passes ``test``."""
    for message in sock.received[since:]:
        if message["type"] in ("hello", "room") and test(message["room"]):
            return message["room"]
    while True:
        message = sock.expect("room", timeout=timeout)
        if test(message["room"]):
            return message["room"]


def play_a_little(sockets: dict[int, RoomSocket], moves: int = MIN_OWN_MOVES) -> dict[str, Any]:
    """Each seat of ``sockets`` plays its first legal action whenever it may, until every one
    has made ``moves`` moves of its own (a rated match needs them); the state after the last."""
    made = dict.fromkeys(sockets, 0)
    acted: dict[int, int] = {}

    def act(seat: int, message: dict[str, Any]) -> None:
        if message["type"] == "state" and message["legal"] and acted.get(seat) != message["seq"]:
            acted[seat] = message["seq"]
            sockets[seat].act(message["legal"][0], seq=message["seq"])
            made[seat] += 1

    def read_and_act() -> bool:
        came = False
        for seat, sock in sockets.items():
            try:
                message = sock.recv(0)
            except TimeoutError:
                continue
            came = True
            act(seat, message)
        return came

    for seat, sock in sockets.items():  # the latest state each has read already
        seen = [m for m in sock.received if m["type"] == "state"]
        if seen:
            act(seat, seen[-1])

    play_until(lambda: min(made.values()) >= moves, read_and_act, "moves of their own", 30)
    last = max(acted.values()) + 1
    return next(iter(sockets.values())).state_at(last)


def leave(
    guest: Guest, room_id: str, watch: RoomSocket, seat: int = 1
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The guest plays a few moves (the host on ``watch`` too), then his socket closes; the
    room once a stand-in plays his seat, and the state he left."""
    sock = guest.socket(room_id)
    sock.expect("state")
    left = play_a_little({1 - seat: watch, seat: sock})
    sock.close()
    return room_until(watch, lambda room: room["seats"][seat]["stand_in"] is not None), left


def test_a_leaver_is_stood_in_for_told_what_was_played_and_abandons_when_claimed(
    live_server: str,
) -> None:
    host, bob, room_id = started(live_server, seat_hold_seconds=1)
    watch = host.socket(room_id)
    state = watch.expect("state", seq=0)
    early = host.post(f"/api/rooms/{room_id}/claim")
    assert early.status_code == 409 and early.json()["error"]["code"] == "cannot_claim"

    room, state = leave(bob, room_id, watch)
    left_at = state["seq"]
    assert room["seats"][1]["stand_in"] == "normal" and room["seats"][1]["away"] is True
    assert room["seats"][0]["stand_in"] is None and "name" not in room["seats"][1]
    for _ in range(4):  # the host plays; the stand-in answers for Bob
        if 0 in state["to_act"]:
            watch.act(state["legal"][0], seq=state["seq"])
        state = watch.expect("state", seq=state["seq"] + 1, timeout=5)
    back = bob.socket(room_id)  # Bob returns: told what his stand-in played
    # told once he is back (a stand-in's move may reach him first, while he is still away)
    told = back.expect_until("state", lambda m: "played_for_you" in m, 10, "played_for_you")
    assert "played_for_you" not in watch.state_at(told["seq"])
    states = [
        m for m in watch.received if m["type"] == "state" and left_at < m["seq"] <= told["seq"]
    ]
    by_bob = [m["seq"] for m in states if m["last"] and m["last"]["seat"] == 1]
    assert by_bob and [p["seq"] for p in told["played_for_you"]] == by_bob
    room_until(watch, lambda room: room["seats"][1]["stand_in"] is None, len(watch.received))
    mark = len(watch.received)
    back.close()
    room_until(watch, lambda room: room["seats"][1]["stand_in"] is not None, mark)

    claimed = host.post(f"/api/rooms/{room_id}/claim")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["status"] == "finished"
    over = watch.expect("state", over=True)
    assert over["outcome"]["termination"] == "claimed" and over["outcome"]["winners"] == [0]
    assert over["outcome"]["abandoned"] == [1]
    match = host.http.get(f"/api/matches/{over['match_id']}").json()
    assert match["rated"] is True
    assert [s["abandoned"] for s in match["seats"]] == [False, True]
    assert [s["winner"] for s in match["seats"]] == [True, False]
    ratings = [s["rating"] for s in match["seats"]]
    assert ratings[0]["delta"] > 0 > ratings[1]["delta"]  # the abandoning seat ranked last
    stats = host.http.get(f"/api/players/{bob.id}/stats").json()
    assert stats["totals"]["abandoned"] == 1 and stats["totals"]["lost"] == 1
    assert host.http.get(f"/api/players/{host.id}/stats").json()["totals"]["abandoned"] == 0


def test_a_stand_in_that_wins_does_not_win_for_the_leaver(live_server: str) -> None:
    """The match ends by its rules while the stand-in plays: the leaver abandoned it and is
    ranked below the host, whatever the stand-in scored."""
    host, bob, room_id = started(live_server, seat_hold_seconds=1)
    watch = host.socket(room_id)
    watch.expect("state", seq=0)
    _, state = leave(bob, room_id, watch)
    state_left = state["seq"]
    while not state["over"]:
        if 0 in state["to_act"]:
            watch.act(state["legal"][0], seq=state["seq"])
        state = watch.expect("state", seq=state["seq"] + 1, timeout=5)
    assert state["outcome"]["abandoned"] == [1]
    match = host.http.get(f"/api/matches/{state['match_id']}").json()
    assert match["rated"] is True and [s["abandoned"] for s in match["seats"]] == [False, True]
    assert match["outcome"]["abandoned"] == [1]
    actions = host.http.get(f"/api/matches/{state['match_id']}/replay").json()["actions"]
    assert not any(a["stand_in"] for a in actions if a["seq"] <= state_left)
    assert {a["seat"]: a["stand_in"] for a in actions} == {0: False, 1: True}
    stood = next(a["seq"] for a in actions if a["seat"] == 1 and a["stand_in"])
    step = host.http.get(f"/api/matches/{state['match_id']}/replay/{stood}").json()
    assert step["stand_in"] is True and step["last"]["seat"] == 1
    assert match["seats"][1]["winner"] is False
    assert match["seats"][0]["rating"]["delta"] > match["seats"][1]["rating"]["delta"]


def test_a_match_every_human_left_is_not_rated(live_server: str) -> None:
    host, bob, room_id = started(live_server, seat_hold_seconds=1)
    fan = Guest(live_server, "Fan").socket(room_id)
    first = fan.expect("state", seq=0)
    for guest in (host, bob):
        sock = guest.socket(room_id)
        sock.expect("state")
        sock.close()
    over = fan.expect("state", over=True, timeout=60)  # the stand-ins play it out
    match = host.http.get(f"/api/matches/{over['match_id']}").json()
    assert over["match_id"] == first["match_id"] and match["status"] == "finished"
    assert match["rated"] is False
    assert [s["abandoned"] for s in match["seats"]] == [True, True]
    assert [s["rating"] for s in match["seats"]] == [None, None]
    stats = host.http.get(f"/api/players/{host.id}/stats").json()
    assert stats["totals"]["abandoned"] == 1 and all(g["rating"] is None for g in stats["games"])


def test_a_rematch_waits_for_every_human_and_a_decline_clears_it(live_server: str) -> None:
    host, bob, room_id = started(live_server, turn_seconds=1, on_absent="forfeit")
    a, b = host.socket(room_id), bob.socket(room_id)
    over = a.expect("state", over=True, timeout=5)
    b.expect("state", over=True, timeout=5)
    outsider = Guest(live_server, "Outsider")
    refused = outsider.post(f"/api/rooms/{room_id}/rematch")
    assert refused.status_code == 403

    proposed = host.post(f"/api/rooms/{room_id}/rematch").json()
    assert proposed["status"] == "finished" and proposed["rematch"]["accepted"] == [0]
    assert proposed["rematch"]["expires_at"].endswith("Z")
    seen = room_until(b, lambda room: room["rematch"] is not None)
    assert seen["rematch"]["accepted"] == [0] and seen["match_id"] == over["match_id"]
    again = host.post(f"/api/rooms/{room_id}/rematch").json()  # proposing twice changes nothing
    assert again["status"] == "finished" and again["rematch"] == proposed["rematch"]

    mark = len(a.received)
    declined = bob.http.delete(f"/api/rooms/{room_id}/rematch")
    assert declined.status_code == 200 and declined.json()["rematch"] is None
    room_until(a, lambda room: room["rematch"] is None, mark)
    assert host.http.get(f"/api/rooms/{room_id}").json()["status"] == "finished"

    assert bob.post(f"/api/rooms/{room_id}/rematch").json()["rematch"]["accepted"] == [1]
    room_until(a, lambda room: (room["rematch"] or {}).get("accepted") == [1])
    started_again = host.post(f"/api/rooms/{room_id}/rematch").json()
    assert started_again["status"] == "playing" and started_again["rematch"] is None
    assert started_again["match_id"] != over["match_id"]
    assert b.expect("state", seq=0)["match_id"] == started_again["match_id"]
    late = bob.http.delete(f"/api/rooms/{room_id}/rematch")
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_finished"


def test_a_rematch_is_asked_for_over_the_socket_as_over_http(live_server: str) -> None:
    host, bob, room_id = started(live_server, turn_seconds=1, on_absent="forfeit")
    a, b = host.socket(room_id), bob.socket(room_id)
    a.send({"type": "rematch", "ref": "r0"})  # the match is still on
    refused = a.expect("error")
    assert refused["code"] == "not_finished" and refused["ref"] == "r0"
    assert host.http.get(f"/api/rooms/{room_id}").json()["rematch"] is None
    over = a.expect("state", over=True, timeout=5)
    b.expect("state", over=True, timeout=5)
    watcher = Guest(live_server, "Fan").socket(room_id)
    watcher.expect("state")
    watcher.send({"type": "rematch", "ref": 7})
    assert watcher.expect("error")["code"] == "forbidden"
    a.send({"type": "rematch", "accept": "yes"})
    assert a.expect("error")["code"] == "bad_message"

    a.send({"type": "rematch"})
    seen = room_until(b, lambda room: room["rematch"] is not None)
    assert seen["rematch"]["accepted"] == [0] and seen["status"] == "finished"
    b.send({"type": "rematch", "accept": False})
    room_until(a, lambda room: room["rematch"] is None)
    assert host.http.get(f"/api/rooms/{room_id}").json()["status"] == "finished"

    b.send({"type": "rematch"})
    room_until(a, lambda room: (room["rematch"] or {}).get("accepted") == [1])
    a.send({"type": "rematch", "accept": True})
    fresh = b.expect("state", seq=0)
    assert fresh["match_id"] != over["match_id"] and not fresh["over"]
    room = host.http.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "playing" and room["match_id"] == fresh["match_id"]


def test_chat_comes_back_on_a_reconnect_without_the_spectators_channel_for_players(
    live_server: str,
) -> None:
    host, bob, room_id = started(live_server)
    player = host.socket(room_id)
    player.expect("state")
    fan = Guest(live_server, "Fan").socket(room_id)
    fan.expect("chat_history")
    fan.send({"type": "chat", "text": "who wins?"})
    fan.expect("chat")
    player.send({"type": "chat", "text": "gl <b>hf</b>"})
    player.expect("chat", text="gl <b>hf</b>")

    again = bob.socket(room_id)
    history = again.expect("chat_history")["messages"]
    kinds = [m["type"] for m in again.received]
    assert kinds.index("hello") < kinds.index("state") < kinds.index("chat_history")
    assert [(m["text"], m["channel"]) for m in history] == [("gl <b>hf</b>", "players")]
    assert history[0]["from"] == {"id": host.id, "name": "Host"} and history[0]["at"]

    watcher = Guest(live_server, "Watcher").socket(room_id)
    seen = watcher.expect("chat_history")["messages"]
    assert [m["text"] for m in seen] == ["who wins?", "gl <b>hf</b>"]


def test_chat_history_keeps_the_latest_fifty_across_a_restart(tmp_path: Path) -> None:
    count = 55
    quick = {"CARDROOM_MESSAGES_PER_SECOND": "1000", "CARDROOM_MESSAGE_BURST": "100"}
    quick |= {"CARDROOM_CHAT_PER_MINUTE": "60000", "CARDROOM_CHAT_BURST": "100"}
    with private_server(tmp_path, quick) as server:
        host = Guest(server.url, "Host")
        room_id = host.create_room()["id"]
        sock = host.socket(room_id)
        assert sock.expect("chat_history")["messages"] == []
        for n in range(count):
            sock.send({"type": "chat", "text": f"line {n}"})
        sock.expect("chat", text=f"line {count - 1}")
        sock.close()
        server.stop()
        server.start()
        back = host.socket(room_id)
        history = back.expect("chat_history")["messages"]
        assert [m["text"] for m in history] == [f"line {n}" for n in range(count - 50, count)]
        back.close()


def test_bots_have_names_of_their_own(live_server: str) -> None:
    host = Guest(live_server, "Host")
    room = host.post("/api/rooms", {"game": "abspecken", "seats": 3}).json()
    for seat in range(3):
        host.post(f"/api/rooms/{room['id']}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    room = host.http.get(f"/api/rooms/{room['id']}").json()
    names = [s["name"] for s in room["seats"]]
    assert len(set(names)) == 3 and all(name.endswith("(bot)") for name in names)
    listed = next(r for r in host.http.get("/api/rooms").json() if r["id"] == room["id"])
    assert [s["name"] for s in listed["seats"]] == names
    started_room = host.post(f"/api/rooms/{room['id']}/start").json()
    assert [s["name"] for s in started_room["seats"]] == names  # stable for the match
    match = host.http.get(f"/api/matches/{started_room['match_id']}").json()
    assert [s["name"] for s in match["seats"]] == names
