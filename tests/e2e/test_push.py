"""Web Push in the browser: a player turns on notifications on the account page (the browser's
permission granted), the opponent moves in their turn-based match, and the notice the server
pushed, decrypted with the subscription's own key, says it is the player's turn in that room
and carries no card, while the header's badge and the title of the page the player has
open (the lobby) count the match, without a reload. Choosing how often mail comes on another
device of theirs, where the box is unchecked, leaves push on (it used to turn it off for every
device).

What is stubbed, and why: Chromium's ``PushManager.subscribe`` needs Google's push service
(Firebase Cloud Messaging), which headless Chromium here and in CI cannot reach, and a real
service's messages could not be read by the test anyway. So an init
script replaces ``PushManager.prototype.subscribe`` and ``getSubscription`` with ones that
resolve to a subscription whose ``toJSON()`` is a :class:`tests.support.push_service.Browser`'s
(the test's local push service's endpoint and that Browser's keys), and that record the
application server key the page subscribed with. Everything else is the real page and the
real server: the permission asked with ``Notification.requestPermission`` (granted to the
context by Playwright), the service worker ``/sw.js`` registered, the server's key fetched,
the checkbox the player clicks, the POST of the subscription, and the server encrypting and
posting the notice to the endpoint (accepted only because ``CARDROOM_PUSH_ENDPOINT_ORIGINS``
names the local service). The server has no subscription of the opponent's, so what reaches
the local push service is the player's alone.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from games import REGISTRY
from games.abstrac.cards import DECK
from tests.conftest import SESSION_ENV
from tests.support.clients import PLAIN, Guest, RoomSocket
from tests.support.play import play_turn, start
from tests.support.push_service import Browser, PushService, push_service, vapid_claims
from tests.support.server import private_server
from tests.support.smtp import smtp_server
from tests.support.table_steps import api, unique
from tests.support.visitors import visitor
from tests.support.waiting import until

# Before any script of the page: PushManager's subscribe and getSubscription answer with the
# test's subscription (``SUBSCRIPTION``: a Browser's toJSON()); whether this origin subscribed
# survives navigations in localStorage, as a real subscription would.
STUB_PUSH_MANAGER = """
(() => {
  if (!("PushManager" in window)) return;
  const json = SUBSCRIPTION;
  const FLAG = "test.push-subscribed";
  const made = {
    endpoint: json.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: null },
    toJSON: () => JSON.parse(JSON.stringify(json)),
    unsubscribe: async () => {
      localStorage.removeItem(FLAG);
      return true;
    },
  };
  window.testPush = { subscribeCalls: [] };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.testPush.subscribeCalls.push({
      userVisibleOnly: options.userVisibleOnly,
      applicationServerKey: Array.from(key),
    });
    made.options = options;
    localStorage.setItem(FLAG, "1");
    return made;
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(FLAG) ? made : null;
  };
})();
"""

PASSWORD = "Gleaming-Otter-42"
MESSAGE_FIELDS = {
    *("title", "body", "url", "tag", "kind", "game", "room_id", "match_id", "deadline"),
}


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    with push_service() as service:
        yield service


@pytest.fixture(scope="module")
def live_server(push: PushService, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's server (new_page's base URL): the session's settings, and pushes
    accepted only to the test's local push service."""
    env = {
        **SESSION_ENV,
        "CARDROOM_PUSH_ENDPOINT_ORIGINS": json.dumps([push.origin]),
        "CARDROOM_JOBS_POLL_SECONDS": "0.1",
    }
    with smtp_server() as (_, smtp):
        env["CARDROOM_SMTP_URL"] = f"smtp://127.0.0.1:{smtp}"  # so accounts may choose mail
        with private_server(tmp_path_factory.mktemp("push-e2e"), env) as server:
            yield server.url


def b64url_bytes(text: str) -> list[int]:
    return list(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


def waiting_shows_one(page: Page) -> None:
    expect(page.locator("#games-count")).to_have_text("1")
    expect(page.get_by_role("link", name=re.compile(r"^Your games"))).to_have_accessible_name(
        re.compile(r"1 match waiting for you")
    )
    expect(page).to_have_title("(1) Lobby · cardroom")


def test_a_subscribed_player_is_pushed_their_turn_and_the_badge_counts_it(
    new_page: Callable[..., Page], live_server: str, push: PushService
) -> None:
    browser = Browser(push, f"/push/{uuid.uuid4().hex}")
    path = browser.endpoint.removeprefix(push.origin)
    page = visitor(new_page, unique("Wren"))
    console_errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            console_errors.append(f"{message.text} at {message.location}")

    page.on("console", on_console)
    username = f"u{uuid.uuid4().hex[:12]}"
    api(page, "POST", "/api/account", {"username": username, "password": PASSWORD})
    page.context.grant_permissions(["notifications"], origin=live_server)
    page.context.add_init_script(
        STUB_PUSH_MANAGER.replace("SUBSCRIPTION", json.dumps(browser.subscription()))
    )

    # the account page: the player turns notifications on for this device
    page.goto("/account")
    push_box = page.get_by_label("Notifications on this device")
    expect(push_box).not_to_be_checked()
    push_box.check()
    expect(page.locator("#notify-done")).to_have_text(
        "This device will tell you when it is your turn."
    )
    expect(page.locator("#notify-error")).to_be_hidden()
    expect(push_box).to_be_checked()
    assert page.evaluate("Notification.permission") == "granted"
    scope = page.evaluate(
        "navigator.serviceWorker.getRegistration('/sw.js').then(r => r && r.scope)"
    )
    assert scope == f"{live_server}/"
    server_key = httpx.get(f"{live_server}/api/push/key", verify=PLAIN).json()["public_key"]
    [call] = page.evaluate("window.testPush.subscribeCalls")
    assert call == {"userVisibleOnly": True, "applicationServerKey": b64url_bytes(server_key)}
    settings = api(page, "GET", "/api/account/notifications")
    assert settings["push"] is True
    page.reload()  # the choice is kept: the box stays checked on this device
    expect(page.get_by_label("Notifications on this device")).to_be_checked()

    # on another device of theirs, never subscribed, the player chooses how often mail may
    # come: this device's box is unchecked, and the choice leaves push on for the first one
    other = new_page()
    other.on("console", on_console)
    other.context.add_cookies(page.context.cookies())
    other.goto("/account")
    expect(other.get_by_label("Notifications on this device")).not_to_be_checked()
    other.get_by_label("Mail", exact=True).select_option("daily")
    expect(other.locator("#notify-done")).to_have_text("Saved.")
    assert api(other, "GET", "/api/account/notifications")["push"] is True
    other.close()

    # a turn-based match against an opponent; the player waits on the lobby, not in the room
    opponent = Guest(live_server, unique("Opal"))
    answer = opponent.post(
        "/api/rooms", {"game": "abstrac", "seats": 2, "table": {"pace": "turn_based"}}
    )
    assert answer.status_code == 201, answer.text
    room_id = answer.json()["id"]
    api(page, "POST", f"/api/rooms/{room_id}/seats/0")
    opponent.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    page.goto("/")
    expect(page.locator("#games-count")).to_be_hidden()
    page.evaluate("window.notReloaded = true")
    match_id = start(opponent, room_id)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "cardroom_token")
    probe = opponent.socket(room_id)
    first = probe.expect("state")["to_act"]
    probe.close()
    if first == [0]:  # the player moves first: told so at the start, then plays it
        [opening] = until(lambda: push.to(path), "the push of the match's start")
        assert browser.read(opening)["body"].startswith("The match waits for you.")
        waiting_shows_one(page)
        play_turn(RoomSocket(live_server, room_id, token, {}))
        expect(page.locator("#games-count")).to_be_hidden()
    before = len(push.to(path))

    play_turn(opponent.socket(room_id))  # the opponent moves

    requests = until(lambda: push.to(path)[before:], "the push of the opponent's move")
    [request] = requests
    message = browser.read(request)
    assert set(message) == MESSAGE_FIELDS  # public facts only: no card, no hand, no state
    title = REGISTRY["abstrac"].info.title
    assert message["title"] == f"Your turn at {title}"
    assert message["body"].startswith(f"{opponent.name} moved. Play before ")
    assert message["url"] == f"/rooms/{room_id}"
    assert message["kind"] == "your_turn" and message["game"] == "abstrac"
    assert message["room_id"] == room_id and message["match_id"] == match_id
    deadline = datetime.fromisoformat(message["deadline"])
    left = deadline - datetime.now(UTC)
    assert timedelta(hours=23) < left <= timedelta(days=1)
    claims = vapid_claims(request, server_key)
    assert claims["aud"] == push.origin

    waiting_shows_one(page)
    assert page.evaluate("window.notReloaded") is True

    # and no card: none of the table's cards (the row the player chooses from, what each has
    # taken) nor any other of the deck's is a word of what was pushed
    mine = RoomSocket(live_server, room_id, token, {})
    mine.expect("hello")
    table = mine.expect("state")["view"]
    mine.close()
    assert table["row"], table
    words = set(re.split(r"[^0-9A-Za-z]+", json.dumps(message)))
    assert not words & set(DECK), words & set(DECK)
    assert not console_errors, console_errors
