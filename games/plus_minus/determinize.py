"""A state the viewer cannot tell apart from the real one (design section 2).

Hidden from a viewer: the deck and the other hands. They are dealt again at random among
those places, keeping every count. The stacks stay as they are: a buried card may not be
examined (spec D-16), but everyone saw it face up when it was dealt or played, and every 10
swap and King move since, so its place is public knowledge. A card the viewer passed stays in
the receiver's hand while it is still there and no later pass has been made, since the viewer
knows where it is. Once the match is over every card has been shown.
"""

from __future__ import annotations

import random

from games.base import State, clone, reseed


def determinize(state: State, seat: int | None, rng: random.Random) -> State:
    new = clone(state)
    if new["phase"] == "over":  # the final tally shows every card
        reseed(new, rng)
        return new
    players = new["players"]
    last_pass = new["last_pass"]
    pinned: str | None = None
    if (
        last_pass is not None
        and last_pass["from"] == seat
        and last_pass["card"] in new["hands"][last_pass["to"]]
    ):
        pinned = last_pass["card"]

    hidden_places: list[list[str]] = [new["deck"]]
    hidden_places += [new["hands"][s] for s in range(players) if s != seat]
    if pinned is not None:
        new["hands"][last_pass["to"]].remove(pinned)
    pool = sorted(card for place in hidden_places for card in place)
    rng.shuffle(pool)  # sorted first: the sample must not depend on where the cards really are
    at = 0
    for place in hidden_places:
        place[:] = pool[at : at + len(place)]
        at += len(place)
    if pinned is not None:
        new["hands"][last_pass["to"]].append(pinned)
    reseed(new, rng)
    return new
