"""BotPlayer (app/rooms/bots.py): a reply's time does not tell how many actions the bot had, and
a room's hard bot does not wait behind another room's backlog of searches.

The timing tests run the bot on a fake clock that only ``sleep`` moves, so "released at the
same time" is exact; the hard ones still search in a real worker process, on a small budget.
"""

from __future__ import annotations

import asyncio

import pytest

from app.rooms.bots import QUICK_S, BotPlayer, decision_seed
from games import REGISTRY
from games.base import Seat, State
from tests.games.playout import random_playout
from tests.support.server import run_on_own_loop

ABSPECKEN = REGISTRY["abspecken"]
THINK_S = 0.05
"""A small search budget: the tests check where a search stands in line, not how it plays."""


class FakeTime:
    """A clock that stands still except while the bot sleeps on it."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def decision(*, forced: bool) -> tuple[State, Seat]:
    """An ABspecken state and a seat to act with one legal action (``forced``) or several."""
    trace = random_playout(ABSPECKEN, 3, seed=1)
    for state in trace.states:
        for seat in sorted(ABSPECKEN.to_act(state)):
            if (len(ABSPECKEN.legal_actions(state, seat)) == 1) == forced:
                return state, seat
    raise AssertionError(f"no {'forced' if forced else 'free'} decision in the playout")


async def released_at(bots: BotPlayer, time: FakeTime, level: str, *, forced: bool) -> float:
    """When the bot's action comes back, asked for at time 0."""
    state, seat = decision(forced=forced)
    time.now = 0.0
    action = await bots.choose(ABSPECKEN, state, seat, level, room="r")
    assert action in ABSPECKEN.legal_actions(state, seat)
    return time.now


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_an_inline_bot_takes_the_same_time_with_one_action_as_with_many(level: str) -> None:
    async def scenario() -> tuple[float, float]:
        time = FakeTime()
        bots = BotPlayer(THINK_S, workers=1, clock=time.clock, sleep=time.sleep)
        return (
            await released_at(bots, time, level, forced=True),
            await released_at(bots, time, level, forced=False),
        )

    assert run_on_own_loop(scenario()) == (QUICK_S, QUICK_S)


def test_a_hard_bot_takes_its_whole_budget_even_with_one_action() -> None:
    async def scenario() -> tuple[float, float]:
        time = FakeTime()
        bots = BotPlayer(THINK_S, workers=1, clock=time.clock, sleep=time.sleep)
        try:
            return (
                await released_at(bots, time, "hard", forced=True),
                await released_at(bots, time, "hard", forced=False),
            )
        finally:
            await bots.close()

    assert run_on_own_loop(scenario()) == (THINK_S, THINK_S)


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

    run_on_own_loop(scenario())
    assert replies == ["A", "B", "A", "A", "A", "A", "A"]  # first come, first served: B last


def test_a_bots_decision_is_seeded_by_the_match_the_move_and_the_seat() -> None:
    """Made again at the same table (after a restart, on another process), a bot's decision
    is the same: its stream comes from the match's seed, the move number and the seat."""
    state, seat = decision(forced=False)
    seeds = {decision_seed(1234, seq, s) for seq in range(50) for s in range(3)}
    assert len(seeds) == 150 and all(0 <= s < 2**63 for s in seeds)
    assert decision_seed(1234, 7, 1) == decision_seed(1234, 7, 1) != decision_seed(1235, 7, 1)

    async def scenario() -> list[list[object]]:
        time = FakeTime()
        bots = BotPlayer(THINK_S, workers=1, clock=time.clock, sleep=time.sleep)
        return [
            [
                await bots.choose(ABSPECKEN, state, seat, "easy", seed=decision_seed(99, seq, seat))
                for seq in range(20)
            ]
            for _ in range(2)
        ]

    first, second = run_on_own_loop(scenario())
    assert first == second and len({repr(a) for a in first}) > 1
