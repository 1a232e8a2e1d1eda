"""The old patch on reading a stored outcome, kept until the last caller has gone: every stored
outcome says why its match ended since migration 0008 (``Termination`` is ``games.types``')."""

from __future__ import annotations

from typing import Any

from games.types import Termination

__all__ = ["Termination", "with_termination"]


def with_termination(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """An outcome saying why the match ended (outcomes stored before it said so ended by the
    rules or by a forfeit, which names its seat)."""
    if outcome is None or "termination" in outcome:
        return outcome
    forfeit = "forfeit" in outcome.get("detail", {})
    return {**outcome, "termination": Termination.FORFEIT if forfeit else Termination.NORMAL}
