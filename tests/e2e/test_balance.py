"""Balance in real browsers: a whole solo game and a whole two-player game, played by clicking.

The two-player game puts a scripted socket player in the second seat, so the test controls when
it is the browser player's turn; a spectator watches it at phone width.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.support.clients import Guest, RoomSocket
from tests.support.renderers import mount_alone
from tests.support.screen import LOG_SIZE, PHONE, assert_on_first_screen, log_lines
from tests.support.table_steps import (
    open_room_form,
    pause_in,
    start_match,
    submit_room_form,
    take_seat,
    unique,
)
from tests.support.visitors import visitor
from tests.support.waiting import play_until
from tests.support.words import assert_player_words

GAME_DEADLINE_S = 90
OUTCOME = "[data-testid=outcome]"
TABLE = ".balance"
CHOICE = ".bl-hand .bl-choice"
MINUS = "\u2212"
VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    if card in ("XR", "XB"):
        return 10
    rank = card[:-1]
    return VALUES.get(rank) or int(rank)


def signed(n: int) -> str:
    """How the table writes a balance: "+4", "0", and a real minus sign for "-6"."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def create_balance_room(page: Page, seats: int, **options: int) -> str:
    """A Balance room from the lobby form; returns the room's URL."""
    open_room_form(page, "balance")
    expect(page.locator("#seats-input")).to_have_attribute("min", "1")  # one seat: the solo game
    return submit_room_form(page, "balance", seats, **options)


def balance_of(page: Page) -> int:
    return int(page.locator(f"{TABLE} .bl-balance-value").get_attribute("data-value") or "")


def seq_of(page: Page) -> str:
    return page.locator(TABLE).get_attribute("data-seq") or ""


def points_of(page: Page, seat: int) -> int:
    total = page.locator(f"{TABLE} .bl-player[data-seat='{seat}'] .bl-total")
    return int(total.get_attribute("data-points") or "")


def check_choices(page: Page) -> list[dict[str, Any]]:
    """Every hand card offers exactly "add" and "subtract", each showing its true outcome."""
    balance = balance_of(page)
    cards = page.locator(f"{TABLE} .bl-hand .bl-tile").evaluate_all(
        "tiles => tiles.map((t) => t.dataset.card)"
    )
    choices = page.locator(CHOICE).evaluate_all(
        """buttons => buttons.map((b) => ({card: b.dataset.card, direction: +b.dataset.direction,
            after: +b.dataset.after, points: +b.dataset.points, text: b.innerText,
            label: b.getAttribute('aria-label'), disabled: b.disabled}))"""
    )
    assert cards, "it is my turn, so I hold a card"
    assert sorted((c["card"], c["direction"]) for c in choices) == sorted(
        (card, d) for card in cards for d in (1, -1)
    )
    for choice in choices:
        after = balance + choice["direction"] * value(choice["card"])
        joker = choice["card"].startswith("X")
        points = 1 if after == 0 else -1 if abs(after) > 9 and not joker else 0
        assert (choice["after"], choice["points"]) == (after, points), choice
        assert f"\u2192 {signed(after)}" in choice["text"]  # the result, shown before the click
        shown = {1: "+1 point", -1: f"{MINUS}1 point", 0: "joker: safe" if abs(after) > 9 else ""}
        assert shown[points] in choice["text"], choice
        verb = "Add" if choice["direction"] > 0 else "Subtract"
        assert choice["label"].startswith(verb) and not choice["disabled"]
    return choices


def best(choices: list[dict[str, Any]]) -> dict[str, Any]:
    return max(choices, key=lambda c: (c["points"], -abs(c["after"])))


def play(page: Page, choice: dict[str, Any], *, keyboard: bool) -> None:
    """Click (or focus and press Enter on) a choice and wait until the table has moved on."""
    seq = seq_of(page)
    button = page.locator(
        f"{CHOICE}[data-card='{choice['card']}'][data-direction='{choice['direction']}']"
    ).first
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.wait_for_function("seq => document.querySelector('.balance').dataset.seq !== seq", arg=seq)


def test_a_whole_solo_game(new_page: Callable[..., Page]) -> None:
    name = unique("Sola")
    page = visitor(new_page, name, **PHONE)
    create_balance_room(page, seats=1, jokers_per_deck=2)
    take_seat(page, 0)
    start_match(page)

    table = page.locator(TABLE)
    expect(table).to_be_visible()
    expect(page.locator(".bl-status")).to_have_text(re.compile(r"^Your turn"))
    expect(page.locator(".bl-automaton")).to_contain_text("Automaton")
    # The starting card lies on the pile and sets the balance.
    start = page.locator(".bl-pile .card").get_attribute("data-card") or ""
    assert balance_of(page) == value(start)
    expect(page.locator(".bl-trail .bl-step")).to_have_count(1)
    expect(page.locator(".bl-news")).to_contain_text("starting card")

    # A click on a card itself (not on + or -) is explained, and nothing is sent.
    seq = seq_of(page)
    page.locator(".bl-hand .bl-tile .card").first.click()
    expect(page.locator("#table-message")).to_contain_text("adds")
    assert seq_of(page) == seq

    turns = 0

    def play_a_turn() -> bool:
        nonlocal turns
        page.wait_for_selector(f"{CHOICE}, {OUTCOME}:not([hidden])")
        if page.locator(OUTCOME).is_visible():
            return True
        before = points_of(page, 0)
        stock = int(page.locator(".bl-stock-count").get_attribute("data-stock") or "")
        # on the phone, the choices are on the first screen; no refusal stays up
        assert_on_first_screen(page, page.locator(CHOICE).first)
        expect(page.locator("#table-message.is-refusal")).to_have_count(0)
        logged = len(log_lines(page))
        choice = best(check_choices(page))
        keyboard = turns % 3 == 1
        play(page, choice, keyboard=keyboard)
        turns += 1
        # the move log (role "log") grows with the move, newest last
        verb = "added" if choice["direction"] > 0 else "subtracted"
        expect(page.locator("#table [role=log] li").last).to_contain_text(f"You {verb}")
        assert len(log_lines(page)) > logged or logged == LOG_SIZE
        if keyboard and not page.locator(OUTCOME).is_visible():
            # the focus stays on the table, so the keyboard player can go on
            assert page.evaluate(
                "document.querySelector('.balance').contains(document.activeElement)"
            )
        # My play is described; the automaton answered (if the stock had a card left).
        expect(page.locator(".bl-news")).to_contain_text(
            f"You {'added' if choice['direction'] > 0 else 'subtracted'}"
        )
        steps = page.locator(".bl-trail .bl-step")
        mine = steps.filter(has=page.locator(".bl-step-who", has_text="You")).last
        expect(mine).to_contain_text(f"= {signed(choice['after'])}")
        automaton = 0
        if stock > 0:
            expect(steps.last).to_have_class(re.compile("bl-step-automaton"))
            chip = steps.last.locator(".bl-points-chip")
            automaton = -1 if chip.count() else 0
        assert points_of(page, 0) == before + choice["points"] + automaton
        return True

    play_until(
        lambda: page.locator(OUTCOME).is_visible(),
        play_a_turn,
        "the solo game's end",
        GAME_DEADLINE_S,
        pause=pause_in(page),
    )

    expect(page.locator(".bl-status")).to_have_text("The game is over.")
    final = points_of(page, 0)
    outcome = page.locator(OUTCOME)
    expect(outcome.locator(".bl-final-score")).to_have_text(signed(final))
    if final >= 10:
        expect(outcome.locator(".bl-outcome-title")).to_have_text("You win!")
    else:
        expect(outcome.locator(".bl-outcome-title")).to_have_text(re.compile("you lose"))
    expect(outcome).to_contain_text("10 were needed")
    assert page.locator(f"{TABLE} button").count() == 0  # no controls after the end
    expect(page.locator(".bl-stock-count")).to_have_attribute("data-stock", "0")
    assert 20 <= turns <= 40
    expect(page.locator("#room-status")).to_have_text("Finished")


def test_a_whole_two_player_game(new_page: Callable[..., Page], live_server: str) -> None:
    alice_name, carol_name = unique("Alice"), unique("Carol")
    alice = visitor(new_page, alice_name)
    invite = create_balance_room(alice, seats=2, jokers_per_deck=0, max_rounds=1)
    take_seat(alice, 0)
    room_id = invite.rsplit("/", 1)[1]

    bob = Guest(live_server, unique("Bob"))
    assert bob.post(f"/api/rooms/{room_id}/seats/1").status_code < 300
    socket: RoomSocket = bob.socket(room_id)
    expect(alice.locator(".seat[data-seat='1'] .seat-name")).to_have_text(bob.name)
    start_match(alice)

    carol = visitor(new_page, carol_name, invite, width=375, height=800)
    expect(carol.locator(TABLE)).to_be_visible()
    expect(carol.locator(".bl-player")).to_have_count(2)

    explained = False
    my_plays = bob_plays = 0

    def play_a_turn() -> bool:
        """Bob's move if he is to play, else Alice's if she may; whether either moved."""
        nonlocal explained, my_plays, bob_plays
        state = socket.latest_state(timeout=0.05)
        if state and state["legal"]:
            if not explained:
                # Bob is on turn: Alice sees she has to wait; a card click says why.
                expect(alice.locator(".bl-status")).to_have_text(f"Waiting for {bob.name} to play…")
                assert alice.locator(CHOICE).count() == 0
                alice.locator(".bl-hand .bl-tile .card").first.click()
                expect(alice.locator("#table-message")).to_contain_text("not your turn")
                explained = True
            socket.act(state["legal"][-1], seq=state["seq"])
            bob_plays += 1
            return True
        if not alice.locator(CHOICE).count():
            return False
        expect(alice.locator(".bl-player[data-seat='0'] .tag-turn")).to_be_visible()
        try:
            choices = check_choices(alice)
        except (AssertionError, PlaywrightError):
            if alice.locator(CHOICE).count():  # not a table that changed under us
                raise
            return True
        before = points_of(alice, 0)
        choice = best(choices)
        play(alice, choice, keyboard=my_plays % 4 == 3)
        my_plays += 1
        if not alice.locator(OUTCOME).is_visible():
            assert points_of(alice, 0) == before + choice["points"]
        if my_plays % 8 == 0:
            assert carol.locator(f"{TABLE} button").count() == 0, "a spectator has controls"
        return True

    try:
        play_until(
            lambda: alice.locator(OUTCOME).is_visible(),
            play_a_turn,
            "the game's end",
            GAME_DEADLINE_S,
            pause=pause_in(alice),
        )
    finally:
        socket.close()

    assert explained
    assert my_plays == bob_plays == 26  # one deck, no jokers, one round: 52 plays
    for page in (alice, carol):
        expect(page.locator(OUTCOME)).to_be_visible()
        expect(page.locator(".bl-status")).to_have_text("The game is over.")
        expect(page.locator(".bl-rounds")).to_contain_text("Round 1 result")
        expect(page.locator(".bl-stock-count")).to_have_attribute("data-stock", "0")
    assert carol.locator(f"{TABLE} button").count() == 0
    scores = {
        name: [points_of(page, seat) for page in (alice, carol)]
        for seat, name in ((0, alice_name), (1, bob.name))
    }
    assert all(a == c for a, c in scores.values()), scores
    finals = alice.locator(f"{OUTCOME} .bl-final")
    expect(finals).to_have_count(2)
    for seat, name in ((0, alice_name), (1, bob.name)):
        final = alice.locator(f"{OUTCOME} .bl-final[data-seat='{seat}']")
        expect(final.locator(".bl-final-name")).to_have_text(name)
        expect(final.locator(".bl-final-score")).to_have_text(signed(scores[name][0]))
    # one round is the cap, unless the deal let someone reach +20 or fall to -20 in it
    expect(alice.locator(OUTCOME)).to_contain_text(
        re.compile(r"round limit|winning total|(are|is) the last player|elimination total")
    )
    top = max(v[0] for v in scores.values())
    headline = alice.locator(f"{OUTCOME} .bl-outcome-title")
    if scores[alice_name][0] == top and scores[bob.name][0] < top:
        expect(headline).to_have_text("You win!")
    elif scores[bob.name][0] == top and scores[alice_name][0] < top:
        expect(headline).to_have_text(f"{bob.name} wins!")
    else:
        expect(headline).to_contain_text("shared win")

    # The finished match's replay draws the same table as a spectator; move 0 is the deal.
    alice.locator("#room-actions a", has_text="Match details").click()
    alice.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(alice.locator("#replay-pos")).to_have_text("Move 52 of 52")
    expect(alice.locator(f"#replay-table {OUTCOME}")).to_be_visible()
    alice.click("#replay-controls [data-step=first]")
    expect(alice.locator("#replay-pos")).to_have_text("Move 0 of 52")
    replay = alice.locator("#replay-table")
    expect(replay.locator(".bl-balance-value")).to_have_attribute("data-value", "0")
    expect(replay.locator(".bl-stock-count")).to_have_attribute("data-stock", "41")
    assert replay.locator("button").count() == 0
    alice.click("#replay-controls [data-step=next]")
    expect(alice.locator("#replay-move")).to_have_text(
        re.compile(r"^Move 1: .+ (added|subtracted) ")
    )
    assert_player_words(alice.locator("main"))


def test_the_table_counts_down_and_a_replay_shows_every_hand(
    new_page: Callable[..., Page],
) -> None:
    """The renderer alone, fed a state with turn deadlines and then a revealed replay frame."""
    page = new_page(width=375)
    page.clock.set_fixed_time(datetime.now(UTC))  # the page's time stands still: 42 s stay 42
    mount_alone(page, "balance", 1, ["Ann", "Ben"])
    view = {
        "mode": "multi", "phase": "playing", "round": 1, "dealer": 0, "to_move": 1, "you": 1,
        "balance": 3, "pile": [{"kind": "play", "seat": 0, "card": "3H", "direction": 1,
                                "before": 0, "after": 3, "points": 0}],
        "stock": 41, "hand": ["3S", "7D", "XR"], "drawn": "XR", "hand_counts": [5, 3],
        "points": [2, -1], "round_points": [0, 0], "eliminated": [False, False],
        "last_play": None, "rounds": [], "last_round": None,
        "options": {"decks": 1, "jokers_per_deck": 2, "max_rounds": 0},
        "rules": {"limit": 9, "win_points": 20, "out_points": -20}, "result": None,
    }  # fmt: skip
    legal = [{"type": "play", "card": c, "direction": d} for c in view["hand"] for d in (1, -1)]
    soon = "new Date(Date.now() + 42000).toISOString()"
    page.evaluate(
        f"""([view, legal]) => window.table.update({{type: 'state', match_id: 1, seq: 1,
            view, to_act: [1], legal, last: null, over: false, outcome: null,
            deadlines: {{'1': {soon}}}}})""",
        [view, legal],
    )
    expect(page.locator(".bl-player[data-seat='1'] .bl-clock")).to_have_text(
        re.compile(r"0:42 left")
    )
    expect(page.locator(".bl-status")).to_contain_text("Time left")
    expect(page.locator(CHOICE)).to_have_count(6)
    joker = page.locator(f"{CHOICE}[data-card='XR'][data-direction='1']")
    expect(joker).to_contain_text("joker: safe")  # 3 + 10 = 13 but a joker never costs
    page.locator(f"{CHOICE}[data-card='3S'][data-direction='-1']").click()
    assert page.evaluate("window.sent") == [{"type": "play", "card": "3S", "direction": -1}]

    # A replay frame: a spectator, every hand shown, no controls.
    spectator = {**view, "you": None, "hand": None, "hands": [["2C", "5D"], ["3S", "7D"]]}
    spectator["stock_cards"] = ["9S", "4C"]
    page.evaluate(
        """(view) => { window.table.destroy();
        const root = document.getElementById('renderer'); root.replaceChildren();
        return import('/static/games/balance.js').then(({ mount }) => {
            window.table = mount(root, {seat: null, names: ['Ann', 'Ben'], explain: () => {},
                act: () => Promise.reject(new Error('replay'))});
            window.table.update({type: 'state', match_id: 1, seq: 9, view, to_act: [],
                legal: [], last: null, over: false, outcome: null});
        }); }""",
        spectator,
    )
    hands = page.locator(".bl-hands .bl-hands-seat")
    expect(hands).to_have_count(2)
    expect(hands.nth(0).locator(".card")).to_have_count(2)
    expect(hands.nth(1)).to_contain_text("Ben")
    expect(page.locator(".bl-stock")).to_contain_text("Next: 9")
    assert page.locator("#renderer button").count() == 0
    expect(page.locator(".bl-status")).to_have_text("Ben to play.")
