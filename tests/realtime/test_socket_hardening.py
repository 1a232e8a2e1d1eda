"""Security review findings on the room socket, over real sockets: the upgrade's origin is
compared with its scheme, and chat refuses invisible and control characters as names do."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.support.clients import Guest, RoomSocket

# DEL, C1 controls, bidi overrides and isolates, zero-width characters, the BOM
INVISIBLE = "\x7f\x80\x9b\x9f\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
INVISIBLE += "\u2060\u2066\u2067\u2068\u2069\ufeff"


def answer_to_chat(sock: RoomSocket) -> dict[str, Any]:
    """The next chat or error the socket hears (room and state updates skipped)."""
    while True:
        message = sock.recv()
        if message["type"] in ("chat", "error"):
            return message


def test_upgrades_compare_the_origins_scheme_too(backend_server: str) -> None:
    host = Guest(backend_server, "Schemer")
    room_id = host.create_room()["id"]
    netloc = urlsplit(backend_server).netloc
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


def test_chat_refuses_control_and_invisible_characters(backend_server: str) -> None:
    host = Guest(backend_server, "Chatter")
    sock = host.socket(host.create_room()["id"])
    sock.expect("hello")
    for char in INVISIBLE:
        sock.send({"type": "chat", "text": f"look{char}here"})
        answer = answer_to_chat(sock)
        assert answer["type"] == "error" and answer["code"] == "bad_message", hex(ord(char))
    for sent, shown in (
        ("line\nbreak\tand  tab", "line break and tab"),
        ("line\u2028and\u2029paragraph", "line and paragraph"),
        ("  ♠ façade 🂡  ", "♠ façade 🂡"),
    ):
        sock.send({"type": "chat", "text": sent})
        answer = answer_to_chat(sock)
        assert answer["type"] == "chat" and answer["text"] == shown, sent


def test_names_refuse_the_same_characters(backend_server: str) -> None:
    for char in INVISIBLE:
        answer = httpx.post(f"{backend_server}/api/players", json={"name": f"Ev{char}e"})
        assert answer.status_code == 422, hex(ord(char))
        assert answer.json()["error"]["code"] == "invalid_name"
    spaced = httpx.post(f"{backend_server}/api/players", json={"name": "Ada\u2028\nLovelace"})
    assert spaced.json()["name"] == "Ada Lovelace"
