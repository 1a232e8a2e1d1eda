"""A Balance state one viewer cannot tell apart from the real one.

Hidden from a seat: the stock's order and every other hand (and so which card the player on
turn just drew). Those cards are dealt again at random among the same places, keeping every
count, and the rng is reseeded so the future cannot be foreseen.
"""

from __future__ import annotations

import random

from games.balance.cards import sort_hand
from games.base import Seat, State, clone, reseed


def determinize(state: State, seat: Seat | None, rng: random.Random) -> State:
    new = clone(state)
    hands = new["hands"]
    others = [s for s in range(new["players"]) if s != seat and hands[s]]
    pool = list(new["stock"])
    for s in others:
        pool.extend(hands[s])
    pool.sort()  # the sample must not depend on where the hidden cards really are
    rng.shuffle(pool)
    cut = len(new["stock"])
    new["stock"] = pool[:cut]
    for s in others:
        size = len(hands[s])
        hands[s] = pool[cut : cut + size]
        sort_hand(hands[s])
        cut += size
    current = new["current"]
    if new["drawn"] is not None and current != seat:
        new["drawn"] = rng.choice(hands[current])
    reseed(new, rng)
    return new
