"""What a browser draws. Abstrac has no hidden information: every viewer sees the same table."""

from __future__ import annotations

from typing import Any

from games.abstrac.actions import OVER
from games.abstrac.scoring import combo_of_groups, copy_record, groups, is_decided
from games.base import Seat, State


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The whole table (the same for both seats and spectators); never the seed or rng."""
    found = [groups(hand) for hand in state["taken"]]
    over = is_decided(state["totals"], state["target"])
    return {
        "phase": OVER if over else state["phase"],
        "deal": state["deal"],
        "dealer": state["dealer"],
        "target": state["target"],
        "row": list(state["row"]),
        "taken": [list(hand) for hand in state["taken"]],
        "combo": [combo_of_groups(g) for g in found],
        "groups": found,
        "totals": list(state["totals"]),
        "to_move": None if over else state["to_move"],
        "deals": [copy_record(record) for record in state["deals"]],
        "last_deal": last_deal(state),
    }


def last_deal(state: State) -> dict[str, Any] | None:
    """The collections of the deal just scored, with their combinations, until the next deal's
    first card is taken; ``None`` otherwise."""
    hands = state.get("last_taken")
    if not hands or any(state["taken"]):
        return None
    found = [groups(hand) for hand in hands]
    return {"taken": [list(hand) for hand in hands], "groups": found}
