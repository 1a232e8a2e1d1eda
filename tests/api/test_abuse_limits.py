"""Limits that hold under concurrency, behind a proxy and across processes, over real HTTP on
both backends: a flood of wrong passwords gets the limit checked and no more (on two processes
at once), the owner still signs in from a browser it signed in on before, claims do every cheap
check before a hash and are limited per player and per address, hashes run a few at once and
take turns by address, guests and passkey challenges are limited per address (an IPv6 client
by its /64), and guests nobody used are forgotten.

The clients all connect from 127.0.0.1, which the servers trust as a proxy: an
``X-Forwarded-For`` header says which client address each request stands for."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select

from app.db.engine import make_engine
from app.db.models import Account, PasskeyChallenge, Player
from app.db.models import Session as SessionRow
from tests.support.clients import PLAIN, Guest
from tests.support.server import ServerProcess, free_port, private_server, run_on_own_loop
from tests.support.waiting import until_async

PASSWORD = "Gleaming-Otter-42"
LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)


def unique_username() -> str:
    return f"u{uuid.uuid4().hex[:12]}"


def claimed(base: str, address: str) -> tuple[Guest, str]:
    guest = Guest(base, "Owner")
    username = unique_username()
    answer = guest.http.post(
        "/api/account",
        json={"username": username, "password": PASSWORD},
        headers={"X-Forwarded-For": address},
    )
    assert answer.status_code == 201, answer.text
    return guest, username


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def hashed(*bases: str) -> int:
    """Password hashes the servers have computed or checked since they started."""
    return sum(
        httpx.get(f"{base}/healthz", verify=PLAIN).json()["passwords"]["hashed"] for base in bases
    )


async def at_once(requests: list[tuple[str, str, str, dict[str, Any], dict[str, str]]]) -> list:
    """Send ``(method, base url, path, json, headers)`` requests at once, each on a connection
    of its own: the answers, in order."""
    async with httpx.AsyncClient(
        timeout=60,
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
        verify=PLAIN,
    ) as client:
        return list(
            await asyncio.gather(
                *(
                    client.request(method, base + path, json=body, headers=headers)
                    for method, base, path, body, headers in requests
                )
            )
        )


@pytest.fixture
def pair(tmp_path: Path, backend: str) -> Iterator[list[ServerProcess]]:
    """Two processes of one fresh database of ``backend`` (no Redis: the limits live in the
    database), a per-address sign-in limit out of the way, a few database connections each."""
    env = {
        "CARDROOM_SIGNIN_FAILURES_PER_ADDRESS": "1000",
        "CARDROOM_HASH_QUEUE": "1000",
        "CARDROOM_DB_POOL_SIZE": "8",
    }
    tmp = tmp_path
    with private_server(tmp, env, backend=backend) as one:
        two = ServerProcess(
            database_url=one.database_url,
            port=free_port(),
            env={"CARDROOM_REDIS_URL": "", **env},
            log_path=tmp / "server-two.log",
        )
        two.start()
        try:
            yield [one, two]
        finally:
            two.stop()


def test_a_flood_of_wrong_passwords_gets_five_checked_on_two_processes(
    pair: list[ServerProcess],
) -> None:
    one, two = (p.url for p in pair)
    guest, username = claimed(one, "198.51.100.1")
    # the owner signs in on a phone first: that browser is known to the account from then on
    phone = httpx.Client(base_url=two, timeout=10, verify=PLAIN)
    first = phone.post("/api/session", json={"username": username, "password": PASSWORD})
    assert first.status_code == 200, first.text
    assert phone.cookies.get("cardroom_device")
    before = hashed(one, two)
    wrong = {"username": username, "password": "not-the-password"}
    attacker = from_address("203.0.113.66")
    answers = run_on_own_loop(
        at_once([("POST", (one, two)[n % 2], "/api/session", wrong, attacker) for n in range(60)])
    )
    codes = sorted(a.status_code for a in answers)
    assert codes == [401] * 5 + [429] * 55, codes
    assert hashed(one, two) - before == 5  # the other 55 never reached the hash
    refused = next(a for a in answers if a.status_code == 429)
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    # while the username is limited, its right password is refused from anywhere else too...
    laptop = httpx.post(
        f"{one}/api/session",
        json={"username": username, "password": PASSWORD},
        headers=from_address("198.51.100.2"),
        verify=PLAIN,
    )
    assert laptop.status_code == 429
    # ...but not from the browser the owner signed in on before
    again = phone.post("/api/session", json={"username": username, "password": PASSWORD})
    assert again.status_code == 200, again.text
    assert again.json()["id"] == guest.id


def test_claims_check_what_is_cheap_before_a_hash_and_are_limited(
    tmp_path: Path, backend: str
) -> None:
    env = {"CARDROOM_CLAIMS_PER_PLAYER": "3", "CARDROOM_CLAIMS_PER_ADDRESS": "5"}
    with private_server(tmp_path, env, backend=backend) as server:
        base = server.url
        owner, taken = claimed(base, "198.51.100.9")
        start = hashed(base)
        # the owner again, and a prober trying a taken username: no hash for either
        again = owner.http.post(
            "/api/account", json={"username": unique_username(), "password": PASSWORD}
        )
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_claimed"
        prober = Guest(base, "Prober")
        here = from_address("203.0.113.7")
        probe = {"username": taken, "password": PASSWORD}
        for _ in range(2):
            answer = prober.http.post("/api/account", json=probe, headers=here)
            assert answer.status_code == 409, answer.text
            assert answer.json()["error"]["code"] == "username_taken"
        assert hashed(base) == start
        # a player's probes are limited (3), then the address's (5), whoever asks from it
        assert prober.http.post("/api/account", json=probe, headers=here).status_code == 409
        limited = prober.http.post("/api/account", json=probe, headers=here)
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
        second = Guest(base, "Second")  # the address has 3 of its 5: the refused one took none
        for expected in (409, 409, 429):
            answer = second.http.post("/api/account", json=probe, headers=here)
            assert answer.status_code == expected, answer.text
        # many claims at once by one player from a fresh address: three counted at most
        racer = Guest(base, "Racer")
        answers = run_on_own_loop(
            at_once(
                [
                    (
                        "POST",
                        base,
                        "/api/account",
                        probe,
                        {**from_address("192.0.2.44"), "Authorization": f"Bearer {racer.token}"},
                    )
                ]
                * 20
            )
        )
        codes = sorted(a.status_code for a in answers)
        assert codes == [409] * 3 + [429] * 17, codes
        assert hashed(base) == start


def test_hashes_run_a_few_at_once_and_take_turns_by_address(tmp_path: Path, backend: str) -> None:
    env = {"CARDROOM_HASHES_AT_ONCE": "1"}
    with private_server(tmp_path, env, backend=backend) as server:
        base = server.url
        order: list[str] = []

        async def sign_in(client: httpx.AsyncClient, address: str) -> None:
            wrong = {"username": unique_username(), "password": PASSWORD}
            answer = await client.post("/api/session", json=wrong, headers=from_address(address))
            assert answer.status_code == 401, answer.text
            order.append(address)

        async def run() -> dict[str, int]:
            async with httpx.AsyncClient(
                base_url=base,
                timeout=60,
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
                verify=PLAIN,
            ) as client:
                flood = [asyncio.create_task(sign_in(client, "203.0.113.1")) for _ in range(6)]

                async def queued() -> bool:
                    health = (await client.get("/healthz")).json()["passwords"]
                    return health["running"] == 1 and health["waiting"] == 5

                await until_async(queued, "six hashes from one address, five waiting")
                other = asyncio.create_task(sign_in(client, "198.51.100.3"))
                await asyncio.gather(*flood, other)
                return (await client.get("/healthz")).json()["passwords"]

        passwords = run_on_own_loop(run())
        assert passwords["most_at_once"] == 1
        # the other address waited for the flood's hash under way when it came (on a loaded
        # machine one or two more may end before its request is read), not for the five queued
        assert order.index("198.51.100.3") <= 3, order


def test_one_addresss_hashes_are_paced_and_few_wait(tmp_path: Path, backend: str) -> None:
    env = {"CARDROOM_HASH_BURST_PER_ADDRESS": "1", "CARDROOM_HASH_SECONDS_PER_ADDRESS": "0.5"}
    with private_server(tmp_path, env, backend=backend) as server:
        base = server.url
        order: list[str] = []

        async def sign_in(client: httpx.AsyncClient, address: str) -> int:
            wrong = {"username": unique_username(), "password": PASSWORD}
            answer = await client.post("/api/session", json=wrong, headers=from_address(address))
            order.append(f"{address} {answer.status_code}")
            return answer.status_code

        async def run() -> tuple[list[int], int]:
            async with httpx.AsyncClient(
                base_url=base,
                timeout=60,
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
                verify=PLAIN,
            ) as client:
                flood = [asyncio.create_task(sign_in(client, "203.0.113.2")) for _ in range(10)]

                async def eight_wait() -> bool:
                    health = (await client.get("/healthz")).json()["passwords"]
                    return health["waiting"] == 8 and len(order) >= 1

                await until_async(eight_wait, "one hash under way or done, eight waiting")
                other = await sign_in(client, "198.51.100.4")
                return list(await asyncio.gather(*flood)), other

        flood, other = run_on_own_loop(run())
        # one at once, then one every half second: nine hashed in turn, the tenth found no place
        assert sorted(flood) == [401] * 9 + [503], flood
        assert other == 401
        # the other address did not wait for the flood's turns
        assert order.index("198.51.100.4 401") <= 3, order


def test_guests_and_challenges_are_limited_per_address_an_ipv6_client_by_its_64(
    tmp_path: Path, backend: str
) -> None:
    env = {
        "CARDROOM_GUESTS_PER_ADDRESS": "3",
        "CARDROOM_CHALLENGES_PER_ADDRESS": "2",
        "CARDROOM_SIGNIN_FAILURES_PER_ADDRESS": "2",
    }
    with private_server(tmp_path, env, backend=backend) as server:
        base = server.url

        def new_guest(address: str) -> httpx.Response:
            return httpx.post(
                f"{base}/api/players",
                json={"name": "Flood"},
                headers=from_address(address),
                verify=PLAIN,
            )

        for address in ("2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ee:dd:3"):
            assert new_guest(address).status_code == 201
        refused = new_guest("2001:db8:1:2:aaaa::9")  # the same /64
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "Retry-After" in refused.headers
        assert new_guest("2001:db8:1:3::1").status_code == 201  # the next /64
        for _ in range(3):
            assert new_guest("192.0.2.8").status_code == 201
        assert new_guest("192.0.2.8").status_code == 429
        assert new_guest("::ffff:192.0.2.8").status_code == 429  # IPv4 mapped: the same
        assert new_guest("192.0.2.9").status_code == 201

        def challenge(address: str) -> int:
            return httpx.post(
                f"{base}/api/passkeys/authentication/options",
                json={},
                headers=from_address(address),
                verify=PLAIN,
            ).status_code

        assert [challenge("2001:db8:9:9::1"), challenge("2001:db8:9:9::2")] == [200, 200]
        assert challenge("2001:db8:9:9:1::3") == 429
        assert challenge("2001:db8:9:8::1") == 200

        def sign_in(address: str) -> int:
            return httpx.post(
                f"{base}/api/session",
                json={"username": unique_username(), "password": PASSWORD},
                headers=from_address(address),
                verify=PLAIN,
            ).status_code

        assert [sign_in("2001:db8:7:7::1"), sign_in("2001:db8:7:7::2")] == [401, 401]
        assert sign_in("2001:db8:7:7::3") == 429


def test_guests_nobody_used_and_lapsed_challenges_are_forgotten(
    tmp_path: Path, backend: str
) -> None:
    with private_server(tmp_path, {}, backend=backend) as server:
        # before the process makes its first guest (which tidies): three guests of long ago
        # and a challenge that lapsed
        async def old_rows() -> dict[str, int]:
            engine = make_engine(server.database_url)
            try:
                async with engine.begin() as conn:
                    ids = {}
                    for name, seen in (("unused", LONG_AGO), ("account", LONG_AGO)):
                        ids[name] = await _old_guest(conn, name, seen)
                    ids["back"] = await _old_guest(conn, "back", datetime.now(UTC))
                    await conn.execute(
                        insert(Account).values(
                            player_id=ids["account"],
                            username=unique_username(),
                            username_key=unique_username(),
                            password_hash="$argon2id$x",
                            user_handle=uuid.uuid4().hex,
                            created_at=LONG_AGO,
                        )
                    )
                    await conn.execute(
                        insert(PasskeyChallenge).values(
                            challenge="lapsed",
                            purpose="authenticate",
                            player_id=ids["unused"],
                            expires_at=LONG_AGO,
                        )
                    )
                return ids
            finally:
                await engine.dispose()

        ids = run_on_own_loop(old_rows())
        Guest(server.url, "Newcomer")

        def found(player_id: int) -> bool:
            return httpx.get(f"{server.url}/api/players/{player_id}", verify=PLAIN).is_success

        assert not found(ids["unused"])
        assert found(ids["account"])  # claimed an account
        assert found(ids["back"])  # came back lately

        async def challenges() -> list[str]:
            engine = make_engine(server.database_url)
            try:
                async with engine.connect() as conn:
                    rows = await conn.execute(select(PasskeyChallenge.challenge))
                    return list(rows.scalars())
            finally:
                await engine.dispose()

        assert run_on_own_loop(challenges()) == []


async def _old_guest(conn: Any, name: str, seen: datetime) -> int:
    player_id = (
        await conn.execute(
            insert(Player)
            .values(name=name, token_hash=uuid.uuid4().hex, created_at=LONG_AGO)
            .returning(Player.id)
        )
    ).scalar_one()
    await conn.execute(
        insert(SessionRow).values(
            player_id=player_id,
            token_hash=uuid.uuid4().hex,
            label="",
            created_at=LONG_AGO,
            last_seen_at=seen,
        )
    )
    return player_id
