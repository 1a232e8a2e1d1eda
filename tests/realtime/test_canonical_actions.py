"""Only the canonical form of an action is applied, stored and sent (games/wire.py): a move
padded with unknown keys or nested deep is refused and changes nothing, and a poisoned move
can neither freeze its room nor take the server down."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx

from tests.support.clients import PLAIN, Guest, RoomSocket
from tests.support.play import drive, open_table, start
from tests.support.server import private_server

POOL_WAIT_S = 20
"""How long a request of the poisoned-moves test's server may wait for a database connection
(on Postgres; SQLite's pool, which the setting leaves alone, waits 30 s)."""


def deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def started_abstrac(base_url: str) -> tuple[Guest, Guest, str, dict[int, RoomSocket], dict]:
    host, guest = Guest(base_url, "Host"), Guest(base_url, "Guest")
    room_id, sockets = open_table([host, guest], "abstrac")
    start(host, room_id)
    first = sockets[0].expect("state", seq=0)
    sockets[1].expect("state", seq=0)
    return host, guest, room_id, sockets, first


def test_a_nested_action_is_refused_and_the_match_goes_on(backend_server: str) -> None:
    """300 levels deep: under the database's encoder's limit, past the socket's. Once it
    froze the room: every state frame since failed to encode (reconnects got 1011)."""
    host, guest, room_id, sockets, first = started_abstrac(backend_server)
    seat = first["to_act"][0]
    mover, other = sockets[seat], sockets[1 - seat]
    legal = mover.state_at(0)["legal"][0]
    mover.act({**legal, "x": deep(300)}, ref="deep")
    refused = mover.expect("error")
    assert refused["code"] == "bad_message" and refused["ref"] == "deep"

    mover.act(legal, seq=0)
    moved = other.state_at(1)
    assert moved["last"] == {"seat": seat, "action": legal}
    other.close()
    back = (guest if seat == 0 else host).socket(room_id)
    assert back.expect("hello")["you"]["seat"] == 1 - seat
    resumed = back.expect("state")
    assert resumed["seq"] == 1
    after = {seat: mover, 1 - seat: back}
    turn = resumed["to_act"][0]
    after[turn].act(after[turn].state_at(1)["legal"][0], seq=1)
    assert after[1 - turn].state_at(2)["last"]["seat"] == turn


def test_padding_and_wrong_types_are_refused_and_last_is_canonical(backend_server: str) -> None:
    """Unknown keys up to the frame limit were stored and sent to every viewer in ``last``."""
    _, _, _, sockets, first = started_abstrac(backend_server)
    seat = first["to_act"][0]
    mover, other = sockets[seat], sockets[1 - seat]
    legal = mover.state_at(0)["legal"][0]
    key, value = next((k, v) for k, v in legal.items() if k != "type")
    for junk in (
        {**legal, "pad": "x" * 15_000},
        {**legal, key: [value]},
        {**legal, key: 1.5},
        {"type": legal["type"]},
    ):
        mover.act(junk, seq=0)
        assert mover.expect("error")["code"] == "bad_message"
    mover.act({key: value, "type": legal["type"]}, seq=0)  # keys in another order
    moved = other.state_at(1)
    assert moved["last"] == {"seat": seat, "action": legal}
    assert list(moved["last"]["action"]) == list(legal)
    assert [m["seq"] for m in other.received if m["type"] == "state"] == [0, 1]


def test_poisoned_moves_leave_the_server_serving(tmp_path: Path, backend: str) -> None:
    """200 moves nested deep or padded, spread over fresh rooms, while other rooms play: the
    lobby still answers without waiting for a database connection, and every other match is
    played to its end. Once each such move cost the database pool a connection for good (503
    for every request, once the pool's wait ran out), and on Postgres the moves of other rooms
    in its batch."""
    env = {
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_QUICK_MS": "0",
        "CARDROOM_DB_POOL_TIMEOUT": str(POOL_WAIT_S),
    }
    with private_server(tmp_path, env, backend=backend) as server:
        url = server.url
        players = [Guest(url, f"P{n}") for n in range(2)]
        bystanders = [open_table([player], "abstrac", ("easy",)) for player in players]
        for player, (room_id, _) in zip(players, bystanders, strict=True):
            start(player, room_id)
        poisoned = 0
        for n in range(20):
            _, _, _, sockets, first = started_abstrac(url)
            mover = sockets[first["to_act"][0]]
            legal = mover.state_at(0)["legal"][0]
            for k in range(10):
                if k % 2:  # too deep for the client's own json.dumps: written out
                    action = json.dumps(legal)[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}"
                    mover.ws.send(f'{{"type": "action", "action": {action}, "seq": 0}}')
                else:
                    mover.act({**legal, "pad": "x" * 15_000}, seq=0)
                assert mover.expect("error")["code"] == "bad_message", n
                poisoned += 1
            for sock in sockets.values():
                sock.close()
        assert poisoned == 200
        # a request that waited for a connection would give up before the pool does: a lost
        # connection shows as a timeout or a 503, however slow or fast the machine
        with httpx.Client(base_url=url, timeout=POOL_WAIT_S / 2, verify=PLAIN) as client:
            for _ in range(3):
                assert client.get("/api/rooms").status_code == 200
        for n, (_, sockets) in enumerate(bystanders):
            final = drive(sockets, random.Random(n), timeout=20)
            assert final["over"]
