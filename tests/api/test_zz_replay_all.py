"""Runs after the other API tests (the name sorts last): every finished match in the test
database is fetched as a replay, rebuilt with its engine from seed + actions, and must end
exactly as stored. A match that ended without a final move (a forfeit) must rebuild to an
unfinished state, its stored outcome naming the forfeit."""

from __future__ import annotations

import json
from typing import Any

import httpx

from games import REGISTRY


def all_finished(http: httpx.Client) -> list[dict[str, Any]]:
    """Every finished match, walking the history with keyset pages."""
    found: list[dict[str, Any]] = []
    before = None
    while True:
        params: dict[str, Any] = {"status": "finished", "limit": 200}
        if before is not None:
            params["before"] = before
        page = http.get("/api/matches", params=params).json()
        if not page:
            return found
        found.extend(page)
        before = page[-1]["id"]


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_every_finished_match_replays_to_its_stored_outcome(live_server: str) -> None:
    http = httpx.Client(base_url=live_server, timeout=30)
    matches = all_finished(http)
    assert matches, "the API tests before this one finish matches"
    assert len({m["id"] for m in matches}) == len(matches)
    games = set()
    for match in matches:
        engine = REGISTRY[match["game"]]
        replay = http.get(f"/api/matches/{match['id']}/replay").json()
        actions = replay["actions"]
        assert [a["seq"] for a in actions] == list(range(1, len(actions) + 1))
        assert len(actions) == match["move_count"]
        state = engine.setup(len(replay["seats"]), replay["seed"], replay["options"])
        for move in actions:
            state = engine.apply(state, move["seat"], move["action"])
        rebuilt = engine.outcome(state)
        stored = match["outcome"]
        if rebuilt is None:
            assert "forfeit" in stored["detail"], match["id"]
            assert stored["termination"] == "forfeit", match["id"]
        else:
            assert {**plain(rebuilt.to_json()), "termination": "normal"} == plain(stored)
            assert [s["score"] for s in match["seats"]] == stored["scores"]
        last = http.get(f"/api/matches/{match['id']}/replay/{len(actions)}").json()
        assert last["view"] == plain(engine.reveal(state)), match["id"]
        assert last["over"] and plain(last["outcome"]) == plain(stored)
        games.add(match["game"])
    assert {"abstrac", "balance"} <= games
