"""Per-game records and skill ratings (openskill's Plackett-Luce model: 2 to 6 seats, ties).

A finished match is counted and rated in the transaction that stores its end
(``movelog.finish_matches`` calls :func:`record_matches`). A failure there is logged, and the
transaction runs again without them (:func:`rated_or_not`): the match stays uncounted and
unrated, and the move is never lost.

* Each player's record per game (``player_games``: played, won, lost, drawn) counts every
  finished match they sat in, solo ones too; a draw is a win shared with another seat.

* Every player starts at the model's default, mu 25, sigma 25/3: ordinal (mu - 3 sigma) 0.
  The ordinal is what is shown and ranked; the trend is its change in the latest rated match.
* Places come from the outcome: the winners share first place, the others follow by score,
  higher first (every engine reports "higher is better"; ABspecken reports minus its
  penalties), equal scores share a place.
* Bots have fixed, published ratings per level (:data:`BOT_SKILLS`); they take part in the
  update as opponents but never change. Matches with bots are marked (``matches.has_bots``).
* A one-seat (solo) match, or one without a human, changes nothing.

``python -m app.db.ratings rebuild`` recomputes every record and rating from the finished
matches, in the order they finished (after changing a constant here, or to rate matches that
finished before migration 0003).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from asyncpg import Connection as AsyncpgConnection
from openskill.models import PlackettLuce
from sqlalchemy import Integer, String, any_, bindparam, delete, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.clock import iso
from app.db.driver import DriverConnection, Writer
from app.db.matches import MatchEnd
from app.db.models import Match, MatchSeat, Player, PlayerGame, Rating, RatingChange

log = logging.getLogger(__name__)
T = TypeVar("T")

MODEL = PlackettLuce()
RECENT = 10  # rating points per game in a player's stats (a trend line)


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "ordinal": shown(self)}


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)

#: The published ratings of the server's bots, by level; fixed, never updated.
BOT_SKILLS: dict[str, Skill] = {
    "easy": Skill(16.0, 1.0),  # ordinal 13: plays a random legal move
    "normal": Skill(22.0, 1.0),  # ordinal 19
    "hard": Skill(28.0, 1.0),  # ordinal 25
}


def shown(skill: Skill) -> float:
    return round(skill.ordinal, 2)


def bot_skill(level: str | None) -> Skill:
    return BOT_SKILLS.get(level or "", BOT_SKILLS["normal"])


# -- the pure part --------------------------------------------------------------------------
def places(outcome: Mapping[str, Any], seats: int) -> list[int]:
    """Each seat's place, 1 = best: winners share 1, the rest by score (higher first)."""
    winners = set(outcome.get("winners") or [])
    scores = list(outcome.get("scores") or [])
    scores += [0.0] * (seats - len(scores))

    def key(seat: int) -> tuple[int, float]:
        return (0 if seat in winners else 1, -float(scores[seat] or 0))

    keys = [key(seat) for seat in range(seats)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def rate(skills: Sequence[Skill], ranks: Sequence[int], fixed: Sequence[bool]) -> list[Skill]:
    """New skills after one match; ``fixed`` seats (bots) and solo matches stay as they were."""
    if len(skills) < 2 or all(fixed):
        return list(skills)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [
        old if fixed[i] else Skill(float(rated[i][0].mu), float(rated[i][0].sigma))
        for i, old in enumerate(skills)
    ]


# -- updating ---------------------------------------------------------------------------------
class RatingFailed(Exception):
    """Counting or rating matches failed: their transaction is spoilt, and is to be run again
    without them (:func:`rated_or_not`)."""


async def record_matches(conn: Writer, ends: Sequence[MatchEnd]) -> None:
    """Count and rate matches that have just finished (in that order), inside the caller's
    transaction: a few statements for all of them. Raises :class:`RatingFailed`."""
    ends = [e for e in ends if e.rated]
    if not ends:
        return
    try:
        await _count_and_rate(conn, ends)
    except Exception as error:
        ids = ", ".join(str(e.match_id) for e in ends)
        raise RatingFailed(f"could not count or rate match {ids}") from error


async def rated_or_not(
    begin: Callable[[], AbstractAsyncContextManager[Writer]],
    write: Callable[[Writer, bool], Awaitable[T]],
) -> T:
    """``write(conn, rate=True)`` in a transaction of ``begin``; if counting and rating fail,
    the whole of it again with ``rate=False``: records and ratings never cost a finish its
    commit. A savepoint around them did the same for two more round trips every finish."""
    try:
        async with begin() as conn:
            return await write(conn, True)
    except RatingFailed as failure:
        log.exception("%s; it is stored uncounted and unrated", failure)
    async with begin() as conn:
        return await write(conn, False)


def _countable(end: MatchEnd) -> bool:
    humans = [player for player, _ in end.seats if player is not None]
    if len(set(humans)) != len(humans):
        log.warning("match %s seats one player twice; not counted", end.match_id)
        return False
    return bool(humans)


async def _count_and_rate(conn: Writer, ends: Sequence[MatchEnd], *, count: bool = True) -> None:
    counted = [e for e in ends if _countable(e)]
    rated = [e for e in counted if len(e.seats) >= 2]  # a solo match is never rated
    records = _records(counted) if count else []
    if isinstance(conn, DriverConnection):
        current = await _lock_on_driver(conn.driver, rated) if rated else {}
        await _write_on_driver(conn.driver, records, *_rated_rows(rated, current))
        return
    if records:
        await conn.execute(_count_statement(conn.dialect.name), records)
    if not rated:
        return
    updates, changes = _rated_rows(rated, await _lock_ratings(conn, rated))
    await conn.execute(_RATE, updates)
    await conn.execute(_CHANGE, changes)


def _rated_rows(
    rated: Sequence[MatchEnd], current: dict[tuple[int, str], Skill]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The new rating of each player and game (in that order), and a change row for each
    rated seat of a human, rating the matches in order."""
    updates: dict[tuple[int, str], dict[str, Any]] = {}
    changes: list[dict[str, Any]] = []
    for end in rated:
        skills = [
            current[(player, end.game)] if player is not None else bot_skill(bot)
            for player, bot in end.seats
        ]
        fixed = [player is None for player, _ in end.seats]
        after = rate(skills, places(end.outcome, len(end.seats)), fixed)
        for seat, ((player, _), old, new) in enumerate(zip(end.seats, skills, after, strict=True)):
            if player is None:
                continue
            key = (player, end.game)
            current[key] = new
            matches = updates[key]["b_n"] + 1 if key in updates else 1
            updates[key] = {
                "pid": player,
                "g": end.game,
                "b_mu": new.mu,
                "b_sigma": new.sigma,
                "b_ordinal": new.ordinal,
                "b_n": matches,
                "delta": new.ordinal - old.ordinal,
                "mid": end.match_id,
                "at": end.at,
            }
            changes.append(
                {
                    "match_id": end.match_id,
                    "seat": seat,
                    "player_id": player,
                    "game": end.game,
                    "mu_before": old.mu,
                    "sigma_before": old.sigma,
                    "mu_after": new.mu,
                    "sigma_after": new.sigma,
                    "ordinal_before": old.ordinal,
                    "ordinal_after": new.ordinal,
                    "at": end.at,
                }
            )
    return [updates[key] for key in sorted(updates)], changes


_RATE = (
    update(Rating)
    .where(Rating.player_id == bindparam("pid"), Rating.game == bindparam("g"))
    .values(
        mu=bindparam("b_mu"),
        sigma=bindparam("b_sigma"),
        ordinal=bindparam("b_ordinal"),
        matches=Rating.matches + bindparam("b_n"),
        last_delta=bindparam("delta"),
        last_match_id=bindparam("mid"),
        updated_at=bindparam("at"),
    )
)
_CHANGE = insert(RatingChange)


def _dialect_insert(dialect: str) -> Any:
    return (postgresql if dialect == "postgresql" else sqlite).insert


# Built once per dialect: building a statement costs as much as running it here.
@cache
def _count_statement(dialect: str) -> Any:
    upsert = _dialect_insert(dialect)(PlayerGame)
    return upsert.on_conflict_do_update(
        index_elements=["player_id", "game"],
        set_={
            "played": PlayerGame.played + upsert.excluded.played,
            "won": PlayerGame.won + upsert.excluded.won,
            "lost": PlayerGame.lost + upsert.excluded.lost,
            "drawn": PlayerGame.drawn + upsert.excluded.drawn,
            "last_match_id": upsert.excluded.last_match_id,
        },
    )


@cache
def _newcomers_statement(dialect: str) -> Any:
    return _dialect_insert(dialect)(Rating).on_conflict_do_nothing(
        index_elements=["player_id", "game"]
    )


@cache
def _lock_statement(dialect: str) -> Any:
    if dialect == "postgresql":  # one text for any number of players: compiled once
        players = Rating.player_id == any_(bindparam("players", type_=postgresql.ARRAY(Integer)))
        games = Rating.game == any_(bindparam("games", type_=postgresql.ARRAY(String)))
    else:
        players = Rating.player_id.in_(bindparam("players", expanding=True))
        games = Rating.game.in_(bindparam("games", expanding=True))
    return (
        select(Rating.player_id, Rating.game, Rating.mu, Rating.sigma)
        .where(players, games)
        .order_by(Rating.player_id, Rating.game)
        .with_for_update()
    )


def _records(ends: Sequence[MatchEnd]) -> list[dict[str, Any]]:
    """What the matches add to each seated player's record for the game: one row per player
    and game, sorted, the order the rows are locked in (as the ratings are), so concurrent
    finishes never wait on each other in a circle."""
    records: dict[tuple[int, str], dict[str, Any]] = {}
    for end in ends:
        winners = set(end.outcome.get("winners") or [])
        for seat, (player, _) in enumerate(end.seats):
            if player is None:
                continue
            won = seat in winners
            row = records.setdefault(
                (player, end.game),
                {
                    "player_id": player,
                    "game": end.game,
                    "played": 0,
                    "won": 0,
                    "lost": 0,
                    "drawn": 0,
                },
            )
            row["played"] += 1
            row["won"] += int(won and len(winners) == 1)
            row["lost"] += int(not won)
            row["drawn"] += int(won and len(winners) > 1)
            row["last_match_id"] = end.match_id
    return [records[key] for key in sorted(records)]


async def _lock_ratings(conn: Writer, ends: Sequence[MatchEnd]) -> dict[tuple[int, str], Skill]:
    """The current skill of every player in ``ends`` for that game, creating newcomers; rows
    locked (Postgres) in (player, game) order."""
    keys = _rating_keys(ends)
    await conn.execute(
        _newcomers_statement(conn.dialect.name),
        [
            {
                "player_id": player_id,
                "game": game,
                "mu": NEWCOMER.mu,
                "sigma": NEWCOMER.sigma,
                "ordinal": NEWCOMER.ordinal,
                "matches": 0,
                "last_delta": 0.0,
                "updated_at": ends[0].at,
            }
            for player_id, game in keys
        ],
    )
    rows = await conn.execute(
        _lock_statement(conn.dialect.name),
        {"players": sorted({p for p, _ in keys}), "games": sorted({g for _, g in keys})},
    )
    return {(player, game): Skill(mu, sigma) for player, game, mu, sigma in rows}


def _rating_keys(ends: Sequence[MatchEnd]) -> list[tuple[int, str]]:
    return sorted({(p, e.game) for e in ends for p, _ in e.seats if p is not None})


# On Postgres a finish rates its matches in two statements of one text for any batch (each
# statement was a round trip, and a busy server waits a turn of its event loop for each):
# the first makes the newcomers' rows and locks every row it returns, in (player, game)
# order, as the records are locked after them; the second writes ratings, their history and
# the records.
_LOCK_ON_POSTGRES = """
WITH keys AS (
    SELECT * FROM unnest($1::integer[], $2::text[]) AS k(player_id, game)
), fresh AS (
    INSERT INTO ratings (player_id, game, mu, sigma, ordinal, matches, last_delta, updated_at)
    SELECT player_id, game, $3, $4, $5, 0, 0, $6 FROM keys ORDER BY player_id, game
    ON CONFLICT (player_id, game) DO NOTHING
    RETURNING player_id, game, mu, sigma
), held AS (
    SELECT r.player_id, r.game, r.mu, r.sigma FROM ratings AS r JOIN keys USING (player_id, game)
    WHERE r.player_id = ANY($1)
    ORDER BY r.player_id, r.game FOR UPDATE OF r
)
SELECT * FROM held UNION ALL SELECT * FROM fresh
"""

_WRITE_ON_POSTGRES = """
WITH rated AS (
    UPDATE ratings AS r
    SET mu = x.mu, sigma = x.sigma, ordinal = x.ordinal, matches = r.matches + x.n,
        last_delta = x.delta, last_match_id = x.mid, updated_at = x.at
    FROM unnest($1::integer[], $2::text[], $3::float8[], $4::float8[], $5::float8[],
                $6::integer[], $7::float8[], $8::integer[], $9::timestamptz[])
        AS x(player_id, game, mu, sigma, ordinal, n, delta, mid, at)
    WHERE r.player_id = x.player_id AND r.game = x.game AND r.player_id = ANY($1)
), changed AS (
    INSERT INTO rating_history (match_id, seat, player_id, game, mu_before, sigma_before,
                                mu_after, sigma_after, ordinal_before, ordinal_after, at)
    SELECT * FROM unnest($10::integer[], $11::integer[], $12::integer[], $13::text[],
                         $14::float8[], $15::float8[], $16::float8[], $17::float8[],
                         $18::float8[], $19::float8[], $20::timestamptz[])
)
INSERT INTO player_games AS p (player_id, game, played, won, lost, drawn, last_match_id)
SELECT * FROM unnest($21::integer[], $22::text[], $23::integer[], $24::integer[],
                     $25::integer[], $26::integer[], $27::integer[])
ON CONFLICT (player_id, game) DO UPDATE
SET played = p.played + excluded.played, won = p.won + excluded.won,
    lost = p.lost + excluded.lost, drawn = p.drawn + excluded.drawn,
    last_match_id = excluded.last_match_id
"""
_UPDATE_COLUMNS = ("pid", "g", "b_mu", "b_sigma", "b_ordinal", "b_n", "delta", "mid", "at")
_CHANGE_COLUMNS = (
    "match_id",
    "seat",
    "player_id",
    "game",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "ordinal_before",
    "ordinal_after",
    "at",
)
_RECORD_COLUMNS = ("player_id", "game", "played", "won", "lost", "drawn", "last_match_id")


def _columns(rows: list[dict[str, Any]], names: tuple[str, ...]) -> list[list[Any]]:
    return [[row[name] for row in rows] for name in names]


async def _lock_on_driver(
    driver: AsyncpgConnection, ends: Sequence[MatchEnd]
) -> dict[tuple[int, str], Skill]:
    keys = _rating_keys(ends)
    players, games = [p for p, _ in keys], [g for _, g in keys]
    newcomer = (NEWCOMER.mu, NEWCOMER.sigma, NEWCOMER.ordinal, ends[0].at)
    for _ in range(2):
        rows = await driver.fetch(_LOCK_ON_POSTGRES, players, games, *newcomer)
        current = {(row[0], row[1]): Skill(row[2], row[3]) for row in rows}
        if len(current) == len(keys):
            break
        # another transaction made a newcomer's row after this statement began: the next
        # statement sees it, and locks it
    return current


async def _write_on_driver(
    driver: AsyncpgConnection,
    records: list[dict[str, Any]],
    updates: list[dict[str, Any]],
    changes: list[dict[str, Any]],
) -> None:
    if not (records or updates):
        return
    await driver.execute(
        _WRITE_ON_POSTGRES,
        *_columns(updates, _UPDATE_COLUMNS),
        *_columns(changes, _CHANGE_COLUMNS),
        *_columns(records, _RECORD_COLUMNS),
    )


# Every player's record per game, counted again from the finished matches (migration 0003
# fills the table with the same statement).
RECORDS = """
INSERT INTO player_games (player_id, game, played, won, lost, drawn, last_match_id)
SELECT ms.player_id, m.game, count(*),
       sum(CASE WHEN ms.winner AND NOT EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       sum(CASE WHEN NOT ms.winner THEN 1 ELSE 0 END),
       sum(CASE WHEN ms.winner AND EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       max(m.id)
FROM match_seats ms JOIN matches m ON m.id = ms.match_id
WHERE ms.player_id IS NOT NULL AND m.status = 'finished' AND ms.winner IS NOT NULL
GROUP BY ms.player_id, m.game
"""


async def rebuild(db: AsyncEngine, *, batch: int = 500) -> int:
    """Count every record again and rate all finished matches again, in the order they
    finished; returns how many matches were rated."""
    async with db.begin() as conn:
        await conn.execute(delete(RatingChange))
        await conn.execute(delete(Rating))
        await conn.execute(delete(PlayerGame))
        await conn.execute(text(RECORDS))
    rated, after = 0, (None, 0)
    while True:
        async with db.begin() as conn:
            query = select(
                Match.id, Match.room_id, Match.game, Match.outcome, Match.finished_at
            ).where(Match.status == "finished", Match.players > 1)
            if after[0] is not None:
                query = query.where(
                    (Match.finished_at > after[0])
                    | ((Match.finished_at == after[0]) & (Match.id > after[1]))
                )
            rows = (
                await conn.execute(query.order_by(Match.finished_at, Match.id).limit(batch))
            ).all()
            seats = await _seats_of(conn, [row.id for row in rows])
            ends = [
                MatchEnd(
                    room_id=row.room_id,
                    match_id=row.id,
                    game=row.game,
                    seats=seats.get(row.id, ()),
                    move_count=0,
                    outcome=row.outcome or {},
                    at=row.finished_at,
                )
                for row in rows
            ]
            await _count_and_rate(conn, ends, count=False)
        if not rows:
            return rated
        rated += len(rows)
        after = (rows[-1].finished_at, rows[-1].id)


async def _seats_of(
    conn: AsyncConnection, match_ids: list[int]
) -> dict[int, tuple[tuple[int | None, str | None], ...]]:
    rows = await conn.execute(
        select(MatchSeat.match_id, MatchSeat.player_id, MatchSeat.bot)
        .where(MatchSeat.match_id.in_(match_ids))
        .order_by(MatchSeat.match_id, MatchSeat.seat)
    )
    seats: dict[int, list[tuple[int | None, str | None]]] = {}
    for row in rows:
        seats.setdefault(row.match_id, []).append((row.player_id, row.bot))
    return {match_id: tuple(taken) for match_id, taken in seats.items()}


# -- reading ----------------------------------------------------------------------------------
def _rating_json(row: Any, rank: int | None = None) -> dict[str, Any]:
    skill = Skill(row.mu, row.sigma)
    return {
        **skill.to_json(),
        "rank": rank,
        "matches": row.matches,
        "trend": round(row.last_delta, 2),
        "last_match_id": row.last_match_id,
        "updated_at": iso(row.updated_at),
    }


def bots_json() -> dict[str, dict[str, float]]:
    return {level: skill.to_json() for level, skill in BOT_SKILLS.items()}


async def leaderboard(db: AsyncEngine, game: str, limit: int = 50) -> list[dict[str, Any]]:
    """The best players of a game by ordinal (index ratings(game, ordinal)); ties share a rank."""
    async with db.connect() as conn:
        rows = (
            await conn.execute(
                select(Rating.__table__, Player.name)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.game == game)
                .order_by(Rating.ordinal.desc(), Rating.player_id)
                .limit(limit)
            )
        ).all()
    board: list[dict[str, Any]] = []
    for position, row in enumerate(rows, start=1):
        tied = board and rows[position - 2].ordinal == row.ordinal
        rank = board[-1]["rank"] if tied else position
        board.append({"player": {"id": row.player_id, "name": row.name}, **_rating_json(row, rank)})
    return board


async def player_ratings(conn: AsyncConnection, player_id: int) -> dict[str, dict[str, Any]]:
    """A player's rating in each game they are rated in: rank among the game's players, trend,
    and the ordinal after each of their latest rated matches (oldest first)."""
    rows = (await conn.execute(select(Rating.__table__).where(Rating.player_id == player_id))).all()
    result: dict[str, dict[str, Any]] = {}
    for row in rows:
        above = await conn.scalar(
            select(func.count())
            .select_from(Rating)
            .where(Rating.game == row.game, Rating.ordinal > row.ordinal)
        )
        rated = await conn.scalar(
            select(func.count()).select_from(Rating).where(Rating.game == row.game)
        )
        recent = (
            await conn.execute(
                select(
                    RatingChange.match_id,
                    RatingChange.ordinal_before,
                    RatingChange.ordinal_after,
                    RatingChange.at,
                    Match.has_bots,
                )
                .join(Match, Match.id == RatingChange.match_id)
                .where(RatingChange.player_id == player_id, RatingChange.game == row.game)
                .order_by(RatingChange.match_id.desc())
                .limit(RECENT)
            )
        ).all()
        result[row.game] = {
            **_rating_json(row, int(above or 0) + 1),
            "rated_players": int(rated or 0),
            "recent": [
                {
                    "match_id": r.match_id,
                    "ordinal": round(r.ordinal_after, 2),
                    "delta": round(r.ordinal_after - r.ordinal_before, 2),
                    "has_bots": r.has_bots,
                    "at": iso(r.at),
                }
                for r in reversed(recent)
            ],
        }
    return result


async def seat_changes(
    conn: AsyncConnection, match_ids: Sequence[int]
) -> dict[tuple[int, int], dict[str, float]]:
    """``(match_id, seat) -> {"before", "after", "delta"}`` (ordinals) for rated human seats."""
    if not match_ids:
        return {}
    rows = await conn.execute(
        select(
            RatingChange.match_id,
            RatingChange.seat,
            RatingChange.ordinal_before,
            RatingChange.ordinal_after,
        ).where(RatingChange.match_id.in_(list(match_ids)))
    )
    return {
        (r.match_id, r.seat): {
            "before": round(r.ordinal_before, 2),
            "after": round(r.ordinal_after, 2),
            "delta": round(r.ordinal_after - r.ordinal_before, 2),
        }
        for r in rows
    }


def main(argv: Sequence[str]) -> int:
    if list(argv) != ["rebuild"]:
        print("usage: python -m app.db.ratings rebuild", file=sys.stderr)
        return 2

    async def run() -> int:
        from app.db.engine import make_engine
        from app.db.migrate import upgrade_to_head
        from app.settings import get_settings

        db = make_engine(get_settings().database_url)
        try:
            await upgrade_to_head(db)
            return await rebuild(db)
        finally:
            await db.dispose()

    print(f"rated {asyncio.run(run())} finished matches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
