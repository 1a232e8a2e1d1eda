"""The account page's passkeys on a phone's screen: each has the name given (or its device's),
when it was added and last used; a device signed in long ago is asked for the password before
it adds one; a password change offers to remove them all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from playwright.sync_api import Page, expect
from sqlalchemy import update

from app.db.engine import make_engine
from app.db.models import Session as SessionRow
from tests.e2e.test_accounts import PASSWORD, create_account, phone
from tests.support.server import run_on_own_loop

__all__ = ["phone"]  # the fixture, shared with tests/e2e/test_accounts.py

AUTHENTICATOR = {
    "options": {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
    }
}


def signed_in_long_ago(database_url: str, player_id: int) -> None:
    async def age() -> None:
        engine = make_engine(database_url)
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    update(SessionRow)
                    .where(SessionRow.player_id == player_id)
                    .values(authenticated_at=datetime(2000, 1, 1, tzinfo=UTC))
                )
        finally:
            await engine.dispose()

    run_on_own_loop(age())


def test_passkeys_are_named_asked_a_password_for_and_removed_with_a_password_change(
    phone: Callable[[], Page], database_url: str
) -> None:
    page = phone()
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    first = cdp.send("WebAuthn.addVirtualAuthenticator", AUTHENTICATOR)
    create_account(page, "Careful Cat")
    expect(page.locator("#password-passkeys")).to_be_hidden()  # nothing to remove yet
    page.fill("#passkey-label", "My phone")
    page.click("#passkey-add")
    expect(page.locator("#passkey-done")).to_contain_text("Passkey added")
    listed = page.locator("#passkey-list li[data-passkey]")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("My phone, added")
    expect(listed).to_contain_text("not used yet")

    player_id = page.request.get("/api/me").json()["id"]
    signed_in_long_ago(database_url, player_id)
    # another device's authenticator (this one holds the account's passkey already)
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first["authenticatorId"]})
    cdp.send("WebAuthn.addVirtualAuthenticator", AUTHENTICATOR)
    page.click("#passkey-add")
    expect(page.locator("#passkey-error")).to_contain_text("Type your password")
    expect(page.locator("#passkey-password")).to_be_focused()
    page.fill("#passkey-password", PASSWORD)
    page.click("#passkey-add")
    expect(page.locator("#passkey-done")).to_contain_text("Passkey added")
    expect(listed).to_have_count(2)
    expect(page.locator("#passkey-password-field")).to_be_hidden()
    expect(listed.nth(1)).to_contain_text("Chrom")  # named after the device

    expect(page.locator("#password-passkeys")).to_be_visible()
    page.fill("#password-current", PASSWORD)
    page.fill("#password-new", "Amber-Walrus-93")
    page.fill("#password-again", "Amber-Walrus-93")
    page.check("#password-remove-passkeys")
    page.click("#password-form button[type=submit]")
    expect(page.locator("#password-done")).to_contain_text("your passkeys are removed")
    expect(page.locator("#passkey-list li")).to_have_text(["No passkey yet."])
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the account page scrolls sideways on a phone"
