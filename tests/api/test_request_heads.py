"""Issue 34, finding 9, over raw sockets against a real ``python -m app`` exposed without the
proxy: a request's head has a size limit (431) and a time limit, and a connection that says
nothing is closed too."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.support.server import ServerProcess, private_server

MAX_HEAD = 16 * 1024  # CARDROOM_MAX_HEADER_BYTES's default
TIMEOUT_S = 1.0


@pytest.fixture(scope="module")
def exposed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"CARDROOM_HEADER_TIMEOUT_SECONDS": str(TIMEOUT_S)}
    with private_server(tmp_path_factory.mktemp("heads"), env) as server:
        yield server


def connect(base_url: str) -> socket.socket:
    address = urlsplit(base_url)
    return socket.create_connection((address.hostname, address.port), timeout=10)


def answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or 10 s pass)."""
    received = b""
    while chunk := _recv(conn):
        received += chunk
    return received


def _recv(conn: socket.socket) -> bytes:
    try:
        return conn.recv(65536)
    except ConnectionResetError:
        return b""


def status_of(received: bytes) -> int:
    return int(received.split(b" ", 2)[1])


def test_a_head_over_the_limit_answers_431(exposed: ServerProcess) -> None:
    with connect(exposed.url) as conn:
        conn.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"
        )
        assert status_of(answer(conn)) == 431


def test_a_head_over_the_limit_after_a_request_on_the_same_connection_answers_431(
    exposed: ServerProcess,
) -> None:
    with connect(exposed.url) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        first = conn.recv(65536)
        assert status_of(first) == 200
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        assert status_of(answer(conn)) == 431


def test_an_unfinished_head_over_the_limit_is_refused_before_its_end(
    exposed: ServerProcess,
) -> None:
    with connect(exposed.url) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        while sent < 4 << 20:  # up to 4 MB of one header's value, never ended
            try:
                conn.sendall(b"a" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 65536
        assert sent < 4 << 20
        received = answer(conn)
        assert not received or status_of(received) == 431


def test_a_head_within_the_limit_is_served(exposed: ServerProcess) -> None:
    with connect(exposed.url) as conn:
        conn.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Fair: "
            + b"a" * (MAX_HEAD // 2)
            + b"\r\n\r\n"
        )
        assert status_of(answer(conn)) == 200


def test_a_head_that_trickles_in_is_cut_off(exposed: ServerProcess) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
    began = time.monotonic()
    with connect(exposed.url) as conn:
        conn.settimeout(0.1)
        for byte in head:  # one byte a tenth of a second: 20 s for the head, never ended
            try:
                conn.sendall(bytes([byte]))
                if conn.recv(1) == b"":
                    break
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        else:
            pytest.fail("the server kept a head that trickled in for 20 s")
    assert time.monotonic() - began >= TIMEOUT_S  # closed by its timer, not at once


def test_a_connection_that_says_nothing_is_closed(exposed: ServerProcess) -> None:
    silent = [connect(exposed.url) for _ in range(5)]
    for conn in silent:
        assert _recv(conn) == b""  # closed (recv waits up to 10 s)
        conn.close()
