"""Abstrac bots: a counting look-ahead for ``normal``, and what the search needs for ``hard``.

The table is open, so the heuristic reads the row and both collections from the view. Abstrac
is "Nim-type" (spec, after Parlett): takes of 1 to 3 from one end let a player count ahead and
steer which cards fall to whom. ``normal`` does that counting with a small alpha-beta search
over takes: exactly to the end of the deal once few cards are left, otherwise a few moves deep,
scoring a position by each side's combinations so far, the melds the rest of the row can still
complete for it, and the cards each side will hold (a deal scores combinations times the cards
the opponent took). The non-dealer picks the order of play the same way.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from games.abstrac.actions import CHOOSE_ORDER, MAX_TAKE
from games.abstrac.cards import RANK_INDEX, Card, rank_of, suit_of
from games.abstrac.endgame import Endgame
from games.abstrac.scoring import _mask, combo, deal_scores
from games.base import Action, Engine, Seat, State
from games.policy import GameBots, InfoSet

EXACT_BELOW = 11
"""With this many cards or fewer left in the row, ``normal`` searches to the end of the deal."""
DEPTH = 4
"""Otherwise it looks this many takes ahead."""


def normal(info: InfoSet, rng: random.Random) -> Action:
    view = info.view
    me = info.seat
    row: list[Card] = view["row"]
    taken: list[list[Card]] = view["taken"]
    if view["phase"] == CHOOSE_ORDER:
        # Going first, I take next; going second, the dealer does (their value is minus mine).
        first = _value(row, taken[me], taken[1 - me])
        second = -_value(row, taken[1 - me], taken[me])
        if abs(first - second) <= 1e-9:  # a tie: either order, at random
            return info.legal[rng.randrange(len(info.legal))]
        return {"type": "order", "first": first > second}
    best: list[Action] = []
    best_value = -math.inf
    for action in info.legal:
        count = action["count"]
        value = -_negamax(
            row[:-count],
            taken[1 - me],
            taken[me] + row[-count:],
            _depth(len(row) - count),
            -math.inf,
            math.inf,
        )
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))]


def _depth(left: int) -> int:
    return left if left < EXACT_BELOW else DEPTH - 1


def _value(row: list[Card], mover: list[Card], other: list[Card]) -> float:
    """The mover's deal-score margin with the mover to take next."""
    return _negamax(row, mover, other, _depth(len(row)), -math.inf, math.inf)


def _negamax(
    row: list[Card], mover: list[Card], other: list[Card], depth: int, alpha: float, beta: float
) -> float:
    if not row:
        return _final_margin(mover, other)
    if depth <= 0:
        return _estimate(row, mover, other)
    best = -math.inf
    for count in range(min(MAX_TAKE, len(row)), 0, -1):
        value = -_negamax(row[:-count], other, mover + row[-count:][::-1], depth - 1, -beta, -alpha)
        if value > best:
            best = value
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


def _final_margin(mine: list[Card], theirs: list[Card]) -> float:
    scores, _ = deal_scores([combo(mine), combo(theirs)], [len(mine), len(theirs)])
    return float(scores[0] - scores[1])


def _estimate(row: list[Card], mine: list[Card], theirs: list[Card]) -> float:
    """The deal-score margin expected if the rest of the row were shared evenly."""
    half = len(row) / 2
    my_combo = combo(mine) + _promise(mine, row)
    their_combo = combo(theirs) + _promise(theirs, row)
    return my_combo * (len(theirs) + half) - their_combo * (len(mine) + half)


def _promise(held: list[Card], row: list[Card]) -> float:
    """Half the points of melds that cards still in the row could complete or enlarge."""
    ranks = Counter(rank_of(card) for card in held)
    open_ranks = Counter(rank_of(card) for card in row)
    points = 0.0
    for rank, count in ranks.items():
        free = open_ranks[rank]
        if count == 3 and free:
            points += 3.0  # half of 8 - 2
        elif count == 2 and free:
            points += 1.0
        elif count == 1 and free >= 2:
            points += 0.3
    suits: dict[str, set[int]] = {}
    open_suits: dict[str, set[int]] = {}
    for card in held:
        suits.setdefault(suit_of(card), set()).add(RANK_INDEX[rank_of(card)])
    for card in row:
        open_suits.setdefault(suit_of(card), set()).add(RANK_INDEX[rank_of(card)])
    for suit, have in suits.items():
        free_here = open_suits.get(suit, set())
        for low in range(4):  # windows of three consecutive ranks
            window = range(low, low + 3)
            mine = sum(1 for r in window if r in have)
            if mine == 3:
                continue
            if all(r in have or r in free_here for r in window):
                points += (0.8, 0.25, 0.0)[2 - mine] if mine else 0.0
    return points


# -- for the search ---------------------------------------------------------------------------


EXACT_PLAYOUT = 10
"""With this many cards or fewer left in the row, a playout plays the rest of the deal exactly
for the match (``games.abstrac.endgame``)."""

_LAST: list[Endgame] = []


def endgame_for(state: State) -> Endgame:
    """The solver of the deal ``state`` is in: the last one made while the same deal is
    searched, else a new one."""
    row = state["row"]
    if _LAST:
        found = _LAST[0]
        if found.fits(row, state["totals"], state["target"]):
            return found
    found = Endgame(row, state["totals"], state["target"])
    _LAST[:] = [found]
    return found


def rollout(
    engine: Engine, state: State, seat: Seat, legal: list[Action], rng: random.Random
) -> Action:
    """A playout move: the exact one near the end of the deal, else a greedy one."""
    if state["phase"] == CHOOSE_ORDER:
        return legal[rng.randrange(len(legal))]
    row = state["row"]
    if len(row) <= EXACT_PLAYOUT:
        taken = state["taken"]
        masks = (_mask(taken[0]), _mask(taken[1]))
        solver = endgame_for(state)
        return max(legal, key=lambda a: solver.chance_after(len(row), masks, seat, a["count"]))
    mine = state["taken"][seat]
    base = combo(mine)
    gains = [combo(mine + row[-a["count"] :]) - base for a in legal]
    top = max(gains)
    if top <= 0:
        return legal[rng.randrange(len(legal))]
    options = [a for a, g in zip(legal, gains, strict=True) if g == top]
    return options[rng.randrange(len(options))]


def evaluate(state: State) -> list[float]:
    """Each seat's chance to win the match, guessed from the totals after a deal."""
    totals = state["totals"]
    scale = max(20.0, state["target"] / 4)
    p0 = 1.0 / (1.0 + math.exp(-(totals[0] - totals[1]) / scale))
    return [p0, 1.0 - p0]


def stage(state: State) -> int:
    return int(state["deal"])


BOTS = GameBots(
    normal=normal,
    rollout=rollout,
    evaluate=evaluate,
    stage=stage,
    exploration=0.7,
)
