"""Turn-based play in the browser: a turn-based room made in the lobby's form says its pace and
its time for each move, and when the opponent moves, the other player's header badge and
document title count the match waiting for them, live, without a reload; Your games lists it,
highlighted."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.clients import Guest, RoomSocket
from tests.support.play import play_turn
from tests.support.table_steps import api, open_room_form, room_id_of, unique
from tests.support.visitors import visitor


def waiting_shows(page: Page, count: int) -> None:
    """The header's badge and the document title say ``count`` matches wait (none: no badge
    and no count in the title)."""
    badge = page.locator("#games-count")
    link = page.get_by_role("link", name=re.compile(r"^Your games"))
    if count:
        expect(badge).to_have_text(str(count))
        expect(link).to_have_accessible_name(re.compile(rf"{count} match(es)? waiting for you"))
        expect(page).to_have_title(re.compile(rf"^\({count}\) "))
    else:
        expect(badge).to_be_hidden()
        expect(page).not_to_have_title(re.compile(r"^\(\d+\) "))


def test_the_opponents_move_counts_in_the_other_players_header_without_a_reload(
    new_page: Callable[..., Page], live_server: str
) -> None:
    page = visitor(new_page, unique("Wren"))
    open_room_form(page, "abstrac")
    page.select_option("#pace-select", "turn_based")
    expect(page.locator("#turn-input")).to_be_hidden()  # the live timer is not asked
    page.get_by_label("Time for each move").select_option(label="3 days")
    page.click("#create-button")
    page.wait_for_url("**/rooms/*")
    expect(page.locator("#room-pace")).to_have_text("Turn-based · 3 days for each move")
    room_id = room_id_of(page.url)
    opponent = Guest(live_server, unique("Opal"))
    api(page, "POST", f"/api/rooms/{room_id}/seats/0")
    opponent.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    api(page, "POST", f"/api/rooms/{room_id}/start")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "cardroom_token")
    page.evaluate("window.notReloaded = true")
    if opponent.socket(room_id).expect("state")["to_act"] == [0]:  # Wren's move first
        waiting_shows(page, 1)
        play_turn(RoomSocket(live_server, room_id, token, {}))
    waiting_shows(page, 0)
    play_turn(opponent.socket(room_id))  # the opponent moves
    waiting_shows(page, 1)
    expect(page.locator("#room-deadline")).to_contain_text("Your move is due in 2 days")
    assert page.evaluate("window.notReloaded") is True
    page.get_by_role("link", name=re.compile(r"^Your games")).click()
    page.wait_for_url("**/games")
    mine = page.locator(f"#my-games .my-game[data-room-id='{room_id}']")
    expect(mine).to_have_class(re.compile(r"\bmy-game-yours\b"))
    expect(mine).to_contain_text(f"against {opponent.name}")
    expect(mine).to_contain_text("Your turn")
    expect(mine).to_contain_text("move in 2 days")
    play = mine.get_by_role("link", name=f"Play Abstrac against {opponent.name}")
    expect(play).to_have_attribute("href", f"/rooms/{room_id}")
    waiting_shows(page, 1)
