"""Why a match ended: a typed field of every stored outcome."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Why a match ended: stored in its outcome as ``termination``."""

    NORMAL = "normal"  # the rules ended it
    FORFEIT = "forfeit"  # a seat lost by the table settings (timer or absence)
    CLAIMED = "claimed"  # the players at the table ended it: every opponent was away
    ABORTED = "aborted"  # it cannot go on (its rules changed since it began): no result


def with_termination(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """An outcome saying why the match ended (outcomes stored before it said so ended by the
    rules or by a forfeit, which names its seat)."""
    if outcome is None or "termination" in outcome:
        return outcome
    forfeit = "forfeit" in outcome.get("detail", {})
    return {**outcome, "termination": Termination.FORFEIT if forfeit else Termination.NORMAL}
