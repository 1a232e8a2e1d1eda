"""The review queue in process: bounded, each match once, each player's share bounded, players
taking turns at the worker, no review without play, its worker below live play and replaced
when it dies.

The queue tests replace the review's step with one the test finishes itself, so nothing is
computed and nothing sleeps; the worker tests review a small real match in the real worker."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert

from app.db.matches import MIN_OWN_MOVES
from app.db.models import Match, MatchSeat, Move, Player, Room
from app.rooms.errors import RoomError
from app.rooms.reviews import _Job
from app.services import Services
from games import REGISTRY
from tests.app.rooms.in_process import with_services
from tests.support.waiting import until_async

NOW = datetime(2026, 1, 1, tzinfo=UTC)
HANG_S = 30.0


class Matches:
    """Finished matches written straight to the database."""

    def __init__(self, services: Services) -> None:
        self.db = services.db
        self.players = 0
        self.rooms = 0

    async def player(self) -> int:
        self.players += 1
        async with self.db.begin() as conn:
            await conn.execute(
                insert(Player).values(
                    id=9000 + self.players,
                    name=f"P{self.players}",
                    token_hash=f"review-{self.players}",
                    created_at=NOW,
                )
            )
        return 9000 + self.players

    async def finished(
        self,
        seats: list[int | None],
        *,
        moves: list[tuple[int, dict[str, Any]]] | None = None,
        game: str = "abstrac",
        seed: int = 1,
    ) -> int:
        """A finished match of ``seats`` (player ids, ``None`` for a bot) hosted by the first
        player; its ``moves`` ((seat, action) pairs), by default enough of each seat's own."""
        if moves is None:
            moves = [(n % len(seats), {"type": "x"}) for n in range(MIN_OWN_MOVES * len(seats))]
        host = next((p for p in seats if p is not None), None) or await self.player()
        self.rooms += 1
        room_id = f"rv{self.rooms}"
        engine = REGISTRY[game]
        async with self.db.begin() as conn:
            await conn.execute(
                insert(Room).values(
                    id=room_id,
                    game=game,
                    options={},
                    table={},
                    seat_count=len(seats),
                    status="finished",
                    host_id=host,
                    private=False,
                    created_at=NOW,
                    updated_at=NOW,
                )
            )
            match_id = (
                await conn.execute(
                    insert(Match)
                    .values(
                        room_id=room_id,
                        game=game,
                        engine_version=engine.version,
                        options=engine.check_options(None, len(seats)),
                        seed=seed,
                        players=len(seats),
                        status="finished",
                        move_count=len(moves),
                        outcome={"scores": [0] * len(seats), "winners": [0], "rounds": []}
                        | {"detail": {}, "termination": "normal"},
                        started_at=NOW,
                        finished_at=NOW,
                    )
                    .returning(Match.id)
                )
            ).scalar_one()
            await conn.execute(
                insert(MatchSeat),
                [
                    {
                        "match_id": match_id,
                        "seat": seat,
                        "player_id": player,
                        "bot": None if player is not None else "easy",
                        "name": f"S{seat}",
                    }
                    for seat, player in enumerate(seats)
                ],
            )
            if moves:
                await conn.execute(
                    insert(Move),
                    [
                        {"match_id": match_id, "seq": n + 1, "seat": seat, "action": action}
                        | {"at": NOW}
                        for n, (seat, action) in enumerate(moves)
                    ],
                )
        return match_id


class Steps:
    """The reviews' steps, each a future the test finishes: the order they start in."""

    def __init__(self, services: Services, parts: int = 2) -> None:
        self.parts = parts
        self.started: asyncio.Queue[int] = asyncio.Queue()
        self.gate: asyncio.Future[None] | None = None
        self.done: dict[int, int] = {}
        services.reviews._step = self.step  # type: ignore[method-assign]

    async def step(self, job: _Job) -> bool:
        self.gate = asyncio.get_running_loop().create_future()
        self.started.put_nowait(job.match_id)
        await self.gate
        self.done[job.match_id] = self.done.get(job.match_id, 0) + 1
        return self.done[job.match_id] >= self.parts

    async def next(self) -> int:
        """The match whose part starts next; the one before it is let finish."""
        if self.gate is not None and not self.gate.done():
            self.gate.set_result(None)
        return await asyncio.wait_for(self.started.get(), HANG_S)


async def read(services: Services) -> bool:
    """Whether the matches that ended have had their claims read (and been queued or not)."""
    reviews = services.reviews
    admitting = reviews._admitting
    return not reviews._arrivals and (admitting is None or admitting.done())


def test_the_queue_holds_each_match_once_and_refuses_past_its_bound(database_url: str) -> None:
    async def work(services: Services) -> None:
        reviews, matches = services.reviews, Matches(services)
        Steps(services)
        ann, ben, cy = [await matches.player() for _ in range(3)]
        first = await matches.finished([ann, None])
        second = await matches.finished([ben, None])
        third = await matches.finished([cy, None])
        answers = [await reviews.status(m) for m in (first, second, first)]
        assert [a["position"] for a in answers] == [0, 1, 0]
        with pytest.raises(RoomError) as busy:
            await reviews.status(third)
        assert busy.value.code == "reviews_busy" and busy.value.status == 503
        assert reviews.waiting == 2

    with_services(database_url, work, review_queue=2)


def test_a_players_backlog_does_not_hold_up_another_players_review(database_url: str) -> None:
    """Ann's five reviews queue first, then Ben's one: Ben's starts after one part of Ann's
    and is done before her second review starts (first come, first served would run all of
    hers first)."""

    async def work(services: Services) -> None:
        reviews, matches = services.reviews, Matches(services)
        steps = Steps(services, parts=2)
        ann, ben = await matches.player(), await matches.player()
        hers = [await matches.finished([ann, None]) for _ in range(5)]
        his = await matches.finished([ben, None])
        for match_id in [*hers, his]:
            await reviews.status(match_id)
        assert (await reviews.status(his))["position"] == 1  # one part of Ann's at most
        order = [await steps.next() for _ in range(4)]
        assert order == [hers[0], his, hers[0], his]
        assert await steps.next() == hers[1]
        assert steps.done[his] == 2 and his not in reviews._jobs

    with_services(database_url, work)


def test_a_players_share_of_the_queue_is_bounded(database_url: str) -> None:
    """Past ``per_player`` waiting, a flooder's next match is turned away, but a match that
    seats someone else as well takes that player's share, and a bystander's own is queued."""

    async def work(services: Services) -> None:
        reviews, matches = services.reviews, Matches(services)
        Steps(services)
        flooder, partner, bystander = [await matches.player() for _ in range(3)]
        flood = [await matches.finished([flooder, None]) for _ in range(3)]
        for match_id in flood[:2]:
            await reviews.status(match_id)
        with pytest.raises(RoomError) as busy:
            await reviews.status(flood[2])
        assert busy.value.code == "reviews_busy"
        reviews.enqueue(flood[2])  # at its end, refused alike (quietly)
        await until_async(lambda: read(services), "the arrival read")
        assert flood[2] not in reviews._jobs
        together = await matches.finished([flooder, partner])
        assert (await reviews.status(together))["status"] == "pending"
        assert reviews._jobs[together].owner == partner
        alone = await matches.finished([bystander, None])
        assert (await reviews.status(alone))["status"] == "pending"

    with_services(database_url, work, review_queue_per_player=2)


def test_a_match_without_play_is_not_reviewed(database_url: str) -> None:
    """A forfeit before anyone moved (the flood that filled the queue) has nothing to review:
    409 ``nothing_to_review``, and it takes no place, asked for or ended here."""

    async def work(services: Services) -> None:
        reviews, matches = services.reviews, Matches(services)
        Steps(services)
        host, guest = await matches.player(), await matches.player()
        empty = await matches.finished([host, guest], moves=[])
        barely = await matches.finished([host, guest], moves=[(0, {"type": "x"})] * 2)
        for match_id in (empty, barely):
            with pytest.raises(RoomError) as refused:
                await reviews.status(match_id)
            assert refused.value.code == "nothing_to_review" and refused.value.status == 409
            reviews.enqueue(match_id)
        await until_async(lambda: read(services), "the arrivals read")
        assert reviews.waiting == 0

    with_services(database_url, work)


def small_match(seed: int) -> list[tuple[int, dict[str, Any]]]:
    """An Abstrac match of random moves between two seats, to its end."""
    engine = REGISTRY["abstrac"]
    rng = random.Random(seed)
    state = engine.setup(2, seed, engine.check_options(None, 2))
    moves = []
    while acting := sorted(engine.to_act(state)):
        action = rng.choice(engine.legal_actions(state, acting[0]))
        moves.append((acting[0], action))
        state = engine.apply(state, acting[0], action)
    return moves


def test_a_review_worker_that_dies_is_replaced(database_url: str) -> None:
    """SIGKILL the review worker: the next review still gets done in a new one (the broken
    pool used to fail every later review with 503 ``review_failed`` until a restart)."""

    async def work(services: Services) -> None:
        reviews, matches = services.reviews, Matches(services)
        pool = reviews._workers()
        assert await asyncio.wrap_future(pool.submit(os.getpid)) != os.getpid()
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            os.kill(process.pid, signal.SIGKILL)
        player = await matches.player()
        moves = small_match(4)
        match_id = await matches.finished([player, None], moves=moves, seed=4)
        await reviews.status(match_id)

        async def done() -> dict[str, Any] | None:
            answer = await reviews.status(match_id)
            return answer if answer["status"] == "done" else None

        review = await until_async(done, "the review after the worker died", HANG_S)
        # two decisions of the match's: a sample, which the review says it is
        assert len(review["decisions"]) == 2 and review["sample"]["reviewed"] == 2
        assert review["sample"]["of"] > 2 and review["budget"]["decisions"] == 2

    with_services(
        database_url,
        work,
        review_iterations=4,
        review_playouts=2,
        review_decisions=2,
        review_on_finish=False,
    )


def test_reviews_run_at_the_lowest_cpu_priority(database_url: str) -> None:
    async def work(services: Services) -> tuple[int, int]:
        worker = services.reviews._workers()
        niceness = await asyncio.wrap_future(worker.submit(os.nice, 0))
        policy = await asyncio.wrap_future(worker.submit(os.sched_getscheduler, 0))
        return niceness, policy

    assert with_services(database_url, work) == (19, os.SCHED_IDLE)
