"""ABSOLUTE bots: lay sets early, keep zero cards flexible, shed what will not fit.

A round pays each seat its sets' scores less its hand penalty (largest number held plus one
per further card), and going out (an empty hand with three sets) ends it. ``normal`` values a
position for its seat as: its sets' scores, less its hand penalty, plus a bonus for each of its
first three sets, plus a little for every zero card still in hand (a zero is wild: spending
one in a set that would stand without it throws that away), less a share of the other seats'
set scores. It then:

- draws the discard pile's top card when that card makes a better play possible than it has
  without it (or is a zero), else the deck;
- makes the play, swap or regroup that raises that value most, one at a time, while one
  does. The regroups (``actions.regroup_actions``, offered through ``BOTS.more_actions``)
  split a set grown long by additions into two: without them a seat that had shed its hand
  into one or two long sets could never reach the three sets going out needs, and held on
  until the safety valve ended the round;
- ends the turn with the discard (or the hold) that keeps the most: it sheds the card with the
  fewest ways to complete a set with another hand card and an unseen third, high numbers
  first, never a zero while another card will do, and goes out whenever it can.

The same code plays the search's playouts, on the sampled state.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from typing import Any

from games.absolute import actions
from games.absolute.cards import (
    ALL_CARDS,
    SETS_TO_GO_OUT,
    VALUE,
    ZEROS,
    Card,
    sort_cards,
    zero_range,
)
from games.absolute.scoring import hand_penalty, score_set
from games.base import Action, Engine, Seat, State
from games.policy import GameBots, InfoSet, margin_utilities, round_stage

SET_BONUS = 4.0
"""For each of a seat's first three sets: they are what going out needs."""
ZERO_HELD = 2.0
"""A zero card in hand is worth keeping for a set that needs it."""
GOING_OUT = 12.0
WORTH_DRAWING = 0.5
"""How much better the discard's top must make the best play to be taken over the deck."""


# -- valuing a position -------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _score(cards: tuple[Card, ...]) -> int:
    return int(score_set(cards)["score"])


def _set_scores(state: State) -> dict[int, int]:
    return {s["id"]: _score(tuple(s["cards"])) for s in state["sets"]}


def _value(
    state: State,
    me: Seat,
    hand: list[Card],
    sets: list[dict[str, Any]],
    scores: dict[int, int],
) -> float:
    """My standing with ``hand`` and ``sets`` on the table (``scores`` by set id)."""
    players = state["players"]
    mine = 0.0
    count = 0
    theirs = 0.0
    for table_set in sets:
        if table_set["owner"] == me:
            mine += scores[table_set["id"]]
            count += 1
        else:
            theirs += scores[table_set["id"]]
    value = mine - hand_penalty(hand) + SET_BONUS * min(count, SETS_TO_GO_OUT)
    value += ZERO_HELD * sum(1 for card in hand if card in ZEROS)
    return value - theirs / max(1, players - 1)


def _after(
    state: State, me: Seat, action: Action, scores: dict[int, int]
) -> tuple[list[Card], list[dict], dict]:
    """My hand, the sets and their scores after a play or swap (legal, so no checks)."""
    hand = list(state["hands"][me])
    sets = list(state["sets"])
    scores = dict(scores)
    if action["type"] == "play":
        placed = {card for group in action["groups"] for card in group}
        hand = [card for card in hand if card not in placed]
        # An own set with a card in a group is taken apart; every group is a set.
        sets = [s for s in sets if s["owner"] != me or placed.isdisjoint(s["cards"])]
        for group in action["groups"]:
            key = -len(sets) - 1  # a new set's provisional id
            sets.append({"id": key, "owner": me, "cards": group})
            scores[key] = _score(tuple(sort_cards(group)))
    else:  # swap
        give, take = action["give"], action["take"]
        hand = [card for card in hand if card not in give] + list(take)
        sets = [
            {**s, "cards": [c for c in s["cards"] if c not in take] + list(give)}
            if s["id"] == action["set"]
            else s
            for s in sets
        ]
        target = next(s for s in sets if s["id"] == action["set"])
        scores[action["set"]] = _score(tuple(sorted(target["cards"])))
    return hand, sets, scores


def _unseen(state: State, me: Seat) -> Counter[int]:
    """Values of the cards ``me`` has not seen (other hands and the deck), zeros under 0."""
    seen = set(state["hands"][me]) | set(state["discard"])
    for table_set in state["sets"]:
        seen.update(table_set["cards"])
    return Counter(0 if card in ZEROS else VALUE[card] for card in ALL_CARDS if card not in seen)


def _usefulness(card: Card, hand: list[Card], unseen: Counter[int]) -> float:
    """Ways ``card`` could make a set with one other hand card and one unseen third."""
    if card in ZEROS:
        return 10.0
    ways = 0.0
    for other in hand:
        if other == card:
            continue
        if other in ZEROS:
            low, high = zero_range(other)
            ways += 1.0 if low <= -VALUE[card] <= high else 0.0
            continue
        need = -(VALUE[card] + VALUE[other])
        if -10 <= need <= 10:
            ways += unseen[need] / 4 + unseen[0] / 16
    return ways


# -- deciding -----------------------------------------------------------------------------------


def decide(state: State, me: Seat, legal: list[Action], rng: random.Random) -> Action:
    """``normal``'s choice on a state that agrees with ``me``'s view (a sample of it)."""
    phase = state["phase"]
    if phase == "draw":
        return _draw(state, me, legal, rng)
    moves = [a for a in legal if a["type"] in ("play", "swap")]
    endings = [a for a in legal if a["type"] in ("discard", "hold")]
    if moves:
        scores = _set_scores(state)
        now = _value(state, me, state["hands"][me], state["sets"], scores)
        best_gain, best = -math.inf, []
        for action in moves:
            gain = _value(state, me, *_after(state, me, action, scores)) - now
            if gain > best_gain + 1e-9:
                best_gain, best = gain, [action]
            elif gain > best_gain - 1e-9:
                best.append(action)
        if best_gain > 0 or not endings:
            return best[rng.randrange(len(best))]
    return _end_turn(state, me, endings, rng)


def _end_turn(state: State, me: Seat, legal: list[Action], rng: random.Random) -> Action:
    hand = state["hands"][me]
    owned = sum(1 for s in state["sets"] if s["owner"] == me)
    if len(hand) == 1 and owned >= SETS_TO_GO_OUT:
        going_out = [a for a in legal if a["type"] == "discard"]
        if going_out:
            return going_out[0]
    unseen = _unseen(state, me)
    scored: list[tuple[float, Action]] = []
    for action in legal:
        if action["type"] == "hold":
            # Keep everything: worth it only while the hand is small and every card can help.
            weakest = min(_usefulness(c, hand, unseen) for c in hand) if hand else 0.0
            scored.append((-len(hand) + 2.0 * min(weakest, 1.5) - 0.5, action))
            continue
        card = action["card"]
        rest = [c for c in hand if c != card]
        merit = hand_penalty(hand) - hand_penalty(rest) - _usefulness(card, hand, unseen)
        merit -= 0.05 * len(rest)
        scored.append((merit, action))
    top = max(score for score, _ in scored)
    best = [a for score, a in scored if score >= top - 1e-9]
    return best[rng.randrange(len(best))]


def _draw(state: State, me: Seat, legal: list[Action], rng: random.Random) -> Action:
    by_source = {a["source"]: a for a in legal}
    if len(by_source) == 1:
        return legal[0]
    top = state["discard"][-1]
    if top in ZEROS:
        return by_source["discard"]
    with_top = _best_gain(state, me, top)
    without = _best_gain(state, me, None)
    if with_top > without + WORTH_DRAWING:
        return by_source["discard"]
    return by_source["deck"]


def _best_gain(state: State, me: Seat, extra: Card | None) -> float:
    """The most a play could gain with the hand (plus ``extra``) as it stands."""
    hand = sort_cards([*state["hands"][me], *([extra] if extra else [])])
    if len(hand) < 2:
        return 0.0
    probe = dict(state)
    probe["hands"] = [*state["hands"][:me], hand, *state["hands"][me + 1 :]]
    scores = _set_scores(probe)
    now = _value(probe, me, hand, probe["sets"], scores)
    best = 0.0
    for action in actions.play_actions(probe, me):
        if extra is not None and all(extra not in group for group in action["groups"]):
            continue
        best = max(best, _value(probe, me, *_after(probe, me, action, scores)) - now)
    return best


def normal(info: InfoSet, rng: random.Random) -> Action:
    # A sample keeps this seat's hand, every set and the discard pile exactly as seen.
    return decide(info.sample(rng), info.seat, info.legal, rng)


# -- for the search ---------------------------------------------------------------------------


def rollout(
    engine: Engine, state: State, seat: Seat, legal: list[Action], rng: random.Random
) -> Action:
    if len(legal) == 1:
        return legal[0]
    return decide(state, seat, legal, rng)


SCALE = 8.0
"""Points of lead worth about a 73% chance to win, for the search's evaluation."""


def evaluate(state: State) -> list[float]:
    """Each seat's chance to win from its total plus the round scored as it stands (with a
    little credit for sets laid towards going out)."""
    players = state["players"]
    scores = _set_scores(state)
    standing = []
    for seat in range(players):
        sets = [s for s in state["sets"] if s["owner"] == seat]
        round_score = sum(scores[s["id"]] for s in sets) - hand_penalty(state["hands"][seat])
        progress = 1.5 * min(len(sets), SETS_TO_GO_OUT)
        standing.append(state["totals"][seat] + round_score + progress)
    return margin_utilities(standing, SCALE)


BOTS = GameBots(
    normal=normal,
    rollout=rollout,
    evaluate=evaluate,
    stage=round_stage,
    exploration=0.5,
    playout_depth=24,
    more_actions=actions.regroup_actions,
)
