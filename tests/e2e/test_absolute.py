"""ABSOLUTE in real browsers: a whole 3-round match built and played by clicking and typing.

Alice plays at desktop size with the mouse, Bob on a phone-sized page with the keyboard, a bot
takes the third seat and Carol watches. Each turn the humans draw, try the play builder (live
sums, an illegal group explained, a suggested set previewed and then played), swap when a swap
is lit, and discard or hold; the outcome, the scores and the replay are checked at the end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.support.screen import PHONE, assert_on_first_screen
from tests.support.table_steps import (
    add_bot,
    create_room,
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

MATCH_DEADLINE_S = 150
TABLE = ".abs-table"
OUTCOME = "[data-testid=outcome]"
MINUS = "\u2212"


def value(card: str) -> int:
    return int(card[:-1])


def signed(number: int) -> str:
    if number > 0:
        return f"+{number}"
    return f"{MINUS}{-number}" if number else "0"


def number(text: str) -> int:
    return int(text.strip().replace(MINUS, "-"))


@dataclass
class Stats:
    turns: int = 0
    plays: int = 0
    swaps: int = 0
    holds: int = 0
    discards: int = 0
    builder_checked: set[str] = field(default_factory=set)


def seq(page: Page) -> str:
    return page.locator(TABLE).get_attribute("data-seq") or ""


def wait_past(page: Page, before: str) -> None:
    """Until the table has drawn a newer state than ``before``."""
    expect(page.locator(TABLE)).not_to_have_attribute("data-seq", before)


def my_turn(page: Page) -> bool:
    return page.locator(".abs-status.is-you").count() > 0


def press(page: Page, selector: str, keyboard: bool) -> None:
    """Click a control, or reach it with the keyboard and press Enter."""
    target = page.locator(selector).first
    if keyboard:
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()


def check_builder(page: Page, who: str, stats: Stats, keyboard: bool) -> None:
    """Two selected cards: the live sum, then a 2-card group explained as illegal."""
    cards = page.locator(".abs-hand button.abs-card")
    codes = [cards.nth(i).get_attribute("data-card") or "" for i in range(2)]
    for i in range(2):
        if keyboard:
            cards.nth(i).focus()
            page.keyboard.press("Space")
        else:
            cards.nth(i).click()
    expect(page.locator(".abs-hand .abs-card.is-selected")).to_have_count(2)
    tray = page.locator(".abs-tray-info")
    expect(tray).to_contain_text("2 selected")
    expect(tray).to_contain_text(f"sum {signed(sum(value(c) for c in codes))}")
    press(page, "[data-focus=tray-new]", keyboard)
    group = page.locator(".abs-draft .abs-group")
    expect(group).to_have_count(1)
    expect(group).to_have_class(re.compile("is-bad"))
    expect(group.locator(".abs-group-verdict")).to_contain_text("at least 3 cards")
    expect(page.locator("[data-focus=draft-commit]")).to_be_disabled()
    expect(page.locator("#abs-draft-why")).to_contain_text("fix the groups")
    press(page, "[data-focus=draft-reset]", keyboard)
    expect(page.locator(".abs-draft")).to_be_hidden()
    stats.builder_checked.add(who)


def try_swap(page: Page, stats: Stats) -> bool:
    """Swap with the first set whose Swap button is lit, via Suggest; check the preview."""
    button = page.locator(".abs-swap-button.is-lit").first
    set_id = button.locator("xpath=ancestor::li[contains(@class,'abs-set')]").get_attribute(
        "data-set-id"
    )
    button.click()
    panel = page.locator(".abs-swap")
    expect(panel).to_be_visible()
    expect(panel.locator(".abs-verdict")).to_have_class(re.compile("is-bad"))
    panel.locator("[data-focus=swap-suggest]").click()
    verdict = panel.locator(".abs-verdict")
    expect(verdict).to_have_class(re.compile("is-ok"))
    expect(verdict).to_contain_text("Legal swap")
    match = re.search(r": (\d+) pts \(was", verdict.inner_text())
    assert match, verdict.inner_text()
    before = seq(page)
    panel.locator("[data-focus=swap-confirm]").click()
    wait_past(page, before)
    expect(page.locator(".abs-last")).to_contain_text("You swapped")
    score = page.locator(f".abs-set[data-set-id='{set_id}'] .abs-set-score strong")
    expect(score).to_have_text(match.group(1))
    stats.swaps += 1
    return True


def play_suggestion(page: Page, stats: Stats, keyboard: bool) -> None:
    """Let the table suggest a set, check its preview, commit it, find it on the table."""
    press(page, "[data-focus=tray-suggest]", keyboard)
    group = page.locator(".abs-draft .abs-group").first
    expect(group).to_have_class(re.compile("is-ok"))
    expect(group.locator(".abs-group-verdict")).to_contain_text("A valid set")
    preview = group.locator(".abs-group-score strong").inner_text()
    commit = page.locator("[data-focus=draft-commit]")
    expect(commit).to_be_enabled()
    expect(commit).to_have_text(re.compile(rf"^Play 1 set · [+{MINUS}]\d+ pts$"))
    before = seq(page)
    press(page, "[data-focus=draft-commit]", keyboard)
    wait_past(page, before)
    expect(page.locator(".abs-draft")).to_be_hidden()
    expect(page.locator(".abs-last")).to_contain_text("You played")
    mine = page.locator(".abs-zones-mine .abs-set .abs-set-score strong")
    assert preview in mine.all_inner_texts(), (preview, mine.all_inner_texts())
    # A discard is owed now: the hand is lit as the target and Hold is gone.
    expect(page.locator(".abs-status")).to_contain_text(re.compile("discard", re.I))
    expect(page.locator(".abs-hand .abs-card.is-lit").first).to_be_visible()
    expect(page.locator("[data-focus=tray-hold]")).to_have_count(0)
    stats.plays += 1


def drawing(page: Page) -> bool:
    return page.locator(".abs-pile-button.is-lit").count() > 0


def finish_turn(page: Page, stats: Stats, keyboard: bool) -> None:
    """Discard (or hold with a small hand) until the turn passes (or a new round starts)."""
    while my_turn(page) and not drawing(page) and not page.locator(OUTCOME).is_visible():
        hand = page.locator(".abs-hand button.abs-card")
        hold = page.locator("[data-focus=tray-hold]")
        before = seq(page)
        if hold.count() and hand.count() < 6:
            press(page, "[data-focus=tray-hold]", keyboard)
            stats.holds += 1
        else:
            card = hand.last
            if keyboard:
                card.focus()
                page.keyboard.press("Space")
            else:
                card.click()
            discard = page.locator("[data-focus=tray-discard]")
            expect(discard).to_have_text(re.compile(rf"^Discard [+{MINUS}]\d+"))
            press(page, "[data-focus=tray-discard]", keyboard)
            stats.discards += 1
        wait_past(page, before)


def take_turn(page: Page, who: str, stats: Stats, *, keyboard: bool, phone: bool = False) -> bool:
    """One step of this player's turn, if it is theirs. On a ``phone`` the pile to draw from,
    or the hand, is on the first screen, and no refusal is shown."""
    if not my_turn(page) or page.locator(OUTCOME).is_visible():
        return False
    if phone:
        control = page.locator(f"{TABLE} .abs-pile-button.is-lit, .abs-hand button.abs-card")
        if assert_on_first_screen(page, control.first, may_vanish=True):
            expect(page.locator("#table-message.is-refusal")).to_have_count(0)
    deck = page.locator("[data-focus=deck]")
    if page.locator("[data-focus=deck].is-lit").count():
        expect(page.locator(".abs-status")).to_contain_text("draw")
        before = seq(page)
        press(page, "[data-focus=deck]", keyboard)
        wait_past(page, before)
        expect(deck).not_to_have_class(re.compile("is-lit"))
        return True
    if page.locator("[data-focus=discard].is-lit").count():  # the deck ran out
        before = seq(page)
        press(page, "[data-focus=discard]", keyboard)
        wait_past(page, before)
        return True
    stats.turns += 1
    if who not in stats.builder_checked and page.locator(".abs-hand button.abs-card").count() > 2:
        check_builder(page, who, stats, keyboard)
    if not keyboard and not stats.swaps and page.locator(".abs-swap-button.is-lit").count():
        try_swap(page, stats)
    if page.locator("[data-focus=tray-suggest]").count():
        play_suggestion(page, stats, keyboard)
    finish_turn(page, stats, keyboard)
    return True


def assert_no_controls(page: Page) -> None:
    assert page.locator(f"{TABLE} button").count() == 0, "a spectator must not get controls"


def final_scores(page: Page) -> dict[str, int]:
    finals = page.locator(f"{OUTCOME} .abs-final")
    expect(finals).to_have_count(3)
    return {
        finals.nth(i).locator(".abs-final-name").inner_text(): number(
            finals.nth(i).locator(".abs-final-score").inner_text()
        )
        for i in range(3)
    }


def test_a_whole_match_is_built_and_played_at_the_table(new_page: Callable[..., Page]) -> None:
    alice_name, bob_name, carol_name = unique("Alice"), unique("Bob"), unique("Carol")
    alice = visitor(new_page, alice_name)
    invite = create_room(alice, "absolute", 3, turn_limit=5)
    take_seat(alice, 0)
    bob = visitor(new_page, bob_name, invite, **PHONE)
    take_seat(bob, 1)
    add_bot(alice, 2)
    start_match(alice)

    carol = visitor(new_page, carol_name, invite, width=375, height=800)
    for page in (alice, bob, carol):
        expect(page.locator(TABLE)).to_be_visible()
        expect(page.locator(".abs-chip")).to_have_count(3)
        expect(page.locator(".abs-info")).to_contain_text("Round 1 of 3")
        expect(page.locator(".abs-info")).to_contain_text(re.compile(r"turn \d+ of 15"))
    assert_no_controls(carol)

    stats = Stats()
    rounds_seen: set[int] = set()

    def over() -> bool:
        return alice.locator(OUTCOME).is_visible() and bob.locator(OUTCOME).is_visible()

    def play() -> bool:
        info = alice.locator(".abs-info").inner_text()
        found = re.search(r"Round (\d) of 3", info)
        if found:
            rounds_seen.add(int(found.group(1)))
        acted = False
        for page, who, keyboard in ((alice, "alice", False), (bob, "bob", True)):
            try:
                acted = take_turn(page, who, stats, keyboard=keyboard, phone=page is bob) or acted
            except PlaywrightError as error:  # the table redrew under the pointer: look again
                if "Timeout" in str(error):
                    raise
        if stats.turns and stats.turns % 8 == 0:
            assert_no_controls(carol)
        return acted

    play_until(
        over,
        play,
        lambda: f"the match's end ({stats})",
        MATCH_DEADLINE_S,
        idle_s=0.04,
        pause=pause_in(alice),
    )

    assert rounds_seen >= {1, 2, 3}, rounds_seen
    assert stats.builder_checked == {"alice", "bob"}, stats
    assert stats.plays >= 1, f"no set was ever played: {stats}"
    assert stats.discards + stats.holds >= 10, stats

    for page in (alice, bob, carol):
        expect(page.locator(OUTCOME)).to_be_visible()
        expect(page.locator(".abs-status")).to_have_text("The match is over.")
        expect(page.locator(".abs-round-over")).to_contain_text("Round 3 is over")
    assert_no_controls(carol)
    scores = final_scores(alice)
    bots = set(scores) - {alice_name, bob_name}  # the bot has a name of its own (issue 24)
    assert len(scores) == 3 and len(bots) == 1 and bots.pop().endswith(" (bot)")
    assert final_scores(bob) == scores == final_scores(carol)
    best = max(scores.values())
    winners = [name for name, score in scores.items() if score == best]
    headline = alice.locator(".abs-outcome-title")
    if winners == [alice_name]:
        expect(headline).to_have_text("You win!")
    elif len(winners) == 1:
        expect(headline).to_have_text(f"{winners[0]} wins.")
    else:
        expect(headline).to_contain_text("Shared win")

    # The score table: three rounds per player, adding up to the totals.
    rows = alice.locator(".abs-score-table tbody tr")
    expect(rows).to_have_count(3)
    for i in range(3):
        cells = [number(t) for t in rows.nth(i).locator("td").all_inner_texts()]
        assert len(cells) == 4 and sum(cells[:3]) == cells[3], cells
        assert cells[3] == scores[rows.nth(i).locator("th").inner_text()]
    expect(alice.locator("#room-status")).to_have_text("Finished")

    # The finished match's replay draws the same table, hands shown, without controls.
    alice.click("header >> text=History")
    item = alice.locator(".match-item", has_text=alice_name).filter(has_text=bob_name)
    expect(item).to_have_count(1)
    item.locator("a.match-link").click()
    alice.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move (\d+) of \1"))
    replay = alice.locator("#replay-table")
    expect(replay.locator(OUTCOME)).to_be_visible()
    alice.click("#replay-controls [data-step=first]")
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move 0 of \d+"))
    expect(replay.locator(".abs-info")).to_contain_text("Round 1 of 3")
    expect(replay.locator(".abs-zone-hand-open").first.locator(".abs-card")).to_have_count(5)
    expect(replay.locator(".abs-pile-discard .abs-card")).to_have_count(1)
    assert replay.locator("button").count() == 0
    assert_player_words(alice.locator("main"))
    # one seat's view, as it was: never a turn to take, nothing to rearrange
    alice.select_option("#replay-seat", "0")
    for _ in range(6):
        alice.click("#replay-controls [data-step=next]")
        expect(replay.locator(".abs-status")).not_to_contain_text("Your turn")
        expect(replay.get_by_role("button", name=re.compile("Rearrange"))).to_have_count(0)
    expect(alice.locator("#replay-move")).to_contain_text(re.compile(r"^Move 6: "))
    assert_player_words(alice.locator("main"))


def test_a_refused_move_is_explained_and_turn_clocks_count_down(
    new_page: Callable[..., Page],
) -> None:
    """The server's refusal is shown in words and the controls come back; deadlines show."""
    page = new_page(width=375, height=800)

    def tamper(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "action" and data["action"].get("type") == "draw":
                data["action"]["source"] = "the floor"
            server.send(json.dumps(data))

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":  # 45 s from when the page gets the state
                ends = (datetime.now(UTC) + timedelta(seconds=45)).isoformat()
                data["deadlines"] = {str(seat): ends for seat in data.get("to_act", [])}
            ws.send(json.dumps(data))

        ws.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/rooms/"), tamper)
    page.goto("/")
    sign_in(page, unique("Dana"))
    create_room(page, "absolute", 2, turn_limit=5)
    take_seat(page, 0)
    add_bot(page, 1)
    start_match(page)

    deck = page.locator("[data-focus=deck].is-lit")
    expect(deck).to_be_visible()
    clock = page.locator(".abs-chip.is-me .abs-clock")
    expect(clock).to_have_text(re.compile(r"^0:(4\d|3\d)$"))
    expect(page.locator(".abs-chip .abs-clock")).to_have_count(1)

    # A selected card does not get in the way; the tampered draw is refused in words.
    page.locator(".abs-hand button.abs-card").first.click()
    expect(page.locator(".abs-tray-info")).to_contain_text("1 selected")
    deck.click()
    expect(page.locator("#table-message")).to_contain_text("source")
    expect(deck).to_be_visible()  # refused, not lost: the deck is still the target
    expect(page.locator(".abs-status")).to_contain_text("Your turn")


def test_a_room_with_the_default_options_has_no_turn_limit(new_page: Callable[..., Page]) -> None:
    """The turn limit is off by default (spec 6): the form offers 0 = none, and the table
    counts the turns without an "of"."""
    page = visitor(new_page, unique("Nina"), width=390, height=844)
    open_room_form(page, "absolute")
    expect(page.locator("#opt-turn_limit")).to_have_value("0")
    expect(page.locator("label[for=opt-turn_limit]")).to_contain_text("0 = none")
    submit_room_form(page, "absolute", 2)
    take_seat(page, 0)
    add_bot(page, 1)
    start_match(page)
    info = page.locator(".abs-info")
    expect(info).to_have_text(re.compile(r"^Round 1 of 3 · turn \d+$"))
    expect(info).not_to_contain_text(" of null")
