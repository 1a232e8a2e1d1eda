"""Two server processes behind one database and Redis serve one room together."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.support.clients import Guest, JsonSocket, RoomSocket, closed_with
from tests.support.play import play_turn, to_act_first, turn_based_match
from tests.support.races import race_start_and_leave, together
from tests.support.server import ServerProcess, free_port, run_on_own_loop


@pytest.fixture(scope="module")
def pair(
    database_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two processes the module's tests share: each test opens rooms and players of its own."""
    logs = tmp_path_factory.mktemp("pair")
    processes = [
        ServerProcess(
            database_url=database_url,
            port=free_port(),
            env={
                "CARDROOM_BOT_DELAY_MS": "0",
                "CARDROOM_REDIS_URL": redis_url,
                "CARDROOM_MAX_OPEN_ROOMS": "1000",
            },
            log_path=logs / f"server-{n}.log",
        )
        for n in range(2)
    ]
    for process in processes:
        process.start()
    yield processes
    for process in processes:
        process.stop()


def test_players_on_different_processes_play_a_whole_match(pair: list[ServerProcess]) -> None:
    one, two = pair
    host, guest = Guest(one.url, "Host"), Guest(two.url, "Guest")
    watcher = Guest(two.url, "Watcher")
    room_id = host.create_room("abstrac", 2, target=50)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    a = host.socket(room_id)
    a.expect("hello")
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()  # on the other process
    seated = a.expect("room", timeout=5)
    while seated["room"]["seats"][1]["player"] is None:
        seated = a.expect("room", timeout=5)
    b, spectator = guest.socket(room_id), watcher.socket(room_id)
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    state = b.expect("state", seq=0)  # started on process one, seen on process two
    sockets = {0: a, 1: b}
    while not state["over"]:
        mover = sockets[state["to_act"][0]]
        mover.act(mover.state_at(state["seq"])["legal"][0], seq=state["seq"])
        state = mover.state_at(state["seq"] + 1)
    final = spectator.state_at(state["seq"])
    assert final["over"] and final["outcome"] == state["outcome"]
    assert a.state_at(state["seq"])["view"] == b.state_at(state["seq"])["view"]


def test_conflicting_moves_on_two_processes_give_one_move_and_one_stale(
    pair: list[ServerProcess],
) -> None:
    one, two = pair
    host, other = Guest(one.url, "Host"), Guest(one.url, "Other")
    room_id = host.create_room("abstrac", 2)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    other.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    match_id = host.http.get(f"/api/rooms/{room_id}").json()["match_id"]
    probe = host.socket(room_id)
    mover = host if probe.expect("state", seq=0)["to_act"] == [0] else other
    sockets = [
        RoomSocket(one.url, room_id, mover.token, {}),
        RoomSocket(two.url, room_id, mover.token, {}),
    ]
    for sock in sockets:
        sock.expect("state", seq=0)
    for sock in sockets:
        sock.act({"type": "order", "first": True}, seq=0, ref="race")
    for sock in sockets:
        sock.state_at(1)
        late = sock.latest_state(0.5)
        assert late is None or late["seq"] == 1
    errors = [m["code"] for sock in sockets for m in sock.received if m["type"] == "error"]
    assert errors == ["stale"]
    assert host.http.get(f"/api/matches/{match_id}").json()["move_count"] == 1


def test_room_changes_racing_on_two_processes_keep_the_rules(pair: list[ServerProcess]) -> None:
    """Each process takes its room's changes one at a time; between processes the database's
    row lock and constraints do: a start racing a leave, and one player racing for two seats."""
    one, two = pair
    host, guest = Guest(one.url, "Host"), Guest(two.url, "Leaver")
    for _ in range(8):
        room_id, started = race_start_and_leave(host, guest)
        for server in pair:
            room = httpx.get(f"{server.url}/api/rooms/{room_id}", timeout=10).json()
            assert (room["status"] == "playing") == started
            assert room["status"] == "waiting" or all(s["player"] for s in room["seats"])

        greedy = Guest(one.url, "Greedy")
        seats_room = host.create_room("absolute", 4)["id"]
        on_two = copy.copy(greedy)
        on_two.base_url = two.url
        answers = run_on_own_loop(
            together(
                (greedy, "POST", f"/api/rooms/{seats_room}/seats/1"),
                (on_two, "POST", f"/api/rooms/{seats_room}/seats/2"),
            )
        )
        assert sorted(a.status_code for a in answers) == [200, 409]
        seats = httpx.get(f"{two.url}/api/rooms/{seats_room}", timeout=10).json()["seats"]
        assert [s["player"]["id"] for s in seats if s["player"]] == [greedy.id]


def test_signing_out_on_one_process_closes_the_players_sockets_on_the_other(
    pair: list[ServerProcess],
) -> None:
    one, two = pair
    player = Guest(one.url, "Traveller")
    account = {"username": f"u{uuid.uuid4().hex[:12]}", "password": "Gleaming-Otter-42"}
    assert player.post("/api/account", account).status_code == 201
    room_id = player.create_room()["id"]
    there = RoomSocket(two.url, room_id, player.token, {})
    there.expect("hello")
    bystander = Guest(two.url, "Bystander")
    theirs = bystander.socket(room_id)
    theirs.expect("hello")
    assert player.http.delete("/api/session").status_code == 204  # on process one
    assert closed_with(there) == 4001
    assert closed_with(RoomSocket(two.url, room_id, player.token, {})) == 4401
    theirs.send({"type": "ping"})  # another player's socket on that process stays open
    assert theirs.expect("pong")["type"] == "pong"


def test_a_turn_on_one_process_reaches_the_players_own_socket_on_the_other(
    pair: list[ServerProcess],
) -> None:
    one, two = pair
    host, guest = Guest(one.url, "Near"), Guest(one.url, "Far")
    room_id = turn_based_match(host, guest)  # the room is in process one's memory alone
    mover, other = to_act_first(host, guest, room_id)
    far = JsonSocket(two.url, "/ws/me", other.token, {})  # their own socket, on process two
    assert far.expect("games")["waiting"] == 0
    play_turn(mover.socket(room_id))  # on process one
    far.expect("games", waiting=1)
    play_turn(other.socket(room_id))
    far.expect("games", waiting=0)
