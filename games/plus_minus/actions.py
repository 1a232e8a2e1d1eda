"""Wire forms of the actions (their schema), and ``legal_actions``.

Actions (seats are 0-based; a stack is named by its owner's seat and ``"plus"`` or ``"minus"``):

- ``{"type": "play", "card": "7H", "seat": 2, "stack": "minus"}``: put a hand card on a stack.
- ``{"type": "swap", "a_seat": 0, "a_stack": "plus", "b_seat": 2, "b_stack": "minus"}``:
  after a 10, swap the contents of two different stacks.
- ``{"type": "king", "seats": [1, 3]}``: after a King, the two other players whose top two
  Minus cards move onto their Plus stack (automatic with 3 players).
- ``{"type": "pass", "card": "QS", "to": 1}``: pass a hand card face down to the left
  neighbour (``to`` must be that seat; it lets ``redact_action`` show the card to the receiver).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.base import Action, State, require
from games.plus_minus.cards import DECK, fits, sort_cards
from games.wire import ActionSchema, Int, ListOf, OneOf

STACKS: tuple[str, ...] = ("plus", "minus")

Stack = tuple[int, str]

MAX_PLAYERS = 6
_CARD = OneOf(frozenset(DECK), "a card such as '7H', '10S' or 'QD'")
_SEAT = Int(0, MAX_PLAYERS - 1)
_STACK = OneOf(frozenset(STACKS), "'plus' or 'minus'")

#: The wire form of every action (see :mod:`games.wire`).
SCHEMA = ActionSchema(
    {
        "play": {"card": _CARD, "seat": _SEAT, "stack": _STACK},
        "swap": {"a_seat": _SEAT, "a_stack": _STACK, "b_seat": _SEAT, "b_stack": _STACK},
        "king": {"seats": ListOf(_SEAT, 2, 2)},
        "pass": {"card": _CARD, "to": _SEAT},
    }
)


def at_table(seat: int, players: int) -> int:
    """``seat``, if this table has it: the schema lets through every seat of the largest."""
    require(0 <= seat < players, "no_such_seat", f"There is no seat {seat} at this table.")
    return seat


def can_play(state: State, seat: int) -> bool:
    """Whether any card in ``seat``'s hand fits any stack on the table."""
    stacks = state["plus"] + state["minus"]
    return any(fits(card, stack) for card in state["hands"][seat] for stack in stacks)


def all_stacks(players: int) -> list[Stack]:
    """Every stack in table order: seat 0 Plus, seat 0 Minus, seat 1 Plus, ..."""
    return [(seat, stack) for seat in range(players) for stack in STACKS]


def legal_actions(state: State, seat: int) -> list[Action]:
    phase = state["phase"]
    if phase == "over" or seat != state["current"]:
        return []
    players = state["players"]
    if phase == "play":
        plus, minus = state["plus"], state["minus"]
        actions: list[dict[str, Any]] = []
        for card in sort_cards(state["hands"][seat]):
            for owner in range(players):
                if fits(card, plus[owner]):
                    actions.append({"type": "play", "card": card, "seat": owner, "stack": "plus"})
                if fits(card, minus[owner]):
                    actions.append({"type": "play", "card": card, "seat": owner, "stack": "minus"})
        return actions
    if phase == "swap":
        return [
            {"type": "swap", "a_seat": a[0], "a_stack": a[1], "b_seat": b[0], "b_stack": b[1]}
            for a, b in combinations(all_stacks(players), 2)
        ]
    if phase == "king":
        others = [s for s in range(players) if s != seat]
        return [{"type": "king", "seats": list(pair)} for pair in combinations(others, 2)]
    left = (seat + 1) % players
    return [{"type": "pass", "card": card, "to": left} for card in sort_cards(state["hands"][seat])]
