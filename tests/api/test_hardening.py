"""Security review findings, over real HTTP and raw sockets against the real server: private
rooms stay out of the match history, bodies have a size limit, out-of-range numbers and dates
are refused (never a 500), and cross-site requests are turned away."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.clients import Guest
from tests.support.play import play_bots, start, wait_finished
from tests.support.server import private_server

MAX_BODY = 64 * 1024
HUGE_NUMBERS = (2**31, 2**63, 2**64, 10**30)


# -- 6: a private room's id is never shown -----------------------------------------------------
def private_bot_match(host: Guest) -> tuple[str, int]:
    """A private room whose two bots played a whole match: (room id, match id)."""
    answer = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "private": True})
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    for seat in (0, 1):
        host.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    match_id = start(host, room_id)
    assert wait_finished(host.http, match_id, timeout=60)["status"] == "finished"
    return room_id, match_id


def test_match_history_never_shows_a_private_rooms_id(backend_server: str) -> None:
    host = Guest(backend_server, "Hidden host")
    hidden_room, finished = private_bot_match(host)
    now = host.post("/api/play-now", {"game": "abstrac", "opponents": 1}).json()
    assert now["private"] is True and now["status"] == "playing"
    running = now["match_id"]
    public = play_bots(host, "abstrac", ("easy", "easy"))

    answers = {
        path: host.http.get(path)
        for path in (
            "/api/matches?limit=200",
            f"/api/matches?player={host.id}",
            "/api/matches?status=playing&limit=200",
            "/api/matches?status=finished&limit=200",
            "/api/matches?game=abstrac&limit=200",
            f"/api/matches/{finished}",
            f"/api/matches/{running}",
            f"/api/matches/{finished}/replay",
        )
    }
    for path, answer in answers.items():
        assert answer.status_code == 200, (path, answer.text)
        assert hidden_room not in answer.text and now["id"] not in answer.text, path
    listed = {m["id"]: m for m in answers["/api/matches?limit=200"].json()}
    assert listed[finished]["room_id"] is None and listed[running]["room_id"] is None
    assert listed[finished]["status"] == "finished" and listed[finished]["seats"]
    shown = host.http.get(f"/api/rooms/{listed[public]['room_id']}").json()
    assert shown["match_id"] == public and shown["private"] is False
    for page in ("/matches", f"/matches/{finished}", f"/players/{host.id}"):
        shell = host.http.get(page)
        assert shell.status_code == 200 and hidden_room not in shell.text, page


# -- 9: a body limit ---------------------------------------------------------------------------
def exchange(base_url: str, head: str, body: bytes = b"") -> tuple[int, dict[str, object]]:
    """Send a raw request head and ``body`` (which may be cut short), then read the answer:
    the server must answer without waiting for the rest of the body."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as raw:
        raw.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = raw.recv(65536)
            assert chunk, f"the server hung up without an answer: {answer!r}"
            answer += chunk
        header, _, content = answer.partition(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        fields = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        while len(content) < int(fields["content-length"]):
            content += raw.recv(65536)
    return int(lines[0].split()[1]), json.loads(content)


def post_head(base_url: str, length: str) -> str:
    host = urlsplit(base_url).netloc
    return f"POST /api/players HTTP/1.1\nHost: {host}\nContent-Type: application/json\n{length}\n"


def test_a_body_declared_too_large_is_refused_before_it_is_sent(backend_server: str) -> None:
    status, body = exchange(backend_server, post_head(backend_server, "Content-Length: 20000000"))
    assert status == 413 and body["error"]["code"] == "too_large"


def test_a_chunked_body_is_refused_as_it_streams_past_the_limit(backend_server: str) -> None:
    payload = b'{"name": "' + b"x" * MAX_BODY
    pieces = [payload[at : at + 16384] for at in range(0, len(payload), 16384)]
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces)
    head = post_head(backend_server, "Transfer-Encoding: chunked")
    status, body = exchange(backend_server, head, chunks)  # no last chunk: the body never ends
    assert status == 413 and body["error"]["code"] == "too_large"


def test_a_body_under_the_limit_is_read_as_before(backend_server: str) -> None:
    answer = httpx.post(f"{backend_server}/api/players", json={"name": "x" * (MAX_BODY - 100)})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"


def test_the_body_limit_and_allowed_origins_are_settings(tmp_path: Path, backend: str) -> None:
    env = {
        "CARDROOM_MAX_BODY_BYTES": "1000",
        "CARDROOM_ALLOWED_ORIGINS": '["https://play.example"]',
    }
    with private_server(tmp_path, env, backend=backend) as server:
        url = f"{server.url}/api/players"
        assert httpx.post(url, json={"name": "y" * 1000}).status_code == 413
        assert httpx.post(url, json={"name": "Short"}).status_code == 201
        for origin, status in (
            ("https://play.example", 201),
            ("https://PLAY.example:443", 201),
            ("http://play.example", 403),
            ("https://play.example:8443", 403),
        ):
            answer = httpx.post(url, json={"name": "Framed"}, headers={"Origin": origin})
            assert answer.status_code == status, origin


# -- 10: numbers and dates out of range --------------------------------------------------------
@pytest.fixture(scope="module")
def guest(backend_server: str) -> Guest:
    return Guest(backend_server, "Ranger")


def test_ids_out_of_range_in_a_path_are_not_found(guest: Guest) -> None:
    room_id = guest.create_room()["id"]
    for number in (*HUGE_NUMBERS, 0, -1, -(2**63) - 1):
        for method, path in (
            ("GET", f"/api/matches/{number}"),
            ("GET", f"/api/matches/{number}/replay"),
            ("GET", f"/api/matches/{number}/replay/0"),
            ("GET", f"/api/matches/1/replay/{number}"),
            ("GET", f"/api/players/{number}"),
            ("GET", f"/api/players/{number}/stats"),
            ("POST", f"/api/rooms/{room_id}/seats/{number}"),
            ("POST", f"/api/rooms/{room_id}/seats/{number}/bot"),
            ("DELETE", f"/api/rooms/{room_id}/seats/{number}"),
        ):
            if number == 0 and ("/seats/" in path or path.startswith("/api/matches/1/")):
                continue  # seat 0 and move 0 exist
            answer = guest.http.request(method, path)
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json()["error"]["code"] == "not_found", (method, path)


def test_ids_out_of_range_in_a_filter_are_refused(guest: Guest) -> None:
    for number in (*HUGE_NUMBERS, 0, -1):
        for name in ("player", "before", "after"):
            answer = guest.http.get("/api/matches", params={name: number})
            assert answer.status_code == 422, (name, number, answer.text)
            assert answer.json()["error"]["code"] == "invalid_request"


def test_dates_out_of_range_are_clamped(guest: Guest) -> None:
    match_id = play_bots(guest, "abstrac", ("easy", "easy"))
    for params in (
        {"since": "0001-01-01"},
        {"until": "9999-12-31"},
        {"since": "0001-01-01T00:00:00+14:00", "until": "9999-12-31T23:59:59-14:00"},
        {"since": "1000-06-01", "until": "9000-01-01"},
    ):
        answer = guest.http.get("/api/matches", params={"limit": 200, **params})
        assert answer.status_code == 200, (params, answer.text)
        assert match_id in [m["id"] for m in answer.json()], params
    for params in ({"since": "9999-12-31"}, {"until": "0001-01-01"}, {"since": "9999-12-31T23:59"}):
        answer = guest.http.get("/api/matches", params=params)
        assert answer.status_code == 200 and answer.json() == [], (params, answer.text)


# -- 12: cross-site requests -------------------------------------------------------------------
def test_unsafe_requests_from_a_foreign_origin_are_forbidden(backend_server: str) -> None:
    host = Guest(backend_server, "Sited")
    room = {"game": "abstrac", "seats": 2}
    own = urlsplit(backend_server)
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": f"https://{own.netloc}"},  # another scheme is another origin
        {"Origin": f"http://{own.hostname}:{own.port + 1}"},
        {"Referer": "http://evil.example/page"},
        {"Origin": backend_server, "X-Forwarded-Proto": "https"},
    ):
        answer = host.http.post("/api/rooms", json=room, headers=headers)
        assert answer.status_code == 403, (headers, answer.text)
        assert answer.json()["error"]["code"] == "forbidden_origin", headers
    for headers in (
        {},
        {"Origin": backend_server},
        {"Origin": backend_server.upper()},
        {"Referer": f"{backend_server}/"},
        {"Origin": f"https://{own.netloc}", "X-Forwarded-Proto": "https"},
        {"Origin": "http://cards.example", "Host": "cards.example:80"},
    ):
        answer = host.http.post("/api/rooms", json=room, headers=headers)
        assert answer.status_code == 201, (headers, answer.text)
    room_id = answer.json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    forged = host.http.delete(
        f"/api/rooms/{room_id}/seats/0", headers={"Origin": "http://evil.example"}
    )
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "forbidden_origin"
    assert host.http.get("/api/me", headers={"Origin": "http://evil.example"}).status_code == 200


def test_unsafe_requests_with_a_body_must_send_json(backend_server: str) -> None:
    host = Guest(backend_server, "Typed")
    room_id = host.create_room()["id"]
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        for path in ("/api/players", f"/api/rooms/{room_id}/seats/0"):
            answer = host.http.post(
                path, content=b'{"name": "Plain"}', headers={"Content-Type": content_type}
            )
            assert answer.status_code == 415, (path, content_type, answer.text)
            assert answer.json()["error"]["code"] == "unsupported_media_type"
    assert host.http.post(f"/api/rooms/{room_id}/seats/0", content=b"x").status_code == 415
    assert host.http.post(f"/api/rooms/{room_id}/seats/0").status_code == 200  # no body
    typed = host.http.post(
        "/api/players",
        content=b'{"name": "Charset"}',
        headers={"Content-Type": "Application/JSON; charset=utf-8"},
    )
    assert typed.status_code == 201


def test_pages_cannot_be_framed_and_nothing_is_sniffed(backend_server: str) -> None:
    # the lobby, the history, and pages that name nothing (a 404 page is a page too)
    for page in ("/", "/matches", "/matches/1", "/players/1", "/rooms/abc", "/nowhere"):
        answer = httpx.get(f"{backend_server}{page}")
        assert answer.status_code in (200, 404), page
        assert answer.headers["content-type"].startswith("text/html"), page
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'self'" in policy and "object-src 'none'" in policy, page
        assert answer.headers["x-frame-options"] == "SAMEORIGIN"
        assert answer.headers["x-content-type-options"] == "nosniff"
    for path in ("/api/games", "/static/js/api.js", "/api/rooms/none", "/healthz", "/nowhere"):
        answer = httpx.get(f"{backend_server}{path}")
        assert answer.headers["x-content-type-options"] == "nosniff", path


def test_pages_answer_head_as_get(backend_server: str) -> None:
    """A monitor or a link checker asks with HEAD: a page answered 405."""
    for page in ("/", "/matches", "/games/abstrac", "/signin", "/nowhere"):
        got, head = httpx.get(f"{backend_server}{page}"), httpx.head(f"{backend_server}{page}")
        assert head.status_code == got.status_code and head.content == b"", page
        for name in ("content-type", "content-security-policy", "x-frame-options"):
            assert head.headers[name] == got.headers[name], (page, name)
