"""What one viewer may see (spec D-16): own hand, each stack's top card and size, counts.

Hands of others, buried stack cards, the deck order and the seed never appear. The latest
passed card is shown only to its giver and its receiver.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, Seat, State
from games.plus_minus.cards import sort_cards


def _stack(cards: list[str]) -> dict[str, Any]:
    return {"top": cards[-1] if cards else None, "size": len(cards)}


def view(state: State, seat: int | None) -> dict[str, Any]:
    players = state["players"]
    over = state["phase"] == "over"
    last_pass = state["last_pass"]
    passed: dict[str, Any] | None = None
    if last_pass is not None:
        passed = {"from": last_pass["from"], "to": last_pass["to"]}
        if seat in (last_pass["from"], last_pass["to"]):
            passed["card"] = last_pass["card"]
    rounds = state["rounds"]
    return {
        "game": "plus_minus",
        "players": players,
        "viewer": seat,
        "phase": state["phase"],
        "round": state["round"],
        "rounds_total": players,
        "dealer": state["dealer"],
        "current": None if over else state["current"],
        "to_act": [] if over else [state["current"]],
        "first_turn": state["first_turn"],
        "plays_left": state["plays_left"],
        "turn": dict(state["turn"]),
        "last_turn": None if state["last_turn"] is None else dict(state["last_turn"]),
        "draw_stack": len(state["deck"]),
        "seats": [
            {
                "seat": s,
                "left": (s + 1) % players,
                "hand_count": len(state["hands"][s]),
                "plus": _stack(state["plus"][s]),
                "minus": _stack(state["minus"][s]),
                "total": state["totals"][s],
            }
            for s in range(players)
        ],
        "hand": None if seat is None else sort_cards(state["hands"][seat]),
        "last_pass": passed,
        "totals": list(state["totals"]),
        "round_scores": [r["scores"] for r in rounds],
        "last_round": rounds[-1] if rounds else None,
        "options": dict(state["options"]),
    }


def reveal(state: State) -> dict[str, Any]:
    """The spectator's view with every card shown, for finished matches' replays.

    Added to ``view(state, None)``: each seat's ``hand`` (sorted) and the whole contents of
    each stack as ``cards`` (top last), the latest passed card, and the Draw Stack as ``deck``
    (top last). The seed is never shown.
    """
    shown = view(state, None)
    for entry in shown["seats"]:
        seat = entry["seat"]
        entry["hand"] = sort_cards(state["hands"][seat])
        entry["plus"]["cards"] = list(state["plus"][seat])
        entry["minus"]["cards"] = list(state["minus"][seat])
    if state["last_pass"] is not None:
        shown["last_pass"]["card"] = state["last_pass"]["card"]
    shown["deck"] = list(state["deck"])
    shown["revealed"] = True
    return shown


def redact_action(action: Action, actor: Seat, viewer: Seat | None) -> Action | None:
    """A pass shows its card only to the giver and the receiver (the action's ``to``)."""
    if action.get("type") != "pass" or viewer in (actor, action.get("to")):
        return action
    return {key: value for key, value in action.items() if key != "card"}
