"""What a turn timer does for a seat that does not answer.

- pick: one card of each value 2..6 (a spread over the die faces, high values out first);
- Piggy die: roll without it (no risk);
- smiling piggy: give a card to the next player clockwise: the highest card of the forbidden
  value if there is one (it cannot be discarded anyway, as in the seed's example), else the
  highest card;
- decide: "cannot" when nothing is legal, else the smallest legal discard: fewest cards,
  then lowest total (the issue's rule);
- take: the first eligible source clockwise from the taker;
- give (source chooses): the highest card;
- refill: one card at a time from the fullest pile (higher value on a tie).
"""

from __future__ import annotations

from games.abspecken import actions as act
from games.abspecken import phases
from games.abspecken.cards import HAND_SIZE, VALUES
from games.base import Action, Seat, State

OPENING: tuple[int, ...] = (2, 3, 4, 5, 6)


def smallest_discard(state: State, seat: Seat) -> Action:
    options = act.discard_options(state, seat)
    if not options:
        return act.Cannot().to_wire()
    option, cards = min(options, key=lambda oc: (len(oc[1]), sum(oc[1]), oc[0] != "die"))
    return act.Discard(option, cards).to_wire()


def spread_draw(piles: list[int], count: int) -> tuple[int, ...]:
    left = list(piles)
    chosen = []
    for _ in range(count):
        index = max(range(len(VALUES)), key=lambda i: (left[i], i))
        left[index] -= 1
        chosen.append(VALUES[index])
    return tuple(sorted(chosen))


def fallback(state: State, seat: Seat) -> Action:
    """The timer's action for ``seat``, which must be to act."""
    phase = state["phase"]
    if phase == phases.PICK:
        piles = state["piles"][seat]
        cards = OPENING if all(piles[c - 1] for c in OPENING) else spread_draw(piles, HAND_SIZE)
        return act.Pick(tuple(cards)).to_wire()
    if phase == phases.PIGGY:
        return act.Roll(False).to_wire()
    if phase == phases.GIFT:
        hand = state["hands"][seat]
        forbidden = state["dice"]["forbidden"]
        card = forbidden if forbidden in hand else max(hand)
        return act.Gift(card, (seat + 1) % state["players"]).to_wire()
    if phase == phases.DECIDE:
        return smallest_discard(state, seat)
    if phase == phases.TAKE:
        return act.Take(act.sources_for(state, seat)[0]).to_wire()
    if phase == phases.GIVE:
        return act.Give(state["giving"]["taker"], max(state["hands"][seat])).to_wire()
    if phase == phases.REFILL:
        piles = state["piles"][seat]
        return act.Refill(spread_draw(piles, act.refill_need(state, seat))).to_wire()
    raise AssertionError(f"no fallback in phase {phase!r}")
