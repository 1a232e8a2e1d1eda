"""Accounts over real HTTP (SQLite, or Postgres with CARDROOM_TEST_DATABASE_URL): claim, sign
in elsewhere as the same player, sessions per device, sign-out, password change, and nothing
like a password anywhere in the database."""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy import MetaData, select, update
from sqlalchemy.exc import SAWarning

from app.db.engine import make_engine
from app.db.models import SigninFailure
from tests.support.clients import Guest
from tests.support.server import ServerProcess, private_server, run_on_own_loop
from tests.support.waiting import until

PASSWORD = "Gleaming-Otter-42"


def unique_username() -> str:
    return f"u{uuid.uuid4().hex[:12]}"


def claimed(live_server: str, name: str = "Ada") -> tuple[Guest, str]:
    guest = Guest(live_server, name)
    username = unique_username()
    answer = guest.post("/api/account", {"username": username, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"id": guest.id, "name": guest.name, "username": username}
    return guest, username


def sign_in(base_url: str, username: str, password: str) -> httpx.Response:
    return httpx.post(
        f"{base_url}/api/session", json={"username": username, "password": password}, timeout=10
    )


def as_token(base_url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def test_a_claimed_guest_signs_in_elsewhere_as_the_same_player(live_server: str) -> None:
    guest, username = claimed(live_server, "Grace")
    assert guest.http.get("/api/me").json()["username"] == username
    answer = sign_in(live_server, username.upper(), PASSWORD)  # any case of the username
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["id"] == guest.id and body["name"] == "Grace" and body["token"] != guest.token
    assert "HttpOnly" in answer.headers["set-cookie"]
    elsewhere = as_token(live_server, body["token"])
    assert elsewhere.get("/api/me").json() == {
        "id": guest.id,
        "name": "Grace",
        "username": username,
    }
    assert guest.http.get("/api/me").status_code == 200  # the first device is still in
    devices = elsewhere.get("/api/sessions").json()
    assert len(devices) == 2 and [d["current"] for d in devices].count(True) == 1


def test_usernames_are_unique_whatever_their_case(live_server: str) -> None:
    _, username = claimed(live_server)
    other = Guest(live_server, "Bob")
    answer = other.post("/api/account", {"username": username.upper(), "password": PASSWORD})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "username_taken"
    assert other.http.get("/api/me").json()["username"] is None


def test_a_player_claims_once(live_server: str) -> None:
    guest, _ = claimed(live_server)
    again = guest.post("/api/account", {"username": unique_username(), "password": PASSWORD})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_claimed"


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1!", "at least 10 characters"),
        ("1234567890", "most common"),
        ("aaaaabbbbbaaaaa", "different characters"),
    ],
)
def test_a_weak_password_is_refused_with_its_reason(
    live_server: str, password: str, reason: str
) -> None:
    guest = Guest(live_server, "Weak")
    answer = guest.post("/api/account", {"username": unique_username(), "password": password})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "weak_password"
    assert reason in answer.json()["error"]["message"]
    assert guest.http.get("/api/me").json()["username"] is None


def test_a_password_holding_the_username_is_weak(live_server: str) -> None:
    guest = Guest(live_server, "Name")
    username = unique_username()
    answer = guest.post("/api/account", {"username": username, "password": f"{username}!xyz"})
    assert answer.status_code == 422 and "username" in answer.json()["error"]["message"]


def test_a_bad_username_is_refused_in_words(live_server: str) -> None:
    guest = Guest(live_server, "Odd")
    for username in ("ab", "x" * 25, "has space", "-dash", "ünï"):
        answer = guest.post("/api/account", {"username": username, "password": PASSWORD})
        assert answer.status_code == 422, username
        assert answer.json()["error"]["code"] == "invalid_username"
        assert "3 to 24 characters" in answer.json()["error"]["message"]


def test_a_visitor_without_a_name_cannot_claim(live_server: str) -> None:
    answer = httpx.post(
        f"{live_server}/api/account", json={"username": unique_username(), "password": PASSWORD}
    )
    assert answer.status_code == 401


def test_a_wrong_password_or_unknown_username_is_refused_alike(live_server: str) -> None:
    _, username = claimed(live_server)
    wrong = sign_in(live_server, username, PASSWORD + "x")
    unknown = sign_in(live_server, unique_username(), PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"]["code"] == "bad_credentials"
    assert "set-cookie" not in wrong.headers


def test_signing_out_ends_that_session_only(live_server: str) -> None:
    guest, username = claimed(live_server)
    token = sign_in(live_server, username, PASSWORD).json()["token"]
    elsewhere = as_token(live_server, token)
    answer = elsewhere.delete("/api/session")
    assert answer.status_code == 204
    assert elsewhere.get("/api/me").status_code == 401
    assert elsewhere.get("/api/session").json() == {"player": None}
    assert guest.http.get("/api/me").json()["id"] == guest.id
    assert len(guest.http.get("/api/sessions").json()) == 1


def test_a_player_ends_another_session_or_all_of_them(live_server: str) -> None:
    guest, username = claimed(live_server)
    phone = as_token(live_server, sign_in(live_server, username, PASSWORD).json()["token"])
    tablet = as_token(live_server, sign_in(live_server, username, PASSWORD).json()["token"])
    mine = {d["id"] for d in phone.get("/api/sessions").json() if d["current"]}
    (phone_id,) = mine
    stranger = Guest(live_server, "Mallory")
    assert stranger.http.delete(f"/api/sessions/{phone_id}").status_code == 404
    assert phone.get("/api/me").status_code == 200
    assert guest.http.delete(f"/api/sessions/{phone_id}").status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert tablet.get("/api/me").status_code == 200
    assert guest.http.delete("/api/sessions").status_code == 204  # everywhere
    assert tablet.get("/api/me").status_code == 401
    assert guest.http.get("/api/me").status_code == 401
    assert stranger.http.get("/api/me").status_code == 200
    again = sign_in(live_server, username, PASSWORD)
    assert again.status_code == 200 and again.json()["id"] == guest.id


def test_a_password_change_signs_every_other_device_out(live_server: str) -> None:
    guest, username = claimed(live_server)
    phone = as_token(live_server, sign_in(live_server, username, PASSWORD).json()["token"])
    new = "Silver-Heron-77"
    wrong = guest.http.put(
        "/api/account/password", json={"current_password": "nope-nope-1", "new_password": new}
    )
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
    assert phone.get("/api/me").status_code == 200
    weak = guest.http.put(
        "/api/account/password", json={"current_password": PASSWORD, "new_password": "short"}
    )
    assert weak.status_code == 422 and weak.json()["error"]["code"] == "weak_password"
    changed = guest.http.put(
        "/api/account/password", json={"current_password": PASSWORD, "new_password": new}
    )
    assert changed.status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert guest.http.get("/api/me").status_code == 200
    assert sign_in(live_server, username, PASSWORD).status_code == 401
    assert sign_in(live_server, username, new).json()["id"] == guest.id


def test_unsafe_account_requests_from_another_site_are_refused(live_server: str) -> None:
    guest = Guest(live_server, "Eve")
    answer = guest.http.post(
        "/api/account",
        json={"username": unique_username(), "password": PASSWORD},
        headers={"Origin": "http://evil.example"},
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden_origin"
    assert guest.http.get("/api/me").json()["username"] is None


def table_texts(database_url: str) -> list[str]:
    """Every value of every row of every table, as text."""

    async def dump() -> list[str]:
        engine = make_engine(database_url)
        try:
            async with engine.connect() as conn:
                tables = MetaData()
                with warnings.catch_warnings():  # an index on an expression: not needed here
                    warnings.simplefilter("ignore", SAWarning)
                    await conn.run_sync(tables.reflect)
                texts = []
                for table in tables.sorted_tables:
                    for row in await conn.execute(select(table)):
                        texts.extend(str(value) for value in row)
                return texts
        finally:
            await engine.dispose()

    return run_on_own_loop(dump())


def test_nothing_like_the_password_or_a_token_is_stored(
    live_server: str, database_url: str
) -> None:
    guest, username = claimed(live_server, "Secretive")
    token = sign_in(live_server, username, PASSWORD).json()["token"]
    texts = table_texts(database_url)
    assert any(username == text for text in texts)  # the dump does see the account
    for secret in (PASSWORD, PASSWORD.lower(), guest.token, token):
        assert not [text for text in texts if secret.lower() in text.lower()], secret
    assert any(text.startswith("$argon2id$") for text in texts)


@pytest.fixture
def limited_server(tmp_path: Path) -> Iterator[ServerProcess]:
    env = {
        "CARDROOM_SIGNIN_FAILURES_PER_USERNAME": "3",
        "CARDROOM_SIGNIN_FAILURES_PER_ADDRESS": "6",
    }
    with private_server(tmp_path, env) as server:
        yield server


def pass_the_window(database_url: str) -> None:
    """Move the failures stored to long ago: what the window's passing does to them."""

    async def age() -> None:
        engine = make_engine(database_url)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    update(SigninFailure).values(at=datetime(2000, 1, 1, tzinfo=UTC))
                )
        finally:
            await engine.dispose()

    run_on_own_loop(age())


def test_failed_sign_ins_are_limited_then_lifted(limited_server: ServerProcess) -> None:
    base = limited_server.url
    _, username = claimed(base)
    for _ in range(3):
        assert sign_in(base, username, "not-the-password").status_code == 401
    refused = sign_in(base, username, PASSWORD)  # even the right password, for now
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    # an unknown username is limited alike: the answer tells nothing of which exist
    ghost = unique_username()
    for _ in range(3):
        assert sign_in(base, ghost, "not-the-password").status_code == 401
    ghost_refused = sign_in(base, ghost, PASSWORD)
    assert ghost_refused.status_code == 429
    assert ghost_refused.json() == refused.json()
    # the address has now failed 6 times: any username is refused from it
    _, other = claimed(base)
    assert sign_in(base, other, PASSWORD).status_code == 429
    pass_the_window(limited_server.database_url)
    # a process refuses a key it saw full from memory for a moment (REMEMBER_FULL) before it
    # asks the database again
    until(lambda: sign_in(base, username, PASSWORD).status_code == 200, "the limit's lift")
    assert sign_in(base, other, PASSWORD).status_code == 200


MALFORMED_CREDENTIALS = [
    {},
    {"id": "abc"},
    {"id": "a\u0000b", "response": {"clientDataJSON": "e30"}},
    {"id": "abc", "response": []},
    {"id": "abc", "response": {"clientDataJSON": 5}},
    {"id": "abc", "response": {"clientDataJSON": "!!!"}},
    {"id": "abc", "response": {"clientDataJSON": "WzFd"}},  # [1]
    {"id": "abc", "response": {"clientDataJSON": "eyJjaGFsbGVuZ2UiOiJhXHUwMDAwYiJ9"}},  # NUL
    {"id": "abc", "response": {"clientDataJSON": "eyJjaGFsbGVuZ2UiOiJ4eXoifQ"}},  # unknown
]


@pytest.mark.parametrize("credential", MALFORMED_CREDENTIALS)
def test_a_malformed_passkey_answer_is_refused_in_words(
    live_server: str, credential: dict[str, object]
) -> None:
    guest, _ = claimed(live_server)
    for path in ("/api/passkeys/registration", "/api/passkeys/authentication"):
        answer = guest.post(path, {"credential": credential})
        assert answer.status_code in (400, 401, 422), (path, answer.text)
        assert answer.json()["error"]["message"]
    assert guest.http.get("/api/passkeys").json() == []


def test_odd_usernames_sign_in_to_nothing_and_never_fail_the_server(live_server: str) -> None:
    for username in ("a\u0000b", "", " " * 50, "é" * 30, "x" * 200):
        answer = sign_in(live_server, username, PASSWORD)
        assert answer.status_code == 401, (username, answer.text)
        assert answer.json()["error"]["code"] == "bad_credentials"


def test_passkey_options_follow_the_host_and_hand_out_fresh_challenges(live_server: str) -> None:
    guest, username = claimed(live_server)
    port = live_server.rsplit(":", 1)[1]
    options = guest.http.post(
        "/api/passkeys/registration/options", headers={"Host": f"localhost:{port}"}
    ).json()
    assert options["rp"]["id"] == "localhost"
    assert options["user"]["name"] == username
    assert options["authenticatorSelection"]["residentKey"] == "required"
    first = httpx.post(f"{live_server}/api/passkeys/authentication/options", json={}).json()
    second = httpx.post(
        f"{live_server}/api/passkeys/authentication/options", json={"username": username}
    ).json()
    assert first["challenge"] != second["challenge"]
    assert "allowCredentials" not in second or second["allowCredentials"] == []


def test_a_guest_has_no_passkeys_to_add(live_server: str) -> None:
    guest = Guest(live_server, "Guesty")
    answer = guest.post("/api/passkeys/registration/options")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_account"
