"""A finished match's review on its page, in Chromium, desktop and phone: each seat's accuracy
beside the result, the graph of chances that goes to a move when clicked, and at each step the
move played beside the hard bot's choice, in words."""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.support.clients import Guest
from tests.support.play import play_match, review_when_done
from tests.support.words import assert_player_words


def percent(value: float) -> str:
    """As the page words a chance: JavaScript's Math.round takes a half up (0.625 is 63%), where
    Python's round takes it to the even (62)."""
    return f"{math.floor(value * 100 + 0.5)}%"


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_match_page_shows_the_review(
    live_server: str, new_page: Callable[..., Page], width: int, height: int
) -> None:
    player = Guest(live_server, f"Jude {uuid.uuid4().hex[:4]}")
    played = play_match([player], "abstrac", ("normal",), seed=3, target=50)
    page = new_page(width=width, height=height)
    page.goto(f"/matches/{played.match_id}")
    review = review_when_done(player.http, played.match_id)

    # beside the result: each seat's accuracy, cost and number of choices
    rows = page.locator("#accuracy-table tbody tr")
    expect(rows).to_have_count(2)
    for seat, row in enumerate(review["seats"]):
        accuracy = rows.nth(seat).locator("[data-testid=accuracy]")
        expect(accuracy).to_have_text(percent(row["accuracy"]))
    expect(page.locator("#review-panel")).to_contain_text(player.name)
    assert_player_words(page.locator("#review-panel"))

    # the graph: a line per seat; a click goes to the reviewed move nearest the click
    graph = page.locator("#review-chances svg")
    expect(graph).to_be_visible()
    expect(graph.locator("polyline")).to_have_count(2)
    total = played.summary["move_count"]
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2)
    reviewed = [d["seq"] for d in review["decisions"]]
    wanted = min(reviewed, key=lambda seq: abs(seq - round(0.3 * total)))
    expect(page.locator("#replay-pos")).to_have_text(f"Move {wanted} of {total}")

    # at that step: the move played, its chance, and the hard bot's view of it, in words
    decision = next(d for d in review["decisions"] if d["seq"] == wanted)
    line = page.locator("#review-move")
    expect(line).to_contain_text(f"Move {wanted}: ")
    expect(line).to_contain_text(percent(decision["value_played"]))
    agrees = decision["value_best"] - decision["value_played"] < 0.005
    expect(line).to_contain_text(
        "The hard bot agrees" if agrees else re.compile(r"The hard bot prefers: .+ better\)")
    )
    assert_player_words(line)

    # from one seat's view, the line follows that seat's own decisions
    page.select_option("#replay-seat", "0")
    own = [d["seq"] for d in review["decisions"] if d["seat"] == 0 and d["seq"] <= wanted]
    if own:
        expect(line).to_contain_text(f"Move {own[-1]}: ")
    else:
        expect(line).to_be_hidden()
