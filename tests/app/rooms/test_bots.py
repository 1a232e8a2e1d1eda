"""BotPlayer (app/rooms/bots.py): a room's hard bot does not wait behind another room's backlog
of searches (in a real worker process, on a small budget)."""

from __future__ import annotations

import asyncio

from app.rooms.bots import BotPlayer
from games import REGISTRY
from games.base import Seat, State
from tests.games.playout import random_playout

ABSPECKEN = REGISTRY["abspecken"]
THINK_S = 0.05
"""A small search budget: the tests check where a search stands in line, not how it plays."""


def decision(*, forced: bool) -> tuple[State, Seat]:
    """An ABspecken state and a seat to act with one legal action (``forced``) or several."""
    trace = random_playout(ABSPECKEN, 3, seed=1)
    for state in trace.states:
        for seat in sorted(ABSPECKEN.to_act(state)):
            if (len(ABSPECKEN.legal_actions(state, seat)) == 1) == forced:
                return state, seat
    raise AssertionError(f"no {'forced' if forced else 'free'} decision in the playout")


def test_a_rooms_hard_move_does_not_queue_behind_another_rooms_backlog() -> None:
    """One worker; room A asks for six searches at once (as ABspecken's simultaneous seats
    would), then room B for one. A search holds the only worker, so the order moves come back
    in is the order they were started: B's must come right after the one A already started."""
    state, seat = decision(forced=False)
    replies: list[str] = []

    async def move(bots: BotPlayer, room: str) -> None:
        await bots.choose(ABSPECKEN, state, seat, "hard", room=room)
        replies.append(room)

    async def scenario() -> None:
        bots = BotPlayer(THINK_S, workers=1)
        try:
            await asyncio.gather(*(move(bots, room) for room in ["A"] * 6 + ["B"]))
        finally:
            await bots.close()

    asyncio.run(scenario())
    assert replies == ["A", "B", "A", "A", "A", "A", "A"]  # first come, first served: B last
