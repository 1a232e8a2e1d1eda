"""History, player pages, replays and the lobby's live list, in Chromium against the real server.

Matches are played over real sockets by scripted players (tests/support/play.py) and bots; the
browser then only reads, the way a visitor looking back would.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.clients import Guest
from tests.support.play import open_table, play_bots, play_match, start
from tests.support.table_steps import pause_in
from tests.support.waiting import until
from tests.support.words import assert_player_words

BOT_MATCHES = 22  # more than a page (20) of finished abstrac matches


@dataclass
class Scene:
    hilda: Guest
    igor: Guest
    duels: list[dict[str, Any]]  # Hilda vs Igor, abstrac
    with_bot: dict[str, Any]  # Hilda vs a bot


@pytest.fixture(scope="module")
def scene(live_server: str) -> Scene:
    tag = uuid.uuid4().hex[:4]
    hilda, igor = Guest(live_server, f"Hilda {tag}"), Guest(live_server, f"Igor {tag}")
    duels = [
        play_match([hilda, igor], "abstrac", seed=seed, target=50).summary for seed in range(3)
    ]
    with_bot = play_match([hilda], "abstrac", ("easy",), seed=9, target=50).summary
    for _ in range(BOT_MATCHES):
        play_bots(hilda, "abstrac", ("easy", "easy"), target=50)
    return Scene(hilda, igor, duels, with_bot)


def result_of(match: dict[str, Any], player_id: int) -> str:
    seat = next(s["seat"] for s in match["seats"] if s["player"] and s["player"]["id"] == player_id)
    if seat not in match["winners"]:
        return "loss"
    return "draw" if len(match["winners"]) > 1 else "win"


def item_ids(page: Page) -> list[int]:
    return [
        int(i)
        for i in page.locator("#match-list .match-item").evaluate_all(
            "items => items.map(i => i.dataset.matchId)"
        )
    ]


def expect_ids(page: Page, ids: list[int]) -> None:
    """Wait until the list shows exactly these matches (a new filter may keep the count)."""
    until(
        lambda: item_ids(page) == ids,
        lambda: f"the list showing {ids} (it shows {item_ids(page)})",
        every_s=0.1,
        pause=pause_in(page),
    )


def test_history_filters_by_player_name_result_game_and_dates(
    scene: Scene, new_page: Callable[..., Page]
) -> None:
    hilda = scene.hilda
    mine = [*scene.duels, scene.with_bot]
    page = new_page()
    page.goto("/matches")
    expect(page.locator("#match-list .match-item").first).to_be_visible()

    # a name, typed and applied, becomes the player's id in the address
    page.fill("#player-filter", hilda.name)
    page.press("#player-filter", "Enter")
    page.wait_for_url(re.compile(rf"player={hilda.id}"))
    expect(page.locator("#player-filter")).to_have_value(f"{hilda.name} (#{hilda.id})")
    expect(page.locator("#match-list .match-item")).to_have_count(len(mine))
    expect_ids(page, sorted((m["id"] for m in mine), reverse=True))
    expect(page.locator("#history-summary")).to_contain_text(f"with {hilda.name}")

    # her result, from the select: only the matches she won, each tagged
    expect(page.locator("#result-filter")).to_be_enabled()
    page.select_option("#result-filter", "win")
    page.wait_for_url(re.compile(r"result=win"))
    won = sorted((m["id"] for m in mine if result_of(m, hilda.id) == "win"), reverse=True)
    expect(page.locator("#match-list .match-item")).to_have_count(len(won))
    expect_ids(page, won)
    for result in page.locator("#match-list .match-item").evaluate_all(
        "items => items.map(i => i.dataset.result)"
    ):
        assert result == "win"
    page.select_option("#result-filter", "loss")
    lost = sorted((m["id"] for m in mine if result_of(m, hilda.id) == "loss"), reverse=True)
    expect(page.locator("#match-list .match-item")).to_have_count(len(lost) or 0)
    expect_ids(page, lost)

    # dates: today has them all, from tomorrow on there is nothing
    page.select_option("#result-filter", "")
    today = datetime.now(UTC).date()
    page.fill("#since-filter", str(today))
    page.locator("#since-filter").dispatch_event("change")
    page.wait_for_url(re.compile(rf"since={today}"))
    expect(page.locator("#match-list .match-item")).to_have_count(len(mine))
    page.fill("#since-filter", str(today + timedelta(days=1)))
    page.locator("#since-filter").dispatch_event("change")
    expect(page.locator("#history-status")).to_have_text("No matches found.")
    expect(page.locator("#match-list .match-item")).to_have_count(0)

    # the filtered address is a link: opened afresh it shows the same
    page.fill("#since-filter", "")
    page.locator("#since-filter").dispatch_event("change")
    page.select_option("#result-filter", "win")
    page.wait_for_url(re.compile(r"result=win"))
    again = new_page()
    again.goto(page.url)
    expect(again.locator("#player-filter")).to_have_value(f"{hilda.name} (#{hilda.id})")
    expect(again.locator("#result-filter")).to_have_value("win")
    expect(again.locator("#match-list .match-item")).to_have_count(len(won))

    # clearing brings every match back, and the result select is off without a player
    page.click("#filter-clear")
    expect(page.locator("#player-filter")).to_have_value("")
    expect(page.locator("#result-filter")).to_be_disabled()
    page.wait_for_url(re.compile(r"/matches$"))


def test_history_pages_older_and_newer(scene: Scene, new_page: Callable[..., Page]) -> None:
    page = new_page(width=375, height=800)
    page.goto("/matches?game=abstrac&status=finished")
    items = page.locator("#match-list .match-item")
    expect(items).to_have_count(20)
    first = item_ids(page)
    assert first == sorted(first, reverse=True)
    expect(page.locator("#history-newer")).to_be_hidden()
    page.click("#history-older")
    page.wait_for_url(re.compile(rf"before={first[-1]}"))
    expect(items.first).not_to_have_attribute("data-match-id", str(first[0]))
    second = item_ids(page)
    assert second and max(second) < min(first)
    expect(page.locator("#history-newer")).to_be_visible()
    for title in page.locator("#match-list .match-game").all_inner_texts():
        assert title == "Abstrac"
    page.click("#history-newer")
    expect(items.first).to_have_attribute("data-match-id", str(first[0]))
    expect_ids(page, first)
    page.go_back()  # the browser's back button returns to the older page
    page.wait_for_url(re.compile(rf"before={first[-1]}"))
    expect(items.first).to_have_attribute("data-match-id", str(second[0]))


def test_a_players_page_shows_record_rating_and_matches(
    scene: Scene, new_page: Callable[..., Page]
) -> None:
    hilda = scene.hilda
    stats = hilda.http.get(f"/api/players/{hilda.id}/stats").json()
    abstrac = next(g for g in stats["games"] if g["game"] == "abstrac")
    page = new_page()
    page.goto(f"/players/{hilda.id}")
    expect(page.locator("#player-title")).to_have_text(hilda.name)
    row = page.locator("#player-games tbody tr[data-game='abstrac']")
    cells = row.locator("td")
    expect(cells.nth(0)).to_have_text(str(abstrac["played"]))
    expect(cells.nth(1)).to_have_text(str(abstrac["won"]))
    expect(cells.nth(2)).to_have_text(str(abstrac["lost"]))
    expect(cells.nth(3)).to_have_text(str(abstrac["drawn"]))
    rating = abstrac["rating"]
    # a real minus sign, as everywhere players read a negative number
    expect(cells.nth(4)).to_have_text(f"{rating['ordinal']:.1f}".replace("-", "\u2212"))
    expect(cells.nth(5)).to_contain_text(f"#{rating['rank']}")
    expect(cells.nth(6).locator(".rating-delta")).to_contain_text(f"{abs(rating['trend']):.1f}")
    expect(page.locator("#rating-note")).to_contain_text("hard 25")
    expect(page.locator("#player-stats")).to_contain_text(f"{stats['totals']['played']} finished")
    expect(page.locator("#match-list .match-item").first).to_be_visible()
    assert_player_words(page.locator("main"))

    items = page.locator("#match-list .match-item")
    expect(items).to_have_count(abstrac["played"])
    page.select_option("#player-result", "win")
    expect(items).to_have_count(abstrac["won"])
    # the game links to the history filtered by game and player
    page.locator("#player-games tbody tr[data-game='abstrac'] th a").click()
    page.wait_for_url(re.compile(rf"/matches\?game=abstrac&player={hilda.id}"))
    expect(page.locator("#match-list .match-item")).to_have_count(abstrac["played"])


def test_the_replay_stepper_follows_and_sets_the_move_in_the_address(
    scene: Scene, new_page: Callable[..., Page]
) -> None:
    match = scene.duels[0]
    total = match["move_count"]
    assert total >= 4
    page = new_page()
    page.goto(f"/matches/{match['id']}?move=2")
    position = page.locator("#replay-pos")
    expect(position).to_have_text(f"Move 2 of {total}")
    expect(page.locator("#replay-range")).to_have_value("2")
    expect(page.locator("#replay-table .abstrac")).to_be_visible()
    # the table's own sentence for the move, never the action's fields
    expect(page.locator("#replay-move")).to_have_text(
        re.compile(r"^Move 2: .+ took [123] cards?\.$"), use_inner_text=True
    )
    expect(page.locator("#match-meta")).to_contain_text(re.compile(r"Points to win: \d+"))
    expect(page.locator("#rounds-table tbody tr").first).to_contain_text("dealt by")
    expect(page.locator("#score-note")).to_contain_text("The match was played to its end.")
    assert_player_words(page.locator("main"))

    page.click("#replay-controls [data-step=next]")
    expect(position).to_have_text(f"Move 3 of {total}")
    page.wait_for_url(re.compile(r"move=3"))
    page.locator("#replay-controls [data-step=next]").focus()
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Move 2 of {total}")
    page.wait_for_url(re.compile(r"move=2"))
    page.click("#replay-controls [data-step=first]")
    expect(position).to_have_text(f"Move 0 of {total}")
    expect(page.locator("#replay-table .ab-row .card")).to_have_count(24)
    expect(page.locator("#replay-controls [data-step=back]")).to_be_disabled()
    page.click("#replay-controls [data-step=last]")
    expect(position).to_have_text(f"Move {total} of {total}")
    expect(page.locator("#replay-table .ab-outcome")).to_be_visible()

    # one seat's point of view: that seat is "you" at the table, and the link keeps it
    page.goto(f"/matches/{match['id']}?move=1")
    expect(position).to_have_text(f"Move 1 of {total}")
    page.select_option("#replay-seat", "1")
    page.wait_for_url(re.compile(r"move=1&seat=1"))
    expect(page.locator("#replay-table")).to_have_attribute("data-perspective", "1")
    expect(page.locator("#replay-table .ab-player-me")).to_contain_text(scene.igor.name)
    link = page.locator("#replay-link").get_attribute("href")
    assert link == f"/matches/{match['id']}?move=1&seat=1"
    shared = new_page()
    shared.goto(link)
    expect(shared.locator("#replay-pos")).to_have_text(f"Move 1 of {total}")
    expect(shared.locator("#replay-seat")).to_have_value("1")
    expect(shared.locator("#replay-table .ab-player-me")).to_contain_text(scene.igor.name)
    shared.select_option("#replay-seat", "")
    expect(shared.locator("#replay-table")).to_have_attribute("data-perspective", "all")
    expect(shared.locator("#replay-table .ab-player-me")).to_have_count(0)

    # the result shows each person's rating change; the bot's is fixed
    bot_match = new_page()
    bot_match.goto(f"/matches/{scene.with_bot['id']}")
    rows = bot_match.locator("#score-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator("td").nth(3)).to_have_text("fixed")
    expect(rows.nth(0).locator(".rating-delta")).to_have_text(re.compile("^[+\u2212]\\d+\\.\\d$"))
    expect(bot_match.locator("#score-note")).to_contain_text("bots have fixed ratings")


def test_the_lobby_lists_live_matches_with_watchers(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    tag = uuid.uuid4().hex[:4]
    kim, lou = Guest(live_server, f"Kim {tag}"), Guest(live_server, f"Lou {tag}")
    room_id, sockets = open_table([kim, lou], "abstrac", target=500)
    start(kim, room_id)
    watcher = Guest(live_server, f"Max {tag}").socket(room_id)
    watcher.expect("hello")
    try:
        page = new_page()
        page.goto("/")
        item = page.locator("#live-list .room-item").filter(
            has=page.locator(f"a[href='/rooms/{room_id}']")
        )
        expect(item).to_contain_text(f"Kim {tag} vs Lou {tag}")
        expect(item).to_contain_text("1 watching")
        expect(item.get_by_role("link")).to_have_text("Watch")
        expect(page.locator("#room-list a[href='/rooms/" + room_id + "']")).to_have_count(0)
        expect(page.locator("#live-count")).to_be_visible()
        watcher.close()  # the list refreshes by itself
        expect(item).to_contain_text("0 watching", timeout=15_000)
        item.get_by_role("link").click()
        page.wait_for_url(re.compile(rf"/rooms/{room_id}$"))
    finally:
        for sock in sockets.values():
            sock.close()
