"""Small synchronous clients for tests: a guest over HTTP and a WebSocket of a room."""

from __future__ import annotations

import json
import ssl
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

PLAIN = ssl.create_default_context()
"""The tests speak plain HTTP to 127.0.0.1, yet httpx builds a TLS context for every client it
makes (about 40 ms of CPU each, several per guest): they share this one instead."""


class Guest:
    """A registered player with a token, talking to a real server."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        answer = httpx.post(
            f"{base_url}/api/players", json={"name": name}, timeout=10, verify=PLAIN
        )
        answer.raise_for_status()
        body = answer.json()
        self.id: int = body["id"]
        self.name: str = body["name"]
        self.token: str = body["token"]
        self.http = httpx.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
            verify=PLAIN,
        )

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def create_room(self, game: str = "abstrac", seats: int = 2, **options: Any) -> dict[str, Any]:
        answer = self.post("/api/rooms", {"game": game, "seats": seats, "options": options})
        assert answer.status_code == 201, answer.text
        return answer.json()

    def socket(self, room_id: str, **headers: str) -> RoomSocket:
        return RoomSocket(self.base_url, room_id, self.token, headers)

    def own_socket(self, **headers: str) -> JsonSocket:
        """The player's own socket, ``/ws/me``."""
        return JsonSocket(self.base_url, "/ws/me", self.token, headers)


class JsonSocket:
    """A socket of the server's, at ``path``, its messages JSON."""

    def __init__(
        self, base_url: str, path: str, token: str | None, headers: dict[str, str]
    ) -> None:
        url = base_url.replace("http://", "ws://") + path
        if token:
            url += f"?token={token}"
        self.ws: ClientConnection = connect(
            url, additional_headers=headers, open_timeout=10, legacy=True
        )
        self.received: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def expect(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """The next message of ``kind`` whose fields equal ``match`` (others are skipped)."""
        return self.expect_until(
            kind,
            lambda message: all(message.get(k) == v for k, v in match.items()),
            timeout,
            f"no {kind} message with {match}",
        )

    def expect_until(
        self,
        kind: str,
        holds: Callable[[dict[str, Any]], bool],
        timeout: float = 10,
        what: str = "",
    ) -> dict[str, Any]:
        """The next message of ``kind`` for which ``holds(message)`` is true (others are
        skipped), within ``timeout`` seconds in all; ``what`` names it in the failure."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(what or f"no {kind} message that holds")
            message = self.recv(left)
            if message["type"] == kind and holds(message):
                return message

    def close(self) -> None:
        self.ws.close()

    def drop(self) -> None:
        """Cut the connection without the closing handshake, as a vanished client does (a
        handshake waits behind every frame this client never read)."""
        self.ws.socket.close()


class RoomSocket(JsonSocket):
    """A room's socket, ``/ws/rooms/{id}``."""

    def __init__(
        self, base_url: str, room_id: str, token: str | None, headers: dict[str, str]
    ) -> None:
        super().__init__(base_url, f"/ws/rooms/{room_id}", token, headers)

    def act(self, action: dict[str, Any], **extra: Any) -> None:
        self.send({"type": "action", "action": action, **extra})

    def state_at(self, seq: int, timeout: float = 10) -> dict[str, Any]:
        """The state message of move ``seq``, whether it has already arrived or not."""
        for message in reversed(self.received):
            if message["type"] == "state" and message["seq"] == seq:
                return message
        return self.expect("state", timeout, seq=seq)

    def latest_state(self, timeout: float = 0.3) -> dict[str, Any] | None:
        """Drain what has arrived; the newest state among it, if any."""
        newest = None
        try:
            while True:
                message = self.recv(timeout)
                if message["type"] == "state":
                    newest = message
        except TimeoutError:
            return newest


def closed_with(socket: JsonSocket) -> int:
    """Read what the socket is sent until it closes: the close code."""
    try:
        while True:
            socket.recv(timeout=10)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return closed.rcvd.code
