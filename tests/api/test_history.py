"""GET /api/matches filters and pages, player search and stats, against the real server."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.support.clients import Guest
from tests.support.play import open_table, play_match, start

DRAW_ATTEMPTS = 30  # a 3-player balance match ends in a shared win about one time in three


@dataclass
class Story:
    """Matches of four players: Ann and Ben (abstrac x2), Ann, Ben and Cat (balance until one
    ends in a shared win), Ann vs a bot, Ann alone (solo balance), Ann vs Dan still running."""

    http: httpx.Client
    ann: Guest
    ben: Guest
    cat: Guest
    dan: Guest
    finished: list[dict[str, Any]] = field(default_factory=list)
    running: int = 0
    draw: int = 0

    def get(self, **params: Any) -> list[dict[str, Any]]:
        answer = self.http.get("/api/matches", params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def ids(self, **params: Any) -> list[int]:
        return [m["id"] for m in self.get(**params)]


def result_of(match: dict[str, Any], player_id: int) -> str:
    seat = next(s["seat"] for s in match["seats"] if s["player"] and s["player"]["id"] == player_id)
    winners = match["winners"]
    if seat not in winners:
        return "loss"
    return "draw" if len(winners) > 1 else "win"


@pytest.fixture(scope="module")
def story(live_server: str) -> Story:
    tag = uuid.uuid4().hex[:4]
    people = [Guest(live_server, f"{name} {tag}") for name in ("Ann", "Ben", "Cat", "Dan")]
    told = Story(httpx.Client(base_url=live_server, timeout=10), *people)
    ann, ben, cat, dan = people
    for seed in (1, 2):
        told.finished.append(play_match([ann, ben], "abstrac", seed=seed, target=50).summary)
    for seed in range(DRAW_ATTEMPTS):
        played = play_match([ann, ben, cat], "balance", seed=seed, max_rounds=1)
        summary = played.summary
        told.finished.append(summary)
        if len(summary["winners"]) > 1:
            told.draw = summary["id"]
            break
    assert told.draw, "no shared win in a row of balance matches"
    told.finished.append(play_match([ann], "abstrac", ("easy",), seed=3, target=50).summary)
    told.finished.append(play_match([ann], "balance", seed=4).summary)
    room_id, sockets = open_table([ann, dan], "abstrac", target=50)
    told.running = start(ann, room_id)
    for sock in sockets.values():
        sock.close()
    return told


def test_every_match_of_a_player_newest_first(story: Story) -> None:
    everything = story.get(player=story.ann.id, limit=200)
    assert [m["id"] for m in everything] == sorted(
        [m["id"] for m in story.finished] + [story.running], reverse=True
    )
    assert everything[0]["status"] == "playing" and everything[0]["scores"] is None
    assert all(m["status"] == "finished" for m in everything[1:])
    assert story.ids(player=story.dan.id) == [story.running]
    assert story.ids(player=story.cat.id) == sorted(
        (m["id"] for m in story.finished if m["game"] == "balance" and len(m["seats"]) == 3),
        reverse=True,
    )


def test_status_filter(story: Story) -> None:
    playing = story.ids(status="playing", limit=200)
    assert story.running in playing
    assert not set(playing) & {m["id"] for m in story.finished}
    assert story.ids(player=story.ann.id, status="playing") == [story.running]
    finished = story.ids(player=story.ann.id, status="finished", limit=200)
    assert finished == sorted((m["id"] for m in story.finished), reverse=True)


def test_game_filter_keeps_the_order_and_the_game(story: Story) -> None:
    balance = story.get(game="balance", limit=200)
    assert balance and all(m["game"] == "balance" for m in balance)
    assert [m["id"] for m in balance] == sorted((m["id"] for m in balance), reverse=True)
    ours = {m["id"] for m in story.finished if m["game"] == "balance"}
    assert ours <= {m["id"] for m in balance}
    assert story.ids(player=story.ben.id, game="abstrac") == sorted(
        (
            m["id"]
            for m in story.finished
            if m["game"] == "abstrac" and len(m["seats"]) == 2 and not m["has_bots"]
        ),
        reverse=True,
    )
    assert story.get(game="no_such_game") == []


def test_result_filter_splits_a_players_finished_matches(story: Story) -> None:
    for player in (story.ann, story.ben, story.cat):
        mine = [
            m
            for m in story.finished
            if any(s["player"] and s["player"]["id"] == player.id for s in m["seats"])
        ]
        for result in ("win", "loss", "draw"):
            expected = sorted(
                (m["id"] for m in mine if result_of(m, player.id) == result), reverse=True
            )
            assert story.ids(player=player.id, result=result, limit=200) == expected, result
    draw = next(m for m in story.finished if m["id"] == story.draw)
    drawer = draw["seats"][draw["winners"][0]]["player"]["id"]
    assert story.draw in story.ids(player=drawer, result="draw")
    assert story.running not in story.ids(player=story.ann.id, result="loss")


def test_keyset_pages_older_and_newer(story: Story) -> None:
    whole = story.ids(player=story.ann.id, limit=200)
    assert len(whole) >= 6
    pages, before = [], None
    while True:
        params: dict[str, Any] = {"player": story.ann.id, "limit": 2}
        if before is not None:
            params["before"] = before
        page = story.ids(**params)
        if not page:
            break
        pages.append(page)
        before = page[-1]
    assert [i for page in pages for i in page] == whole
    # back up from the last page with "after": the same pages, newest first inside each
    assert story.ids(player=story.ann.id, limit=2, after=pages[-1][0]) == pages[-2]
    assert story.ids(player=story.ann.id, limit=3, after=whole[3]) == whole[:3]
    assert story.ids(player=story.ann.id, after=whole[0]) == []
    assert story.ids(limit=5, before=whole[-1] + 1)[0] == whole[-1]


def test_date_filters_on_started_at(story: Story) -> None:
    today = datetime.now(UTC).date()
    mine = story.ids(player=story.ann.id, limit=200)
    assert story.ids(player=story.ann.id, since=str(today), until=str(today), limit=200) == mine
    assert story.ids(player=story.ann.id, until=str(today - timedelta(days=1))) == []
    assert story.ids(player=story.ann.id, since=str(today + timedelta(days=1))) == []
    assert story.ids(since=str(today + timedelta(days=1))) == []
    # a time between two matches splits them exactly
    by_id = {m["id"]: m for m in story.get(player=story.ann.id, limit=200)}
    oldest, second = sorted(by_id)[:2]
    cut = by_id[second]["started_at"]
    newer = story.ids(player=story.ann.id, since=cut, limit=200)
    assert oldest not in newer and second in newer
    older = story.ids(player=story.ann.id, until=cut, limit=200)
    assert older == [oldest]
    assert story.ids(game="abstrac", until=cut, since=cut) == []


def test_bad_filters_are_refused_with_the_error_shape(story: Story) -> None:
    for params in (
        {"result": "win"},
        {"player": 1, "result": "maybe"},
        {"status": "waiting"},
        {"since": "yesterday"},
        {"until": "2025-13-01"},
        {"before": 5, "after": 3},
        {"limit": 0},
        {"limit": 201},
    ):
        answer = story.http.get("/api/matches", params=params)
        assert answer.status_code == 422, params
        error = answer.json()["error"]
        assert error["code"] == "invalid_request" and error["message"], params


def test_player_name_search(story: Story, live_server: str) -> None:
    tag = story.ann.name.split()[-1]
    found = story.http.get("/api/players", params={"name": "ann " + tag}).json()
    assert {"id": story.ann.id, "name": story.ann.name} in found
    shouting = story.http.get("/api/players", params={"name": "ANN"}).json()
    assert story.ann.id in [p["id"] for p in shouting]
    assert all(p["name"].lower().startswith("ann") for p in shouting)
    odd = Guest(live_server, f"50%_off {tag}")
    wild = story.http.get("/api/players", params={"name": "50%_"}).json()
    assert odd.id in [p["id"] for p in wild]
    assert all(p["name"].startswith("50%_") for p in wild)
    assert story.http.get("/api/players", params={"name": "5_%"}).json() == []
    assert story.http.get("/api/players").status_code == 422
    limited = story.http.get("/api/players", params={"name": "a", "limit": 1}).json()
    assert len(limited) == 1


def test_player_stats_count_each_game(story: Story, live_server: str) -> None:
    stats = story.http.get(f"/api/players/{story.ann.id}/stats").json()
    assert stats["player"] == {"id": story.ann.id, "name": story.ann.name}
    assert stats["playing"] == 1
    games = {g["game"]: g for g in stats["games"]}
    assert set(games) == {"abstrac", "balance"}
    for game, record in games.items():
        mine = [m for m in story.finished if m["game"] == game]
        results = [result_of(m, story.ann.id) for m in mine]
        assert record["played"] == len(mine)
        assert (record["won"], record["lost"], record["drawn"]) == (
            results.count("win"),
            results.count("loss"),
            results.count("draw"),
        )
    assert stats["totals"]["played"] == len(story.finished)
    missing = story.http.get("/api/players/987654321/stats")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_a_random_walk_of_pages_never_repeats_or_skips(story: Story) -> None:
    whole = story.ids(limit=200)
    rng = random.Random(7)
    for _ in range(10):
        size = rng.randint(1, 4)
        start_at = rng.randrange(max(1, len(whole) - 5))
        page = story.ids(limit=size, before=whole[start_at])
        assert page == whole[start_at + 1 : start_at + 1 + size]
