"""Match history and replays. Replays exist only for finished matches: nothing hidden leaks.

Beside the contract: ``GET /api/matches`` also takes ``after`` (a newer page), ``since`` /
``until`` (ISO dates or times, on ``started_at``; a date ``until`` includes that whole day),
``result`` (win|loss|draw of the ``player``) and ``status`` (playing|finished); dates are
clamped to 1970-01-01 .. 9999-01-01, so ``since=0001-01-01`` means from the start. ``GET
/api/matches/{id}/replay/{seq}`` also answers ``views`` (each seat's own view then), ``lasts``
(the last action as each seat saw it), ``to_act``, ``last``, ``over`` and ``outcome``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.api.params import PathId, PathNumber, QueryId
from app.db.clock import iso
from app.db.history import list_matches, match_summary
from app.db.matches import MatchRecord, MoveRow, load_match, load_moves
from app.db.outcomes import with_termination
from games import REGISTRY
from games.base import Engine, State

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


# -- replays -----------------------------------------------------------------------------------
CHECKPOINT_EVERY = 32
CACHED_MATCHES = 64


@dataclass
class Replay:
    """A finished match, rebuilt from seed + actions; states kept every few moves so stepping
    back and forth applies at most ``CHECKPOINT_EVERY - 1`` moves. Finished matches never
    change, so a replay stays valid for as long as it is cached."""

    record: MatchRecord
    engine: Engine
    moves: list[MoveRow]
    summary: dict[str, Any]
    checkpoints: dict[int, State] = field(default_factory=dict)

    def state_at(self, seq: int) -> State:
        if not self.checkpoints:
            record = self.record
            self.checkpoints[0] = self.engine.setup(record.players, record.seed, record.options)
        start = max(s for s in self.checkpoints if s <= seq)
        state = self.checkpoints[start]
        for move in self.moves[start:seq]:
            state = self.engine.apply_unchecked(state, move.seat, move.action)
            if move.seq % CHECKPOINT_EVERY == 0:
                self.checkpoints[move.seq] = state
        return state


class ReplayCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._replays: OrderedDict[int, Replay] = OrderedDict()

    def get(self, match_id: int) -> Replay | None:
        replay = self._replays.get(match_id)
        if replay is not None:
            self._replays.move_to_end(match_id)
        return replay

    def put(self, replay: Replay) -> None:
        self._replays[replay.record.id] = replay
        self._replays.move_to_end(replay.record.id)
        while len(self._replays) > self.size:
            self._replays.popitem(last=False)


REPLAYS = ReplayCache(CACHED_MATCHES)


async def _finished(services: ServicesDep, match_id: int) -> MatchRecord:
    record = await load_match(services.db, match_id)
    if record is None:
        raise ApiError(404, "not_found", "No such match.")
    if record.status != "finished":
        raise ApiError(409, "match_running", "A replay opens when the match is finished.")
    if record.game not in REGISTRY:
        raise ApiError(404, "not_found", "That game is no longer available.")
    if record.engine_version != REGISTRY[record.game].version:
        raise ApiError(
            409, "rules_changed", "This match was played under rules that have changed since."
        )
    return record


async def _replay(services: ServicesDep, match_id: int) -> Replay:
    replay = REPLAYS.get(match_id)
    if replay is None:
        record = await _finished(services, match_id)
        moves = await load_moves(services.db, match_id)
        summary = await match_summary(services.db, match_id) or {}
        replay = Replay(record, REGISTRY[record.game], moves, summary)
        REPLAYS.put(replay)
    return replay


@router.get("/{match_id}/replay")
async def replay(match_id: PathId, services: ServicesDep) -> dict[str, Any]:
    found = await _replay(services, match_id)
    return {
        "seed": found.record.seed,
        "options": found.record.options,
        "seats": found.summary.get("seats", []),
        "actions": [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "at": iso(m.at)} for m in found.moves
        ],
    }


@router.get("/{match_id}/replay/{seq}")
async def replay_at(match_id: PathId, seq: PathNumber, services: ServicesDep) -> dict[str, Any]:
    found = await _replay(services, match_id)
    moves, engine = found.moves, found.engine
    if not 0 <= seq <= len(moves):
        raise ApiError(404, "not_found", f"This match has moves 0 to {len(moves)}.")
    state = found.state_at(seq)
    seats = range(found.record.players)
    last = moves[seq - 1] if seq else None
    outcome = engine.outcome(state)
    ended = with_termination(outcome.to_json()) if outcome is not None else None
    if ended is None and seq == len(moves):
        ended = found.summary.get("outcome")  # ended without a final move: a forfeit
    return {
        "seq": seq,
        "view": engine.reveal(state),
        "views": [engine.view(state, seat) for seat in seats],
        "to_act": sorted(engine.to_act(state)),
        "last": {"seat": last.seat, "action": last.action} if last else None,
        "lasts": [
            {"seat": last.seat, "action": engine.redact_action(last.action, last.seat, seat)}
            if last
            else None
            for seat in seats
        ],
        "over": ended is not None,
        "outcome": ended,
        "move_count": len(moves),
    }
