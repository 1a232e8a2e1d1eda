"""A spectator follows any seat of a live match ("Follow seat"), in Chromium.

The table turns to the followed seat (drawn at the front or bottom, the others after it), yet it
stays the spectator's public view: the followed player's hand stays face down. ``?follow=N``
(0-based) in the room's address picks the seat on load; players never get the control.

The rooms are set up over the API: Alice plays in the browser, Bob over a bare socket (his
private states tell the test which cards he really holds), bots fill the rest. Nobody human
moves, so the table stands still once it is a human's turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.clients import Guest, RoomSocket
from tests.support.play import start
from tests.support.table_steps import take_seat, unique
from tests.support.visitors import visitor
from tests.support.waiting import until

FOLLOW = "#follow-seat"


QUIET_S = 0.4
"""How long no state may arrive for a table to count as standing still."""


def settle(
    sock: RoomSocket, humans: set[int], *, after: int = -1, timeout: float = 10
) -> dict[str, Any]:
    """The latest state (past move ``after``) once a human seat must act and nothing more
    comes for a while: the bots then wait, so it stays current."""
    latest: dict[str, Any] | None = None

    def standing() -> dict[str, Any] | None:
        nonlocal latest
        try:
            message = sock.recv(QUIET_S)
        except TimeoutError:
            if latest is not None and latest["seq"] > after and humans & set(latest["to_act"]):
                return latest
            return None
        if message["type"] == "state":
            latest = message
        return None

    return until(standing, lambda: f"a human's turn (last state: {latest})", timeout, every_s=0)


def table_cards(page: Page, table: str) -> set[str]:
    """Every card face drawn on the table (cards.js puts the card in data-card)."""
    return set(
        page.locator(f"{table} [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    )


def seats_of(page: Page, selector: str) -> list[int]:
    return [
        int(s) for s in page.locator(selector).evaluate_all("ns => ns.map(n => n.dataset.seat)")
    ]


def open_room(
    live_server: str, game: str, seats: int, *, bots: int, alice: bool = True
) -> tuple[Guest, str, RoomSocket]:
    """Bob creates a room, sits in seat 1 and fills the last ``bots`` seats with easy bots;
    seat 0 is left for Alice in the browser (or is a bot too without ``alice``)."""
    bob = Guest(live_server, unique("Bob"))
    room_id = bob.create_room(game, seats)["id"]
    bob.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    bot_seats = [*range(seats - bots, seats), *([] if alice else [0])]
    for seat in bot_seats:
        bob.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "easy"}).raise_for_status()
    sock = bob.socket(room_id)
    sock.expect("hello")
    return bob, room_id, sock


def test_a_spectator_follows_any_seat_of_plus_minus_with_hands_hidden(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    table = ".pm"
    bob, room_id, sock = open_room(live_server, "plus_minus", 3, bots=1)
    try:
        alice_name = unique("Alice")
        alice = visitor(new_page, alice_name, f"/rooms/{room_id}")
        take_seat(alice, 0)
        start(bob, room_id)
        state = settle(sock, {0, 1})
        bob_hand = set(state["view"]["hand"])
        assert bob_hand, "Bob holds cards"

        # A player: the table is drawn around her own seat, and there is no "Follow seat".
        expect(alice.locator(f"{table} .pm-mine .pm-seat-me")).to_have_attribute("data-seat", "0")
        expect(alice.locator("#follow-bar")).to_be_hidden()
        expect(alice.get_by_label("Follow seat")).to_be_hidden()
        alice_hand = table_cards(alice, f"{table} .pm-hand")
        assert alice_hand, "Alice sees her own hand"

        # A spectator follows seat 0 by default: Alice is in front, named, never "you".
        carol = visitor(new_page, unique("Carol"), f"/rooms/{room_id}")
        follow = carol.get_by_label("Follow seat")
        expect(follow).to_be_visible()
        expect(follow).to_have_value("0")
        expect(follow.locator("option")).to_have_count(3)
        expect(follow.locator("option").nth(1)).to_contain_text(bob.name)
        expect(carol.locator(table)).to_have_attribute("data-seq", str(state["seq"]))
        front = carol.locator(f"{table} .pm-mine .pm-seat")
        expect(front).to_have_attribute("data-seat", "0")
        expect(front.locator(".pm-name")).to_have_text(alice_name)
        expect(front).to_have_class(re.compile(r"\bpm-seat-followed\b"))
        assert seats_of(carol, f"{table} .pm-others .pm-seat") == [1, 2]
        public = table_cards(carol, table)
        assert public, "the stacks' top cards are public"
        assert not public & alice_hand, "a spectator must not see Alice's hand"
        expect(carol.locator(f"{table} .pm-watch")).to_contain_text(f"watching {alice_name}'s side")

        # Switching with the keyboard turns the table to Bob at once, and the address keeps it.
        follow.focus()
        carol.keyboard.press("ArrowDown")
        expect(follow).to_have_value("1")
        carol.wait_for_url(re.compile(r"[?&]follow=1\b"))
        expect(carol.locator("#table")).to_have_attribute("data-perspective", "1")
        expect(front).to_have_attribute("data-seat", "1")
        expect(front.locator(".pm-name")).to_have_text(bob.name)
        expect(front).to_have_attribute(
            "aria-label", re.compile(rf"^{re.escape(bob.name)}'s stacks")
        )
        assert seats_of(carol, f"{table} .pm-others .pm-seat") == [2, 0]
        expect(carol.locator(f"{table} .pm-seat-followed")).to_have_count(1)
        # Bob's hand stays face down: its size only, and the same cards as before on the table.
        cards = f"{len(bob_hand)} card{'' if len(bob_hand) == 1 else 's'}"
        expect(front.locator(".pm-seat-hand")).to_contain_text(f"{cards} in hand")
        expect(front.locator(".pm-back")).to_have_count(min(len(bob_hand), 6))
        expect(carol.locator(f"{table} .pm-mini-hand, {table} .pm-hand")).to_have_count(0)
        following = table_cards(carol, table)
        assert not following & bob_hand, f"a spectator sees Bob's cards {following & bob_hand}"
        assert following == public, "following a seat must show the same public cards"
        # still a spectator: no controls, no "you"
        assert carol.locator(f"{table} button").count() == 0, "a spectator must not get controls"
        expect(carol.locator(f"{table} .tag-you")).to_have_count(0)
        expect(carol.locator(f"{table} .pm-mine")).not_to_contain_text("(you)")

        # ?follow=2 opens the room following the bot in seat 2; garbage is ignored.
        dave = visitor(new_page, unique("Dave"), f"/rooms/{room_id}?follow=2")
        expect(dave.get_by_label("Follow seat")).to_have_value("2")
        expect(dave.locator(f"{table} .pm-mine .pm-seat")).to_have_attribute("data-seat", "2")
        assert seats_of(dave, f"{table} .pm-others .pm-seat") == [0, 1]
        dave.goto(f"/rooms/{room_id}?follow=7")
        expect(dave.get_by_label("Follow seat")).to_have_value("0")
        expect(dave.locator(f"{table} .pm-mine .pm-seat")).to_have_attribute("data-seat", "0")

        # A player's own seat wins over ?follow: Alice is still in front, as herself.
        alice.goto(f"/rooms/{room_id}?follow=1")
        expect(alice.locator(f"{table} .pm-mine .pm-seat-me")).to_have_attribute("data-seat", "0")
        expect(alice.locator(f"{table} .pm-mine .pm-name")).to_contain_text("(you)")
        expect(alice.locator("#follow-bar")).to_be_hidden()
    finally:
        sock.close()


def test_a_spectator_follows_the_other_abstrac_seat(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    table = ".abstrac"
    bob, room_id, sock = open_room(live_server, "abstrac", 2, bots=0)
    try:
        alice_name = unique("Alice")
        alice = visitor(new_page, alice_name, f"/rooms/{room_id}")
        take_seat(alice, 0)
        start(bob, room_id)
        settle(sock, {0, 1})
        expect(alice.locator(f"{table} .ab-collection-bottom")).to_have_attribute("data-seat", "0")
        expect(alice.locator("#follow-bar")).to_be_hidden()

        # opened with ?follow=1: Bob's cards at the bottom, Alice's at the top
        carol = visitor(new_page, unique("Carol"), f"/rooms/{room_id}?follow=1")
        follow = carol.get_by_label("Follow seat")
        expect(follow).to_have_value("1")
        bottom = carol.locator(f"{table} .ab-collection-bottom")
        expect(bottom).to_have_attribute("data-seat", "1")
        expect(bottom.locator(".ab-collection-title")).to_contain_text(f"{bob.name}'s cards")
        expect(carol.locator(f"{table} .ab-collection-top")).to_have_attribute("data-seat", "0")
        assert seats_of(carol, f"{table} .ab-player") == [0, 1]
        expect(carol.locator(f"{table} .ab-player-followed")).to_have_attribute("data-seat", "1")
        expect(carol.locator(f"{table} .tag-you, {table} .ab-player-me")).to_have_count(0)
        row = table_cards(carol, f"{table} .ab-row")
        assert len(row) == 24, "the whole row is public"

        # back to seat 0 with the select: Alice at the bottom, the same public row
        follow.select_option("0")
        carol.wait_for_url(re.compile(r"[?&]follow=0\b"))
        expect(bottom).to_have_attribute("data-seat", "0")
        expect(bottom.locator(".ab-collection-title")).to_contain_text(f"{alice_name}'s cards")
        assert seats_of(carol, f"{table} .ab-player") == [1, 0]
        expect(carol.locator(f"{table} .ab-player-followed")).to_have_attribute("data-seat", "0")
        assert table_cards(carol, f"{table} .ab-row") == row
        assert carol.locator(f"{table} button").count() == 0, "a spectator must not get controls"
    finally:
        sock.close()


# game -> (the followed seat's part of the table, its hand drawn face down, its hand face up)
FRONT = {
    "absolute": (".abs-zones-mine .abs-zone", ".abs-zone-hand .abs-back", ".abs-zone-hand-open"),
    "abspecken": (".spk-player >> nth=0", ".spk-back", ".spk-minis:not(.spk-discards)"),
    "balance": (".bl-hand-area", ".bl-backs .bl-back", ".bl-hand"),
}
FOLLOWED = {
    "absolute": ".abs-zone.is-followed",
    "abspecken": ".spk-player-followed",
    "balance": ".bl-player-followed",
}


@pytest.mark.parametrize("game", sorted(FRONT))
def test_every_table_turns_to_the_followed_seat(
    game: str, live_server: str, new_page: Callable[..., Page]
) -> None:
    """Bots in seats 0 and 2, Bob in seat 1: a spectator follows Bob, then the bot after him."""
    table = "#table .felt"
    front, backs, faces = FRONT[game]
    bob, room_id, sock = open_room(live_server, game, 3, bots=1, alice=False)
    try:
        start(bob, room_id)
        state = settle(sock, {1})
        while not state["view"]["hand"]:  # ABspecken opens with picking a hand: Bob picks one
            sock.act(state["legal"][0], seq=state["seq"])
            state = settle(sock, {1}, after=state["seq"])
        hand = state["view"]["hand"]
        carol = visitor(new_page, unique("Carol"), f"/rooms/{room_id}?follow=1")
        expect(carol.get_by_label("Follow seat")).to_have_value("1")
        expect(carol.locator("#table")).to_have_attribute("data-perspective", "1")
        expect(carol.locator(f"{table} {FOLLOWED[game]}")).to_have_attribute("data-seat", "1")
        part = carol.locator(f"{table} {front}")
        if game == "balance":
            expect(part.locator("h3")).to_have_text(f"{bob.name}'s hand · {len(hand)} cards")
        else:
            expect(part).to_have_attribute("data-seat", "1")
            expect(part).to_contain_text(bob.name)
        expect(part.locator(backs)).to_have_count(min(len(hand), 10))
        expect(carol.locator(f"{table} {faces}")).to_have_count(0)
        if game == "absolute":  # its cards are all different: none of Bob's may show
            shown = table_cards(carol, table)
            assert shown and not shown & set(hand), f"a spectator sees {shown & set(hand)}"
        expect(carol.locator(f"{table} .tag-you")).to_have_count(0)
        assert carol.locator(f"{table} button").count() == 0, "a spectator must not get controls"

        carol.get_by_label("Follow seat").select_option("2")
        expect(carol.locator("#table")).to_have_attribute("data-perspective", "2")
        expect(carol.locator(f"{table} {FOLLOWED[game]}")).to_have_attribute("data-seat", "2")
        if game != "balance":
            expect(part).to_have_attribute("data-seat", "2")
        expect(carol.locator(f"{table} {faces}")).to_have_count(0)
    finally:
        sock.close()
