"""Abstrac is a game of perfect information: nothing to re-deal, only the future to reseed."""

from __future__ import annotations

import random

from games.base import Seat, State, clone, reseed


def determinize(state: State, seat: Seat | None, rng: random.Random) -> State:
    """An equal state whose later deals cannot be foreseen (the rng is reseeded)."""
    other = clone(state)
    reseed(other, rng)
    return other
