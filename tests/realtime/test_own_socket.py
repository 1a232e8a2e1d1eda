"""A player's own socket, ``/ws/me``, over a real server: it says how many matches wait for the
player on connect and after every move that changes it, and keeps the room sockets' limits."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from websockets.exceptions import InvalidStatus

from tests.support.clients import Guest, JsonSocket, closed_with
from tests.support.play import play_turn, to_act_first, turn_based_match


def waiting_becomes(socket: JsonSocket, count: int) -> None:
    """The socket says ``count`` matches wait (earlier counts skipped), within 10 s."""
    socket.expect("games", waiting=count)


def test_a_turn_tells_the_next_players_own_socket_a_match_waits(backend_server: str) -> None:
    host, guest = Guest(backend_server, "Ann"), Guest(backend_server, "Ben")
    room_id = turn_based_match(host, guest)
    mover, other = to_act_first(host, guest, room_id)
    mine, theirs = mover.own_socket(), other.own_socket()
    waiting_becomes(mine, 1)
    assert theirs.expect("games")["waiting"] == 0
    play_turn(mover.socket(room_id))
    waiting_becomes(theirs, 1)
    waiting_becomes(mine, 0)
    games = other.http.get("/api/me/games").json()["games"]
    assert [(g["room_id"], g["your_turn"]) for g in games] == [(room_id, True)]
    play_turn(other.socket(room_id))
    waiting_becomes(theirs, 0)
    waiting_becomes(mine, 1)


def test_the_own_socket_answers_pings_and_refuses_anything_else(live_server: str) -> None:
    player = Guest(live_server, "Pinger")
    socket = player.own_socket()
    assert socket.expect("games")["waiting"] == 0
    socket.send({"type": "ping"})
    socket.expect("pong")
    socket.send({"type": "chat", "text": "hello"})
    assert socket.expect("error")["code"] == "bad_message"
    socket.ws.send("{not json")
    assert socket.expect("error")["code"] == "bad_message"
    socket.ws.send("x" * 17_000)  # over the 16 KB a frame may hold
    assert closed_with(socket) == 1009


def test_the_own_socket_needs_a_player_and_the_sites_origin(live_server: str) -> None:
    assert closed_with(JsonSocket(live_server, "/ws/me", None, {})) == 4401
    assert closed_with(JsonSocket(live_server, "/ws/me", "no-such-token", {})) == 4401
    player = Guest(live_server, "Stranger")
    with pytest.raises(InvalidStatus) as refused:
        player.own_socket(Origin="http://evil.example")
    assert refused.value.response.status_code == 403
    assert player.own_socket(Origin=f"http://{urlsplit(live_server).netloc}").expect("games")


def test_signing_out_closes_the_own_socket(live_server: str) -> None:
    player = Guest(live_server, "Leaver")
    socket = player.own_socket()
    socket.expect("games")
    assert player.http.delete("/api/session").status_code == 204
    assert closed_with(socket) == 4001
