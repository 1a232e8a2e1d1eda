"""The steps of a room that browser tests share: create it, sit, add a bot, start, ask the API.

Each step waits for what it did to show (the room's page with its socket open, the seat taken,
the bot seated), so the test's next step starts from a settled page.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import Page, expect

from games import REGISTRY
from tests.support.waiting import Pause

ROOM_URL = re.compile(r"/rooms/[^/]+$")


def unique(name: str) -> str:
    """``name`` with a short random tag: the session's server keeps every player made."""
    return f"{name} {uuid.uuid4().hex[:4]}"


def open_room_form(page: Page, game: str) -> None:
    """The lobby, ``game`` chosen in its form for a new room."""
    page.goto("/")
    page.select_option("#game-select", game)


def submit_room_form(page: Page, game: str, seats: int | None = None, **options: Any) -> str:
    """Fill in the new-room form :func:`open_room_form` opened (``seats``, unless the game's
    default will do, and the game's ``options``: a bool checks or clears its box, anything
    else is typed in) and create the room; its URL once its page is open, socket and all."""
    if seats is not None:
        page.fill("#seats-input", str(seats))
    for name, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{name}", value)
        else:
            page.fill(f"#opt-{name}", str(value))
    page.click("#create-button")
    page.wait_for_url(ROOM_URL)
    expect(page.locator("#room-title")).to_have_text(REGISTRY[game].info.title)
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    return page.url


def create_room(page: Page, game: str, seats: int | None = None, **options: Any) -> str:
    """A room of ``game`` created from the lobby's form (see :func:`submit_room_form`)."""
    open_room_form(page, game)
    return submit_room_form(page, game, seats, **options)


def take_seat(page: Page, seat: int) -> None:
    """The visitor takes ``seat`` in the room's seat list."""
    page.locator(f".seat[data-seat='{seat}']").get_by_role("button", name="Take seat").click()
    expect(page.locator(f".seat[data-seat='{seat}'] .tag-you")).to_be_visible()


def add_bot(page: Page, seat: int, level: str = "easy") -> None:
    """The host seats a bot of ``level`` in ``seat``."""
    row = page.locator(f".seat[data-seat='{seat}']")
    row.get_by_label(f"Bot level for Seat {seat + 1}").select_option(level)
    row.get_by_role("button", name="Add bot").click()
    expect(row.locator(".tag-bot")).to_be_visible()


def start_match(page: Page) -> None:
    """The host starts the match once the button allows it (every seat filled)."""
    start = page.locator("#start-button")
    expect(start).to_be_enabled()
    start.click()


def room_id_of(url: str) -> str:
    """The room's id in its page's URL."""
    return url.rstrip("/").rsplit("/", 1)[-1]


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A JSON request from the page (its cookie is the visitor's); a refusal raises."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const init = { method, headers: { "Content-Type": "application/json" } };
            if (body !== null) init.body = JSON.stringify(body);
            const response = await fetch(path, init);
            const data = await response.json();
            if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(data)}`);
            return data;
        }""",
        [method, path, body],
    )


def stop_page_time(page: Page) -> None:
    """Stop the page's clock (``page.clock.install()`` before the page was opened) a second
    ahead of its now: its timers then fire only as the test moves it (``page.clock.run_for``)."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # Python's clock counts seconds


def pause_in(page: Page) -> Pause:
    """A pause for tests/support/waiting.py's helpers that keeps Playwright working: the page's
    routes and event handlers run only while the test calls into Playwright."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)
