"""Pages a newcomer understands: an address that names nothing answers a 404 page that says so
in one sentence and leads back to the lobby (the API keeps its JSON errors), and a first visit
logs no error in the console."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games import REGISTRY
from tests.support.visitors import visitor
from tests.support.words import assert_player_words

NAMES_NOTHING = {
    "/nope": "There is no such page.",
    "/rooms/doesnotexist": "There is no such room: it may have been closed.",
    "/matches/99999": "There is no such match.",
    "/players/99999": "There is no such player.",
    "/matches/99999999999999999999": "There is no such match.",
    "/players/0": "There is no such player.",
    "/players/abc": "There is no such player.",
    "/games/nope": "There is no such game here.",
}
API_PATHS = (
    "/api/nope",
    "/api/rooms/doesnotexist",
    "/api/matches/99999",
    "/api/players/99999",
    "/api/matches/99999999999999999999",
    "/static/nope.js",
    "/ws/nope",
    "/healthz/nope",
)


def console_errors(page: Page) -> list[str]:
    """The page's console errors and script errors, as they come."""
    errors: list[str] = []
    page.on(
        "console", lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(f"script error: {error}"))
    return errors


@pytest.mark.parametrize("path", NAMES_NOTHING)
def test_an_address_that_names_nothing_is_a_404_page_with_a_way_back(
    new_page: Callable[..., Page], path: str
) -> None:
    page = new_page()
    errors = console_errors(page)
    answer = page.goto(path)
    assert answer is not None and answer.status == 404, path
    assert answer.headers["content-type"].startswith("text/html")
    main = page.locator("main")
    expect(main.locator("p").first).to_have_text(NAMES_NOTHING[path], use_inner_text=True)
    expect(main).not_to_contain_text("Loading")
    expect(page.locator("#chat-form")).to_have_count(0)  # no room to chat in
    back = main.get_by_role("link", name="Back to the lobby")
    expect(back).to_have_attribute("href", "/")
    expect(page.locator("#name-form")).to_be_visible()  # the site's header, as everywhere
    back.click()
    page.wait_for_url("**/")
    expect(page.locator("h1")).to_have_text("Lobby")
    # Chromium logs the page's own 404 status; nothing else may fail
    assert [e for e in errors if answer.url not in e] == [], errors


@pytest.mark.parametrize("path", API_PATHS)
def test_the_api_keeps_its_json_404(new_page: Callable[..., Page], path: str) -> None:
    page = new_page()
    answer = page.request.get(path)
    assert answer.status == 404, path
    assert answer.headers["content-type"] == "application/json", path
    assert answer.json()["error"]["code"] == "not_found", path


def test_a_room_match_and_player_that_exist_are_pages(new_page: Callable[..., Page]) -> None:
    page = visitor(new_page, "Pagey")
    me = page.request.get("/api/me").json()
    room = page.request.post("/api/play-now", data={"game": "abstrac"}).json()
    for path in (f"/rooms/{room['id']}", f"/matches/{room['match_id']}", f"/players/{me['id']}"):
        answer = page.goto(path)
        assert answer is not None and answer.status == 200, path
        expect(page.locator("main")).not_to_contain_text("There is no such")
        if not path.startswith("/players"):  # a room and a match lead to their game's rules
            rules = page.get_by_role("link", name="How to play Abstrac")
            expect(rules).to_have_attribute("href", "/games/abstrac")


def test_a_first_visit_to_any_page_logs_no_console_error(new_page: Callable[..., Page]) -> None:
    host = visitor(new_page, "Host")  # someone else's room, match and player page to visit
    me = host.request.get("/api/me").json()
    room = host.request.post("/api/play-now", data={"game": "abstrac"}).json()
    paths = (
        "/",
        "/matches",
        "/games",
        "/games/abstrac",
        "/signin",
        "/account/new",
        "/account",
        f"/rooms/{room['id']}",
        f"/matches/{room['match_id']}",
        f"/players/{me['id']}",
    )
    for path in paths:
        page = new_page()  # a first visit: no name, no cookie
        errors = console_errors(page)
        answer = page.goto(path)
        assert answer is not None and answer.status == 200, path
        expect(page.locator("header")).to_be_visible()
        page.wait_for_load_state("networkidle")
        assert errors == [], (path, errors)


def test_the_lobby_links_a_rules_page_for_every_game(new_page: Callable[..., Page]) -> None:
    page = new_page()
    errors = console_errors(page)
    page.goto("/")
    links = page.get_by_test_id("rules-link")
    expect(page.locator("#game-select option")).to_have_count(len(REGISTRY))
    for game in REGISTRY:  # every game's create form, its options included, is in words
        page.select_option("#game-select", game)
        expect(page.locator("#game-rules")).to_have_attribute("href", f"/games/{game}")
        assert_player_words(page.locator("main"))
    expect(links).to_have_count(len(REGISTRY))
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert sorted(hrefs) == sorted(f"/games/{game}" for game in REGISTRY)
    for game, engine in REGISTRY.items():
        answer = page.goto(f"/games/{game}")
        assert answer is not None and answer.status == 200, game
        rules = page.get_by_test_id("rules")
        expect(page.locator("h1")).to_have_text(f"How to play {engine.info.title}")
        expect(rules.locator("#example-title")).to_be_visible()
        # every room option is named and explained
        for option in engine.info.options:
            expect(rules.locator("dt", has_text=option.label)).to_have_count(1)
        notes = rules.locator(".rules-options dd")
        for i in range(notes.count()):
            assert len(notes.nth(i).inner_text()) > 30, (game, i)
        assert_player_words(page.locator("main"))
        page.get_by_role("link", name="Back to the lobby to play").click()
        page.wait_for_url("**/")
    assert errors == [], errors
