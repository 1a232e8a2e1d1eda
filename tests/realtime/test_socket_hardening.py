"""Security review findings on the room socket, over real sockets: the upgrade's origin is
compared with its scheme."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from websockets.exceptions import InvalidStatus

from tests.clients import Guest


def test_upgrades_compare_the_origins_scheme_too(live_server: str) -> None:
    host = Guest(live_server, "Schemer")
    room_id = host.create_room()["id"]
    netloc = urlsplit(live_server).netloc
    for headers in (
        {"Origin": f"https://{netloc}"},
        {"Origin": f"http://{netloc}", "X-Forwarded-Proto": "https"},
        {"Origin": "http://evil.example"},
    ):
        with pytest.raises(InvalidStatus) as refused:
            host.socket(room_id, **headers)
        assert refused.value.response.status_code == 403, headers
    for headers in (
        {"Origin": f"http://{netloc}"},
        {"Origin": f"https://{netloc}", "X-Forwarded-Proto": "https"},  # wss behind a proxy
    ):
        sock = host.socket(room_id, **headers)
        assert sock.expect("hello")["you"]["player_id"] == host.id, headers
        sock.close()
