"""Wire forms of Balance actions, the legal-action list and the turn-timer fallback.

There is one action: ``{"type": "play", "card": "6H", "direction": 1}``; direction ``1`` adds the
card's value to the balance, ``-1`` subtracts it. Drawing is automatic (the engine draws for the
player when the turn begins), so it is no action.
"""

from __future__ import annotations

from games.balance.cards import ALL_CARDS, Card, card_name, is_card
from games.balance.scoring import play_result
from games.base import Action, IllegalAction, MalformedAction, Seat, State, expect_int
from games.wire import ActionSchema, OneOf

PLAY = "play"
DIRECTIONS: tuple[int, ...] = (1, -1)

#: The wire form of the one action (see :mod:`games.wire`).
SCHEMA = ActionSchema(
    {
        PLAY: {
            "card": OneOf(frozenset(ALL_CARDS), 'a card such as "7H"'),
            "direction": OneOf(frozenset(DIRECTIONS), "1 (add) or -1 (subtract)"),
        }
    }
)


def play(card: Card, direction: int) -> Action:
    return {"type": PLAY, "card": card, "direction": direction}


def parse_play(state: State, seat: Seat, action: Action) -> tuple[Card, int]:
    """Check a play from ``seat`` (already known to be on turn); return (card, direction)."""
    kind = action["type"]
    if kind != PLAY:
        raise MalformedAction(f"unknown action type {kind!r}: the only action is 'play'")
    card = action.get("card")
    if not isinstance(card, str):
        raise MalformedAction("a play needs a 'card', for example \"7H\"")
    if not is_card(card):
        raise MalformedAction(f"{card!r} is not a card")
    direction = expect_int(action, "direction")
    if direction not in DIRECTIONS:
        raise MalformedAction("'direction' is 1 to add the card or -1 to subtract it")
    if card not in state["hands"][seat]:
        raise IllegalAction("card_not_in_hand", f"You do not hold the {card_name(card)}.")
    return card, direction


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every distinct hand card, added then subtracted, in hand order; [] off turn or at the end."""
    if state["result"] is not None or seat != state["current"]:
        return []
    seen: set[Card] = set()
    legal: list[Action] = []
    for card in state["hands"][seat]:
        if card not in seen:
            seen.add(card)
            legal.append(play(card, 1))
            legal.append(play(card, -1))
    return legal


def fallback_action(state: State, seat: Seat) -> Action:
    """For a turn timer: the play that scores best now, then keeps the balance nearest zero."""
    legal = legal_actions(state, seat)
    balance = state["balance"]

    def merit(action: Action) -> tuple[int, int]:
        after, points = play_result(balance, action["card"], action["direction"])
        return points, -abs(after)

    return max(legal, key=merit)
