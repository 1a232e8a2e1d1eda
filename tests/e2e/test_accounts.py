"""Accounts in the browser, on a phone's screen: a guest creates an account, adds a passkey
(Chromium's virtual authenticator over CDP), signs out, and signs back in with the passkey
alone as the same player; password sign-in and its form errors, in words.

WebAuthn needs a relying party id that is a domain: the pages are opened on ``localhost``
(the test server listens on 127.0.0.1, which ``localhost`` reaches)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.support.visitors import sign_in

PHONE = {"width": 390, "height": 844}
PASSWORD = "Quiet-Lantern-58"


@pytest.fixture
def phone(browser: Browser, live_server: str) -> Iterator[Callable[[], Page]]:
    """Pages on ``localhost``, each in a context of its own (its own cookies); script errors
    and dialogs fail the test."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def open_page() -> Page:
        context = browser.new_context(
            base_url=live_server.replace("127.0.0.1", "localhost"), viewport=PHONE
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on("dialog", lambda dialog: (problems.append(dialog.message), dialog.dismiss()))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not problems, problems


def create_account(page: Page, name: str) -> str:
    """Choose a name, then claim it on the create-account page: the username."""
    username = f"p{uuid.uuid4().hex[:10]}"
    page.goto("/account/new")
    sign_in(page, name)
    page.fill("#claim-username", username)
    page.fill("#claim-password", PASSWORD)
    page.fill("#claim-again", PASSWORD)
    page.click("#claim-form button[type=submit]")
    page.wait_for_url("**/account")
    expect(page.locator("#account-status")).to_contain_text(f"Signed in as {username}")
    expect(page.locator("#account-link")).to_have_text("Account")
    return username


def test_a_passkey_signs_the_same_player_back_in_without_a_password(
    phone: Callable[[], Page],
) -> None:
    page = phone()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    username = create_account(page, "Passkey Pat")
    me = page.request.get("/api/me").json()
    assert me["username"] == username
    expect(page.locator("#passkey-list li")).to_have_text(["No passkey yet."])

    page.click("#passkey-add")
    expect(page.locator("#passkey-done")).to_contain_text("Passkey added")
    expect(page.locator("#passkey-list li[data-passkey]")).to_have_count(1)
    expect(page.locator("#passkey-error")).to_be_hidden()

    page.click("#sign-out")
    page.wait_for_url("**/signin")
    assert page.request.get("/api/session").json() == {"player": None}
    expect(page.locator("#account-link")).to_have_text("Sign in")

    page.click("#passkey-signin")  # the username and password fields stay empty
    page.wait_for_url("**/account")
    expect(page.locator("#account-status")).to_contain_text(f"Signed in as {username}")
    again = page.request.get("/api/me").json()
    assert again == me
    expect(page.locator("#session-list li[data-current=true]")).to_have_count(1)
    expect(page.locator("#passkey-list li[data-passkey]")).to_contain_text("last used")


def test_password_sign_in_on_another_device_and_form_errors_in_words(
    phone: Callable[[], Page],
) -> None:
    first = phone()
    page = first
    page.goto("/account/new")
    sign_in(page, "Wordy")
    page.fill("#claim-username", "x")
    page.fill("#claim-password", PASSWORD)
    page.fill("#claim-again", PASSWORD + "!")
    page.click("#claim-form button[type=submit]")
    expect(page.locator("#claim-error")).to_have_text(
        "The two passwords differ: type the same password twice."
    )
    page.fill("#claim-username", "wordy-" + uuid.uuid4().hex[:6])
    page.fill("#claim-password", "short")
    page.fill("#claim-again", "short")
    page.click("#claim-form button[type=submit]")
    expect(page.locator("#claim-error")).to_have_text("A password needs at least 10 characters.")
    expect(page.locator("#claim-password")).to_be_focused()
    page.fill("#claim-username", "x")
    page.fill("#claim-password", PASSWORD)
    page.fill("#claim-again", PASSWORD)
    page.click("#claim-form button[type=submit]")
    expect(page.locator("#claim-error")).to_contain_text("A username has 3 to 24 characters")
    first.close()

    owner = phone()
    username = create_account(owner, "Wordy Two")
    player_id = owner.request.get("/api/me").json()["id"]

    other = phone()
    other.goto("/signin")
    other.click("#signin-form button[type=submit]")
    expect(other.locator("#signin-error")).to_have_text("Please type your username.")
    other.fill("#signin-username", username)
    other.fill("#signin-password", "not-the-password")
    other.click("#signin-form button[type=submit]")
    expect(other.locator("#signin-error")).to_have_text(
        "That username and password do not match an account."
    )
    other.fill("#signin-password", PASSWORD)
    other.click("#signin-form button[type=submit]")
    other.wait_for_url("**/account")
    assert other.request.get("/api/me").json()["id"] == player_id
    expect(other.locator("#session-list li")).to_have_count(2)
    fits = other.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the account page scrolls sideways on a phone"

    other.click("#sign-out-everywhere")
    other.wait_for_url("**/signin")
    owner.reload()
    expect(owner.locator("#account-status")).to_contain_text("You are not signed in")
