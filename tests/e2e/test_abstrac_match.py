"""A whole Abstrac match played by clicking in real browsers, watched by a spectator."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocketRoute, expect

from games import REGISTRY
from tests.support.renderers import mount_alone
from tests.support.screen import PHONE, assert_on_first_screen, log_lines, wait_log_grows
from tests.support.table_steps import (
    add_bot,
    open_room_form,
    pause_in,
    start_match,
    submit_room_form,
    take_seat,
    unique,
)
from tests.support.visitors import sign_in, visitor
from tests.support.waiting import play_until
from tests.support.words import assert_player_words

MATCH_DEADLINE_S = 180
OUTCOME = "[data-testid=outcome]"


def create_abstrac_room(page: Page, target: int) -> str:
    """An Abstrac room from the lobby form (two seats, the form's default); returns its URL."""
    open_room_form(page, "abstrac")
    expect(page.locator("#seats-input")).to_have_value("2")
    return submit_room_form(page, "abstrac", target=target)


def outcome_shown(page: Page) -> bool:
    return page.locator(OUTCOME).is_visible()


def assert_no_controls(page: Page) -> None:
    assert page.locator(".abstrac button").count() == 0, "a spectator must not get controls"


def play_one_move(page: Page, *, keyboard: bool) -> bool:
    """Make this player's move if it is their turn: go first, or take from the exposed end."""
    go_first = page.locator(".ab-controls button[data-focus=first]")
    exposed = page.locator(".ab-row button.card-exposed")
    take_one = page.locator(".ab-controls button[data-take='1']")
    try:
        if go_first.count():
            go_first.click(timeout=2000)
        elif keyboard and take_one.count():
            take_one.focus(timeout=2000)
            page.keyboard.press("Enter")
        elif exposed.count():
            exposed.click(timeout=2000)
        else:
            return False
    except PlaywrightError:
        return False  # the table changed under the pointer; look again
    return True


def check_take_preview(page: Page) -> None:
    """Hovering the 3rd card from the exposed end highlights the 3 cards a click would take."""
    third = page.locator(".ab-row button[data-focus='card-3']")
    expect(third).to_be_visible()
    third.hover(position={"x": 6, "y": 20})
    expect(page.locator(".ab-row .card.will-take")).to_have_count(3)
    page.mouse.move(0, 0)
    expect(page.locator(".ab-row .card.will-take")).to_have_count(0)


def final_scores(page: Page) -> dict[str, int]:
    """The scores in the outcome banner, by name."""
    finals = page.locator(".ab-outcome .ab-final")
    expect(finals).to_have_count(2)
    return {
        finals.nth(i).locator(".ab-final-name").inner_text(): int(
            finals.nth(i).locator(".ab-final-score").inner_text()
        )
        for i in range(2)
    }


def test_two_players_play_a_whole_match(new_page: Callable[..., Page]) -> None:
    alice_name, bob_name, carol_name = unique("Alice"), unique("Bob"), unique("Carol")

    alice = visitor(new_page, alice_name, permissions=["clipboard-read", "clipboard-write"])
    invite = create_abstrac_room(alice, target=50)
    take_seat(alice, 0)
    expect(alice.locator("#invite-link")).to_have_value(invite)
    alice.click("#invite-copy")
    expect(alice.locator("#invite-note")).to_have_text(re.compile("copied"))
    assert alice.evaluate("navigator.clipboard.readText()") == invite

    bob = visitor(new_page, bob_name, invite, **PHONE)
    take_seat(bob, 1)
    expect(bob.locator("#start-button")).to_have_count(0)  # only the host starts
    expect(bob.locator("#table-empty")).to_have_text(
        "Everyone is seated. The table appears when the host starts the match."
    )
    start_match(alice)

    carol = visitor(new_page, carol_name, invite)
    expect(carol.locator(".abstrac")).to_be_visible()
    expect(carol.locator(".ab-status")).to_have_text(re.compile(r"chooses|to play"))
    expect(carol.locator("#seat-list")).to_contain_text(alice_name)
    expect(alice.locator("#room-spectators")).to_have_text(f"1 watching: {carol_name}")
    assert_no_controls(carol)

    # The non-dealer is asked to choose the order; the dealer waits for them.
    expect(alice.locator(".ab-status")).to_have_text(re.compile(r"Your choice|Waiting for"))

    previewed = False
    moves = 0

    def play() -> bool:
        nonlocal previewed, moves
        acted = False
        if not previewed and alice.locator(".ab-row button[data-focus='card-3']").count():
            check_take_preview(alice)
            previewed = True
        for page, keyboard in ((alice, False), (bob, True)):
            controls = page.locator(".ab-controls button")
            phone = page is bob and controls.count() > 0
            if phone:  # Bob's turn on his phone: the controls are on the first screen
                assert_on_first_screen(bob, controls.first)
                expect(bob.locator("#table-message.is-refusal")).to_have_count(0)
            logged = len(log_lines(page))
            if play_one_move(page, keyboard=keyboard):
                acted = True
                moves += 1
                if phone:
                    wait_log_grows(bob, logged)
        if moves % 10 == 0:
            assert_no_controls(carol)
        return acted

    play_until(
        lambda: outcome_shown(alice) and outcome_shown(bob),
        play,
        "the match's end",
        MATCH_DEADLINE_S,
        idle_s=0.03,
        pause=pause_in(alice),
    )

    assert previewed
    for page in (alice, bob, carol):
        expect(page.locator(OUTCOME)).to_be_visible()
        expect(page.locator(".ab-status")).to_have_text("The match is over.")
    assert_no_controls(carol)
    for page in (alice, bob, carol):
        assert_player_words(page.locator("main"))
    scores = final_scores(alice)
    assert set(scores) == {alice_name, bob_name}
    # each rated player's rating change, in place on the end screen
    changes = bob.locator(f"{OUTCOME} .ab-final .outcome-rating")
    expect(changes).to_have_count(2)
    for i in range(2):
        expect(changes.nth(i)).to_have_text(
            re.compile("^rating (\\+|\u2212|\u00b1)\\d+\\.\\d \u2192 \u2212?\\d+\\.\\d$")
        )
    assert final_scores(bob) == scores == final_scores(carol)
    assert max(scores.values()) >= 50
    expect(alice.locator("#room-status")).to_have_text("Finished")
    expect(alice.locator("#rematch-button")).to_be_visible()

    # The finished match is in the history; its page shows the same final scores.
    alice.click("header >> text=History")
    item = alice.locator(".match-item", has_text=alice_name).filter(has_text=bob_name)
    expect(item).to_have_count(1)
    item.locator("a.match-link").click()
    alice.wait_for_url(re.compile(r"/matches/\d+$"))
    rows = alice.locator("#score-table tbody tr")
    expect(rows).to_have_count(2)
    for name, score in scores.items():
        expect(rows.filter(has_text=name).locator("td.num")).to_have_text(str(score))
    expect(alice.locator("#rounds-table tbody tr").first).to_be_visible()
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move (\d+) of \1"))
    expect(alice.locator("#replay-table .ab-outcome")).to_be_visible()
    alice.click("#replay-controls [data-step=first]")
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move 0 of \d+"))
    expect(alice.locator("#replay-table .ab-row .card")).to_have_count(24)
    alice.click("#replay-controls [data-step=next]")
    expect(alice.locator("#replay-table [role=log] li")).to_have_count(1)
    assert_player_words(alice.locator("main"))


def test_names_and_chat_are_shown_as_text(new_page: Callable[..., Page]) -> None:
    name = "<img src=x onerror=alert(1)>"
    message = "<b>hi</b> <img src=y onerror=alert(2)> & bye"
    page = visitor(new_page, name)
    expect(page.locator("#session-link")).to_have_text(name)
    assert page.locator("header img").count() == 0

    create_abstrac_room(page, target=50)
    take_seat(page, 0)
    expect(page.locator(".seat[data-seat='0'] .seat-name")).to_have_text(name)

    page.fill("#chat-input", message)
    page.press("#chat-input", "Enter")
    line = page.locator("#chat-log .chat-line").last
    expect(line.locator(".chat-from")).to_have_text(name)
    expect(line.locator(".chat-text")).to_have_text(message)
    expect(page.locator("#chat-input")).to_have_value("")
    assert page.locator("main img, main b").count() == 0


def test_chat_reaches_the_other_players(new_page: Callable[..., Page]) -> None:
    host = visitor(new_page, unique("Host"))
    invite = create_abstrac_room(host, target=50)
    guest = visitor(new_page, unique("Guest"), invite)
    expect(guest.locator("#conn")).to_have_attribute("data-state", "open")
    guest.fill("#chat-input", "hello there")
    guest.click("#chat-form button[type=submit]")
    expect(host.locator("#chat-log .chat-text").last).to_have_text("hello there")
    expect(guest.locator("#chat-log .chat-text").last).to_have_text("hello there")


def test_a_refused_move_is_explained_and_bots_fill_seats(new_page: Callable[..., Page]) -> None:
    page = new_page()

    def tamper(ws: WebSocketRoute) -> None:
        """Forward everything, but turn the page's "take" actions into taking 7 cards."""
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "action" and data["action"].get("type") == "take":
                data["action"]["count"] = 7
            server.send(json.dumps(data))

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/rooms/"), tamper)
    page.goto("/")
    sign_in(page, unique("Dana"))
    create_abstrac_room(page, target=50)
    take_seat(page, 0)

    seat = page.locator(".seat[data-seat='1']")
    add_bot(page, 1, "hard")
    expect(seat.locator(".tag-bot")).to_have_text("Bot · hard")
    seat.get_by_role("button", name="Remove bot").click()
    expect(seat.locator(".seat-name")).to_have_text("Empty")
    expect(page.locator("#start-button")).to_be_disabled()
    add_bot(page, 1, "normal")  # the list's own level, as the seat is drawn again
    start_match(page)

    exposed = page.locator(".ab-row button.card-exposed")
    go_first = page.locator(".ab-controls button[data-focus=first]")
    expect(exposed.or_(go_first)).to_be_visible()
    if go_first.count():
        go_first.click()
    expect(exposed).to_be_visible()

    # A click on a covered card is explained without asking the server.
    page.locator(".ab-row .card").first.click(position={"x": 4, "y": 20})
    expect(page.locator("#table-message")).to_contain_text("exposed")

    exposed.click()
    expect(page.locator("#table-message")).to_contain_text("7")
    expect(exposed).to_be_visible()  # the controls are back: the move was refused, not lost
    expect(page.locator(".ab-status")).to_have_text(re.compile("^Your turn"))


def test_the_lobby_lists_open_rooms(new_page: Callable[..., Page]) -> None:
    host_name = unique("Erin")
    host = visitor(new_page, host_name)
    invite = create_abstrac_room(host, target=60)
    room_id = invite.rsplit("/", 1)[1]

    guest = visitor(new_page, unique("Finn"), "/")
    item = guest.locator("#room-list .room-item").filter(
        has=guest.locator(f"a[href='/rooms/{room_id}']")
    )
    expect(item).to_contain_text(host_name)
    expect(item).to_contain_text("0/2 seated")
    link = item.get_by_role("link")
    expect(link).to_have_text("Join")
    link.click()
    guest.wait_for_url(invite)
    take_seat(guest, 1)
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_have_text(
        guest.locator("#session-link").inner_text()
    )


def abstrac_state_message(view: dict, seq: int, legal: list) -> dict:
    to_move = view["to_move"]
    return {
        "type": "state", "match_id": 1, "seq": seq, "view": view, "legal": legal,
        "to_act": [] if to_move is None else [to_move], "last": None, "over": False,
        "outcome": None,
    }  # fmt: skip


def test_a_scored_deal_stays_until_the_next_deals_first_take(
    new_page: Callable[..., Page],
) -> None:
    """After a deal, both collections with their combinations and the score arithmetic stay
    on the table (in the collections' places) until the next deal's first card is taken."""
    engine = REGISTRY["abstrac"]
    state = engine.setup(2, 7, {"target": 5000})
    while engine.view(state, 0)["deal"] == 1:  # the dealer's opponent goes first, takes 1
        seat = next(iter(engine.to_act(state)))
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    view = engine.view(state, 0)
    scored = view["deals"][-1]
    page = new_page(**PHONE)
    mount_alone(page, "abstrac", 0, ["Ann", "Ben"])
    show = "([msg]) => window.table.update(msg)"
    page.evaluate(show, [abstrac_state_message(view, 1, [])])
    done = page.locator(".ab-collection-done")
    expect(done).to_have_count(2)
    for seat, name in ((0, "Your cards"), (1, "Ben's cards")):
        title = page.locator(f".ab-collection-done[data-seat='{seat}'] .ab-collection-title")
        expect(title).to_contain_text(f"{name} in deal 1")
        expect(title).to_contain_text(f"= {scored['scores'][seat]}")
        lanes = page.locator(f".ab-collection-done[data-seat='{seat}'] .ab-lane .card")
        expect(lanes).to_have_count(len(view["last_deal"]["taken"][seat]))
    assert_player_words(page.locator("#renderer"))
    # the next deal's first take: the new, empty collections replace the summary
    while not any(engine.view(state, 0)["taken"]):
        seat = next(iter(engine.to_act(state)))
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    page.evaluate(show, [abstrac_state_message(engine.view(state, 0), 3, [])])
    expect(done).to_have_count(0)
    expect(page.locator(".ab-deals")).to_contain_text(f"= {scored['scores'][0]}")
