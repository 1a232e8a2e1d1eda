"""A state the viewer cannot tell apart from the real one (design section 2).

Hidden from a viewer: the deck, the other hands, and every stack card under the top. They are
dealt again at random among those places, keeping every count. A card the viewer passed stays
in the receiver's hand while it is still there and no later pass has been made, since the
viewer knows where it is. Once the match is over every card has been shown.
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
    # (place, how many of its first cards are hidden): whole places, and stacks but their top.
    slots = [(place, len(place)) for place in hidden_places]
    slots += [(stack, len(stack) - 1) for stack in new["plus"] + new["minus"] if stack]
    pool = sorted(card for place, hidden in slots for card in place[:hidden])
    rng.shuffle(pool)  # sorted first: the sample must not depend on where the cards really are
    at = 0
    for place, hidden in slots:
        place[:hidden] = pool[at : at + hidden]
        at += hidden
    if pinned is not None:
        new["hands"][last_pass["to"]].append(pinned)
    reseed(new, rng)
    return new
