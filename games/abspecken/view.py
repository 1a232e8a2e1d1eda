"""What one viewer sees of the table (spec C-18): everything public, plus their own hand.
``reveal`` is the replay's view of a finished match: the same table with every card shown.

Public: draw piles (counts per value), discard piles (all cards, top = last), hand sizes,
totals, the dice, who has already committed in a secret phase (not what), the revealed
decisions, takes and refills. Private to a seat: its own hand and its own pending choice,
and the value of a card passed to or from it (a gift or a taken card).
"""

from __future__ import annotations

from typing import Any

from games.abspecken import actions as act
from games.abspecken import phases, rules
from games.abspecken.actions import refill_need as need_of
from games.abspecken.actions import sources_for, sums_for
from games.abspecken.cards import COLOURS
from games.abspecken.discards import PIGGY_SHIFT
from games.abspecken.scoring import winners
from games.base import Action, Seat, State, clone

#: Actions whose content only the actor may see (the secret pick and decision).
SECRET_ACTIONS = frozenset({act.PICK, act.DISCARD, act.CANNOT})

DISPLAY_OPTIONS = (
    "piggy_die",
    "end_threshold",
    "number_die",
    "smile_gift",
    "take_order",
    "take_choice",
)


def redact_log(log: dict[str, Any] | None, viewer: Seat | None) -> dict[str, Any] | None:
    """A playthrough record with the values of passed cards hidden from outsiders."""
    if log is None:
        return None
    shown = dict(log)
    gift = log["gift"]
    if gift is not None and viewer not in (gift["from"], gift["to"]):
        shown["gift"] = {**gift, "card": None}
    shown["takes"] = [
        take if viewer in (take["taker"], take["source"]) else {**take, "card": None}
        for take in log["takes"]
    ]
    return shown


def _dice(state: State) -> dict[str, Any] | None:
    dice = state["dice"]
    if dice is None:
        return None
    piggy = dice["piggy"]
    return {
        "d1": dice["d1"],
        "d2": dice["d2"],
        "sum": dice["d1"] + dice["d2"],
        "forbidden": dice["forbidden"],
        "forbidden_colour": COLOURS[dice["forbidden"]],
        "piggy": piggy,
        "piggy_shift": PIGGY_SHIFT.get(piggy or ""),
    }


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    players = state["players"]
    phase = state["phase"]
    acting = rules.to_act(state)
    secret = phase in phases.SECRET
    dice = state["dice"]
    refill_need = {}
    if phase == phases.REFILL:
        refill_need = {p: need_of(state, p) for p in state["refilling"]}
    table = [
        {
            "seat": p,
            "hand_count": len(state["hands"][p]),
            "piles": list(state["piles"][p]),
            "pile_count": sum(state["piles"][p]),
            "discards": list(state["discards"][p]),
            "top": state["discards"][p][-1] if state["discards"][p] else None,
            "total": state["totals"][p],
            "is_roller": p == state["roller"],
            "to_act": p in acting,
            "committed": secret and state["pending"][p] is not None,
            "refill_need": refill_need.get(p, 0),
        }
        for p in range(players)
    ]
    taker = state["takers"][0] if phase in (phases.TAKE, phases.GIVE) else None
    over = phase == phases.OVER
    shown = {
        "game": "abspecken",
        "phase": phase,
        "round": state["round"],
        "playthrough": state["playthrough"],
        "roller": state["roller"],
        "to_act": sorted(acting),
        "you": seat,
        "hand": list(state["hands"][seat]) if seat is not None else None,
        "pending": state["pending"][seat] if seat is not None and secret else None,
        "players": table,
        "dice": _dice(state),
        "targets": list(sums_for(state, seat)) if dice is not None and seat is not None else None,
        "roller_targets": list(sums_for(state, state["roller"])) if dice is not None else None,
        "taker": taker,
        "takers": list(state["takers"]),
        "sources": sources_for(state, taker) if phase == phases.TAKE else [],
        "giving": dict(state["giving"]) if state["giving"] else None,
        "log": redact_log(state["log"], seat),
        "previous": redact_log(state["previous"], seat),
        "rounds": state["rounds"],
        "totals": list(state["totals"]),
        "options": {name: state["options"][name] for name in DISPLAY_OPTIONS},
        "colours": {str(value): colour for value, colour in COLOURS.items()},
        "over": over,
        "winners": list(winners(state["totals"])) if over else [],
    }
    return clone(shown)


def reveal(state: State) -> dict[str, Any]:
    """A spectator's view with everything hidden shown, for finished matches' replays.

    Each entry of ``players`` gains ``hand`` (the cards held) and ``pending`` (the secret pick
    or decision not yet revealed, in a secret phase; otherwise None); ``log`` and ``previous``
    keep the values of passed cards; ``revealed`` is True. Never the seed or the rng.
    """
    shown = view(state, None)
    secret = state["phase"] in phases.SECRET
    for entry in shown["players"]:
        seat = entry["seat"]
        entry["hand"] = list(state["hands"][seat])
        entry["pending"] = state["pending"][seat] if secret else None
    shown["log"] = state["log"]
    shown["previous"] = state["previous"]
    shown["revealed"] = True
    return clone(shown)


def redact_action(action: Action, actor: Seat, viewer: Seat | None) -> Action | None:
    """Secret picks and decisions show only that a choice was made; a passed card's
    value shows only to the two players it passes between."""
    if viewer == actor or not isinstance(action, dict):
        return action
    kind = action.get("type")
    if kind in SECRET_ACTIONS:
        return {"type": "hidden"}
    if kind == act.GIFT:
        if viewer == action.get("to"):
            return action
        return {"type": act.GIFT, "to": action.get("to")}
    if kind == act.GIVE:
        if viewer == action.get("to"):
            return action
        return {"type": act.GIVE, "to": action.get("to")}
    return action
