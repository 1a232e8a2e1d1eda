"""Every match this test finishes (bots' matches of every game, and a forfeit) is fetched as a
replay, rebuilt with its engine from seed + actions, and must end exactly as stored. A match
that ended without a final move (a forfeit) must rebuild to an unfinished state, its stored
outcome naming the forfeit. It plays its own matches, so it passes alone and in any order."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from games import REGISTRY
from tests.support.clients import Guest
from tests.support.play import play_bots

LEVELS = ("easy", "normal")
SHORT = {"abstrac": {"target": 50}}  # a whole match of the default length takes long


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


def bot_tables() -> list[tuple[str, tuple[str, ...]]]:
    """Two bots' matches of every game: at its smallest table of two or more, and its largest
    up to four."""
    tables = []
    for game, engine in sorted(REGISTRY.items()):
        low, high = engine.info.min_players, engine.info.max_players
        for seats in sorted({max(low, min(2, high)), min(high, 4)}):
            tables.append((game, tuple(LEVELS[seat % 2] for seat in range(seats))))
    return tables


def forfeited(live_server: str) -> int:
    """A match that ends without a final move: the first seat's turn timer runs out."""
    host, guest = Guest(live_server, "Replay host"), Guest(live_server, "Replay guest")
    table = {"turn_seconds": 1, "on_absent": "forfeit"}
    room_id = host.post("/api/rooms", {"game": "abstrac", "seats": 2, "table": table}).json()["id"]
    host.post(f"/api/rooms/{room_id}/seats/0").raise_for_status()
    guest.post(f"/api/rooms/{room_id}/seats/1").raise_for_status()
    sock = host.socket(room_id)
    sock.expect("hello")
    match_id = host.post(f"/api/rooms/{room_id}/start").json()["match_id"]
    over = sock.expect("state", over=True, timeout=10)
    sock.close()
    assert over["match_id"] == match_id and over["outcome"]["termination"] == "forfeit"
    return int(match_id)


def finish_matches(live_server: str) -> set[int]:
    """Finish this test's matches, several at once; their ids."""
    host = Guest(live_server, f"Replayer {uuid.uuid4().hex[:6]}")
    with ThreadPoolExecutor(4) as pool:
        bots = [
            pool.submit(play_bots, host, game, levels, **SHORT.get(game, {}))
            for game, levels in bot_tables()
        ]
        forfeit = pool.submit(forfeited, live_server)
        return {b.result() for b in bots} | {forfeit.result()}


def test_every_finished_match_replays_to_its_stored_outcome(live_server: str) -> None:
    ours = finish_matches(live_server)
    http = httpx.Client(base_url=live_server, timeout=30)
    listed = all_finished(http)
    assert len({m["id"] for m in listed}) == len(listed)
    matches = [m for m in listed if m["id"] in ours]
    assert {m["id"] for m in matches} == ours  # the history lists every one of them
    games, endings = set(), set()
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
        endings.add(stored["termination"])
    assert games == set(REGISTRY)
    assert endings == {"normal", "forfeit"}
