"""What one viewer may see (spec A-21): own hand, hand counts, all sets, the discard pile."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.absolute.actions import can_draw_deck, can_hold, can_swap, discards_owed
from games.absolute.cards import HAND_LIMIT, ROUNDS, Card
from games.absolute.scoring import score_set
from games.base import Seat, State, clone


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    players = state["players"]
    over = state["phase"] == "over"
    turn = state["turn"]
    went_out = state["went_out"]
    rounds = clone(state["rounds"])  # the caller may change its view freely
    return {
        "game": "absolute",
        "viewer": seat,
        "players": players,
        "phase": state["phase"],
        "round": state["round"],
        "rounds_total": ROUNDS,
        "first_player": state["first_player"],
        "turn": None if over else turn["seat"],
        "to_act": [] if over else [turn["seat"]],
        "hand": None if seat is None else list(state["hands"][seat]),
        "hand_counts": [len(hand) for hand in state["hands"]],
        "hand_limit": HAND_LIMIT,
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "sets": [
            {
                "id": s["id"],
                "owner": s["owner"],
                "cards": list(s["cards"]),
                "zero": s["zero"],
                "locked": went_out[s["owner"]],
                **_score(tuple(s["cards"])),
            }
            for s in state["sets"]
        ],
        "went_out": list(went_out),
        "first_out": state["first_out"],
        "final_turns": state["first_out"] is not None and not over,
        "this_turn": None if over else _turn_view(state, seat),
        "turns_taken": state["turns_taken"],
        # this round, all seats; None without a turn limit (the default, spec 6)
        "max_turns": state["options"]["turn_limit"] * players or None,
        "totals": list(state["totals"]),
        "round_scores": [[p["score"] for p in r["players"]] for r in rounds],
        "last_round": rounds[-1] if rounds else None,
        "rounds": rounds,
        "options": dict(state["options"]),
        "winners": _winners(state["totals"]) if over else None,
    }


@lru_cache(maxsize=4096)
def _score(cards: tuple[Card, ...]) -> dict[str, Any]:
    """``score_set``, cached: a set is shown many times. Callers copy it (``**``) and never
    change it."""
    return score_set(cards)


def _turn_view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The current turn as everyone sees it; a card drawn from the deck only for its drawer."""
    turn = state["turn"]
    visible = turn["drew"] == "discard" or turn["seat"] == seat
    return {
        "seat": turn["seat"],
        "drew": turn["drew"],
        "drawn_card": turn["card"] if visible else None,
        "swapped": turn["swapped"],
        "played": turn["played"],
        "can_draw_deck": state["phase"] == "draw" and can_draw_deck(state),
        "can_draw_discard": state["phase"] == "draw" and bool(state["discard"]),
        "can_swap": can_swap(state),
        "can_hold": can_hold(state),
        "must_discard": discards_owed(state),
    }


def _winners(totals: list[int]) -> list[int]:
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def reveal(state: State) -> dict[str, Any]:
    """A finished match's replay frame: ``view(state, None)`` with every hidden card shown.

    Adds ``hands`` (every seat's hand, sorted), ``deck_cards`` (the face-down deck, top last)
    and ``revealed: True``, and shows the card the player on turn drew from the deck in
    ``this_turn.drawn_card``. The seed and the rng stay hidden.
    """
    shown = view(state, None)
    shown["hands"] = [list(hand) for hand in state["hands"]]
    shown["deck_cards"] = list(state["deck"])
    if shown["this_turn"] is not None:
        shown["this_turn"]["drawn_card"] = state["turn"]["card"]
    shown["revealed"] = True
    return shown
