"""A whole ABspecken game with the Piggy die, played by clicking in real browsers.

Alice plays with the mouse on a desktop, Bob with the keyboard on a phone, a bot takes the
third seat, and Carol watches on a phone. The game ends after the first round (threshold 1).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from games.abspecken.engine import ENGINE
from tests.support.renderers import mount_alone
from tests.support.screen import PHONE, assert_on_first_screen
from tests.support.table_steps import add_bot, create_room, pause_in, start_match, take_seat, unique
from tests.support.visitors import visitor
from tests.support.waiting import play_until
from tests.support.words import assert_player_words

GAME_DEADLINE_S = 120
TABLE = ".abspecken"
OUTCOME = f"{TABLE} [data-testid=outcome]"


def press(page: Page, target: Locator, keyboard: bool) -> None:
    if keyboard:
        target.focus(timeout=2000)
        page.keyboard.press("Enter")
    else:
        target.click(timeout=2000)


# Finds this player's next move in one round trip: the button to press and what it does.
NEXT_MOVE_JS = """() => {
  const mine = document.querySelector(".abspecken .spk-mine");
  if (!mine || mine.hidden) return null;
  const one = (selector) => mine.querySelector(selector);
  const last = (selector) => [...mine.querySelectorAll(selector)].pop();
  const move = (kind, node) => (node ? { kind, focus: node.dataset.focus } : null);
  return move("roll", one("[data-focus=roll-piggy]"))
    || move("pick", one("[data-testid=pick]"))
    || move("refill", one("[data-testid=refill]"))
    || move("pile-card", last(".spk-pickpile button.spk-lit"))
    || move("cannot", one("[data-testid=cannot]"))
    || move("discard", one("[data-testid=discard]"))
    || move("option", last(".spk-option"))
    || move("take", one(".spk-take"))
    || move("gift", one("[data-focus^=gift-].spk-confirm"))
    || (one("[data-focus^=gift-]") ? move("gift-card", last(".spk-hand button.spk-card")) : null)
    || move("give", one(".spk-hand button[aria-label^='Give your']"));
}"""


# What the test watches on Alice's table each time round: the phase, whether the Piggy die
# is on the table, and whether she is to decide with nothing chosen yet.
PROBE_JS = """() => {
  const table = document.querySelector(".abspecken");
  return {
    phase: table ? table.dataset.phase : null,
    piggy: Boolean(document.querySelector(".abspecken .spk-dice .spk-die-piggy")),
    fresh_choice: Boolean(document.querySelector(".abspecken .spk-mine .spk-option"))
      && !document.querySelector(".abspecken .spk-mine .spk-selected"),
  };
}"""


DECISION_MOVES = frozenset({"option", "discard", "cannot"})


def act_once(
    page: Page, *, keyboard: bool = False, hold: frozenset[str] = frozenset(), phone: bool = False
) -> str | None:
    """Make one move if this player has one and it is not of a kind in ``hold``; returns what
    was done (None: nothing). On a ``phone`` the control is on the first screen, and no
    refusal is shown.

    Picks and refills take the highest values still in the piles; a decision takes the
    last listed discard (or declares "cannot"); gifts and takes go to the first choice.
    """
    try:
        found = page.evaluate(NEXT_MOVE_JS)
        if not found or found["kind"] in hold:
            return None
        target = page.locator(f"{TABLE} .spk-mine [data-focus='{found['focus']}']")
        if phone:
            if not assert_on_first_screen(page, target, may_vanish=True):
                return None  # the table moved on; look again
            expect(page.locator("#table-message.is-refusal")).to_have_count(0)
        press(page, target, keyboard)
    except PlaywrightError:
        return None  # the table changed under the pointer; look again
    return found["kind"]


def check_decision_lights(page: Page) -> None:
    """In the secret decision: lit cards are never of the forbidden value, forbidden cards are
    marked, and a click on a forbidden card is explained without asking the server."""
    hand = page.locator(f"{TABLE} .spk-mine .spk-hand button.spk-card")
    forbidden = page.locator(f"{TABLE} .spk-dice [data-forbidden]").get_attribute("data-forbidden")
    lit = page.locator(f"{TABLE} .spk-mine .spk-hand button.spk-lit")
    assert lit.count() >= 1
    for i in range(lit.count()):
        assert lit.nth(i).get_attribute("data-value") != forbidden
    for i in range(hand.count()):
        card = hand.nth(i)
        if card.get_attribute("data-value") == forbidden:
            assert "spk-forbidden" in (card.get_attribute("class") or "")
            card.click()
            expect(page.locator("#table-message")).to_contain_text(f"No {forbidden}s")
            break


def dice_facts(page: Page) -> str:
    return page.locator(f"{TABLE} .spk-dice-facts").inner_text()


def test_a_whole_game_with_the_piggy_die(new_page: Callable[..., Page]) -> None:
    alice_name, bob_name, carol_name = unique("Alice"), unique("Bob"), unique("Carol")
    alice = visitor(new_page, alice_name)
    invite = create_room(alice, "abspecken", 3, piggy_die=True, end_threshold=1, first_roller=0)
    take_seat(alice, 0)
    bob = visitor(new_page, bob_name, invite, **PHONE)
    take_seat(bob, 1)
    add_bot(alice, 2)
    start_match(alice)

    carol = visitor(new_page, carol_name, invite, width=375, height=812)
    expect(carol.locator(TABLE)).to_be_visible()

    # The opening hand: pick five cards from one's own piles, secretly and at the same time.
    expect(alice.locator(f"{TABLE} .spk-status")).to_contain_text("Pick your opening hand")
    piles = alice.locator(f"{TABLE} .spk-pickpile button")
    expect(piles).to_have_count(6)
    for value in (2, 3, 4, 5, 6):
        alice.click(f"{TABLE} .spk-pickpile button[data-pile='{value}']")
    expect(alice.locator(f"{TABLE} .spk-picked .spk-card")).to_have_count(5)
    alice.click(f"{TABLE} [data-testid=pick]")
    expect(alice.locator(f"{TABLE} .spk-status")).to_contain_text("Your hand is chosen")
    # Bob sees that Alice has picked, not what; Carol (watching) sees no controls.
    alice_on_bob = bob.locator(f"{TABLE} .spk-player[data-seat='0']")
    expect(alice_on_bob.locator("[data-testid=committed]")).to_have_text("Hand chosen ✓")
    expect(
        carol.locator(f"{TABLE} .spk-player[data-seat='0'] [data-testid=committed]")
    ).to_be_visible()
    assert carol.locator(f"{TABLE} button").count() == 0

    alice_committed_on_bob = alice_on_bob.locator("[data-testid=committed]")
    checked_lights = checked_secret = False
    seen_piggy = False
    done: dict[str, int] = {}

    def over() -> bool:
        return alice.locator(OUTCOME).is_visible() and bob.locator(OUTCOME).is_visible()

    def play() -> bool:
        nonlocal seen_piggy, checked_lights, checked_secret
        seen = alice.evaluate(PROBE_JS)
        seen_piggy = seen_piggy or seen["piggy"]
        if seen["phase"] == "decide" and seen["fresh_choice"] and not checked_lights:
            check_decision_lights(alice)
            checked_lights = True
        acted = False
        move = act_once(alice)
        if move:
            done[move] = done.get(move, 0) + 1
            acted = True
            if move in ("discard", "cannot") and not checked_secret:
                # Alice has decided and Bob, holding back, not yet: he sees that she decided,
                # not what.
                expect(
                    bob.locator(f"{TABLE} .spk-mine .spk-option, {TABLE} [data-testid=cannot]")
                ).not_to_have_count(0)
                expect(alice_committed_on_bob).to_have_text("Decided ✓")
                assert alice_on_bob.locator(".spk-player-did").count() == 0
                assert carol.locator(f"{TABLE} .spk-player-did").count() == 0
                assert carol.locator(f"{TABLE} button").count() == 0
                checked_secret = True
        # Until that check is done, Bob decides only after Alice has.
        alice_decided = alice_committed_on_bob.all_inner_texts() == ["Decided ✓"]
        hold = DECISION_MOVES if not (checked_secret or alice_decided) else frozenset()
        move = act_once(bob, keyboard=True, hold=hold, phone=True)
        if move:
            done[f"bob-{move}"] = done.get(f"bob-{move}", 0) + 1
            acted = True
        return acted

    play_until(
        over,
        play,
        lambda: f"the game's end ({done})",
        GAME_DEADLINE_S,
        idle_s=0.025,
        pause=pause_in(alice),
    )

    assert done.get("discard", 0) >= 1, done
    assert checked_lights and checked_secret, done
    # the humans always add the Piggy die when offered, and its face was on the table
    assert done.get("roll", 0) + done.get("bob-roll", 0) >= 1, done
    assert seen_piggy, done

    # The outcome: everyone sees the same final totals; the lowest total wins.
    for page in (alice, bob, carol):
        expect(page.locator(OUTCOME)).to_be_visible()
        expect(page.locator(f"{TABLE} .spk-status")).to_have_text("The game is over.")
    assert carol.locator(f"{TABLE} button").count() == 0

    def finals(page: Page) -> dict[str, int]:
        items = page.locator(f"{OUTCOME} .spk-final")
        expect(items).to_have_count(3)
        return {
            items.nth(i).locator(".spk-final-name").inner_text(): int(
                items.nth(i).locator(".spk-final-score").inner_text()
            )
            for i in range(3)
        }

    scores = finals(alice)
    assert finals(bob) == scores == finals(carol)
    assert alice_name in scores and bob_name in scores
    assert min(scores.values()) == 0  # someone emptied hand and piles
    assert max(scores.values()) >= 1  # the threshold of 1 ended the game
    best = min(scores.values())
    winners = [name for name, score in scores.items() if score == best]
    title = alice.locator(f"{OUTCOME} .spk-outcome-title").inner_text()
    if winners == [alice_name]:
        assert title == "You win!"
    elif len(winners) == 1:
        assert title == f"{winners[0]} wins."
    # the last playthrough's reveal says what Alice did: she discarded, could not, or (with
    # the smiling pig's gift) gave her last card away and finished without deciding
    expect(alice.locator(f"{TABLE} .spk-reveal")).to_contain_text(
        re.compile(r"You( discarded|: .I cannot| gave)")
    )
    # the round summary and the totals table agree with the outcome
    # (when every player empties in the same playthrough nobody scores: another round is dealt)
    expect(alice.locator(f"{TABLE} .spk-rounds h3")).to_contain_text(
        re.compile(r"Round \d+ result")
    )
    totals = alice.locator(f"{TABLE} .spk-score-table tfoot td")
    expect(totals).to_have_count(3)
    assert sorted(int(t) for t in totals.all_inner_texts()) == sorted(scores.values())

    # The finished match's replay draws the same table, every hand face up.
    alice.click("header >> text=History")
    item = alice.locator(".match-item", has_text=alice_name).filter(has_text=bob_name)
    expect(item).to_have_count(1)
    item.locator("a.match-link").click()
    alice.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(alice.locator(f"#replay-table {OUTCOME}")).to_be_visible()
    alice.click("#replay-controls [data-step=back]")
    expect(alice.locator(f"#replay-table {OUTCOME}")).to_be_hidden()
    expect(alice.locator(f"#replay-table {TABLE} .spk-player")).to_have_count(3)
    # every hand is drawn card by card (possibly empty by now), none as backs
    expect(alice.locator(f"#replay-table {TABLE} .spk-minis:not(.spk-discards)")).to_have_count(3)
    assert alice.locator(f"#replay-table {TABLE} .spk-back").count() == 0
    alice.click("#replay-controls [data-step=first]")
    expect(alice.locator("#replay-pos")).to_have_text(re.compile(r"Move 0 of \d+"))
    expect(alice.locator(f"#replay-table {TABLE} .spk-player")).to_have_count(3)
    assert alice.locator(f"#replay-table {TABLE} button").count() == 0
    for step in (1, 2, 3):
        alice.click("#replay-controls [data-step=next]")
        expect(alice.locator("#replay-move")).to_have_text(re.compile(rf"^Move {step}: .+[.!”]$"))
        assert_player_words(alice.locator("main"))


# An option chip of two or more values, with nothing chosen yet: its data-focus, else None.
MULTI_VALUE_CHIP_JS = """() => {
  const mine = document.querySelector(".abspecken .spk-mine");
  if (!mine || mine.hidden || mine.querySelector(".spk-selected")) return null;
  const chip = [...mine.querySelectorAll(".spk-option")]
    .find((b) => new Set(b.dataset.cards.split(",")).size > 1);
  return chip ? chip.dataset.focus : null;
}"""


def test_the_player_chooses_which_discarded_card_ends_on_top(
    new_page: Callable[..., Page],
) -> None:
    """A discard of two or more values asks which card goes on top (lowest chosen until the
    player picks); the player picks the highest, by keyboard on a phone, and after the reveal
    it is the top of the pile."""
    page = visitor(new_page, unique("Tess"), width=390, height=844)
    create_room(page, "abspecken", 2, piggy_die=False, end_threshold=200, first_roller=0)
    take_seat(page, 0)
    add_bot(page, 1)
    start_match(page)
    for value in (1, 2, 3, 4, 5):  # five values: many sums of two or more of them
        page.click(f"{TABLE} .spk-pickpile button[data-pile='{value}']")
    page.click(f"{TABLE} [data-testid=pick]")

    mine = page.locator(f"{TABLE} .spk-mine")
    chip: str | None = None

    def chip_offered() -> bool:
        nonlocal chip
        assert not page.locator(OUTCOME).is_visible(), "the game ended first"
        chip = page.evaluate(MULTI_VALUE_CHIP_JS)
        return bool(chip)

    play_until(
        chip_offered,
        lambda: bool(act_once(page, keyboard=True)),
        "a discard of two values",
        GAME_DEADLINE_S,
        idle_s=0.05,
        pause=pause_in(page),
    )

    press(page, mine.locator(f"[data-focus='{chip}']"), keyboard=True)
    chosen = mine.locator(".spk-option.spk-option-on").get_attribute("data-cards") or ""
    cards = [int(c) for c in chosen.split(",")]
    lowest, highest = min(cards), max(cards)
    choice = page.locator(f"{TABLE} [data-testid=top-choice]")
    expect(choice).to_contain_text("Which card ends on top of your pile?")
    tops = choice.locator("button.spk-top")
    expect(tops).to_have_count(len(set(cards)))
    # The lowest is chosen until the player picks, and the button says so.
    expect(choice.locator(f"button[data-top='{lowest}']")).to_have_attribute("aria-pressed", "true")
    confirm = mine.locator("[data-testid=discard]")
    expect(confirm).to_contain_text(f"{lowest} on top")
    press(page, choice.locator(f"button[data-top='{highest}']"), keyboard=True)
    expect(choice.locator(f"button[data-top='{highest}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(choice.locator(f"button[data-top='{lowest}']")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(confirm).to_have_attribute("data-top", str(highest))
    expect(confirm).to_contain_text(f"{highest} on top")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    press(page, confirm, keyboard=True)

    # Sent as the legal action with that card last; after the reveal it tops the pile.
    me = page.locator(f"{TABLE} .spk-player[data-seat='0']")
    expect(me.locator(".spk-discards .spk-top")).to_have_text(str(highest), timeout=15000)
    expect(me.locator(".spk-player-did")).to_contain_text("Discarded")
    expect(me.locator(".spk-row-label", has_text="Discards")).to_contain_text(f"top {highest}")


def engine_frames() -> dict[str, Any]:
    """Real ABspecken views from the engine: a smiling piggy whose roller cannot discard (the
    seed's rule makes the gift compulsory), and the roller emptied by that gift (finished)."""
    rng = random.Random(1)
    state = ENGINE.setup(3, 1, {"piggy_die": True, "smile_gift": "seed", "end_threshold": 100})
    while not (
        state["phase"] == "gift"
        and {"type": "no_gift"} not in ENGINE.legal_actions(state, state["roller"])
    ):
        assert not ENGINE.is_over(state), "seed 1 no longer reaches a compulsory gift"
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    roller = state["roller"]
    last_card = copy.deepcopy(state)
    last_card["hands"][roller] = last_card["hands"][roller][:1]
    last_card["piles"][roller] = [0] * 6
    last_card["seen"][roller] = []
    gift = next(a for a in ENGINE.legal_actions(last_card, roller) if a["type"] == "gift")
    emptied = ENGINE.apply(last_card, roller, gift)
    frame = lambda s, seq: {  # noqa: E731
        "type": "state", "match_id": 1, "seq": seq, "view": ENGINE.view(s, roller),
        "to_act": sorted(ENGINE.to_act(s)), "legal": ENGINE.legal_actions(s, roller),
        "last": None, "over": False, "outcome": None,
    }  # fmt: skip
    return {"roller": roller, "gift": frame(state, 1), "finished": frame(emptied, 2)}


def test_a_compulsory_gift_says_must_and_a_finished_roller_is_not_shown_as_cannot(
    new_page: Callable[..., Page],
) -> None:
    """The renderer alone, fed the engine's own views (see engine_frames)."""
    frames = engine_frames()
    page = new_page(width=390, height=844)
    mount_alone(page, "abspecken", frames["roller"], ["Ann", "Ben", "Cy"])
    page.evaluate("(msg) => window.table.update(msg)", frames["gift"])
    status = page.locator(f"{TABLE} .spk-status")
    expect(status).to_contain_text("You must give one of your cards")
    expect(status).not_to_contain_text("may")
    expect(page.locator(f"{TABLE} [data-focus=no-gift]")).to_have_count(0)
    expect(page.locator(f"{TABLE} .spk-mine .spk-tip")).to_contain_text("You must give a card")

    page.evaluate("(msg) => window.table.update(msg)", frames["finished"])
    expect(status).to_contain_text("You have finished this round")
    finished = page.locator(f"{TABLE} [data-testid=finished]")
    expect(finished).to_contain_text("Your hand and draw piles are empty")
    expect(page.locator(f"{TABLE} .spk-mine")).not_to_contain_text("I cannot ABspecken")
    me = page.locator(f"{TABLE} .spk-player[data-seat='{frames['roller']}']")
    expect(me.locator("[data-testid=committed]")).to_have_text("Finished: no cards left")
    assert page.evaluate("window.sent") == []
