"""Browser fixtures: Debian's Chromium driven by Playwright (sync API).

``live_server`` (tests/conftest.py) is the base URL of a real server with an empty database
and bots that move at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
TIMEOUT_MS = 15_000


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser: Browser, live_server: str) -> Iterator[Callable[..., Page]]:
    """Open a page in a fresh browser context (its own cookies: one visitor each).

    Script errors and ``alert()`` dialogs in any page fail the test.
    """
    contexts = []
    problems: list[str] = []

    def open_page(
        *, width: int = 1280, height: int = 900, permissions: list[str] | None = None
    ) -> Page:
        context = browser.new_context(
            base_url=live_server,
            viewport={"width": width, "height": height},
            permissions=permissions or [],
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))

        def on_dialog(dialog) -> None:  # type: ignore[no-untyped-def]
            problems.append(f"unexpected dialog: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not problems, problems
