"""Wire forms of Abstrac's two actions, their parsing, and the legal actions of a seat.

- ``{"type": "order", "first": true}``: the non-dealer, after seeing the row, goes first
  (``true``) or second (``false``).
- ``{"type": "take", "count": 2}``: take 1, 2 or 3 cards from the exposed end of the row.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Action, MalformedAction, Seat, State, expect_int, expect_type
from games.wire import NUMBER, ActionSchema, Bool

ORDER = "order"
TAKE = "take"
CHOOSE_ORDER = "choose_order"
TAKING = "taking"
OVER = "over"
MAX_TAKE = 3

#: The wire form of both actions (see :mod:`games.wire`).
SCHEMA = ActionSchema({ORDER: {"first": Bool()}, TAKE: {"count": NUMBER}})


@dataclass(frozen=True)
class Order:
    first: bool

    def to_wire(self) -> Action:
        return {"type": ORDER, "first": self.first}


@dataclass(frozen=True)
class Take:
    count: int

    def to_wire(self) -> Action:
        return {"type": TAKE, "count": self.count}


def from_wire(action: Action) -> Order | Take:
    """Check an action's shape (not its legality); raises :class:`MalformedAction`."""
    kind = expect_type(action)
    if kind == ORDER:
        first = action.get("first")
        if not isinstance(first, bool):
            raise MalformedAction("the 'order' action needs 'first': true or false")
        return Order(first)
    if kind == TAKE:
        return Take(expect_int(action, "count"))
    raise MalformedAction(f"unknown action {kind!r}: Abstrac has 'order' and 'take'")


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every legal action of ``seat`` (``[]`` off turn or when the match is over)."""
    if state["to_move"] != seat:
        return []
    if state["phase"] == CHOOSE_ORDER:
        return [Order(True).to_wire(), Order(False).to_wire()]
    if state["phase"] == TAKING:
        return [Take(k).to_wire() for k in range(1, min(MAX_TAKE, len(state["row"])) + 1)]
    return []
