"""Hidden information end to end: record every message each seat and a spectator receive
over real sockets during whole matches, then prove each one is exactly what that viewer may
see: the engine's ``view`` for that viewer, its own legal actions, the redacted last action.
(That ``view`` itself hides what it must is the engines' contract test.)"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from games import REGISTRY
from tests.support.clients import Guest
from tests.support.server import ServerProcess

SHORT_OPTIONS: dict[str, dict[str, Any]] = {"abstrac": {"target": 50}}


def play_recorded(base: str, game: str, seats: int, seed: int) -> tuple[dict, list, list]:
    guests = [Guest(base, f"P{n}") for n in range(seats)]
    room_id = guests[0].create_room(game, seats, **SHORT_OPTIONS.get(game, {}))["id"]
    for seat, guest in enumerate(guests):
        guest.post(f"/api/rooms/{room_id}/seats/{seat}").raise_for_status()
    sockets = [guest.socket(room_id) for guest in guests]
    spectator = Guest(base, "Spectator").socket(room_id)
    guests[0].post(f"/api/rooms/{room_id}/start").raise_for_status()
    rng = random.Random(seed)
    state = sockets[0].expect("state", seq=0)
    while not state["over"]:
        seat = rng.choice(state["to_act"])
        own = sockets[seat].state_at(state["seq"])
        sockets[seat].act(rng.choice(own["legal"]), seq=own["seq"])
        state = sockets[seat].state_at(state["seq"] + 1, timeout=15)
    for sock in [*sockets, spectator]:
        sock.state_at(state["seq"])
        sock.close()
    match_id = state["match_id"]
    replay = httpx.get(f"{base}/api/matches/{match_id}/replay").json()
    return replay, [s.received for s in sockets], spectator.received


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_message_shows_only_what_its_viewer_may_see(server: ServerProcess, game: str) -> None:
    live_server = server.url
    engine = REGISTRY[game]
    seats = max(engine.info.min_players, min(3, engine.info.max_players))
    replay, seat_logs, spectator_log = play_recorded(live_server, game, seats, seed=seats)
    states = [engine.setup(seats, replay["seed"], replay["options"])]
    for move in replay["actions"]:
        states.append(engine.apply(states[-1], move["seat"], move["action"]))
    moves = replay["actions"]
    seed_text = str(replay["seed"])
    for viewer, log in [*enumerate(seat_logs), (None, spectator_log)]:
        checked = 0
        for message in log:
            assert seed_text not in json.dumps(message)
            if message["type"] != "state":
                continue
            state = states[message["seq"]]
            assert message["view"] == engine.view(state, viewer)
            expected_legal = engine.legal_actions(state, viewer) if viewer is not None else []
            assert message["legal"] == expected_legal
            assert message["to_act"] == sorted(engine.to_act(state))
            if message["seq"] > 0:
                move = moves[message["seq"] - 1]
                shown = engine.redact_action(move["action"], move["seat"], viewer)
                assert message["last"] == {"seat": move["seat"], "action": shown}
            checked += 1
        assert checked >= len(moves) // 2, f"viewer {viewer} saw too few states"
    log = server.log_path.read_text()
    assert seed_text not in log and '"hand' not in log  # logs carry no hidden state
