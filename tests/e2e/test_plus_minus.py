"""A whole Plus & Minus game with four seats, played by clicking in real browsers.

Alice (desktop, seat 1) plays with the mouse, Bob (a 375 px phone, seat 4) with the keyboard,
two easy bots fill seats 2 and 3, and Carol watches. Bob passes his cards to Alice, so Alice
must see each card he passes her while Carol sees only that a card was passed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from tests.support.screen import PHONE, assert_on_first_screen
from tests.support.table_steps import (
    add_bot,
    create_room,
    pause_in,
    start_match,
    take_seat,
    unique,
)
from tests.support.visitors import sign_in, visitor
from tests.support.waiting import play_until, until
from tests.support.words import assert_player_words

GAME_DEADLINE_S = 180
PASSES_CHECKED = 8  # Bob's first passes are checked on every screen, later ones in the messages
PLAYS_CHECKED = 15  # Alice's first plays compare the lit stacks with the server's legal actions
TABLE = ".pm"
MINUS = "\u2212"
OUTCOME = "[data-testid=outcome]"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str) -> str:
    return card[:-1] + SUITS[card[-1]]


def record_states(page: Page) -> list[dict[str, Any]]:
    """Keep every ``state`` message the server sends this page (forwarded unchanged)."""
    states: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                states.append(data)
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/rooms/"), route)
    return states


def phase(page: Page) -> str | None:
    """What the table asks of this player now: play, swap, king, pass, or wait."""
    return page.locator(TABLE).get_attribute("data-phase", timeout=2000)


def seq(page: Page) -> int:
    return int(page.locator(TABLE).get_attribute("data-seq", timeout=2000) or -1)


def state_at(page: Page, states: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """The recorded state message ``number`` (recording runs while Playwright is called)."""
    return until(
        lambda: next((m for m in reversed(states) if m["seq"] == number), None),
        f"state message {number} recorded",
        5,
        pause=pause_in(page),
    )


def wait_for_seq(page: Page, number: int) -> None:
    until(lambda: seq(page) >= number, f"the table showing move {number}", 5, pause=pause_in(page))


def lit_stacks(page: Page) -> set[str]:
    return set(
        page.locator(f"{TABLE} .pm-target").evaluate_all("ns => ns.map(n => n.dataset.stack)")
    )


class Game:
    def __init__(
        self, pages: tuple[Page, Page, Page], states: list[dict[str, Any]], bob_name: str
    ) -> None:
        self.alice, self.bob, self.carol = pages
        self.states, self.bob_name = states, bob_name
        self.checked_targets = 0
        self.explained = False
        self.swaps = self.kings = 0
        self.passed_to_alice: list[str] = []
        self.received_seen = 0
        self.seen_round_result = False

    # -- Alice: the mouse -------------------------------------------------------------------
    def alice_move(self) -> bool:
        page = self.alice
        step = phase(page)
        if step == "play":
            cards = page.locator(f"{TABLE} .pm-hand button.pm-choosable")
            if self.checked_targets < PLAYS_CHECKED:
                self.check_targets(cards.last)
            else:
                cards.last.click(timeout=2000)
            # every other play goes through the guide's list instead of the stack itself
            if self.checked_targets % 2:
                page.locator(f"{TABLE} .pm-target").first.click(timeout=2000)
            else:
                page.locator(f"{TABLE} .pm-target-btn").first.click(timeout=2000)
        elif step == "swap":
            self.swap(page)
        elif step == "king":
            self.king(page)
        elif step == "pass":
            page.locator(f"{TABLE} .pm-hand button.pm-choosable").first.click(timeout=2000)
            page.locator(f"{TABLE} [data-focus=pass-confirm]").click(timeout=2000)
        else:
            return False
        return True

    def check_targets(self, choice: Locator) -> None:
        """Picking a card lights exactly the stacks the server's legal actions allow."""
        page = self.alice
        card = choice.get_attribute("data-card", timeout=2000)
        assert card
        number = seq(page)
        choice.click(timeout=2000)
        expect(page.locator(f"{TABLE} .pm-selected")).to_have_attribute("data-card", card)
        legal = state_at(page, self.states, number)["legal"]
        wanted = {f"{a['seat']}:{a['stack']}" for a in legal if a.get("card") == card}
        assert wanted and lit_stacks(page) == wanted, (card, wanted, lit_stacks(page))
        self.checked_targets += 1
        if not self.explained:
            self.explain_a_refusal(card)

    def explain_a_refusal(self, card: str) -> None:
        """A click on a stack the selected card does not fit is explained in words."""
        dark = self.alice.locator(f"{TABLE} .pm-not-target")
        if not dark.count():
            return
        dark.first.click(timeout=2000)
        expect(self.alice.locator("#table-message")).to_contain_text(
            f"The {card_text(card)} does not fit"
        )
        self.explained = True

    def swap(self, page: Page) -> None:
        stacks = page.locator(f"{TABLE} .pm-swappable")
        expect(stacks).to_have_count(8)  # any two of the eight stacks
        stacks.nth(1).click(timeout=2000)
        expect(page.locator(f"{TABLE} .pm-picked")).to_have_count(1)
        page.locator(f"{TABLE} .pm-swappable:not(.pm-picked)").nth(2).click(timeout=2000)
        expect(page.locator(f"{TABLE} .pm-picked")).to_have_count(2)
        page.locator(f"{TABLE} [data-focus=swap-confirm]").click(timeout=2000)
        self.swaps += 1

    def king(self, page: Page) -> None:
        choices = page.locator(f"{TABLE} .pm-king-btn")
        expect(choices).to_have_count(3)  # the three other players
        confirm = page.locator(f"{TABLE} [data-focus=king-confirm]")
        expect(confirm).to_be_disabled()
        choices.nth(0).click(timeout=2000)
        choices.nth(2).click(timeout=2000)
        expect(page.locator(f"{TABLE} .pm-seat-chosen")).to_have_count(2)
        confirm.click(timeout=2000)
        self.kings += 1

    # -- Bob: the keyboard on a phone -------------------------------------------------------
    def bob_move(self) -> bool:
        """Bob plays by keyboard on his phone: his hand is on the first screen at each step."""
        page = self.bob
        step = phase(page)
        if step in ("play", "pass"):
            hand = page.locator(f"{TABLE} .pm-hand button.pm-choosable").first
            if not assert_on_first_screen(page, hand, may_vanish=True):
                return False
            expect(page.locator("#table-message.is-refusal")).to_have_count(0)
        if step == "play":
            page.locator(f"{TABLE} .pm-hand button.pm-choosable").first.focus(timeout=2000)
            page.keyboard.press("Enter")
            focused = page.locator(f"{TABLE} .pm-target:focus")
            expect(focused).to_have_count(1)  # the first lit stack takes the focus
            page.keyboard.press("Enter")
        elif step == "swap":
            self.swap(page)
        elif step == "king":
            self.king(page)
        elif step == "pass":
            card = page.locator(f"{TABLE} .pm-hand button.pm-choosable").first
            name = card.get_attribute("data-card", timeout=2000)
            assert name
            card.focus(timeout=2000)
            page.keyboard.press("Enter")
            confirm = page.locator(f"{TABLE} [data-focus=pass-confirm]")
            expect(confirm).to_be_focused()
            expect(confirm).to_have_text(f"Pass the {card_text(name)}")
            number = seq(page) + 1
            page.keyboard.press("Enter")
            self.check_pass_to_alice(name, number)
        else:
            return False
        return True

    def check_pass_to_alice(self, card: str, number: int) -> None:
        """Alice (Bob's left) sees the card Bob passed; Carol sees only that he passed one."""
        assert state_at(self.alice, self.states, number)["last"]["action"] == {
            "type": "pass",
            "card": card,
            "to": 0,
        }
        self.passed_to_alice.append(card)
        if len(self.passed_to_alice) > PASSES_CHECKED:
            return
        wait_for_seq(self.alice, number)
        if seq(self.alice) == number:  # usually Alice's turn now: nothing moves until she acts
            alice_log = self.alice.locator(f"{TABLE} .pm-log-list")
            expect(alice_log).to_contain_text(f"passed you the {card_text(card)}")
            if self.alice.locator(f"{TABLE} .pm-received").count():  # unless a new round began
                expect(self.alice.locator(f"{TABLE} .pm-received")).to_contain_text(card_text(card))
                mark = self.alice.locator(f"{TABLE} .pm-slot", has=self.alice.locator(".pm-new"))
                expect(mark.locator(".card")).to_have_attribute("data-card", card)
                self.received_seen += 1
        wait_for_seq(self.carol, number)
        carol_log = self.carol.locator(f"{TABLE} .pm-log-list")
        if seq(self.carol) == number:
            expect(carol_log).to_contain_text(f"{self.bob_name} passed a card face down to")
        expect(carol_log).not_to_contain_text(f"the {card_text(card)} to")

    # -- the whole game ---------------------------------------------------------------------
    def play(self) -> int:
        moves = 0

        def both_move() -> bool:
            nonlocal moves
            acted = False
            for move in (self.alice_move, self.bob_move):
                try:
                    acted = move() or acted
                except PlaywrightError:
                    acted = True  # the table changed under the pointer; look again
            if acted:
                moves += 1
            if (
                not self.seen_round_result
                and self.alice.locator(f"{TABLE} .pm-rounds").is_visible()
            ):
                expect(self.alice.locator(f"{TABLE} .pm-rounds h3")).to_contain_text("Round 1")
                self.seen_round_result = True
            if moves % 25 == 0:
                assert self.carol.locator(f"{TABLE} button").count() == 0
            return acted

        play_until(
            lambda: self.alice.locator(OUTCOME).is_visible(),
            both_move,
            "the game's end",
            GAME_DEADLINE_S,
            pause=pause_in(self.alice),
        )
        return moves


def final_scores(page: Page) -> dict[str, int]:
    finals = page.locator(f"{TABLE} .pm-final")
    expect(finals).to_have_count(4)
    return {
        finals.nth(i).locator(".pm-final-name").inner_text(): int(
            finals.nth(i).locator(".pm-final-score").inner_text().replace(MINUS, "-")
        )
        for i in range(4)
    }


def test_four_seats_play_a_whole_game(new_page: Callable[..., Page]) -> None:
    alice_name, bob_name, carol_name = unique("Alice"), unique("Bob"), unique("Carol")
    alice = new_page()
    states = record_states(alice)
    alice.goto("/")
    sign_in(alice, alice_name)
    invite = create_room(alice, "plus_minus", 4)
    take_seat(alice, 0)
    add_bot(alice, 1)
    add_bot(alice, 2)
    bob = visitor(new_page, bob_name, invite, **PHONE)
    take_seat(bob, 3)
    start_match(alice)
    carol = visitor(new_page, carol_name, invite)

    for page in (alice, bob, carol):
        expect(page.locator(TABLE)).to_be_visible()
        expect(page.locator(f"{TABLE} .pm-seat")).to_have_count(4)
        expect(page.locator(f"{TABLE} .pm-stack-plus")).to_have_count(4)
        expect(page.locator(f"{TABLE} .pm-stack-minus")).to_have_count(4)
        expect(page.locator(f"{TABLE} .pm-sub")).to_contain_text("Round 1 of 4")
    expect(alice.locator(f"{TABLE} .pm-seat-me .pm-name")).to_contain_text(alice_name)
    expect(alice.locator(f"{TABLE} .pm-seat[data-seat='1'] .pm-tag-dir")).to_have_text(
        "Gets your pass"
    )
    expect(alice.locator(f"{TABLE} .pm-seat[data-seat='3'] .pm-tag-dir")).to_have_text(
        "Passes to you"
    )
    assert carol.locator(f"{TABLE} button").count() == 0, "a spectator gets no controls"
    expect(carol.locator(f"{TABLE} .pm-watch")).to_be_visible()
    # every stack shows its top card and its size (once a person is to act, nothing moves)
    until(
        lambda: states and set(states[-1]["to_act"]) & {0, 3} and seq(alice) == states[-1]["seq"],
        "a person's turn",
        pause=pause_in(alice),
    )
    for entry in states[-1]["view"]["seats"]:
        for kind in ("plus", "minus"):
            seat, stack = entry["seat"], entry[kind]
            shown = alice.locator(f"{TABLE} .pm-seat[data-seat='{seat}'] .pm-stack-{kind}")
            if stack["top"] is None:  # a King can empty a Minus stack
                expect(shown.locator(".pm-empty")).to_be_visible()
            else:
                expect(shown.locator(".pm-top-card")).to_have_attribute("data-card", stack["top"])
            size = f"{stack['size']} card{'' if stack['size'] == 1 else 's'}"
            expect(shown.locator(".pm-size")).to_have_text(size)

    game = Game((alice, bob, carol), states, bob_name)
    game.play()

    assert game.checked_targets >= 5 and game.explained
    assert game.passed_to_alice and game.received_seen, "Alice never saw a card Bob passed"
    assert game.seen_round_result
    for page in (alice, bob, carol):
        expect(page.locator(OUTCOME)).to_be_visible()
        expect(page.locator(f"{TABLE} .pm-status")).to_have_text("The game is over.")
        expect(page.locator(f"{TABLE} .pm-rounds h3")).to_contain_text("Round 4 result")
    assert carol.locator(f"{TABLE} button").count() == 0
    scores = final_scores(alice)
    bots = set(scores) - {alice_name, bob_name}  # bots have names of their own (issue 24)
    assert len(scores) == 4 and len(bots) == 2 and all(b.endswith(" (bot)") for b in bots)
    assert final_scores(bob) == scores == final_scores(carol)

    # the outcome agrees with the server's, the boards' totals and the sum of the round scores
    last = states[-1]
    assert last["over"]
    totals = last["outcome"]["scores"]
    assert sorted(scores.values(), reverse=True) == sorted(totals, reverse=True)
    for seat, total in enumerate(totals):
        expect(alice.locator(f"{TABLE} [data-total='{seat}']")).to_have_text(
            str(total).replace("-", MINUS)
        )
        assert total == sum(r[seat] for r in last["view"]["round_scores"])
    best = max(totals)
    winners = [n for n, s in scores.items() if s == best]
    headline = alice.locator(f"{TABLE} .pm-outcome-title")
    if len(winners) > 1:
        expect(headline).to_contain_text("shared win")
    elif winners[0] == alice_name:
        expect(headline).to_have_text("You win!")
    else:
        expect(headline).to_have_text(f"{winners[0]} wins.")
    expect(alice.locator("#rematch-button")).to_be_visible()

    # The finished match's replay draws every step with this table, as a spectator.
    alice.click("header >> text=History")
    item = alice.locator(".match-item", has_text=alice_name).filter(has_text=bob_name)
    expect(item).to_have_count(1)
    item.locator("a.match-link").click()
    alice.wait_for_url(re.compile(r"/matches/\d+$"))
    replay = alice.locator("#replay-table .pm")
    expect(replay.locator(OUTCOME)).to_be_visible()
    assert replay.locator("button").count() == 0
    alice.click("#replay-controls [data-step=first]")
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move 0 of \d+"))
    expect(replay.locator(".pm-sub")).to_contain_text("Round 1 of 4")
    expect(replay.locator(".pm-stack .pm-size")).to_have_count(8)
    for step in (1, 2, 3):
        alice.click("#replay-controls [data-step=next]")
        expect(replay).to_have_attribute("data-seq", str(step))
    expect(replay.locator(".pm-log-list li")).to_have_count(3)
    expect(alice.locator("#replay-move")).to_have_text(re.compile(r"^Move 3: .+\.$"))
    assert_player_words(alice.locator("main"))
