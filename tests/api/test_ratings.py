"""Ratings over the real server: a finished match rates its players, the leaderboard, the
player stats. The model and the stores' writes: tests/app/db/test_rating_model.py,
tests/app/db/test_store_ratings.py."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.support.clients import Guest
from tests.support.play import play_bots, play_match


def stats_of(http: httpx.Client, player_id: int) -> dict[str, Any]:
    answer = http.get(f"/api/players/{player_id}/stats")
    assert answer.status_code == 200, answer.text
    return {g["game"]: g for g in answer.json()["games"]}


def test_a_finished_match_rates_its_players_in_the_same_commit(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    ann, ben = Guest(live_server, f"Rita {tag}"), Guest(live_server, f"Sam {tag}")
    played = play_match([ann, ben], "abstrac", seed=11, target=50)
    summary = played.summary
    winner = summary["winners"][0] if len(summary["winners"]) == 1 else None
    seats = {s["player"]["id"]: s for s in summary["seats"]}
    for player in (ann, ben):
        change = seats[player.id]["rating"]
        assert change is not None and change["before"] == 0
        rating = stats_of(ann.http, player.id)["abstrac"]["rating"]
        assert rating["ordinal"] == change["after"] and rating["trend"] == change["delta"]
        assert rating["matches"] == 1 and rating["last_match_id"] == played.match_id
        assert rating["recent"][-1]["match_id"] == played.match_id
        assert rating["rank"] >= 1 and rating["rated_players"] >= 2
    if winner is not None:
        loser = 1 - winner
        assert summary["seats"][winner]["rating"]["delta"] > 0
        assert summary["seats"][loser]["rating"]["delta"] < 0

    board = ann.http.get("/api/ratings", params={"game": "abstrac", "limit": 200}).json()
    assert board["game"] == "abstrac" and set(board["bots"]) == {"easy", "normal", "hard"}
    listed = {r["player"]["id"]: r for r in board["ratings"]}
    assert {ann.id, ben.id} <= set(listed)
    ordinals = [r["ordinal"] for r in board["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board["ratings"][0]["rank"] == 1
    for r in board["ratings"]:
        assert r["rank"] == 1 + sum(1 for o in ordinals if o > r["ordinal"])
    assert listed[ann.id]["rank"] == stats_of(ann.http, ann.id)["abstrac"]["rating"]["rank"]


def test_bots_are_fixed_and_solo_matches_are_not_rated(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    human = Guest(live_server, f"Uma {tag}")
    played = play_match([human], "abstrac", ("hard",), seed=5, target=50)
    summary = played.summary
    assert summary["has_bots"] is True
    assert summary["seats"][1]["rating"] is None and summary["seats"][1]["bot"] == "hard"
    change = summary["seats"][0]["rating"]
    assert change["before"] == 0 and change["delta"] != 0
    board = human.http.get("/api/ratings", params={"game": "abstrac"}).json()
    assert board["bots"]["hard"] == {"mu": 28.0, "sigma": 1.0, "ordinal": 25.0}
    rating = stats_of(human.http, human.id)["abstrac"]["rating"]
    assert rating["recent"][-1]["has_bots"] is True

    solo = play_match([human], "balance", seed=6)
    assert solo.summary["seats"][0]["rating"] is None
    balance = stats_of(human.http, human.id)["balance"]
    assert balance["played"] == 1 and balance["rating"] is None

    bots_only = play_bots(human, "abstrac", ("easy", "easy"), target=50)
    assert all(
        s["rating"] is None for s in human.http.get(f"/api/matches/{bots_only}").json()["seats"]
    )


def test_leaderboard_errors(live_server: str) -> None:
    http = httpx.Client(base_url=live_server, timeout=10)
    missing = http.get("/api/ratings", params={"game": "chess"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert http.get("/api/ratings").status_code == 422
    assert http.get("/api/ratings", params={"game": "abstrac", "limit": 0}).status_code == 422
