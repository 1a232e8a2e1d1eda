"""The lobby's one-click ways to play: against bots, and solo."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.visitors import sign_in


def test_play_now_seats_you_at_a_started_table_against_bots(
    new_page: Callable[..., Page],
) -> None:
    page = new_page(width=375)
    page.goto("/")
    page.select_option("#play-game", "plus_minus")
    expect(page.locator("#play-opponents")).to_have_value("2")  # Plus & Minus needs 3+
    page.select_option("#play-level", "easy")
    page.click("#play-form button[type=submit]")
    expect(page.locator("#play-error")).to_contain_text("Choose a name first")
    sign_in(page, "Quick")
    page.click("#play-form button[type=submit]")
    page.wait_for_url("**/rooms/*")
    expect(page.locator(".pm-board").first).to_be_visible()
    seats = page.locator("#seat-list > li")
    expect(seats.filter(has_text="Bot · easy")).to_have_count(2)


def test_solo_is_one_click(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.goto("/")
    sign_in(page, "Soloist")
    page.get_by_role("button", name="Balance solo").click()
    page.wait_for_url("**/rooms/*")
    expect(page.locator(".bl-hand button").first).to_be_visible()


def test_table_settings_reach_the_room(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.goto("/")
    sign_in(page, "Timekeeper")
    page.select_option("#game-select", "abstrac")
    page.click(".table-settings summary")
    page.fill("#turn-input", "45")
    page.check("#clock-input")
    page.select_option("#absent-select", "forfeit")
    page.click("#create-button")
    page.wait_for_url("**/rooms/*")
    room_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    table = page.request.get(f"/api/rooms/{room_id}").json()["table"]
    assert table == {
        "turn_seconds": 45,
        "clock": True,
        "seat_hold_seconds": 60,
        "on_absent": "forfeit",
        "pace": "live",
    }
