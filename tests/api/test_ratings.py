"""Ratings: the openskill update (pure), its storage in the finishing transaction, and the
leaderboard / player stats over the real server."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.driver import transaction
from app.db.engine import make_engine
from app.db.matches import MatchEnd
from app.db.migrate import upgrade_to_head
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
from app.db.movelog import MoveCommit, MoveLog
from app.db.ratings.model import BOT_SKILLS, NEWCOMER, Skill, places, rate
from app.db.ratings.rebuild import rebuild
from tests.api.play import play_bots, play_match
from tests.clients import Guest
from tests.server import fresh_database

T = TypeVar("T")

NEW = NEWCOMER


def outcome(scores: list[float], winners: list[int]) -> dict[str, Any]:
    return {"scores": scores, "winners": winners, "rounds": [], "detail": {}}


# -- the pure update ------------------------------------------------------------------------
def test_places_put_winners_first_then_scores_and_share_ties() -> None:
    assert places(outcome([10, 30], [1]), 2) == [2, 1]
    assert places(outcome([5, 9, 7, 7], [1]), 4) == [4, 1, 2, 2]
    assert places(outcome([50, 50, 40], [0, 1]), 3) == [1, 1, 3]
    assert places(outcome([-3.0, -0.0, -9.0], [1]), 3) == [2, 1, 3]  # ABspecken: minus penalties
    assert places(outcome([1, 0, 1, 1], [0, 2, 3]), 4) == [1, 4, 1, 1]  # a forfeit


def test_two_players_the_winner_gains_what_the_loser_loses() -> None:
    winner, loser = rate([NEW, NEW], [1, 2], [False, False])
    assert winner.mu > NEW.mu > loser.mu
    assert winner.mu - NEW.mu == pytest.approx(NEW.mu - loser.mu)
    assert winner.sigma < NEW.sigma and loser.sigma < NEW.sigma
    assert winner.ordinal > 0 > loser.ordinal
    # an upset moves ratings further than an expected result
    strong, weak = Skill(30.0, 3.0), Skill(20.0, 3.0)
    expected = rate([strong, weak], [1, 2], [False, False])
    upset = rate([strong, weak], [2, 1], [False, False])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_three_or_more_players_follow_their_places() -> None:
    for seats in (3, 4, 6):
        after = rate([NEW] * seats, list(range(1, seats + 1)), [False] * seats)
        mus = [s.mu for s in after]
        assert mus == sorted(mus, reverse=True) and len(set(mus)) == seats
        assert sum(mus) == pytest.approx(NEW.mu * seats, abs=1e-6)


def test_ties_move_equal_players_equally() -> None:
    first, second, third = rate([NEW, NEW, NEW], [1, 1, 3], [False] * 3)
    assert first == second and first.mu > NEW.mu > third.mu
    even = rate([NEW, NEW], [1, 1], [False, False])
    assert even[0].mu == pytest.approx(NEW.mu) and even[0] == even[1]
    assert even[0].sigma < NEW.sigma  # a draw is still information


def test_bots_keep_their_published_ratings() -> None:
    hard = BOT_SKILLS["hard"]
    human, bot = rate([NEW, hard], [1, 2], [False, True])
    assert bot == hard and human.mu > NEW.mu
    human_lost, bot = rate([NEW, hard], [2, 1], [False, True])
    assert bot == hard and human_lost.mu < NEW.mu
    # losing to a strong bot costs less than losing to a weak one
    lost_to_easy = rate([NEW, BOT_SKILLS["easy"]], [2, 1], [False, True])[0]
    assert lost_to_easy.mu < human_lost.mu
    assert rate([hard, hard], [1, 2], [True, True]) == [hard, hard]
    assert [s.ordinal for s in BOT_SKILLS.values()] == [13.0, 19.0, 25.0]


def test_a_solo_match_changes_nothing() -> None:
    assert rate([NEW], [1], [False]) == [NEW]
    assert rate([], [], []) == []


# -- stored in the finishing transaction ----------------------------------------------------
class LoopThread:
    """An event loop on a thread of its own, kept for a whole test (an engine's connections
    belong to one loop): this thread may already run one, Playwright's, after browser tests."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def run_until_complete(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


@pytest.fixture
def loop() -> Iterator[LoopThread]:
    running = LoopThread()
    yield running
    running.close()


@pytest.fixture
def db(tmp_path: Path, loop: LoopThread) -> Iterator[AsyncEngine]:
    with fresh_database(tmp_path) as url:
        engine = make_engine(url)
        loop.run_until_complete(upgrade_to_head(engine))
        yield engine
        loop.run_until_complete(engine.dispose())


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
            await MoveLog(self.db).finish(end)
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
        movelog = MoveLog(db)
        movelog.start()
        try:
            stored = await asyncio.gather(
                *(
                    movelog.append(
                        MoveCommit("r1", end.match_id, 1, 0, {"type": "x"}, table.now, end)
                    )
                    for end in (again, fresh)
                )
            )
        finally:
            await movelog.stop()
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
    theirs = {"mu": 30.0, "sigma": 5.0, "ordinal": 15.0, "matches": 1, "last_delta": 0.0}

    async def race() -> int:
        async with transaction(db) as other:
            await other.execute(
                insert(Rating),
                {"player_id": 1, "game": "plus_minus", "updated_at": table.now, **theirs},
            )
            finishing = asyncio.ensure_future(table.finishing([1, 2], [2, 1], [0]))
            await asyncio.sleep(0.5)
            assert not finishing.done()  # it waits on the row this transaction made
        return await finishing

    match_id = table.run(race())
    assert table.changes(match_id)[0].mu_before == pytest.approx(30.0)  # rated from their row
    assert table.ratings()[1].matches == 2 and table.ratings()[2].matches == 1
    assert table.records()[(1, "plus_minus")] == (1, 1, 0, 0)


# -- over the real server ------------------------------------------------------------------
def stats_of(http: httpx.Client, player_id: int) -> dict[str, Any]:
    answer = http.get(f"/api/players/{player_id}/stats")
    assert answer.status_code == 200, answer.text
    return {g["game"]: g for g in answer.json()["games"]}


def test_a_finished_match_rates_its_players_in_the_same_commit(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    ann, ben = Guest(live_server, f"Rita {tag}"), Guest(live_server, f"Sam {tag}")
    played = play_match([ann, ben], "abstrac", seed=11, target=50)
    summary = played.summary
    winner = summary["winners"][0] if len(summary["winners"]) == 1 else None
    seats = {s["player"]["id"]: s for s in summary["seats"]}
    for player in (ann, ben):
        change = seats[player.id]["rating"]
        assert change is not None and change["before"] == 0
        rating = stats_of(ann.http, player.id)["abstrac"]["rating"]
        assert rating["ordinal"] == change["after"] and rating["trend"] == change["delta"]
        assert rating["matches"] == 1 and rating["last_match_id"] == played.match_id
        assert rating["recent"][-1]["match_id"] == played.match_id
        assert rating["rank"] >= 1 and rating["rated_players"] >= 2
    if winner is not None:
        loser = 1 - winner
        assert summary["seats"][winner]["rating"]["delta"] > 0
        assert summary["seats"][loser]["rating"]["delta"] < 0

    board = ann.http.get("/api/ratings", params={"game": "abstrac", "limit": 200}).json()
    assert board["game"] == "abstrac" and set(board["bots"]) == {"easy", "normal", "hard"}
    listed = {r["player"]["id"]: r for r in board["ratings"]}
    assert {ann.id, ben.id} <= set(listed)
    ordinals = [r["ordinal"] for r in board["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board["ratings"][0]["rank"] == 1
    for r in board["ratings"]:
        assert r["rank"] == 1 + sum(1 for o in ordinals if o > r["ordinal"])
    assert listed[ann.id]["rank"] == stats_of(ann.http, ann.id)["abstrac"]["rating"]["rank"]


def test_bots_are_fixed_and_solo_matches_are_not_rated(live_server: str) -> None:
    tag = uuid.uuid4().hex[:4]
    human = Guest(live_server, f"Uma {tag}")
    played = play_match([human], "abstrac", ("hard",), seed=5, target=50)
    summary = played.summary
    assert summary["has_bots"] is True
    assert summary["seats"][1]["rating"] is None and summary["seats"][1]["bot"] == "hard"
    change = summary["seats"][0]["rating"]
    assert change["before"] == 0 and change["delta"] != 0
    board = human.http.get("/api/ratings", params={"game": "abstrac"}).json()
    assert board["bots"]["hard"] == {"mu": 28.0, "sigma": 1.0, "ordinal": 25.0}
    rating = stats_of(human.http, human.id)["abstrac"]["rating"]
    assert rating["recent"][-1]["has_bots"] is True

    solo = play_match([human], "balance", seed=6)
    assert solo.summary["seats"][0]["rating"] is None
    balance = stats_of(human.http, human.id)["balance"]
    assert balance["played"] == 1 and balance["rating"] is None

    bots_only = play_bots(human, "abstrac", ("easy", "easy"), target=50)
    assert all(
        s["rating"] is None for s in human.http.get(f"/api/matches/{bots_only}").json()["seats"]
    )


def test_leaderboard_errors(live_server: str) -> None:
    http = httpx.Client(base_url=live_server, timeout=10)
    missing = http.get("/api/ratings", params={"game": "chess"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert http.get("/api/ratings").status_code == 422
    assert http.get("/api/ratings", params={"game": "abstrac", "limit": 0}).status_code == 422


def test_rebuild_recounts_and_rerates_to_the_same_figures(
    db: AsyncEngine, loop: LoopThread
) -> None:
    table = Table(db, loop)
    table.finish([1, 2, 3], [30, 10, 20], [0])
    table.finish([2, 1, 3], [50, 0, 0], [0])
    table.finish([4, "hard"], [10, 20], [1], game="abstrac")
    table.finish([1], [12], [0], game="balance")
    rated, records = table.ratings(), table.records()
    assert table.run(rebuild(db)) == 3  # the solo match is counted, never rated
    again = table.ratings()
    assert set(again) == set(rated)
    for player, row in rated.items():
        assert again[player].mu == pytest.approx(row.mu)
        assert again[player].sigma == pytest.approx(row.sigma)
        assert again[player].matches == row.matches
    assert table.records() == records
