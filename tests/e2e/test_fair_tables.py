"""Fair tables in Chromium (issue 24): the leaver's seat and move lines name the bot standing
in for him and he is told what it played when he returns; a rematch proposal, its decline and
its acceptance are seen by both players; the bots of a three-bot table have names of their
own, the same in the seats, the table and the match page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from app.identity import COOKIE_NAME
from tests.support.clients import RoomSocket
from tests.support.table_steps import api, unique
from tests.support.visitors import visitor


def two_players(
    new_page: Callable[..., Page], table: dict[str, Any]
) -> tuple[Page, Page, str, str]:
    """Alice hosts an Abstrac room with ``table`` settings, Bob joins; both pages show it,
    started. Returns the pages, the room id and Bob's name."""
    alice, bob_name = visitor(new_page, unique("Alice")), unique("Bob")
    bob = visitor(new_page, bob_name)
    room = api(alice, "POST", "/api/rooms", {"game": "abstrac", "seats": 2, "table": table})
    base = f"/api/rooms/{room['id']}"
    api(alice, "POST", f"{base}/seats/0")
    api(bob, "POST", f"{base}/seats/1")
    for page in (alice, bob):
        page.goto(f"/rooms/{room['id']}")
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    api(alice, "POST", f"{base}/start")
    return alice, bob, room["id"], bob_name


def socket_of(page: Page, live_server: str, room_id: str) -> RoomSocket:
    """A second connection of the page's visitor (its session cookie), to play from here."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE_NAME)
    return RoomSocket(live_server, room_id, token, {})


def stood_in(sock: RoomSocket) -> bool:
    """The socket has seen a move of seat 1 (Bob's stand-in)."""
    return any(m["type"] == "state" and (m["last"] or {}).get("seat") == 1 for m in sock.received)


def test_the_leavers_stand_in_is_named_and_he_is_told_what_it_played(
    new_page: Callable[..., Page], live_server: str
) -> None:
    alice, bob, room_id, bob_name = two_players(new_page, {"seat_hold_seconds": 1})
    expect(bob.locator("#table-empty")).to_be_hidden()  # the table is drawn
    bob_context = bob.context
    bob.close()  # Bob closes his tab
    stand_in = f"Bot for {bob_name}"
    seat = alice.locator("#seat-list > li[data-seat='1']")
    expect(seat.locator(".tag-stand-in")).to_have_text(stand_in)
    expect(seat.locator(".tag-away")).to_have_text("Away")

    hand = socket_of(alice, live_server, room_id)  # Alice plays until the stand-in has moved
    state = hand.expect("state")
    while not stood_in(hand):
        if 0 in state["to_act"]:
            hand.act(state["legal"][0], seq=state["seq"])
        state = hand.expect("state", seq=state["seq"] + 1)
    expect(alice.locator("#table .move-log").first).to_contain_text(stand_in)
    expect(alice.locator("#table")).to_contain_text(stand_in)

    back = bob_context.new_page()  # Bob comes back
    back.goto(f"/rooms/{room_id}")
    notice = back.locator("#away-notice")
    expect(notice).to_be_visible()
    told = re.compile(r"While you were away, a bot played for you: \d+ moves?")
    expect(notice).to_contain_text(told)
    # each move in the table's words, named for the bot that played it
    expect(notice.locator(".away-moves li").first).to_contain_text(
        re.compile(r"^Move \d+: The bot \w+")
    )
    expect(seat.locator(".tag-stand-in")).to_have_count(0)
    back.locator("#away-notice button").click()
    expect(notice).to_be_hidden()
    hand.close()

    back.close()  # Bob leaves again: Alice claims the win
    expect(seat.locator(".tag-stand-in")).to_have_text(stand_in)
    expect(alice.locator("#claim-note")).to_contain_text("Every opponent has left the table")
    alice.click("#claim-button")
    expect(alice.locator("#room-status")).to_have_text("Finished")
    expect(alice.locator("#table")).to_contain_text("You claimed the win")
    expect(alice.locator("#table")).to_contain_text(f"{bob_name} left before the end")
    match_id = api(alice, "GET", f"/api/rooms/{room_id}")["match_id"]
    replay = api(alice, "GET", f"/api/matches/{match_id}/replay")["actions"]
    stood = next(a["seq"] for a in replay if a["stand_in"])
    alice.goto(f"/matches/{match_id}?move={stood}")
    expect(alice.locator("#replay-move")).to_contain_text(f"Move {stood}: {stand_in} ")
    expect(alice.locator("#score-table")).to_contain_text("left")


def test_a_rematch_is_proposed_declined_and_accepted_in_both_browsers(
    new_page: Callable[..., Page],
) -> None:
    alice, bob, room_id, bob_name = two_players(
        new_page, {"turn_seconds": 1, "on_absent": "forfeit"}
    )
    for page in (alice, bob):  # a timeout ends the first match
        expect(page.locator("#rematch-button")).to_be_visible(timeout=20_000)
    first = api(alice, "GET", f"/api/rooms/{room_id}")["match_id"]

    alice.click("#rematch-button")
    expect(alice.locator("#rematch-offer")).to_have_text(
        f"Rematch proposed: waiting for {bob_name} to accept."
    )
    expect(bob.locator("#rematch-offer")).to_contain_text("wants a rematch")
    bob.click("#rematch-decline")
    for page in (alice, bob):
        expect(page.locator("#rematch-note")).to_have_text("The rematch was declined.")
        expect(page.locator("#rematch-button")).to_be_visible()
    assert api(alice, "GET", f"/api/rooms/{room_id}")["match_id"] == first

    bob.click("#rematch-button")
    expect(alice.locator("#rematch-offer")).to_contain_text(f"{bob_name} wants a rematch")
    expect(bob.locator("#rematch-offer")).to_contain_text("waiting for")
    alice.click("#rematch-accept")
    expect(alice.locator("#rematch-offer")).to_have_count(0)
    expect(bob.locator("#rematch-offer")).to_have_count(0)
    assert api(bob, "GET", f"/api/rooms/{room_id}")["match_id"] != first


def test_a_three_bot_table_has_three_bot_names(new_page: Callable[..., Page]) -> None:
    host = visitor(new_page, unique("Host"))
    room = api(host, "POST", "/api/rooms", {"game": "abspecken", "seats": 3})
    base = f"/api/rooms/{room['id']}"
    for seat in range(3):
        api(host, "POST", f"{base}/seats/{seat}/bot", {"level": "easy"})
    host.goto(f"/rooms/{room['id']}")
    names = host.locator("#seat-list .seat-name")
    expect(names).to_have_count(3)
    expect(names.first).to_have_text(re.compile(r" \(bot\)$"))
    seated = names.all_inner_texts()
    assert len(set(seated)) == 3 and all(name.endswith(" (bot)") for name in seated)
    started = api(host, "POST", f"{base}/start")
    for name in seated:
        expect(host.locator("#table")).to_contain_text(name)
    assert host.locator("#seat-list .seat-name").all_inner_texts() == seated
    host.goto(f"/matches/{started['match_id']}")
    for name in seated:
        expect(host.locator("#score-table")).to_contain_text(name)
