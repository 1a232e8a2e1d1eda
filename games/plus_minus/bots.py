"""Plus & Minus bots: a greedy table-value heuristic for ``normal``, and what the search needs.

A seat's round score is its Plus stack less its Minus stack less the cards left in its hand,
so ``normal`` values the table from what the seat sees: each stack's top card and size, with
every buried card counted at the average points of the cards it has not seen. It then plays
the move that most raises its own score against the average opponent:

- points onto its own Plus stack and onto other players' Minus stacks, low cards (6-9 score
  nothing) where they only block;
- a 10 for the swap it buys (its own Minus stack for the richest Plus stack, say);
- a 5 for the two extra plays, while the Draw Stack lasts;
- an Ace or King leaves a stack open to any card: welcome on an opponent's Minus stack, costly
  on its own; a King's Minus-to-Plus move goes to the two players it helps least;
- the pass keeps the cards it can play well and gives away what helps the neighbour least, but
  on the round's last turn it hands over the costliest card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from games.base import Action, Engine, Seat, State
from games.plus_minus.cards import ACE, DECK, FIVE, KING, POINTS, RANK, TEN
from games.policy import GameBots, InfoSet, margin_utilities, round_stage

STACKS = ("plus", "minus")
SIGN = {"plus": 1, "minus": -1}
FIVE_BONUS = 4.0
OPEN_OWN_MINUS = 6.0
OPEN_OWN_PLUS = 2.0
OPEN_THEIR_MINUS = 3.0
KING_MOVE = 2


@dataclass
class Table:
    """What one seat knows of the table: tops and sizes of stacks, its hand, a buried average."""

    me: Seat
    players: int
    hand: list[str]
    tops: dict[tuple[int, str], str | None]
    sizes: dict[tuple[int, str], int]
    buried: float
    deck: int
    totals: list[int]

    def value(self, owner: int, kind: str) -> float:
        size = self.sizes[owner, kind]
        if not size:
            return 0.0
        top = self.tops[owner, kind]
        return (POINTS[top] if top else self.buried) + (size - 1) * self.buried

    def weight(self, owner: int) -> float:
        """How much a point for ``owner`` is worth to me: mine 1, an opponent's -1/(n-1)."""
        return 1.0 if owner == self.me else -1.0 / (self.players - 1)


def table_from_view(seat: Seat, view: dict) -> Table:
    players = view["players"]
    hand = list(view["hand"])
    tops: dict[tuple[int, str], str | None] = {}
    sizes: dict[tuple[int, str], int] = {}
    seen = set(hand)
    for entry in view["seats"]:
        for kind in STACKS:
            stack = entry[kind]
            tops[entry["seat"], kind] = stack["top"]
            sizes[entry["seat"], kind] = stack["size"]
            if stack["top"]:
                seen.add(stack["top"])
    passed = view["last_pass"]
    if passed and passed.get("card"):
        seen.add(passed["card"])
    unseen = [POINTS[c] for c in DECK if c not in seen]
    buried = sum(unseen) / len(unseen) if unseen else 0.0
    return Table(seat, players, hand, tops, sizes, buried, view["draw_stack"], view["totals"])


def table_from_state(seat: Seat, state: State) -> Table:
    """The same knowledge read off a sampled state (tops and sizes only, buried cards averaged)."""
    players = state["players"]
    tops: dict[tuple[int, str], str | None] = {}
    sizes: dict[tuple[int, str], int] = {}
    for owner in range(players):
        for kind in STACKS:
            stack = state[kind][owner]
            tops[owner, kind] = stack[-1] if stack else None
            sizes[owner, kind] = len(stack)
    return Table(seat, players, state["hands"][seat], tops, sizes, BURIED, len(state["deck"]), [])


BURIED = sum(POINTS.values()) / len(POINTS)


# -- the four decisions -------------------------------------------------------------------------


def _fits(card: str, top: str | None) -> bool:
    if top is None:
        return True
    rank = RANK[top]
    return rank in (ACE, KING) or abs(RANK[card] - rank) <= 1


def _hand_weight(table: Table) -> float:
    """How much a card still in hand is likely to cost at the round's end."""
    per_turn = table.players
    return 1.0 if table.deck <= per_turn else 0.3


def play_merit(table: Table, action: Action) -> float:
    card, owner, kind = action["card"], action["seat"], action["stack"]
    points = POINTS[card]
    merit = table.weight(owner) * SIGN[kind] * points
    merit += _hand_weight(table) * points
    rank = RANK[card]
    if rank in (ACE, KING):
        if owner == table.me:
            merit += -OPEN_OWN_MINUS if kind == "minus" else OPEN_OWN_PLUS
        elif kind == "minus":
            merit += OPEN_THEIR_MINUS / (table.players - 1)
    if rank == FIVE and table.deck:
        merit += FIVE_BONUS
    if rank in (TEN, KING):
        after = _placed(table, card, owner, kind)
        if rank == TEN:
            merit += max(_swap_gain(after, a, b) for a, b in _pairs(table.players))
        else:
            merit -= min(_king_cost(after, pair) for pair in _king_pairs(table))
    return merit


def _placed(table: Table, card: str, owner: int, kind: str) -> Table:
    tops = dict(table.tops)
    sizes = dict(table.sizes)
    tops[owner, kind] = card
    sizes[owner, kind] += 1
    hand = list(table.hand)
    if card in hand:
        hand.remove(card)
    return Table(table.me, table.players, hand, tops, sizes, table.buried, table.deck, table.totals)


def _pairs(players: int) -> list[tuple[tuple[int, str], tuple[int, str]]]:
    stacks = [(seat, kind) for seat in range(players) for kind in STACKS]
    return list(combinations(stacks, 2))


def _swap_gain(table: Table, a: tuple[int, str], b: tuple[int, str]) -> float:
    va, vb = table.value(*a), table.value(*b)
    return table.weight(a[0]) * SIGN[a[1]] * (vb - va) + table.weight(b[0]) * SIGN[b[1]] * (va - vb)


def _king_pairs(table: Table) -> list[tuple[int, ...]]:
    others = [s for s in range(table.players) if s != table.me]
    return list(combinations(others, 2))


def _king_cost(table: Table, pair: Sequence[int]) -> float:
    """What moving these players' top Minus cards to their Plus stacks costs me."""
    cost = 0.0
    for target in pair:
        size = table.sizes[target, "minus"]
        moved = min(KING_MOVE, size)
        if not moved:
            continue
        top = table.tops[target, "minus"]
        points = (POINTS[top] if top else table.buried) + (moved - 1) * table.buried
        cost += 2 * points / (table.players - 1)  # off their Minus and onto their Plus
    return cost


def pass_merit(table: Table, card: str) -> float:
    """How good it is to give ``card`` away now."""
    points = POINTS[card]
    if table.deck == 0:  # the round ends with this pass: the card costs whoever holds it
        return points * (1.0 + 1.0 / (table.players - 1))
    keep = max(
        (
            table.weight(owner) * SIGN[kind] * points
            for owner in range(table.players)
            for kind in STACKS
            if _fits(card, table.tops[owner, kind])
        ),
        default=-points,
    )
    rank = RANK[card]
    if rank == TEN:
        keep += 8.0
    elif rank == FIVE:
        keep += FIVE_BONUS / 2
    gift = points / (table.players - 1) * 0.5  # the neighbour may play it on their Plus stack
    return -keep - gift


def decide(table: Table, phase: str, legal: list[Action], rng: random.Random) -> Action:
    if phase == "play":
        scored = [(play_merit(table, a), a) for a in legal]
    elif phase == "swap":
        scored = [
            (_swap_gain(table, (a["a_seat"], a["a_stack"]), (a["b_seat"], a["b_stack"])), a)
            for a in legal
        ]
    elif phase == "king":
        scored = [(-_king_cost(table, a["seats"]), a) for a in legal]
    else:
        scored = [(pass_merit(table, a["card"]), a) for a in legal]
    top = max(score for score, _ in scored)
    best = [a for score, a in scored if score >= top - 1e-9]
    return best[rng.randrange(len(best))]


def normal(info: InfoSet, rng: random.Random) -> Action:
    return decide(table_from_view(info.seat, info.view), info.view["phase"], info.legal, rng)


# -- for the search ---------------------------------------------------------------------------


def rollout(
    engine: Engine, state: State, seat: Seat, legal: list[Action], rng: random.Random
) -> Action:
    if len(legal) == 1:
        return legal[0]
    return decide(table_from_state(seat, state), state["phase"], legal, rng)


SCALE = 25.0
"""Points of lead worth about a 73% chance to win, for the search's evaluation."""


def evaluate(state: State) -> list[float]:
    """Each seat's chance to win, from its total plus this round's score so far.

    Cards in hand count in full only once the Draw Stack is nearly gone.
    """
    players = state["players"]
    hand_weight = 1.0 if len(state["deck"]) <= players else 0.3
    scores = []
    for seat in range(players):
        plus = sum(POINTS[c] for c in state["plus"][seat])
        minus = sum(POINTS[c] for c in state["minus"][seat])
        hand = sum(POINTS[c] for c in state["hands"][seat])
        scores.append(state["totals"][seat] + plus - minus - hand_weight * hand)
    return margin_utilities(scores, SCALE)


BOTS = GameBots(
    normal=normal,
    rollout=rollout,
    evaluate=evaluate,
    stage=round_stage,
    exploration=0.5,
    playout_depth=30,
)
