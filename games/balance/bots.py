"""Balance bots: the seed's strategy notes as a heuristic, and what the search needs.

``normal`` weighs every play (a card, added or subtracted) by, in order of weight:

- the points it scores now (zero +1, beyond 9 with a non-joker -1);
- the chance that the next player can land on zero from the balance it leaves: one of the
  unseen cards (the pack less this round's pile and my hand) of exactly that value;
- "complements": the opponents are expected to play their 10-cards against the balance, each
  one flipping ``b`` to ``b - 10`` (or ``b + 10``), so after my play to ``b`` and the others'
  turns I will face ``|b|`` again with an even number of opponents, ``10 - |b|`` with an odd
  one; holding a card of that value lets me zero it then;
- not keeping many 10-cards: they are the cards that cannot be played at balance zero, so
  each left in hand costs a little, and one played against the balance sign is welcome;
- jokers are kept for emergencies (to get back from beyond 9, or to score).

Solo tables play the same way against the automaton, whose card zeroes a balance of its own
value at the player's cost.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from games.balance.cards import VALUE, Card, build_pack, is_joker
from games.balance.scoring import LIMIT, play_result
from games.base import Action, Engine, Seat, State
from games.policy import GameBots, InfoSet, round_stage


@dataclass(frozen=True)
class Weights:
    """How much each of the notes above weighs against a point scored now."""

    risk: float
    complement: float
    ten_held: float
    joker_spent: float
    near_zero: float


NORMAL = Weights(risk=0.9, complement=0.35, ten_held=0.12, joker_spent=0.3, near_zero=0.02)
"""``normal``'s weights, set by hand from the seed's notes."""
TUNED = Weights(risk=1.8, complement=0.1, ten_held=0.3, joker_spent=0.3, near_zero=0.0)
"""The hard bot's weights (its first guess and its playouts): fitted by playing weight
sets against ``NORMAL`` at two players, one round (about 60% of the matches against it)."""


def normal(info: InfoSet, rng: random.Random) -> Action:
    return _decide(info, rng, NORMAL)


def tuned(info: InfoSet, rng: random.Random) -> Action:
    """``normal``'s weighing with the hard bot's weights (multi-player tables; solo tables
    keep ``normal``'s)."""
    return _decide(info, rng, NORMAL if info.view["mode"] == "solo" else TUNED)


def _decide(info: InfoSet, rng: random.Random, weights: Weights) -> Action:
    view = info.view
    me = info.seat
    hand: list[Card] = view["hand"]
    seen = list(hand) + [entry["card"] for entry in view["pile"]]
    unseen = _unseen(view["options"], seen)
    solo = view["mode"] == "solo"
    counts = list(view["hand_counts"])
    stock = view["stock"]
    return _best(
        info.legal,
        view["balance"],
        hand,
        unseen,
        solo=solo,
        next_hand=0 if solo else _next_hand(counts, me, stock),
        others=0 if solo else sum(1 for s, c in enumerate(counts) if c and s != me),
        rng=rng,
        weights=weights,
    )


def _unseen(options: dict[str, int], seen: list[Card]) -> Counter[int]:
    """Values of the cards this seat has not seen this round, with jokers under key 0."""
    left = Counter(build_pack(options["decks"], options["jokers_per_deck"]))
    left.subtract(seen)
    values: Counter[int] = Counter()
    for card, count in left.items():
        if count > 0:
            values[0 if is_joker(card) else VALUE[card]] += count
    return values


def _next_hand(counts: list[int], me: Seat, stock: int) -> int:
    """The size of the hand the next player will choose from (they draw first if they can)."""
    players = len(counts)
    for step in range(1, players):
        seat = (me + step) % players
        if counts[seat]:
            return counts[seat] + (1 if stock else 0)
    return 0


def _best(
    legal: list[Action],
    balance: int,
    hand: list[Card],
    unseen: Counter[int],
    *,
    solo: bool,
    next_hand: int,
    others: int,
    rng: random.Random,
    weights: Weights,
) -> Action:
    total = sum(unseen.values())
    best: list[Action] = []
    best_value = -math.inf
    for action in legal:
        card, direction = action["card"], action["direction"]
        value = _merit(
            balance, card, direction, hand, unseen, total, solo, next_hand, others, weights
        )
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))]


def _merit(
    balance: int,
    card: Card,
    direction: int,
    hand: list[Card],
    unseen: Counter[int],
    total: int,
    solo: bool,
    next_hand: int,
    others: int,
    weights: Weights,
) -> float:
    after, points = play_result(balance, card, direction)
    value = float(points)
    size = abs(after)
    rest = list(hand)
    rest.remove(card)
    if after and size <= 10 and total:
        share = unseen[size] / total
        if solo:
            value -= weights.risk * share  # the automaton's card zeroes it at my cost
        elif next_hand:
            value -= weights.risk * (1.0 - (1.0 - share) ** next_hand)
    if not solo and after and size <= LIMIT:
        facing = size if others % 2 == 0 else 10 - size
        if any(VALUE[c] == facing and not is_joker(c) for c in rest) or (
            facing == 10 and any(is_joker(c) for c in rest)
        ):
            value += weights.complement
    if size > LIMIT and is_joker(card) and not solo and next_hand:
        # Beyond 9 with a joker: the next player may be pushed over too.
        value += 0.2 if size <= 19 else 0.0
    if is_joker(card) and points <= 0:
        value -= weights.joker_spent
    value -= weights.ten_held * sum(1 for c in rest if VALUE[c] == 10 and not is_joker(c))
    value -= weights.near_zero * size
    return value


# -- for the search ---------------------------------------------------------------------------


def rollout(
    engine: Engine, state: State, seat: Seat, legal: list[Action], rng: random.Random
) -> Action:
    """The hard bot's weighing in a playout, reading the sample directly (no view to build)."""
    hand = state["hands"][seat]
    seen = list(hand) + [entry["card"] for entry in state["pile"]]
    unseen = _unseen(state["options"], seen)
    solo = state["mode"] == "solo"
    counts = [len(h) for h in state["hands"]]
    return _best(
        legal,
        state["balance"],
        hand,
        unseen,
        solo=solo,
        next_hand=0 if solo else _next_hand(counts, seat, len(state["stock"])),
        others=0 if solo else sum(1 for s, c in enumerate(counts) if c and s != seat),
        rng=rng,
        weights=NORMAL if solo else TUNED,
    )


SCALE = 2.5
"""Points of lead worth about a 73% chance to win, for the search's evaluation."""


def evaluate(state: State) -> list[float]:
    """Each seat's chance to win, guessed from the totals where a playout stops."""
    points = state["points"]
    if state["mode"] == "solo":
        return [1.0 / (1.0 + math.exp(-(points[0] - 9.5) / SCALE))]
    out = state["eliminated"]
    active = [s for s in range(len(points)) if not out[s]]
    utilities = []
    for seat, mine in enumerate(points):
        if out[seat]:
            utilities.append(0.0)
            continue
        rival = max((points[s] for s in active if s != seat), default=mine)
        utilities.append(1.0 / (1.0 + math.exp(-(mine - rival) / SCALE)))
    return utilities


BOTS = GameBots(
    normal=normal,
    rollout=rollout,
    evaluate=evaluate,
    stage=round_stage,
    exploration=0.5,
    playout_depth=4,
    trust=0.5,
    favourite=tuned,
)
