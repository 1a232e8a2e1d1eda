"""What one viewer of a Balance table may see.

Public: the balance, this round's pile (every card with who played it, the direction and the
balance after), the stock's size, every hand's size, totals, this round's points, eliminations,
round records and the options. Private: the viewer's own hand and the card they just drew.
Never: other hands, the stock's order, the seed.
"""

from __future__ import annotations

from typing import Any

from games.balance.scoring import LIMIT, OUT_POINTS, SOLO_TARGET, WIN_POINTS
from games.base import Seat, State, clone


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    solo = state["mode"] == "solo"
    current = state["current"]
    rounds = state["rounds"]
    shown: dict[str, Any] = {
        "mode": state["mode"],
        "phase": "over" if state["result"] is not None else "playing",
        "round": state["round"],
        "dealer": state["dealer"],
        "to_move": current,
        "you": seat,
        "balance": state["balance"],
        "pile": state["pile"],
        "stock": len(state["stock"]),
        "hand": None if seat is None else state["hands"][seat],
        "drawn": state["drawn"] if seat is not None and seat == current else None,
        "hand_counts": [len(hand) for hand in state["hands"]],
        "points": state["points"],
        "round_points": state["tally"]["points"],
        "eliminated": state["eliminated"],
        "last_play": state["last_play"],
        "rounds": rounds,
        "last_round": rounds[-1] if rounds else None,
        "options": state["options"],
        "rules": (
            {"limit": LIMIT, "target": SOLO_TARGET}
            if solo
            else {"limit": LIMIT, "win_points": WIN_POINTS, "out_points": OUT_POINTS}
        ),
        "result": state["result"],
    }
    if solo:
        shown["automaton"] = state["automaton"]
    return clone(shown)


def reveal(state: State) -> dict[str, Any]:
    """A finished match's replay frame: ``view(state, None)`` with every hidden card shown.

    Adds ``hands`` (every seat's hand), ``stock_cards`` (the stock, next card first) and the
    card the player on turn just drew (``drawn``). The seed and the rng stay hidden.
    """
    shown = view(state, None)
    shown["hands"] = clone(state["hands"])
    shown["stock_cards"] = list(reversed(state["stock"]))
    shown["drawn"] = state["drawn"]
    return shown
