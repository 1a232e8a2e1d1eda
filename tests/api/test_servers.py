"""The site as a standard ASGI app: ``create_app`` served by the usual servers, without the
options ``python -m app`` adds, answers the API and plays over a room socket."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.clients import Guest
from tests.support.server import private_server

# the command lines as the servers' documentation gives them, run by this interpreter
SERVERS = {
    "uvicorn": "uvicorn app.main:create_app --factory --host 127.0.0.1 --port {port}",
    "gunicorn-uvicorn-worker": (
        "gunicorn -k uvicorn.workers.UvicornWorker --bind 127.0.0.1:{port} --no-control-socket"
        " app.main:create_app()"
    ),
    "hypercorn": "hypercorn --bind 127.0.0.1:{port} app.main:create_app()",
}


@pytest.mark.parametrize("name", SERVERS)
def test_a_standard_asgi_server_serves_the_api_and_room_sockets(name: str, tmp_path: Path) -> None:
    with private_server(tmp_path, {}, ("-m", *SERVERS[name].split())) as server:
        host, guest = Guest(server.url, "Host"), Guest(server.url, "Guest")
        room_id = host.create_room("abstrac", 2, target=50)["id"]
        for seat, player in enumerate((host, guest)):
            player.post(f"/api/rooms/{room_id}/seats/{seat}").raise_for_status()
        sockets = [host.socket(room_id), guest.socket(room_id)]
        for seat, socket in enumerate(sockets):
            assert socket.expect("hello")["you"]["seat"] == seat
        host.post(f"/api/rooms/{room_id}/start").raise_for_status()
        state = sockets[0].expect("state", seq=0)
        mover = sockets[state["to_act"][0]]
        mover.act(mover.state_at(0)["legal"][0], seq=0)
        assert all(socket.state_at(1)["seq"] == 1 for socket in sockets)
        for socket in sockets:
            socket.close()
