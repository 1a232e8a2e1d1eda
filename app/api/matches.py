"""Match history and replays. Replays exist only for finished matches: nothing hidden leaks.

Beside the contract: ``GET /api/matches`` also takes ``after`` (a newer page), ``since`` /
``until`` (ISO dates or times, on ``started_at``; a date ``until`` includes that whole day),
``result`` (win|loss|draw of the ``player``) and ``status`` (playing|finished); dates are
clamped to 1970-01-01 .. 9999-01-01, so ``since=0001-01-01`` means from the start. ``GET
/api/matches/{id}/replay/{seq}`` also answers ``views`` (each seat's own view then), ``lasts``
(the last action as each seat saw it), ``to_act``, ``last``, ``over`` and ``outcome``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.api.params import PathId, PathNumber, QueryId
from app.db.history import list_matches, match_summary

router = APIRouter(prefix="/api/matches", tags=["matches"])

# Moments are clamped to these: far enough from the ends of ``datetime`` that a time zone, a
# whole day and the history's clock slack can be added to them without overflowing.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)


def parse_moment(raw: str | None, name: str, *, end_of_day: bool) -> datetime | None:
    """An ISO date (``2025-03-01``) or date-time; naive times are UTC. A date ``until``
    means the end of that day. Clamped to ``EARLIEST`` .. ``LATEST``."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    whole_day = len(text) == 10
    try:
        if whole_day:
            moment = datetime.combine(date.fromisoformat(text), time())
        else:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ApiError(
            422, "invalid_request", f"{name}: expected an ISO date like 2025-03-01, got {raw!r}."
        ) from None
    if moment.year < EARLIEST.year:
        return EARLIEST
    if moment.year >= LATEST.year:
        return LATEST
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment + timedelta(days=1) if whole_day and end_of_day else moment


@router.get("")
async def history(
    services: ServicesDep,
    player: QueryId = None,
    game: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    before: QueryId = None,
    after: QueryId = None,
    since: Annotated[str | None, Query(max_length=40)] = None,
    until: Annotated[str | None, Query(max_length=40)] = None,
    result: Literal["win", "loss", "draw"] | None = None,
    status: Literal["playing", "finished"] | None = None,
) -> list[dict[str, Any]]:
    if result is not None and player is None:
        raise ApiError(422, "invalid_request", "result: filter by result needs a player.")
    if before is not None and after is not None:
        raise ApiError(422, "invalid_request", "before and after: use one of them.")
    start = parse_moment(since, "since", end_of_day=False)
    end = parse_moment(until, "until", end_of_day=True)
    if start is not None and end is not None and start >= end:
        return []
    return await list_matches(
        services.db,
        player_id=player,
        game=game or None,
        limit=limit,
        before=before,
        after=after,
        since=start,
        until=end,
        result=result,
        status=status,
    )


@router.get("/{match_id}")
async def match(match_id: PathId, services: ServicesDep) -> dict[str, Any]:
    summary = await match_summary(services.db, match_id)
    if summary is None:
        raise ApiError(404, "not_found", "No such match.")
    return summary


@router.get("/{match_id}/replay")
async def replay(match_id: PathId, services: ServicesDep) -> dict[str, Any]:
    return (await services.replays.of(match_id)).log()


@router.get("/{match_id}/replay/{seq}")
async def replay_at(match_id: PathId, seq: PathNumber, services: ServicesDep) -> dict[str, Any]:
    return (await services.replays.of(match_id)).step(seq)


@router.get("/{match_id}/review", responses={202: {"description": "Queued or computing"}})
async def review(match_id: PathId, services: ServicesDep) -> JSONResponse:
    """The hard bot's review of a finished match: 200 when done, 202 with the number of
    reviews ahead of it while it waits or is computed (asking queues it)."""
    answer = await services.reviews.status(match_id)
    return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)
