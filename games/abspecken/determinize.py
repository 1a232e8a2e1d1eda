"""A state a viewer cannot tell apart from the real one (design section 2).

What is hidden from a viewer: the hands it cannot deduce (a hand becomes uncertain once a card
passed secretly into or out of it, see ``rules.transfer``), the other seats' pending secret
choices, and the values of passed cards it did not see. The uncertain hands are pooled and
dealt again at random with their sizes kept, except the cards everyone saw go into them
since (refills from the open piles, the grim piggy's card: ``state["seen"]``), which stay;
pending choices are replaced by random legal ones; unseen passed-card values are blanked;
and the seed is replaced.
"""

from __future__ import annotations

import random
from typing import Any

from games.abspecken import actions as act
from games.abspecken import discards, phases
from games.abspecken.cards import HAND_SIZE, add, remove
from games.base import Seat, State, clone, reseed


def knows_hand(state: State, viewer: Seat | None, seat: Seat) -> bool:
    if viewer is None:
        return bool(state["public"][seat])
    return viewer == seat or viewer in state["known"][seat]


def determinize(state: State, seat: Seat | None, rng: random.Random) -> State:
    new = clone(state)
    players = new["players"]
    hidden = [p for p in range(players) if not knows_hand(state, seat, p)]
    seen = new["seen"]
    # sorted first, so the sample depends only on what the viewer knows (the pool's contents)
    pool = sorted(card for p in hidden for card in remove(new["hands"][p], seen[p]))
    rng.shuffle(pool)
    for p in hidden:
        size = len(new["hands"][p]) - len(seen[p])
        new["hands"][p] = add(seen[p], pool[:size])
        del pool[:size]
    _resample_pending(new, seat, rng)
    for log in (new["log"], new["previous"]):
        if log is not None:
            _blank_unseen(log, seat)
    reseed(new, rng)
    return new


def _resample_pending(state: State, seat: Seat | None, rng: random.Random) -> None:
    phase = state["phase"]
    if phase not in phases.SECRET:
        return
    for p, pending in enumerate(state["pending"]):
        if pending is None or p == seat:
            continue
        if phase == phases.PICK:
            choices = discards.draws(tuple(state["piles"][p]), HAND_SIZE)
            state["pending"][p] = {"type": act.PICK, "cards": list(rng.choice(choices))}
        else:
            options = act.discard_options(state, p)
            if not options:
                state["pending"][p] = {"type": act.CANNOT}
                continue
            option, cards = rng.choice(options)
            state["pending"][p] = {"type": act.DISCARD, "option": option, "cards": list(cards)}


def _blank_unseen(log: dict[str, Any], seat: Seat | None) -> None:
    gift = log["gift"]
    if gift is not None and seat not in (gift["from"], gift["to"]):
        gift["card"] = None
    for take in log["takes"]:
        if seat not in (take["taker"], take["source"]):
            take["card"] = None
