"""Wire forms of ABspecken's actions, their parsing, and the legal actions of a seat.

- ``{"type": "pick", "cards": [1, 2, 3, 5, 6]}``: the secret opening hand, 5 cards from
  one's own piles (all players at once).
- ``{"type": "roll", "piggy": true}``: the roller adds the Piggy die to this roll or not
  (only asked with the extension on and a non-empty discard pile; otherwise the roll is
  automatic).
- ``{"type": "gift", "card": 5, "to": 2}`` / ``{"type": "no_gift"}``: the smiling piggy.
- ``{"type": "discard", "option": "sum", "cards": [6, 1, 1]}``: the secret decision; the last
  card ends on top of the discard pile. ``option`` is ``"sum"`` or ``"die"``. The legal
  actions list each discard once per card that may end on top (``discards.top_orders``).
- ``{"type": "cannot"}``: the secret decision when no discard is legal.
- ``{"type": "take", "from": 0}``: a player who could not discard takes a card from a
  player who discarded.
- ``{"type": "give", "to": 3, "card": 6}``: only with ``take_choice = "source_chooses"``:
  the source picks the card the taker receives.
- ``{"type": "refill", "cards": [2, 4]}``: top the hand up to five from one's own piles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.abspecken import discards, phases
from games.abspecken.cards import HAND_SIZE, SET_SIZE, VALUES, Card, counts_of
from games.base import Action, MalformedAction, Seat, State, expect_int, expect_type
from games.wire import ActionSchema, Bool, Int, ListOf, OneOf

MAX_PLAYERS = 5

PICK = "pick"
ROLL = "roll"
GIFT = "gift"
NO_GIFT = "no_gift"
DISCARD = "discard"
CANNOT = "cannot"
TAKE = "take"
GIVE = "give"
REFILL = "refill"

#: The action types each phase accepts.
PHASE_ACTIONS: dict[str, tuple[str, ...]] = {
    phases.PICK: (PICK,),
    phases.PIGGY: (ROLL,),
    phases.GIFT: (GIFT, NO_GIFT),
    phases.DECIDE: (DISCARD, CANNOT),
    phases.TAKE: (TAKE,),
    phases.GIVE: (GIVE,),
    phases.REFILL: (REFILL,),
}


@dataclass(frozen=True)
class Pick:
    cards: tuple[Card, ...]

    def to_wire(self) -> Action:
        return {"type": PICK, "cards": list(self.cards)}


@dataclass(frozen=True)
class Roll:
    piggy: bool

    def to_wire(self) -> Action:
        return {"type": ROLL, "piggy": self.piggy}


@dataclass(frozen=True)
class Gift:
    card: Card
    to: Seat

    def to_wire(self) -> Action:
        return {"type": GIFT, "card": self.card, "to": self.to}


@dataclass(frozen=True)
class NoGift:
    def to_wire(self) -> Action:
        return {"type": NO_GIFT}


@dataclass(frozen=True)
class Discard:
    option: str
    cards: tuple[Card, ...]

    def to_wire(self) -> Action:
        return {"type": DISCARD, "option": self.option, "cards": list(self.cards)}


@dataclass(frozen=True)
class Cannot:
    def to_wire(self) -> Action:
        return {"type": CANNOT}


@dataclass(frozen=True)
class Take:
    source: Seat

    def to_wire(self) -> Action:
        return {"type": TAKE, "from": self.source}


@dataclass(frozen=True)
class Give:
    to: Seat
    card: Card

    def to_wire(self) -> Action:
        return {"type": GIVE, "to": self.to, "card": self.card}


@dataclass(frozen=True)
class Refill:
    cards: tuple[Card, ...]

    def to_wire(self) -> Action:
        return {"type": REFILL, "cards": list(self.cards)}


Move = Pick | Roll | Gift | NoGift | Discard | Cannot | Take | Give | Refill

#: The wire type of each parsed action.
KIND: dict[type, str] = {
    Pick: PICK,
    Roll: ROLL,
    Gift: GIFT,
    NoGift: NO_GIFT,
    Discard: DISCARD,
    Cannot: CANNOT,
    Take: TAKE,
    Give: GIVE,
    Refill: REFILL,
}

_CARD = Int(min(VALUES), max(VALUES))
_SEAT = Int(0, MAX_PLAYERS - 1)

#: The wire form of every action (see :mod:`games.wire`).
SCHEMA = ActionSchema(
    {
        PICK: {"cards": ListOf(_CARD, 0, HAND_SIZE)},
        ROLL: {"piggy": Bool()},
        GIFT: {"card": _CARD, "to": _SEAT},
        NO_GIFT: {},
        DISCARD: {
            "option": OneOf(frozenset({discards.SUM, discards.DIE}), '"sum" or "die"'),
            "cards": ListOf(_CARD, 1, SET_SIZE * MAX_PLAYERS),
        },
        CANNOT: {},
        TAKE: {"from": _SEAT},
        GIVE: {"to": _SEAT, "card": _CARD},
        REFILL: {"cards": ListOf(_CARD, 0, HAND_SIZE)},
    }
)


def _card(value: Any, what: str) -> Card:
    if isinstance(value, bool) or not isinstance(value, int) or value not in VALUES:
        raise MalformedAction(f"{what} must be a card value from 1 to 6")
    return value


def _cards(action: Action) -> tuple[Card, ...]:
    cards = action.get("cards")
    if not isinstance(cards, list):
        raise MalformedAction("the action needs 'cards': a list of card values from 1 to 6")
    return tuple(_card(card, "every card") for card in cards)


def from_wire(action: Any) -> Move:
    """Check an action's shape (not its legality); raises :class:`MalformedAction`."""
    kind = expect_type(action)
    if kind == PICK:
        return Pick(_cards(action))
    if kind == ROLL:
        piggy = action.get("piggy")
        if not isinstance(piggy, bool):
            raise MalformedAction("the 'roll' action needs 'piggy': true or false")
        return Roll(piggy)
    if kind == GIFT:
        return Gift(_card(action.get("card"), "'card'"), expect_int(action, "to"))
    if kind == NO_GIFT:
        return NoGift()
    if kind == DISCARD:
        option = action.get("option")
        if option not in (discards.SUM, discards.DIE):
            raise MalformedAction("the 'discard' action needs 'option': \"sum\" or \"die\"")
        return Discard(option, _cards(action))
    if kind == CANNOT:
        return Cannot()
    if kind == TAKE:
        return Take(expect_int(action, "from"))
    if kind == GIVE:
        return Give(expect_int(action, "to"), _card(action.get("card"), "'card'"))
    if kind == REFILL:
        return Refill(_cards(action))
    raise MalformedAction(
        f"unknown action {kind!r}: ABspecken has pick, roll, gift, no_gift, discard, cannot, "
        "take, give and refill"
    )


# -- what a seat may do -------------------------------------------------------------------


def sums_for(state: State, seat: Seat) -> tuple[int, ...]:
    dice = state["dice"]
    return discards.targets(
        dice["d1"], dice["d2"], dice["piggy"], is_roller=seat == state["roller"]
    )


def discard_options(state: State, seat: Seat) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """The legal discards of ``seat`` under the current roll (spec section 5)."""
    dice = state["dice"]
    return discards.legal_discards(
        tuple(counts_of(state["hands"][seat])),
        (dice["d1"], dice["d2"]),
        dice["forbidden"],
        sums_for(state, seat),
    )


def refill_need(state: State, seat: Seat) -> int:
    """How many cards ``seat`` draws when topping up: up to five, as far as the piles go."""
    return max(0, min(HAND_SIZE - len(state["hands"][seat]), sum(state["piles"][seat])))


def sources_for(state: State, taker: Seat) -> list[Seat]:
    """Players ``taker`` may take from: they discarded this playthrough and hold a card.

    Listed clockwise from the taker's left.
    """
    players = state["players"]
    decisions = state["log"]["decisions"]
    found = []
    for step in range(1, players):
        seat = (taker + step) % players
        if decisions[seat]["type"] == DISCARD and state["hands"][seat]:
            found.append(seat)
    return found


def gift_required(state: State, roller: Seat) -> bool:
    """Whether the smiling piggy's gift is compulsory (spec 4.3, C-14, option ``smile_gift``):
    by the seed, exactly when the roller has no legal discard."""
    rule = state["options"]["smile_gift"]
    if rule == "seed":
        return not discard_options(state, roller)
    return bool(rule == "mandatory")


def others_clockwise(state: State, seat: Seat) -> list[Seat]:
    players = state["players"]
    return [(seat + step) % players for step in range(1, players)]


def legal_moves(state: State, seat: Seat) -> list[Action]:
    """Every legal action of ``seat`` in the current phase, assuming ``seat`` is to act."""
    phase = state["phase"]
    if phase == phases.PICK:
        return [Pick(c).to_wire() for c in discards.draws(tuple(state["piles"][seat]), HAND_SIZE)]
    if phase == phases.PIGGY:
        return [Roll(False).to_wire(), Roll(True).to_wire()]
    if phase == phases.GIFT:
        moves = [] if gift_required(state, seat) else [NoGift().to_wire()]
        for card in sorted(set(state["hands"][seat])):
            moves.extend(Gift(card, to).to_wire() for to in others_clockwise(state, seat))
        return moves
    if phase == phases.DECIDE:
        options = discard_options(state, seat)
        if not options:
            return [Cannot().to_wire()]
        return [
            Discard(option, order).to_wire()
            for option, cards in options
            for order in discards.top_orders(cards)
        ]
    if phase == phases.TAKE:
        return [Take(source).to_wire() for source in sources_for(state, seat)]
    if phase == phases.GIVE:
        taker = state["giving"]["taker"]
        return [Give(taker, card).to_wire() for card in sorted(set(state["hands"][seat]))]
    if phase == phases.REFILL:
        need = refill_need(state, seat)
        return [Refill(c).to_wire() for c in discards.draws(tuple(state["piles"][seat]), need)]
    return []
