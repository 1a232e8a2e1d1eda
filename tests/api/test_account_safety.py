"""What a stolen session cannot do, and what signing out ends, over real HTTP on both backends:
adding a passkey needs a recent sign-in or the password, a passkey id longer than WebAuthn
allows is refused, passkeys have labels and times and a password change may remove them, and
sign-out or a password change closes the player's open sockets (4001)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.db.engine import make_engine
from app.db.models import Session as SessionRow
from tests.support.clients import PLAIN, Guest, RoomSocket, closed_with
from tests.support.passkeys import registration
from tests.support.server import ServerProcess, private_server, run_on_own_loop

PASSWORD = "Gleaming-Otter-42"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[ServerProcess]:
    with private_server(tmp_path_factory.mktemp(f"safety-{backend}"), {}, backend=backend) as s:
        yield s


def claimed(base: str, name: str = "Ada") -> tuple[Guest, str]:
    guest = Guest(base, name)
    username = f"u{uuid.uuid4().hex[:12]}"
    answer = guest.post("/api/account", {"username": username, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return guest, username


def signed_in(base: str, username: str, password: str = PASSWORD) -> httpx.Client:
    answer = httpx.post(
        f"{base}/api/session",
        json={"username": username, "password": password},
        timeout=10,
        verify=PLAIN,
    )
    assert answer.status_code == 200, answer.text
    token = answer.json()["token"]
    return httpx.Client(
        base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=10, verify=PLAIN
    )


def sign_ins_long_ago(database_url: str) -> None:
    """Every session's last sign-in long ago: what a session stolen from a browser left
    signed in for weeks looks like."""

    async def age() -> None:
        engine = make_engine(database_url)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    update(SessionRow).values(authenticated_at=datetime(2000, 1, 1, tzinfo=UTC))
                )
        finally:
            await engine.dispose()

    run_on_own_loop(age())


def add_passkey(
    client: httpx.Client, base: str, body: dict[str, Any] | None = None, **extra: Any
) -> httpx.Response:
    options = client.post("/api/passkeys/registration/options", json=body)
    assert options.status_code == 200, options.text
    credential = registration(options.json(), base, extra.pop("credential_id", None))
    return client.post("/api/passkeys/registration", json={"credential": credential, **extra})


def test_a_stolen_session_cannot_add_a_passkey_without_the_password(
    server: ServerProcess,
) -> None:
    base = server.url
    guest, _ = claimed(base)
    assert add_passkey(guest.http, base).status_code == 201  # just claimed: a recent sign-in
    sign_ins_long_ago(server.database_url)
    stolen = guest.http.post("/api/passkeys/registration/options")
    assert stolen.status_code == 403, stolen.text
    assert stolen.json()["error"]["code"] == "password_needed"
    wrong = guest.http.post(
        "/api/passkeys/registration/options", json={"password": "not-the-password"}
    )
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
    added = add_passkey(guest.http, base, {"password": PASSWORD}, label="Work laptop")
    assert added.status_code == 201, added.text
    assert len(guest.http.get("/api/passkeys").json()) == 2


def test_a_passkey_id_longer_than_webauthn_allows_is_refused(server: ServerProcess) -> None:
    guest, _ = claimed(server.url)
    answer = add_passkey(guest.http, server.url, credential_id=bytes(range(256)) * 5)  # 1,280
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_credential"
    assert "1023" in answer.json()["error"]["message"]
    assert add_passkey(guest.http, server.url, credential_id=b"k" * 1023).status_code == 201
    assert len(guest.http.get("/api/passkeys").json()) == 1


def test_passkeys_have_labels_and_times_and_a_password_change_may_remove_them(
    server: ServerProcess,
) -> None:
    guest, username = claimed(server.url)
    named = add_passkey(guest.http, server.url, label="  My   phone ")
    assert named.status_code == 201, named.text
    assert named.json()["label"] == "My phone"
    unnamed = add_passkey(guest.http, server.url)  # named after the device it was made on
    assert unnamed.json()["label"] == "A program"
    listed = guest.http.get("/api/passkeys").json()
    assert [p["label"] for p in listed] == ["My phone", "A program"]
    assert all(p["created_at"] and p["last_used_at"] is None for p in listed)
    keep = guest.http.put(
        "/api/account/password",
        json={"current_password": PASSWORD, "new_password": "Silver-Heron-77"},
    )
    assert keep.status_code == 204 and len(guest.http.get("/api/passkeys").json()) == 2
    remove = guest.http.put(
        "/api/account/password",
        json={
            "current_password": "Silver-Heron-77",
            "new_password": "Copper-Finch-31",
            "remove_passkeys": True,
        },
    )
    assert remove.status_code == 204, remove.text
    assert guest.http.get("/api/passkeys").json() == []
    assert signed_in(server.url, username, "Copper-Finch-31").get("/api/me").status_code == 200


def test_signing_out_and_a_password_change_close_the_players_sockets(
    server: ServerProcess,
) -> None:
    base = server.url
    guest, username = claimed(base, "Sockets")
    room_id = guest.create_room()["id"]
    phone = signed_in(base, username)
    phone_token = phone.headers["Authorization"].split()[1]
    mine = guest.socket(room_id)
    mine.expect("hello")
    on_phone = RoomSocket(base, room_id, phone_token, {})
    on_phone.expect("hello")
    changed = guest.http.put(
        "/api/account/password",
        json={"current_password": PASSWORD, "new_password": "Silver-Heron-77"},
    )
    assert changed.status_code == 204
    assert closed_with(on_phone) == 4001
    assert closed_with(mine) == 4001  # this device's too: it reconnects, still signed in
    again = guest.socket(room_id)
    again.expect("hello")
    assert closed_with(RoomSocket(base, room_id, phone_token, {})) == 4401  # signed out
    assert guest.http.delete("/api/session").status_code == 204
    assert closed_with(again) == 4001
