"""What a viewer is shown of a match at one moment: the live ``state`` message and a replay's
step are both built from these, so both redact a move and word an outcome the same way."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.db.outcomes import with_termination
from games.base import Action, Engine, Seat, State


def last_seen(
    engine: Engine, last: tuple[Seat, Action] | None, viewer: Seat | None
) -> dict[str, Any] | None:
    """The last move as ``viewer`` may know it."""
    if last is None:
        return None
    actor, action = last
    return {"seat": actor, "action": engine.redact_action(action, actor, viewer)}


def outcome_at(
    engine: Engine, state: State, stored: dict[str, Any] | None
) -> dict[str, Any] | None:
    """How the match ended: by its rules at ``state`` (with who abandoned it, as stored),
    else as stored (a forfeit, a claim, an abort)."""
    outcome = engine.outcome(state)
    if outcome is None:
        return stored
    ended = with_termination(outcome.to_json())
    if ended is not None and stored is not None and stored.get("abandoned"):
        ended["abandoned"] = stored["abandoned"]
    return ended


def state_messages(
    engine: Engine,
    state: State,
    viewers: Iterable[Seat | None],
    *,
    match_id: int,
    seq: int,
    last: tuple[Seat, Action] | None,
    outcome: dict[str, Any] | None,
) -> dict[Seat | None, dict[str, Any]]:
    """The ``state`` message for each of ``viewers`` (design section 4), without deadlines.
    What every viewer is shown alike is worked out once: who is to act, and in a game of perfect
    information the whole view (no seat changes it: tests/games/test_contract.py)."""
    playing = outcome is None
    to_act = sorted(engine.to_act(state)) if playing else []
    shared = engine.view(state, None) if engine.info.perfect_information else None
    return {
        viewer: {
            "type": "state",
            "match_id": match_id,
            "seq": seq,
            "view": shared if shared is not None else engine.view(state, viewer),
            "to_act": to_act,
            "legal": engine.legal_actions(state, viewer) if viewer is not None and playing else [],
            "last": last_seen(engine, last, viewer),
            "over": not playing,
            "outcome": outcome,
        }
        for viewer in viewers
    }
