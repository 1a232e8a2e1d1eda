"""Ratings stored by each store in the finishing transaction (app/db/ratings/writes.py and
the backends' statements), and their rebuild: the same suite on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.driver import transaction
from app.db.matches import MIN_OWN_MOVES, MatchEnd
from app.db.models import (
    Match,
    MatchSeat,
    Move,
    Player,
    PlayerGame,
    Rating,
    RatingChange,
    Room,
)
from app.db.movelog import MoveCommit
from app.db.ratings.model import NEWCOMER
from app.db.ratings.rebuild import rebuild
from app.db.store import open_store
from tests.app.db.conftest import LoopThread
from tests.support.waiting import until_waiting_on_a_lock

NEW = NEWCOMER


def outcome(scores: list[float], winners: list[int]) -> dict[str, Any]:
    return {"scores": scores, "winners": winners, "rounds": [], "detail": {}}


class Table:
    """Rows for matches written straight to a fresh database, then rated like _finish does."""

    def __init__(self, db: AsyncEngine, loop: LoopThread) -> None:
        self.db = db
        self.run = loop.run_until_complete
        self.now = datetime(2025, 3, 1, tzinfo=UTC)
        self.run(self._setup())

    async def _setup(self) -> None:
        async with self.db.begin() as conn:
            for pid in range(1, 5):
                await conn.execute(
                    insert(Player).values(
                        id=pid, name=f"P{pid}", token_hash=f"h{pid}", created_at=self.now
                    )
                )
            await conn.execute(
                insert(Room).values(
                    id="r1",
                    game="plus_minus",
                    options={},
                    table={},
                    seat_count=3,
                    status="finished",
                    host_id=1,
                    private=False,
                    created_at=self.now,
                    updated_at=self.now,
                )
            )

    async def played(self) -> None:
        """Every seat of every match makes its moves of its own (``MIN_OWN_MOVES``): the
        moves the rebuild counts, as a finish does."""
        async with self.db.begin() as conn:
            matches = (await conn.execute(select(Match.id, Match.players))).all()
            rows = [
                {"match_id": match_id, "seq": n + 1, "seat": n % players, "action": {}}
                | {"at": self.now}
                for match_id, players in matches
                for n in range(MIN_OWN_MOVES * players)
            ]
            await conn.execute(insert(Move), rows)

    def finish(self, *args: Any, **kwargs: Any) -> int:
        """:meth:`finishing`, waited for."""
        return self.run(self.finishing(*args, **kwargs))

    async def finishing(
        self,
        seats: list[int | str],
        scores: list[float],
        winners: list[int],
        game: str = "plus_minus",
        *,
        times: int = 1,
    ) -> int:
        end = await self.playing(seats, scores, winners, game)
        for _ in range(times):  # a forfeit's finish: asyncpg's own transaction on Postgres
            await open_store(self.db).finish(end)
        return end.match_id

    async def playing(
        self, seats: list[int | str], scores: list[float], winners: list[int], game: str
    ) -> MatchEnd:
        """A match under way, and the end it is to have."""
        async with self.db.begin() as conn:
            match_id = (
                await conn.execute(
                    insert(Match)
                    .values(
                        room_id="r1",
                        game=game,
                        engine_version="1",
                        options={},
                        seed=1,
                        players=len(seats),
                        status="playing",
                        has_bots=any(isinstance(s, str) for s in seats),
                        move_count=0,
                        started_at=self.now,
                    )
                    .returning(Match.id)
                )
            ).scalar_one()
            await conn.execute(
                insert(MatchSeat),
                [
                    {
                        "match_id": match_id,
                        "seat": i,
                        "player_id": s if isinstance(s, int) else None,
                        "bot": s if isinstance(s, str) else None,
                        "name": str(s),
                    }
                    for i, s in enumerate(seats)
                ],
            )
        return MatchEnd(
            room_id="r1",
            match_id=match_id,
            game=game,
            seats=tuple((s, None) if isinstance(s, int) else (None, s) for s in seats),
            move_count=1,
            outcome=outcome(scores, winners),
            at=self.now,
        )

    def ratings(self, game: str = "plus_minus") -> dict[int, Any]:
        async def run() -> dict[int, Any]:
            async with self.db.connect() as conn:
                rows = await conn.execute(select(Rating.__table__).where(Rating.game == game))
                return {r.player_id: r for r in rows}

        return self.run(run())

    def records(self) -> dict[tuple[int, str], tuple[int, int, int, int]]:
        async def run() -> dict[tuple[int, str], tuple[int, int, int, int]]:
            async with self.db.connect() as conn:
                rows = await conn.execute(select(PlayerGame.__table__))
                return {(r.player_id, r.game): (r.played, r.won, r.lost, r.drawn) for r in rows}

        return self.run(run())

    def changes(self, match_id: int) -> dict[int, Any]:
        async def run() -> dict[int, Any]:
            async with self.db.connect() as conn:
                rows = await conn.execute(
                    select(RatingChange.__table__).where(RatingChange.match_id == match_id)
                )
                return {r.seat: r for r in rows}

        return self.run(run())


def test_record_match_stores_ratings_history_and_trend(db: AsyncEngine, loop: LoopThread) -> None:
    table = Table(db, loop)
    first = table.finish([1, 2, 3], [30, 10, 20], [0])
    rated = table.ratings()
    assert rated[1].ordinal > rated[3].ordinal > rated[2].ordinal
    assert all(r.matches == 1 and r.last_match_id == first for r in rated.values())
    changes = table.changes(first)
    assert set(changes) == {0, 1, 2}
    for seat, pid in enumerate((1, 2, 3)):
        change = changes[seat]
        assert change.player_id == pid and change.ordinal_before == pytest.approx(NEW.ordinal)
        assert change.ordinal_after == pytest.approx(rated[pid].ordinal)
        assert rated[pid].last_delta == pytest.approx(change.ordinal_after - change.ordinal_before)

    second = table.finish([2, 1, 3], [50, 0, 0], [0])  # player 2 wins the next one
    again = table.ratings()
    assert again[2].matches == 2 and again[2].last_delta > 0 and again[1].last_delta < 0
    assert table.changes(second)[0].ordinal_before == pytest.approx(rated[2].ordinal)
    assert table.ratings("abstrac") == {}


def test_record_match_ties_bots_and_solo(db: AsyncEngine, loop: LoopThread) -> None:
    table = Table(db, loop)
    tie = table.finish([1, 2, 3], [40, 40, 10], [0, 1])
    rated = table.ratings()
    assert rated[1].mu == pytest.approx(rated[2].mu) and rated[1].mu > rated[3].mu

    with_bot = table.finish([4, "hard"], [10, 20], [1], game="abstrac")
    abstrac = table.ratings("abstrac")
    assert set(abstrac) == {4} and abstrac[4].last_delta < 0
    assert set(table.changes(with_bot)) == {0}  # the bot's seat has no history: it never moves

    solo = table.finish([1], [12], [0], game="balance")
    assert table.ratings("balance") == {} and table.changes(solo) == {}
    bots_only = table.finish(["easy", "hard"], [1, 2], [1], game="abstrac")
    assert table.changes(bots_only) == {} and set(table.ratings("abstrac")) == {4}
    assert set(table.changes(tie)) == {0, 1, 2}
    # records: every finished match a person sat in, solo ones too; a shared win is a draw
    assert table.records() == {
        (1, "plus_minus"): (1, 0, 0, 1),
        (2, "plus_minus"): (1, 0, 0, 1),
        (3, "plus_minus"): (1, 0, 1, 0),
        (4, "abstrac"): (1, 0, 1, 0),
        (1, "balance"): (1, 1, 0, 0),
    }


def test_a_rating_failure_is_logged_and_the_finish_still_commits(
    db: AsyncEngine, loop: LoopThread, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(db, loop)
    # rating the same match twice breaks rating_history's primary key: the second finish is
    # run again, unrated
    twice = table.finish([1, 2], [1, 2], [1], times=2)
    assert "could not count or rate match" in caplog.text
    assert {r.matches for r in table.ratings().values()} == {1}  # the second try left no trace
    assert set(table.changes(twice)) == {0, 1}
    assert table.records()[(1, "plus_minus")] == (1, 0, 1, 0)  # counted once, not twice

    async def status() -> str | None:
        async with db.connect() as conn:
            return await conn.scalar(select(Match.status).where(Match.id == twice))

    assert table.run(status()) == "finished"
    nonsense = table.finish([3, 4], [1, 2], [1], game="absolute")
    assert set(table.changes(nonsense)) == {0, 1}  # and the next match is rated as usual


def test_a_move_batch_whose_rating_fails_is_stored_again_unrated(
    db: AsyncEngine, loop: LoopThread, caplog: pytest.LogCaptureFixture
) -> None:
    """Two final moves committed together by the move log, one of them ending a match rated
    before: the rating fails, and the batch is written again without ratings, both moves."""
    table = Table(db, loop)
    rated = table.finish([1, 2], [1, 2], [1])

    async def batch() -> tuple[list[bool], int, list[str]]:
        again = await table.playing([1, 2], [1, 2], [1], "plus_minus")
        again = MatchEnd(**{**vars(again), "match_id": rated})  # rated twice: history clashes
        fresh = await table.playing([3, 4], [2, 1], [0], "plus_minus")
        store = open_store(db)
        await store.open()
        try:
            stored = await asyncio.gather(
                *(
                    store.append(
                        MoveCommit("r1", end.match_id, 1, 0, {"type": "x"}, table.now, end)
                    )
                    for end in (again, fresh)
                )
            )
        finally:
            await store.close()
        async with db.connect() as conn:
            moves = await conn.scalar(select(func.count()).select_from(Move))
            statuses = (
                await conn.scalars(
                    select(Match.status).where(Match.id.in_([rated, fresh.match_id]))
                )
            ).all()
        return stored, moves, list(statuses)

    stored, moves, statuses = table.run(batch())
    assert "could not count or rate match" in caplog.text
    assert stored == [True, True] and moves == 2 and statuses == ["finished", "finished"]
    assert set(table.ratings()) == {1, 2} and table.records()[(1, "plus_minus")] == (1, 0, 1, 0)
    assert set(table.changes(rated)) == {0, 1}  # from its first finish, untouched


def test_a_rating_row_made_by_another_finish_meanwhile_is_read_and_updated(
    db: AsyncEngine, loop: LoopThread
) -> None:
    """Two processes finish matches of one newcomer at once: the second waits for the first's
    new rating row, then rates from it (on Postgres, the statement that makes newcomers' rows
    cannot see a row committed after it began)."""
    if db.dialect.name != "postgresql":
        pytest.skip("SQLite runs one writer at a time")
    table = Table(db, loop)

    async def race() -> int:
        async with transaction(db) as other:
            await other.execute(
                "INSERT INTO ratings (player_id, game, mu, sigma, ordinal, matches, last_delta,"
                " updated_at) VALUES (1, 'plus_minus', 30.0, 5.0, 15.0, 1, 0.0, $1)",
                table.now,
            )
            finishing = asyncio.ensure_future(table.finishing([1, 2], [2, 1], [0]))
            await until_waiting_on_a_lock(db)
            assert not finishing.done()  # it waits on the row this transaction made
        return await finishing

    match_id = table.run(race())
    assert table.changes(match_id)[0].mu_before == pytest.approx(30.0)  # rated from their row
    assert table.ratings()[1].matches == 2 and table.ratings()[2].matches == 1
    assert table.records()[(1, "plus_minus")] == (1, 1, 0, 0)


def test_rebuild_recounts_and_rerates_to_the_same_figures(
    db: AsyncEngine, loop: LoopThread
) -> None:
    table = Table(db, loop)
    table.finish([1, 2, 3], [30, 10, 20], [0])
    table.finish([2, 1, 3], [50, 0, 0], [0])
    table.finish([4, "hard"], [10, 20], [1], game="abstrac")
    table.finish([1], [12], [0], game="balance")
    table.run(table.played())
    rated, records = table.ratings(), table.records()
    assert table.run(rebuild(db)) == 3  # the solo match is counted, never rated
    again = table.ratings()
    assert set(again) == set(rated)
    for player, row in rated.items():
        assert again[player].mu == pytest.approx(row.mu)
        assert again[player].sigma == pytest.approx(row.sigma)
        assert again[player].matches == row.matches
    assert table.records() == records


def test_the_rebuild_rates_no_match_where_a_human_made_too_few_moves_of_their_own(
    db: AsyncEngine, loop: LoopThread
) -> None:
    """As a finish does (MatchEnd.own_moves), the rebuild counts each seat's moves of its own:
    a match a seated guest never played (a farmed win) rates nobody."""
    table = Table(db, loop)
    table.finish([1, 2], [1, 0], [0])
    assert table.run(rebuild(db)) == 1
    assert table.ratings() == {}
    table.run(table.played())
    assert table.run(rebuild(db)) == 1
    assert set(table.ratings()) == {1, 2}
