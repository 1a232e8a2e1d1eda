"""Match history and replays. Replays exist only for finished matches: nothing hidden leaks."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.db.clock import iso
from app.db.history import list_matches, match_summary
from app.db.matches import MatchRecord, load_match, load_moves
from games import REGISTRY

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.get("")
async def history(
    services: ServicesDep,
    player: int | None = None,
    game: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    before: int | None = None,
) -> list[dict[str, Any]]:
    return await list_matches(services.db, player_id=player, game=game, limit=limit, before=before)


@router.get("/{match_id}")
async def match(match_id: int, services: ServicesDep) -> dict[str, Any]:
    summary = await match_summary(services.db, match_id)
    if summary is None:
        raise ApiError(404, "not_found", "No such match.")
    return summary


async def _finished(services: ServicesDep, match_id: int) -> MatchRecord:
    record = await load_match(services.db, match_id)
    if record is None:
        raise ApiError(404, "not_found", "No such match.")
    if record.status != "finished":
        raise ApiError(409, "match_running", "A replay opens when the match is finished.")
    if record.game not in REGISTRY:
        raise ApiError(404, "not_found", "That game is no longer available.")
    return record


@router.get("/{match_id}/replay")
async def replay(match_id: int, services: ServicesDep) -> dict[str, Any]:
    record = await _finished(services, match_id)
    summary = await match_summary(services.db, match_id)
    moves = await load_moves(services.db, match_id)
    return {
        "seed": record.seed,
        "options": record.options,
        "seats": summary["seats"] if summary else [],
        "actions": [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "at": iso(m.at)} for m in moves
        ],
    }


@router.get("/{match_id}/replay/{seq}")
async def replay_at(match_id: int, seq: int, services: ServicesDep) -> dict[str, Any]:
    record = await _finished(services, match_id)
    moves = await load_moves(services.db, match_id)
    if not 0 <= seq <= len(moves):
        raise ApiError(404, "not_found", f"This match has moves 0 to {len(moves)}.")
    engine = REGISTRY[record.game]
    state = engine.setup(record.players, record.seed, record.options)
    for move in moves[:seq]:
        state = engine.apply(state, move.seat, move.action)
    return {
        "seq": seq,
        "view": engine.reveal(state),
        "views": [engine.view(state, seat) for seat in range(record.players)],
        "to_act": sorted(engine.to_act(state)),
        "last": {"seat": moves[seq - 1].seat, "action": moves[seq - 1].action} if seq else None,
    }
