"""Nothing lives only in memory: a killed server comes back with every acknowledged move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import make_url
from websockets.exceptions import ConnectionClosed

from tests.support.clients import Guest, RoomSocket
from tests.support.server import ServerProcess, default_backend, private_server, run_sql
from tests.support.waiting import until


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with private_server(
        tmp_path,
        {
            "CARDROOM_BOT_DELAY_MS": "150",
            "CARDROOM_SNAPSHOT_EVERY": "3",
        },
    ) as process:
        yield process


def test_sigkill_keeps_acknowledged_moves_and_bots_resume(own_server: ServerProcess) -> None:
    base = own_server.url
    host, guest = Guest(base, "Host"), Guest(base, "Guest")
    room_id = host.create_room("abstrac", 2, target=50)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    bots_room = host.create_room("abstrac", 2, target=100)["id"]
    for seat in (0, 1):
        host.post(f"/api/rooms/{bots_room}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    host.post(f"/api/rooms/{bots_room}/start").raise_for_status()

    sockets = {0: host.socket(room_id), 1: guest.socket(room_id)}
    state = sockets[0].expect("state", seq=0)
    for _ in range(7):  # acknowledged moves: each answered by its new state
        mover = sockets[state["to_act"][0]]
        mover.act(mover.state_at(state["seq"])["legal"][0], seq=state["seq"])
        state = mover.state_at(state["seq"] + 1)
    acknowledged = state["seq"]
    # seat 0's copy, read before the kill: when seat 1 made the last move, the fan-out to
    # seat 0 may still be on its way, and a killed server never sends it
    seat0_view = sockets[0].state_at(acknowledged)["view"]

    own_server.kill()
    own_server.start()

    again = host.socket(room_id)
    again.expect("hello")
    resumed = again.expect("state")
    assert resumed["seq"] == acknowledged
    assert resumed["view"] == seat0_view
    other = guest.socket(room_id)
    sockets = {0: again, 1: other}
    while not resumed["over"]:
        mover = sockets[resumed["to_act"][0]]
        mover.act(mover.state_at(resumed["seq"])["legal"][0], seq=resumed["seq"])
        resumed = mover.state_at(resumed["seq"] + 1)
    assert resumed["outcome"]["winners"]

    watch = host.socket(bots_room)
    watch.expect("hello")
    while True:
        bot_state = watch.expect("state", timeout=30)
        if bot_state["over"]:
            break
    bot_match = httpx.get(f"{base}/api/matches/{bot_state['match_id']}").json()
    assert bot_match["status"] == "finished"
    assert bot_match["move_count"] == bot_state["seq"]


def test_turn_timers_resume_after_a_restart(own_server: ServerProcess) -> None:
    base = own_server.url
    host, guest = Guest(base, "Host"), Guest(base, "Guest")
    answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": {"turn_seconds": 2}})
    room_id = answer.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    match_id = host.http.get(f"/api/rooms/{room_id}").json()["match_id"]
    own_server.kill()  # nobody moves; the deadline passes while the server is down
    own_server.start()
    until(  # nobody reconnects: the server resumes the timer itself
        lambda: host.http.get(f"/api/matches/{match_id}").json()["move_count"] >= 1,
        "the turn timer's move after the restart",
        8,
        every_s=0.1,
    )
    replay_moves = host.socket(room_id)
    assert replay_moves.expect("state")["last"]["action"] == {"type": "order", "first": True}


@pytest.mark.skipif(
    default_backend() != "postgres", reason="a Postgres restart needs Postgres"
)  # before its server starts, not after
def test_play_goes_on_when_postgres_drops_every_connection(own_server: ServerProcess) -> None:
    url = make_url(own_server.database_url)
    host, _, _, sockets = _two_seat_match(own_server)
    state = sockets[0].expect("state", seq=0)

    def drop_connections() -> None:  # what a database restart does to the server's connections
        run_sql(
            url.set(drivername="postgresql").render_as_string(hide_password=False),
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{url.database}' AND pid <> pg_backend_pid()",
        )

    for step in range(8):
        if step in (2, 5):
            drop_connections()
        mover = sockets[state["to_act"][0]]
        mover.act(mover.state_at(state["seq"])["legal"][0], seq=state["seq"])
        state = mover.state_at(state["seq"] + 1)  # acknowledged: no error, no lost move
    assert state["seq"] == 8
    assert host.http.get("/api/matches").status_code == 200  # a pooled connection again
    drop_connections()
    first = host.http.get("/api/matches")  # that connection is gone: no 500, a clear 503
    assert first.status_code == 503 and first.json()["error"]["code"] == "unavailable"
    assert first.headers["retry-after"] == "1"
    assert host.http.get("/api/matches").status_code == 200  # the pool was renewed


@pytest.mark.skipif(
    default_backend() != "postgres", reason="locking the server out of its database needs Postgres"
)
def test_a_move_the_database_cannot_take_closes_the_socket_to_try_again(
    own_server: ServerProcess,
) -> None:
    """The database out of reach for longer than the move log's one retry: the mover's socket
    closes with 1013 (try again later), the move is not acknowledged, and once the database
    is back a new socket resumes from the last acknowledged move."""
    url = make_url(own_server.database_url)
    admin = url.set(drivername="postgresql", database="postgres")
    admin_dsn = admin.render_as_string(hide_password=False)
    host, guest, room_id, sockets = _two_seat_match(own_server)
    state = sockets[0].expect("state", seq=0)
    mover = sockets[state["to_act"][0]]
    mover.act(mover.state_at(0)["legal"][0], seq=0)
    mover = sockets[mover.state_at(1)["to_act"][0]]
    state = mover.state_at(1)

    run_sql(admin_dsn, f'ALTER DATABASE "{url.database}" WITH ALLOW_CONNECTIONS false')
    try:
        run_sql(
            admin_dsn,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{url.database}'",
        )
        mover.act(state["legal"][0], seq=1)
        with pytest.raises(ConnectionClosed) as closed:
            mover.expect("state", seq=2)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    finally:
        run_sql(admin_dsn, f'ALTER DATABASE "{url.database}" WITH ALLOW_CONNECTIONS true')

    seat = state["to_act"][0]
    again = (host if seat == 0 else guest).socket(room_id)
    resumed = again.expect("state")
    assert resumed["seq"] == 1  # the refused move was never acknowledged
    again.act(resumed["legal"][0], seq=1)
    assert again.state_at(2)["last"]["seat"] == seat


def _two_seat_match(server: ServerProcess) -> tuple[Guest, Guest, str, dict[int, RoomSocket]]:
    """An Abstrac match of two players under way, with a socket for each seat."""
    host, guest = Guest(server.url, "Host"), Guest(server.url, "Guest")
    room_id = host.create_room("abstrac", 2, target=50)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    host.post(f"/api/rooms/{room_id}/start").raise_for_status()
    return host, guest, room_id, {0: host.socket(room_id), 1: guest.socket(room_id)}
