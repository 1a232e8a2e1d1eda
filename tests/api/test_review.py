"""``GET /api/matches/{id}/review`` over the real server: refused while a match runs, queued
when asked, computed once, and consistent with the match it reviews."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from games import REGISTRY
from games.bots import info_set
from games.search import action_key
from tests.support.clients import Guest
from tests.support.play import play_bots, review_when_done
from tests.support.server import private_server
from tests.support.waiting import until

SMALL_BUDGET = {"CARDROOM_REVIEW_ITERATIONS": "8", "CARDROOM_REVIEW_PLAYOUTS": "4"}
SHORT: dict[str, dict[str, Any]] = {
    "absolute": {"turn_limit": 6},
    "abstrac": {"target": 50},
    "abspecken": {"end_threshold": 8},
    "balance": {"max_rounds": 1},
}


def levels(game: str) -> tuple[str, ...]:
    """A normal bot against easy ones (who make mistakes to find) at the game's smallest table."""
    return ("normal",) + ("easy",) * (max(2, REGISTRY[game].info.min_players) - 1)


def check_review(http: httpx.Client, match_id: int, review: dict[str, Any]) -> None:
    """The review agrees with the match: each decision is a move that was played, by its
    seat, with a choice; ``best`` is a legal action then; the best is worth at least what was
    played, and playing it costs nothing."""
    summary = http.get(f"/api/matches/{match_id}").json()
    log = http.get(f"/api/matches/{match_id}/replay").json()
    engine = REGISTRY[summary["game"]]
    players = len(log["seats"])
    assert review["status"] == "done"
    assert [s["seat"] for s in review["seats"]] == list(range(players))
    decisions = {d["seq"]: d for d in review["decisions"]}
    assert decisions, "a whole match has decisions"
    state = engine.setup(players, log["seed"], log["options"])
    for move in log["actions"]:
        info = info_set(engine, state, move["seat"])
        decision = decisions.pop(move["seq"], None)
        if len(info.legal) > 1:
            assert decision is not None, f"move {move['seq']} had a choice and no review"
            assert decision["seat"] == move["seat"] and decision["played"] == move["action"]
            assert decision["best"] in info.legal or decision["best"] == decision["played"]
            assert decision["value_best"] >= decision["value_played"]
            if action_key(decision["best"]) == action_key(decision["played"]):
                assert decision["value_best"] == decision["value_played"]
            assert len(decision["chances"]) == players
        state = engine.apply(state, move["seat"], move["action"])
    assert not decisions, "every reviewed decision is a move of the match"
    for row in review["seats"]:
        assert row["decisions"] > 0
        assert 0 <= row["accuracy"] <= 1 and row["average_cost"] >= 0


def test_a_review_is_refused_for_no_match_and_for_a_running_one(live_server: str) -> None:
    host, guest = Guest(live_server, "Reviewer"), Guest(live_server, "Opponent")
    missing = host.http.get("/api/matches/999999999/review")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    room_id = host.create_room("abstrac", 2)["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    match_id = host.post(f"/api/rooms/{room_id}/start").json()["match_id"]
    running = guest.http.get(f"/api/matches/{match_id}/review")
    assert running.status_code == 409 and running.json()["error"]["code"] == "match_running"


@pytest.fixture(scope="module")
def reviewing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that reviews every finished match on its own, on a small budget."""
    env = {**SMALL_BUDGET, "CARDROOM_BOT_DELAY_MS": "0", "CARDROOM_BOT_QUICK_MS": "0"}
    with private_server(tmp_path_factory.mktemp("reviews"), env) as server:
        yield server.url


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_finished_match_is_reviewed_once_and_agrees_with_itself(
    reviewing_server: str, game: str
) -> None:
    host = Guest(reviewing_server, "Reviewer")
    match_id = play_bots(host, game, levels(game), **SHORT.get(game, {}))
    review = review_when_done(host.http, match_id)
    check_review(host.http, match_id, review)
    again = host.http.get(f"/api/matches/{match_id}/review")
    assert again.status_code == 200 and again.json() == review


def test_every_finished_match_is_queued_without_being_asked(reviewing_server: str) -> None:
    host = Guest(reviewing_server, "Reviewer")
    stored = host.http.get("/healthz").json()["reviews"]["stored"]
    match_id = play_bots(host, "abstrac", ("normal", "easy"), target=50)
    until(
        lambda: host.http.get("/healthz").json()["reviews"]["stored"] >= stored + 1,
        "the finished match's review",
        60,
        every_s=0.1,
    )
    first = host.http.get(f"/api/matches/{match_id}/review")
    assert first.status_code == 200, first.text


def test_reviews_wait_only_when_asked_where_the_operator_says_so(tmp_path: Path) -> None:
    env = {
        **SMALL_BUDGET,
        "CARDROOM_REVIEW_ON_FINISH": "false",
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_QUICK_MS": "0",
    }
    with private_server(tmp_path, env) as server:
        host = Guest(server.url, "Reviewer")
        match_id = play_bots(host, "abstrac", ("normal", "easy"), target=50)
        assert host.http.get("/healthz").json()["reviews"] == {"waiting": 0, "stored": 0}
        first = host.http.get(f"/api/matches/{match_id}/review")
        assert first.status_code == 202 and first.json() == {"status": "pending", "position": 0}
        check_review(host.http, match_id, review_when_done(host.http, match_id))
