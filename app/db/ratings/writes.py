"""Counting and rating finished matches, in the transaction that stores their end."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import cache
from typing import Any, TypeVar

from asyncpg import Connection as AsyncpgConnection
from sqlalchemy import Integer, String, any_, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.db.driver import DriverConnection, Writer
from app.db.matches import MatchEnd
from app.db.models import PlayerGame, Rating, RatingChange
from app.db.ratings.model import NEWCOMER, Skill, bot_skill, places, rate

log = logging.getLogger(__name__)
T = TypeVar("T")


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
