"""A push service for tests: a small HTTP server on a free port that keeps every request it
receives and answers each with ``status`` (201, or what a test sets: 410 for a subscription
gone), and a browser's side of a subscription: its P-256 key pair and auth secret, which
decrypt what the server sent (RFC 8291, with http_ece) as the browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid.jwt import decode


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    origin: str
    received: list[Received] = field(default_factory=list)
    status: int = 201

    def to(self, path: str) -> list[Received]:
        return [request for request in self.received if request.path == path]


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {key.lower(): value for key, value in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: Any) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """A browser's push subscription to ``service`` at ``path``."""

    def __init__(self, service: PushService, path: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.origin}{path}"

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, request: Received) -> dict[str, Any]:
        """The message, decrypted with the subscription's private key."""
        assert request.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            request.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_claims(request: Received, public_key: str) -> dict[str, Any]:
    """The VAPID JWT's claims, its signature checked against ``public_key`` (the server's
    ``/api/push/key``); raises if it does not verify or names another key."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in params.split(","))
    assert parts["k"] == public_key
    return decode(parts["t"], public_key)
