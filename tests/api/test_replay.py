"""Replays step by step: everything revealed, or one seat's view exactly as it was then."""

from __future__ import annotations

import uuid

import httpx
import pytest

from games import REGISTRY
from tests.support.clients import Guest
from tests.support.play import open_table, play_match, start

GAMES = [
    ("abspecken", 3, {"end_threshold": 5}),  # hidden cards and simultaneous, secret choices
    ("plus_minus", 3, {}),
    ("absolute", 3, {"turn_limit": 5}),
]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_each_seats_replay_is_what_that_seat_saw_live(
    live_server: str, game: str, seats: int, options: dict[str, object]
) -> None:
    tag = uuid.uuid4().hex[:4]
    humans = [Guest(live_server, f"{game[:6]} {i} {tag}") for i in range(seats)]
    played = play_match(humans, game, seed=21, **options)
    http = humans[0].http
    total = played.summary["move_count"]
    assert total == played.final["seq"] > 0
    engine = REGISTRY[game]
    compared = 0
    for seq in sorted({0, 1, 2, total // 2, total - 1, total}):
        frame = http.get(f"/api/matches/{played.match_id}/replay/{seq}").json()
        assert frame["seq"] == seq and frame["move_count"] == total
        assert len(frame["views"]) == len(frame["lasts"]) == seats
        assert "rng" not in str(frame["view"])
        for seat in range(seats):
            live = played.seen[seat].get(seq)
            if live is None:
                continue  # this socket was sent a newer state instead
            assert frame["views"][seat] == live["view"], (seq, seat)
            assert frame["lasts"][seat] == live["last"], (seq, seat)
            assert frame["to_act"] == live["to_act"]
            compared += 1
        assert frame["over"] is (seq == total)
    assert compared >= seats * 3
    end = http.get(f"/api/matches/{played.match_id}/replay/{total}").json()
    assert end["outcome"]["winners"] == played.summary["winners"]
    assert end["outcome"]["scores"] == played.summary["scores"]
    assert end["view"] == engine.reveal(_rebuild(http, played.match_id, game))


def _rebuild(http: httpx.Client, match_id: int, game: str) -> dict[str, object]:
    replay = http.get(f"/api/matches/{match_id}/replay").json()
    engine = REGISTRY[game]
    state = engine.setup(len(replay["seats"]), replay["seed"], replay["options"])
    for move in replay["actions"]:
        state = engine.apply(state, move["seat"], move["action"])
    return state


def test_stepping_back_and_forth_gives_the_same_frames(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    humans = [Guest(live_server, f"Step {i} {tag}") for i in range(3)]
    played = play_match(humans, "plus_minus", seed=3)
    http = humans[0].http
    total = played.summary["move_count"]
    assert total > 70  # past two checkpoints of the server's replay cache
    url = f"/api/matches/{played.match_id}/replay"
    forwards = {seq: http.get(f"{url}/{seq}").json() for seq in (5, 33, 64, 65, total)}
    for seq in (total, 65, 64, 33, 5):  # backwards, from cached checkpoints
        assert http.get(f"{url}/{seq}").json() == forwards[seq]
    first = http.get(f"{url}/0").json()
    assert first["last"] is None and first["lasts"] == [None, None, None]
    assert first["to_act"] and not first["over"] and first["outcome"] is None
    for seq in (-1, total + 1):
        missing = http.get(f"{url}/{seq}")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert http.get("/api/matches/987654321/replay/0").status_code == 404


def test_a_running_match_has_no_replay(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    humans = [Guest(live_server, f"Run {i} {tag}") for i in range(2)]
    room_id, sockets = open_table(humans, "abstrac", target=50)
    match_id = start(humans[0], room_id)
    for sock in sockets.values():
        sock.close()
    for path in (f"/api/matches/{match_id}/replay", f"/api/matches/{match_id}/replay/0"):
        answer = humans[0].http.get(path)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "match_running"
