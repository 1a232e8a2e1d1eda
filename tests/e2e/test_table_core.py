"""The table core in the browser (static/js/table/): turn clocks from the state's `deadlines`,
the move log in words, the outcome saying why a match ended, in every game; and the rules the
ABSOLUTE table repeats in the browser agreeing with the engine (tests/fixtures/)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.support.table_steps import api, pause_in, stop_page_time, unique
from tests.support.visitors import visitor
from tests.support.waiting import until

FIXTURE = Path(__file__).parent.parent / "fixtures" / "absolute_groups.json"
GAMES = ["absolute", "abspecken", "abstrac", "balance", "plus_minus"]
CLOCK = re.compile(r"(\d+):(\d\d)")


def started_room(page: Page, game: str, table: dict[str, Any]) -> str:
    """A room of `game` with these table settings: the visitor in seat 0, easy bots in the
    others (the game's least seats, at least two), started; the page shows it."""
    games = {g["id"]: g for g in api(page, "GET", "/api/games")}
    seats = max(2, games[game]["min_players"])
    room = api(page, "POST", "/api/rooms", {"game": game, "seats": seats, "table": table})
    base = f"/api/rooms/{room['id']}"
    api(page, "POST", f"{base}/seats/0")
    for seat in range(1, seats):
        api(page, "POST", f"{base}/seats/{seat}/bot", {"level": "easy"})
    page.goto(f"/rooms/{room['id']}")
    expect(page.locator("#table")).to_be_attached()
    api(page, "POST", f"{base}/start")
    return str(room["id"])


def seconds(text: str) -> int:
    match = CLOCK.search(text)
    assert match, f"not a clock: {text!r}"
    return int(match.group(1)) * 60 + int(match.group(2))


@pytest.mark.parametrize("game", GAMES)
def test_a_turn_clock_counts_down_from_the_deadline(
    new_page: Callable[..., Page], game: str
) -> None:
    """A room with a 30-second turn timer: the table shows the seat to act a clock whose time
    comes from the state's deadline, and it counts down once a second (on a phone). The page's
    time stands still while the test reads it, then moves on two seconds at the test's word."""
    page = visitor(new_page, unique("Tess"), width=390, height=844)
    page.clock.install()
    started_room(page, game, {"turn_seconds": 30})
    clock = page.locator("#table .turn-clock[role=timer]").first
    expect(clock).to_have_text(CLOCK)
    expect(clock).to_have_attribute("aria-label", re.compile(r"\d+:\d\d$"))
    stop_page_time(page)
    deadline = clock.get_attribute("data-deadline")
    assert deadline
    shown = seconds(clock.inner_text())
    left = page.evaluate("(iso) => (Date.parse(iso) - Date.now()) / 1000", deadline)
    assert 0 < shown <= 30 and abs(shown - left) <= 1.5, (shown, left)
    # it ticks: the same deadline shows less time two seconds later
    page.clock.run_for(2000)
    if clock.get_attribute("data-deadline") == deadline:  # nobody moved meanwhile
        later = seconds(clock.inner_text())
        assert shown - 3 <= later <= shown - 1, (shown, later)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_move_log_tells_the_moves_in_words(new_page: Callable[..., Page]) -> None:
    """ABSOLUTE: the visitor draws and discards, the bot answers; the log lists it all."""
    page = visitor(new_page, unique("Lou"))
    started_room(page, "absolute", {})
    log = page.locator("#table .move-log-list")
    page.locator("[data-focus=deck].is-lit").click()
    expect(log.locator("li").last).to_have_text("You drew from the deck.")
    card = page.locator(".abs-hand button.abs-card").first
    name = card.get_attribute("title")
    card.click()
    page.locator("[data-focus=tray-discard]").click()
    expect(log).to_contain_text(f"You discarded the {name}.")
    # the bot's turn follows, newest last; the log grows with each move
    expect(log.locator("li").last).to_contain_text(
        re.compile(r"^\w+ \(bot\) (drew|took|held|played|swapped|discarded)")  # its own name
    )
    assert log.locator("li").count() >= 3


@pytest.mark.parametrize("game", GAMES)
def test_the_outcome_says_a_match_was_forfeited(new_page: Callable[..., Page], game: str) -> None:
    """A 1-second timer that forfeits: the visitor does not move, and the outcome says why the
    match ended and who won."""
    page = visitor(new_page, unique("Finn"), width=390, height=844)
    started_room(page, game, {"turn_seconds": 1, "on_absent": "forfeit"})
    outcome = page.locator("#table [data-testid=outcome]")
    expect(outcome).to_be_visible(timeout=20_000)
    why = outcome.locator(".outcome-why")
    expect(why).to_have_attribute("data-termination", "forfeit")
    expect(why).to_have_text(
        "You ran out of time, so the match was forfeited: every other player wins."
    )
    expect(outcome.locator(".outcome-title")).to_contain_text("(bot)")
    expect(page.locator("#room-status")).to_have_text("Finished")


def test_the_outcome_words_every_termination(new_page: Callable[..., Page]) -> None:
    """outcome.js alone: a normal end, a forfeit for absence, an aborted match (its rules
    changed, or it reached the server's limit of moves)."""
    page = new_page()
    page.goto("/")
    said = page.evaluate(
        """async () => {
            const { whyEnded, headline } = await import("/static/js/table/outcome.js");
            const { seatWords } = await import("/static/js/table/seats.js");
            const words = seatWords({ seat: 1, names: ["Ann", "Ben", "Cy"] });
            return {
                normal: whyEnded({ termination: "normal" }, words),
                own: whyEnded({ termination: "normal" }, words, "Ann went out."),
                absent: whyEnded(
                    { termination: "forfeit", detail: { forfeit: 0, reason: "absent" } }, words),
                aborted: whyEnded({ termination: "aborted", winners: [] }, words),
                limit: whyEnded({
                    termination: "aborted", winners: [],
                    detail: { reason: "move_limit", limit: 5000 },
                }, words),
                none: headline([], words),
                you: headline([1], words),
                shared: headline([0, 2], words),
                yours: headline([1, 2], words),
            };
        }"""
    )
    assert said == {
        "normal": "The match was played to its end.",
        "own": "Ann went out.",
        "absent": "Ann left the table and did not come back in time, so the match was "
        "forfeited: every other player wins.",
        "aborted": "The match was stopped: it could not go on under the current rules. "
        "Nobody wins and it is not rated.",
        "limit": "The match was stopped: it reached this server's limit of 5,000 moves without "
        "an end. Nobody wins and it is not rated.",
        "none": "No winner.",
        "you": "You win!",
        "shared": "Shared win: Ann and Cy.",
        "yours": "Shared win: you and Cy!",
    }


def test_absolute_rules_in_the_browser_agree_with_the_engine(
    new_page: Callable[..., Page],
) -> None:
    """static/games/absolute/rules.js gives every case of the fixture the engine's verdict:
    valid or the refusal's code, the zero's value, the score; and the engine's card order and
    hand penalties."""
    fixture = json.loads(FIXTURE.read_text())
    page = new_page()
    page.goto("/")
    results = page.evaluate(
        """async (fixture) => {
            const rules = await import("/static/games/absolute/rules.js");
            const cards = await import("/static/games/absolute/cards.js");
            const groups = fixture.groups.map((c) => {
                const check = rules.checkGroup(c.cards, new Map(Object.entries(c.frozen)));
                return {
                    valid: check.ok,
                    code: check.ok ? null : check.code,
                    zero: check.ok ? (check.zeroValue === null ? null : check.zeroValue + 0) : null,
                    score: check.ok ? rules.scoreSet(c.cards) : null,
                    sorted: cards.sortCards(c.cards),
                };
            });
            const hands = fixture.hands.map((c) => rules.handPenalty(c.hand));
            return { groups, hands };
        }""",
        fixture,
    )
    for case, got in zip(fixture["groups"], results["groups"], strict=True):
        expected = {k: case[k] for k in ("valid", "code", "zero", "score", "sorted")}
        assert got == expected, case["cards"]
    assert results["hands"] == [case["penalty"] for case in fixture["hands"]]


def test_a_refusal_leaves_when_the_next_state_arrives_or_the_player_acts(
    new_page: Callable[..., Page],
) -> None:
    """ABSOLUTE against a bot: a refusal that comes while the bot plays is cleared by the
    bot's state, and one that comes on the visitor's turn by the visitor's next move (its
    answer held back, so only the act clears it), not the 10 s an explanation lasts: the page's
    time stands still from the first move on, so that timer never runs out."""
    page = visitor(new_page, unique("Ref"))
    page.clock.install()
    relays: list[WebSocketRoute] = []
    held: list[str | bytes] = []
    holding = {"bot": False, "all": False}

    def relay(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                by_bot = (data.get("last") or {}).get("seat") not in (None, 0)
                if holding["all"] or (holding["bot"] and by_bot):
                    held.append(message)
                    return
            ws.send(message)

        server.on_message(from_server)
        relays.append(ws)

    page.route_web_socket(re.compile(r"/ws/rooms/"), relay)
    started_room(page, "absolute", {})
    message = page.locator("#table-message")
    refusal = {"type": "error", "code": "not_your_turn", "ref": None}

    def release() -> None:
        holding.update(bot=False, all=False)
        while held:
            relays[-1].send(held.pop(0))

    # the visitor draws and discards; the bot's answer is held back
    deck = page.locator("[data-focus=deck].is-lit")
    expect(deck).to_be_visible(timeout=30_000)  # the match has started, the visitor to act
    stop_page_time(page)
    holding["bot"] = True
    deck.click()
    page.locator(".abs-hand button.abs-card").first.click()
    page.locator("[data-focus=tray-discard]").click()
    # the relay runs while the test calls Playwright
    until(lambda: held, "the bot's move held back", 5, every_s=0.1, pause=pause_in(page))
    relays[-1].send(json.dumps({**refusal, "message": "It is not your turn: Bot is playing."}))
    expect(message).to_have_text("It is not your turn: Bot is playing.")
    expect(message).to_be_visible()
    release()  # the bot's state arrives
    expect(message).to_be_hidden()
    expect(page.locator("[data-focus=deck].is-lit")).to_be_visible()

    # on the visitor's turn: a refusal, then the visitor acts while every state is held
    holding["all"] = True
    relays[-1].send(json.dumps({**refusal, "message": "Wait a moment, please."}))
    expect(message).to_have_text("Wait a moment, please.")
    page.locator("[data-focus=deck].is-lit").click()
    expect(message).to_be_hidden()
    release()
    expect(page.locator(".move-log-list li").last).to_have_text("You drew from the deck.")
