"""The review queue in process: bounded, each match once, its worker below live play."""

from __future__ import annotations

import asyncio
import os

from app.services import Services
from tests.app.rooms.in_process import with_services


def test_the_queue_holds_each_match_once_and_refuses_past_its_bound(database_url: str) -> None:
    async def work(services: Services) -> None:
        reviews = services.reviews
        assert [reviews.enqueue(101), reviews.enqueue(102), reviews.enqueue(101)] == [0, 1, 0]
        assert reviews.enqueue(103) is None
        assert reviews.waiting == 2

    with_services(database_url, work, review_queue=2)


def test_reviews_run_at_the_lowest_cpu_priority(database_url: str) -> None:
    async def work(services: Services) -> tuple[int, int]:
        worker = services.reviews._workers()
        niceness = await asyncio.wrap_future(worker.submit(os.nice, 0))
        policy = await asyncio.wrap_future(worker.submit(os.sched_getscheduler, 0))
        return niceness, policy

    assert with_services(database_url, work) == (19, os.SCHED_IDLE)
