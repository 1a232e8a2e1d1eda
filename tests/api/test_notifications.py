"""Notifications over a real server on both backends, with a real push service and a real SMTP
server of the test's: Web Push subscriptions (only at known push services: any other endpoint
is refused and never contacted), messages the browser decrypts with its own key, signed with
the server's VAPID key, dropped subscriptions on 410; an account's address verified by its
link, turns mailed with a one-click unsubscribe; preferences. Notices are scheduled in
process, as the turn-based side will (``Notifier.your_turn``), on the server's database."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import select

from app.db.engine import make_engine
from app.db.models import PushSubscription
from app.notify.notifier import Notifier
from app.rooms.ports import TurnNotice
from app.timestamps import utcnow
from tests.support.clients import PLAIN, Guest
from tests.support.push_service import Browser, PushService, push_service, vapid_claims
from tests.support.server import ServerProcess, private_server, run_on_own_loop
from tests.support.smtp import Inbox, links_in, smtp_server, text_of
from tests.support.waiting import until

PASSWORD = "Gleaming-Otter-42"


@dataclass
class Site:
    server: ServerProcess
    push: PushService
    outside: PushService  # a listener at an origin the server does not know
    inbox: Inbox


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Site]:
    with push_service() as push, push_service() as outside, smtp_server() as (inbox, smtp):
        env = {
            "CARDROOM_PUSH_ENDPOINT_ORIGINS": json.dumps([push.origin]),
            "CARDROOM_SMTP_URL": f"smtp://127.0.0.1:{smtp}",
            "CARDROOM_MAIL_FROM": "turns@cardroom.test",
            "CARDROOM_JOBS_POLL_SECONDS": "0.1",
        }
        tmp = tmp_path_factory.mktemp(f"notify-{backend}")
        with private_server(tmp, env, backend=backend) as server:
            yield Site(server, push, outside, inbox)


def notice_for(player_id: int, seq: int = 1, **extra: object) -> TurnNotice:
    fields: dict[str, object] = {
        "room_id": "r-" + uuid.uuid4().hex[:6],
        "match_id": 7,
        "game": "abstrac",
        "title": "ABSTRAC",
        "mover": "Grace",
        "deadline": utcnow() + timedelta(hours=20),
        "kind": "your_turn",
        "seq": seq,
        **extra,
    }
    return TurnNotice(player_id=player_id, **fields)  # type: ignore[arg-type]


def notify(server: ServerProcess, *notices: TurnNotice) -> None:
    """Schedule notices on the server's database, as a move's transaction would."""

    async def schedule() -> None:
        db = make_engine(server.database_url)
        try:
            for notice in notices:
                async with db.begin() as conn:
                    await Notifier(utcnow).your_turn(conn, notice)
        finally:
            await db.dispose()

    run_on_own_loop(schedule())


def subscription_ids(server: ServerProcess) -> set[int]:
    async def read() -> set[int]:
        db = make_engine(server.database_url)
        try:
            async with db.connect() as conn:
                return set((await conn.execute(select(PushSubscription.id))).scalars())
        finally:
            await db.dispose()

    return run_on_own_loop(read())


def subscribed(site: Site, guest: Guest) -> tuple[Browser, int]:
    browser = Browser(site.push, f"/push/{uuid.uuid4().hex}")
    answer = guest.post("/api/push/subscriptions", browser.subscription())
    assert answer.status_code == 201, answer.text
    return browser, answer.json()["id"]


def claimed(base: str) -> Guest:
    guest = Guest(base, "Ada")
    username = f"u{uuid.uuid4().hex[:12]}"
    answer = guest.post("/api/account", {"username": username, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return guest


def test_a_turn_is_pushed_encrypted_to_the_browser_signed_with_the_servers_key(
    site: Site,
) -> None:
    guest = Guest(site.server.url, "Ada")
    browser, _ = subscribed(site, guest)
    path = browser.endpoint.removeprefix(site.push.origin)
    public_key = httpx.get(f"{site.server.url}/api/push/key", verify=PLAIN).json()["public_key"]
    notice = notice_for(guest.id)
    notify(site.server, notice)
    [request] = until(lambda: site.push.to(path), "the push")
    message = browser.read(request)
    assert message["title"] == "Your turn at ABSTRAC"
    assert message["body"].startswith("Grace moved. Play before ")
    assert message["url"] == f"/rooms/{notice.room_id}"
    assert set(message) == {
        *("title", "body", "url", "tag", "kind", "game", "room_id", "match_id", "deadline"),
    }
    claims = vapid_claims(request, public_key)
    assert claims["aud"] == site.push.origin and claims["sub"] == "mailto:turns@cardroom.test"
    assert 60 * 60 * 19 < int(request.headers["ttl"]) <= 60 * 60 * 20  # until the deadline
    assert len(request.headers["topic"]) == 32
    # the same notice again is not sent again; a later one is, under another topic
    notify(site.server, notice, replace(notice, seq=2))
    until(lambda: len(site.push.to(path)) == 2, "the second move's push")
    assert site.push.to(path)[1].headers["topic"] != request.headers["topic"]
    assert browser.read(site.push.to(path)[1])["url"] == message["url"]


def test_an_endpoint_outside_the_known_push_services_is_refused_and_never_contacted(
    site: Site,
) -> None:
    guest = Guest(site.server.url, "Mallory")
    for endpoint in (
        f"{site.outside.origin}/steal",
        "https://push.example.com/x",
        f"{site.push.origin}@evil.example/x".replace("http://", "http://user:"),
        "file:///etc/passwd",
    ):
        body = {**Browser(site.push, "/x").subscription(), "endpoint": endpoint}
        answer = guest.post("/api/push/subscriptions", body)
        assert answer.status_code == 422, (endpoint, answer.text)
        assert answer.json()["error"]["code"] == "unknown_push_service"
    bad_keys = Browser(site.push, "/x").subscription()
    bad_keys["keys"]["p256dh"] = "AAAA"
    answer = guest.post("/api/push/subscriptions", bad_keys)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_subscription"
    browser, _ = subscribed(site, guest)  # a known one beside
    path = browser.endpoint.removeprefix(site.push.origin)
    notify(site.server, notice_for(guest.id))
    until(lambda: site.push.to(path), "the push to the known service")
    assert site.outside.received == []


def test_a_subscription_the_push_service_says_is_gone_is_dropped(site: Site) -> None:
    guest = Guest(site.server.url, "Gone")
    browser, subscription_id = subscribed(site, guest)
    path = browser.endpoint.removeprefix(site.push.origin)
    site.push.status = 410
    try:
        notify(site.server, notice_for(guest.id))
        until(lambda: site.push.to(path), "the push")
        until(lambda: subscription_id not in subscription_ids(site.server), "the drop")
    finally:
        site.push.status = 201
    assert guest.http.delete(f"/api/push/subscriptions/{subscription_id}").status_code == 404


def test_only_the_owner_removes_a_subscription(site: Site) -> None:
    owner, other = Guest(site.server.url, "Owner"), Guest(site.server.url, "Other")
    _, subscription_id = subscribed(site, owner)
    assert other.http.delete(f"/api/push/subscriptions/{subscription_id}").status_code == 404
    assert owner.http.delete(f"/api/push/subscriptions/{subscription_id}").status_code == 204
    assert subscription_id not in subscription_ids(site.server)
    assert owner.http.delete("/api/push/subscriptions/99999999999").status_code == 404


def test_preferences_default_to_push_and_no_mail_and_a_guest_gets_no_mail(site: Site) -> None:
    guest = Guest(site.server.url, "Prefs")
    assert guest.http.get("/api/account/notifications").json() == {
        "push": True,
        "email": "off",
        "email_address": None,
        "email_verified": False,
        "mail_available": True,
    }
    mail = guest.http.put("/api/account/notifications", json={"push": True, "email": "daily"})
    assert mail.status_code == 403 and mail.json()["error"]["code"] == "account_needed"
    address = guest.http.put("/api/account/email", json={"email": "ada@example.com"})
    assert address.status_code == 403 and address.json()["error"]["code"] == "account_needed"
    odd = guest.http.put("/api/account/notifications", json={"push": True, "email": "hourly"})
    assert odd.status_code == 422 and odd.json()["error"]["code"] == "invalid_request"
    # push off: a turn is not pushed; on again, the next one is
    browser, _ = subscribed(site, guest)
    path = browser.endpoint.removeprefix(site.push.origin)
    off = guest.http.put("/api/account/notifications", json={"push": False, "email": "off"})
    assert off.status_code == 200 and off.json()["push"] is False
    notify(site.server, notice_for(guest.id, seq=1))
    guest.http.put("/api/account/notifications", json={"push": True, "email": "off"})
    notify(site.server, notice_for(guest.id, seq=2, mover="Linus"))
    [request] = until(lambda: site.push.to(path), "the push after push came back on")
    assert browser.read(request)["body"].startswith("Linus moved.")


def test_an_address_is_verified_by_its_link_and_turns_are_mailed_with_an_unsubscribe(
    site: Site,
) -> None:
    base = site.server.url
    player = claimed(base)
    address = f"{uuid.uuid4().hex[:8]}@example.com"
    bad = player.http.put("/api/account/email", json={"email": "not an address"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_email"
    answer = player.http.put("/api/account/email", json={"email": address})
    assert answer.status_code == 202, answer.text
    assert answer.json()["email_verified"] is False
    again = player.http.put("/api/account/email", json={"email": address})
    assert again.status_code == 429 and "Retry-After" in again.headers
    on = player.http.put("/api/account/notifications", json={"push": True, "email": "each_turn"})
    assert on.status_code == 200 and on.json()["email"] == "each_turn"
    notify(site.server, notice_for(player.id, seq=1))  # not verified: no mail for it
    [verification] = until(lambda: site.inbox.to(address), "the verification mail")
    assert verification["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    [link] = [link for link in links_in(verification) if "/email/verify?" in link]
    assert link.startswith(f"{base}/email/verify?token=")
    tampered = httpx.get(link[:-3] + "xyz", verify=PLAIN)
    assert tampered.status_code == 400
    confirmed = httpx.get(link, verify=PLAIN)
    assert confirmed.status_code == 200 and "Address confirmed" in confirmed.text
    assert httpx.get(link, verify=PLAIN).status_code == 410  # once
    assert player.http.get("/api/account/notifications").json()["email_verified"] is True

    notice = notice_for(player.id, seq=2)
    notify(site.server, notice)
    mails = until(lambda: len(site.inbox.to(address)) == 2 and site.inbox.to(address), "a mail")
    turn = mails[1]
    assert turn["Subject"] == "Your turn at ABSTRAC" and turn["From"] == "turns@cardroom.test"
    assert f"{base}/rooms/{notice.room_id}" in links_in(turn)
    assert "Grace moved." in text_of(turn)
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = turn["List-Unsubscribe"].strip("<>")
    assert unsubscribe in links_in(turn)
    page = httpx.get(unsubscribe, verify=PLAIN)  # a person's click: a page with the button
    assert page.status_code == 200 and "Unsubscribe" in page.text
    assert player.http.get("/api/account/notifications").json()["email"] == "each_turn"
    # what a mail program does (RFC 8058): a form post from its own server, no cookie
    one_click = httpx.post(
        unsubscribe,
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        verify=PLAIN,
    )
    assert one_click.status_code == 200 and "no more mail" in one_click.text
    assert player.http.get("/api/account/notifications").json()["email"] == "off"
    forged = httpx.post(unsubscribe.replace("token=", "token=1"), verify=PLAIN)
    assert forged.status_code == 400
