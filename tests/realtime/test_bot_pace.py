"""Bots' pace over a real server: a reply's time tells nothing of how many actions the bot had,
and one room's hard bots cannot starve another room's.

The first test reads the server's own time stamps (a replay's ``at``) and rebuilds each
decision's state from the replay's seed, so it knows how many legal actions each bot had."""

from __future__ import annotations

import random
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from games import REGISTRY
from tests.support.clients import Guest, RoomSocket
from tests.support.play import open_table, play_bots, start
from tests.support.server import private_server

# short, so that the matches are quick: only a floor is asserted, and an answer at once (the
# bug) still comes well under it
THINK_S, QUICK_S = 0.05, 0.02
# matches at most, until a hard bot has had a single legal action: about every other match has
# one, so 20 almost never run out (8 did, about one run in two hundred)
MATCHES = 20
SLACK_S = 0.005  # time stamps are taken in the same process, on one clock


def gaps_by_choices(
    replay: dict[str, Any], levels: tuple[str, ...]
) -> list[tuple[str, int, float]]:
    """(level, legal actions it had, seconds since the move before) for every move but the
    first of a bots-only, one-seat-at-a-time match."""
    engine = REGISTRY["abstrac"]
    state = engine.setup(len(levels), replay["seed"], replay["options"])
    found = []
    previous: datetime | None = None
    for move in replay["actions"]:
        at = datetime.fromisoformat(move["at"])
        choices = len(engine.legal_actions(state, move["seat"]))
        if previous is not None:
            found.append((levels[move["seat"]], choices, (at - previous).total_seconds()))
        state = engine.apply(state, move["seat"], move["action"])
        previous = at
    return found


def test_a_bots_reply_time_does_not_tell_how_many_actions_it_had(
    tmp_path: Path, backend: str
) -> None:
    """A hard bot with one legal action answered at once where a search took its whole budget
    (in ABspecken's secret phase, "cannot" gave the hand away)."""
    env = {
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_THINK_MS": str(int(THINK_S * 1000)),
        "CARDROOM_BOT_QUICK_MS": str(int(QUICK_S * 1000)),
    }
    levels = ("hard", "easy")
    with private_server(tmp_path, env, backend=backend) as server:
        host = Guest(server.url, "Host")
        gaps: list[tuple[str, int, float]] = []
        for _ in range(MATCHES):
            match_id = play_bots(host, "abstrac", levels)
            replay = host.http.get(f"/api/matches/{match_id}/replay").json()
            gaps += gaps_by_choices(replay, levels)
            if any(level == "hard" and choices == 1 for level, choices, _ in gaps):
                break
    hard: dict[bool, list[float]] = {True: [], False: []}  # by "had a single action"
    for level, choices, gap in gaps:
        if level == "hard":
            hard[choices == 1].append(gap)
        else:  # easy answers no sooner than its quick time either
            assert gap >= QUICK_S - SLACK_S, gap
    assert hard[True] and hard[False]
    assert min(hard[True]) >= THINK_S - SLACK_S, hard[True]
    assert min(hard[False]) >= THINK_S - SLACK_S, hard[False]


def reply_times(sock: RoomSocket, seat: int, moves: int, rng: random.Random) -> list[float]:
    """Plays ``moves`` random moves at ``seat``; how long the bot took to answer each."""
    times = []
    state = sock.expect("state")
    while len(times) < moves and not state["over"]:
        if seat in state["to_act"]:
            sock.act(rng.choice(state["legal"]), seq=state["seq"])
            acked = sock.state_at(state["seq"] + 1)
            began = time.monotonic()
            state = acked if seat in acked["to_act"] or acked["over"] else sock.expect("state")
            if state is not acked:
                times.append(time.monotonic() - began)
        else:
            state = sock.expect("state")
    return times


def test_a_rooms_hard_bots_do_not_starve_another_rooms(tmp_path: Path, backend: str) -> None:
    """Two tables of five hard bots (ABspecken's seats all choose at once) queued their
    searches ahead of a third room's one bot: it waited for every one of them (up to 8 searches
    measured, where its turn now comes after at most one search of each busy room, 3 in all)."""
    think = 0.2
    env = {
        "CARDROOM_BOT_DELAY_MS": "0",
        "CARDROOM_BOT_THINK_MS": str(int(think * 1000)),
        "CARDROOM_MAX_BOT_MATCHES": "2",
    }
    with private_server(tmp_path, env, backend=backend) as server:
        busy = Guest(server.url, "Busy")
        for _ in range(2):
            room_id = busy.create_room("abspecken", 5)["id"]
            for seat in range(5):
                busy.post(f"/api/rooms/{room_id}/seats/{seat}/bot", {"level": "hard"})
            start(busy, room_id)
        player = Guest(server.url, "Player")
        room_id, sockets = open_table([player], "abstrac", ("hard",))
        start(player, room_id)
        times = reply_times(sockets[0], 0, 8, random.Random(7))
    assert len(times) >= 4, times
    # its turn comes after at most one search of each busy room, then its own search
    assert max(times) < 6 * think, times
