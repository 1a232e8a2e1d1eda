"""Counting and rating finished matches, in the transaction that stores their end: what to
write, worked out the same on every backend. Each store writes it with its own statements
(:class:`RatingRows`: app/db/sqlite_store.py, app/db/postgres_store.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol, TypeVar

from app.db.matches import MatchEnd
from app.db.ratings.model import Skill, bot_skill, places, rate

log = logging.getLogger(__name__)
T = TypeVar("T")
C = TypeVar("C")  # a backend's connection
C_contra = TypeVar("C_contra", contravariant=True)

Key = tuple[int, str]  # (player id, game)
Rows = list[dict[str, Any]]


class RatingFailed(Exception):
    """Counting or rating matches failed: their transaction is spoilt, and is to be run again
    without them (:func:`rated_or_not`)."""


class RatingRows(Protocol[C_contra]):
    """A backend's statements for rating, run in the caller's transaction."""

    async def lock_ratings(self, conn: C_contra, keys: list[Key], at: datetime) -> dict[Key, Skill]:
        """The current skill of each (player, game) of ``keys`` (sorted), making newcomers'
        rows (updated at ``at``); rows locked, where the database locks rows, in that order."""
        ...

    async def write_ratings(
        self, conn: C_contra, records: Rows, updates: Rows, changes: Rows
    ) -> None:
        """Add ``records`` to the players' records (:func:`_records`), and write the new
        ratings and their history (:func:`_rated_rows`)."""
        ...


async def record_matches(
    rows: RatingRows[C], conn: C, ends: Sequence[MatchEnd], *, count: bool = True
) -> None:
    """Count (if ``count``) and rate matches that have just finished (in that order), inside
    the caller's transaction: a few statements for all of them. Raises :class:`RatingFailed`."""
    ends = [e for e in ends if e.rated]
    if not ends:
        return
    try:
        counted = [e for e in ends if _countable(e)]
        rated = [e for e in counted if e.changes_ratings]
        records = _records(counted) if count else []
        current = await rows.lock_ratings(conn, _rating_keys(rated), rated[0].at) if rated else {}
        await rows.write_ratings(conn, records, *_rated_rows(rated, current))
    except Exception as error:
        ids = ", ".join(str(e.match_id) for e in ends)
        raise RatingFailed(f"could not count or rate match {ids}") from error


async def rated_or_not(
    begin: Callable[[], AbstractAsyncContextManager[C]],
    write: Callable[[C, bool], Awaitable[T]],
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


def _rated_rows(rated: Sequence[MatchEnd], current: dict[Key, Skill]) -> tuple[Rows, Rows]:
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
        after = rate(skills, places(end.outcome, len(end.seats), end.abandoned), fixed)
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


def _records(ends: Sequence[MatchEnd]) -> list[dict[str, Any]]:
    """What the matches add to each seated player's record for the game: one row per player
    and game, sorted, the order the rows are locked in (as the ratings are), so concurrent
    finishes never wait on each other in a circle."""
    records: dict[tuple[int, str], dict[str, Any]] = {}
    for end in ends:
        winners = {seat for seat in end.outcome.get("winners") or [] if end.won(seat)}
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
                    "abandoned": 0,
                },
            )
            row["played"] += 1
            row["won"] += int(won and len(winners) == 1)
            row["lost"] += int(not won)
            row["drawn"] += int(won and len(winners) > 1)
            row["abandoned"] += int(seat in end.abandoned)
            row["last_match_id"] = end.match_id
    return [records[key] for key in sorted(records)]


def _rating_keys(ends: Sequence[MatchEnd]) -> list[Key]:
    return sorted({(p, e.game) for e in ends for p, _ in e.seats if p is not None})
