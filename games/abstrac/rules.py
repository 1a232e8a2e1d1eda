"""Abstrac's state machine: setup, whose turn, applying an action, and the outcome.

The state is a plain JSON dict::

    {"players": 2, "rng": {...}, "target": 500,
     "phase": "choose_order" | "taking" | "over",
     "deal": 1, "dealer": 0, "to_move": 1 | None,
     "row": [cards, row[-1] is the exposed end], "taken": [[cards], [cards]],
     "totals": [0, 0], "deals": [scored deal records, newest last]}

``taken`` keeps each collection in the order its cards were taken. ``apply`` copies only what
it changes, so states share unchanged parts and must be treated as read-only.
"""

from __future__ import annotations

from games.abstrac.actions import CHOOSE_ORDER, MAX_TAKE, OVER, TAKING, Order, Take, from_wire
from games.abstrac.cards import DECK
from games.abstrac.scoring import copy_record, deal_record, is_decided, leaders
from games.base import Action, IllegalAction, Outcome, Seat, State, draw_rng, new_rng_state

PLAYERS = 2


def setup(seed: int, target: int) -> State:
    state: State = {
        "players": PLAYERS,
        "rng": new_rng_state(seed),
        "target": target,
        "totals": [0, 0],
        "deals": [],
    }
    first_dealer = draw_rng(state).randrange(PLAYERS)
    _start_deal(state, 1, first_dealer)
    return state


def _start_deal(state: State, deal: int, dealer: Seat) -> None:
    """Shuffle and lay out all 24 cards; the non-dealer then chooses the order (3.2, 3.3)."""
    row = list(DECK)
    draw_rng(state).shuffle(row)
    state["phase"] = CHOOSE_ORDER
    state["deal"] = deal
    state["dealer"] = dealer
    state["to_move"] = 1 - dealer
    state["row"] = row
    state["taken"] = [[], []]


def to_act(state: State) -> frozenset[Seat]:
    if is_decided(state["totals"], state["target"]):
        return frozenset()
    return frozenset((state["to_move"],))


def apply(state: State, seat: Seat, action: Action) -> State:
    """The state after ``seat`` (already known to be the one to act) plays ``action``."""
    move = from_wire(action)
    if isinstance(move, Order):
        return _choose_order(state, move)
    return _take(state, seat, move)


def _choose_order(state: State, move: Order) -> State:
    if state["phase"] != CHOOSE_ORDER:
        raise IllegalAction(
            "order_already_chosen",
            "The order of play is already settled: take 1, 2 or 3 cards from the exposed end.",
        )
    new = dict(state)
    new["phase"] = TAKING
    new["to_move"] = state["to_move"] if move.first else state["dealer"]
    return new


def _take(state: State, seat: Seat, move: Take) -> State:
    if state["phase"] != TAKING:
        raise IllegalAction(
            "choose_order_first",
            "First choose whether you go first or second; then the taking starts.",
        )
    row: list[str] = state["row"]
    count = move.count
    if not 1 <= count <= MAX_TAKE:
        raise IllegalAction("bad_count", f"You must take 1, 2 or 3 cards, not {count}.")
    if count > len(row):
        left = "Only 1 card is" if len(row) == 1 else f"Only {len(row)} cards are"
        raise IllegalAction("not_enough_cards", f"{left} left in the row; you cannot take {count}.")
    new = dict(state)
    split = len(row) - count
    new["row"] = row[:split]
    taken = list(state["taken"])
    taken[seat] = taken[seat] + row[split:][::-1]  # exposed card first (T10)
    new["taken"] = taken
    if split:
        new["to_move"] = 1 - seat
        return new
    _score_deal(new)
    return new


def _score_deal(state: State) -> None:
    """Score the emptied row, then end the match or lay out the next deal at once (5, 6)."""
    record = deal_record(state["deal"], state["dealer"], state["taken"])
    state["deals"] = [*state["deals"], record]
    state["totals"] = [t + s for t, s in zip(state["totals"], record["scores"], strict=True)]
    if is_decided(state["totals"], state["target"]):
        state["phase"] = OVER
        state["to_move"] = None
        return
    state["rng"] = dict(state["rng"])
    # the scored collections stay on view until the next deal's first take (view.last_deal)
    state["last_taken"] = [list(hand) for hand in state["taken"]]
    _start_deal(state, state["deal"] + 1, 1 - state["dealer"])


def outcome(state: State) -> Outcome | None:
    totals: list[int] = state["totals"]
    if not is_decided(totals, state["target"]):
        return None
    return Outcome(
        scores=tuple(totals),
        winners=leaders(totals),
        rounds=tuple(copy_record(record) for record in state["deals"]),
        detail={"target": state["target"], "deals": len(state["deals"])},
    )
