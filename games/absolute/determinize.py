"""A state the viewer cannot tell from the real one: hidden cards dealt again at random."""

from __future__ import annotations

import random

from games.absolute.cards import sort_cards
from games.base import Seat, State, clone, reseed


def determinize(state: State, seat: Seat | None, rng: random.Random) -> State:
    """Pool the other hands' unseen cards and the deck, shuffle, and deal back with the same
    counts.

    What the seat knows stays: its own hand, every set, the discard pile, all counts, and the
    cards everyone saw go into a hand (taken from the discard pile or from a set by a swap:
    ``state["seen"]``), which stay in that hand.
    """
    new = clone(state)
    hands = new["hands"]
    seen = new["seen"]
    others = [other for other in range(new["players"]) if other != seat]
    # Sorted first, so the sample depends only on what the seat knows and on rng.
    pool = sort_cards(
        [card for other in others for card in hands[other] if card not in seen[other]] + new["deck"]
    )
    rng.shuffle(pool)
    for other in others:
        count = len(hands[other]) - len(seen[other])
        hands[other] = sort_cards(pool[:count] + seen[other])
        del pool[:count]
    new["deck"] = pool
    turn = new["turn"]
    if turn is not None and turn["drew"] == "deck" and turn["seat"] != seat:
        turn["card"] = None  # the viewer never saw which card that was
    reseed(new, rng)
    return new
