"""A finished match's decisions, weighed by the hard bot from each seat's own information.

For every decision that offered a choice, the search (:func:`games.search.ismcts`, the hard
bot's own, with an iteration cap and no clock) names the action it prefers from the seat's
information set at that moment: its view and samples of what it cannot see, never the
revealed cards. Then the action played and the preferred one are each played out from the same
sampled states with the same random streams (common random numbers), so the difference
between their values is the choice's own and not the luck of the samples. A value is the seat's
mean playout reward: its share of the win, or the game's estimate of it where a playout stops
at the end of a round (``GameBots.evaluate``), so every game's values are chances in [0, 1].

Should the played action come out at least as well as the search's pick, the played action is
the best found and the decision costs nothing: the review never says a move was worse than an
alternative it measured as no better. Everything is a function of the match's actions, the
information sets and the review's seed, so a review is computed once and stored.

A review has a budget of decisions (``Budget.decisions``): a match with more decisions than that
is reviewed on a sample of them, evenly spread over it (:func:`sample_evenly`), and says so. A
sampled decision is weighed exactly as in a whole review (its random stream is its own move's),
so a sample is a subset of the whole review. The server computes a review a part at a time in a
worker process (:func:`plan_part`, then :func:`weigh_part` for each part); the worker keeps the
state where a part stopped, so the next part of that review goes on from there instead of
replaying the match from its start.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games import REGISTRY
from games.base import Action, Engine, Seat, State
from games.bots import game_bots, info_set
from games.policy import GameBots, InfoSet
from games.search import action_key, ismcts, playout

ACCURATE_MARGIN = 0.02
"""A decision within this much of the best value counts as accurate."""


@dataclass(frozen=True)
class Budget:
    """What one decision may cost: search iterations, then playouts per compared action."""

    iterations: int = 48
    playouts: int = 16
    decisions: int = 400
    """The most decisions weighed in one match; a longer match is reviewed on a sample."""


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: Seat
    played: Action
    best: Action
    value_played: float
    value_best: float
    chances: list[float]
    """Every seat's estimated chance after the played action, from the mover's information."""

    @property
    def cost(self) -> float:
        return self.value_best - self.value_played

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "value_played": round(self.value_played, 4),
            "value_best": round(self.value_best, 4),
            "chances": [round(chance, 4) for chance in self.chances],
        }


def weigh(
    engine: Engine, info: InfoSet, played: Action, rng: random.Random, budget: Budget
) -> Decision:
    """The decision ``played`` from ``info``, weighed (``seq`` left 0 for the caller)."""
    bots = game_bots(engine)
    preferred = ismcts(engine, info, rng, bots, budget_s=None, iterations=budget.iterations)
    samples = [(info.sample(rng), rng.getrandbits(64)) for _ in range(budget.playouts)]
    played_rewards = _mean_rewards(engine, bots, samples, info.seat, played)
    value_played = played_rewards[info.seat]
    if action_key(preferred) == action_key(played):
        best, value_best = played, value_played
    else:
        value_preferred = _mean_rewards(engine, bots, samples, info.seat, preferred)[info.seat]
        if value_preferred > value_played:
            best, value_best = preferred, value_preferred
        else:
            best, value_best = played, value_played
    return Decision(0, info.seat, played, best, value_played, value_best, played_rewards)


def _mean_rewards(
    engine: Engine,
    bots: GameBots,
    samples: list[tuple[State, int]],
    seat: Seat,
    action: Action,
) -> list[float]:
    totals: list[float] | None = None
    for state, stream in samples:
        stage = bots.stage(state) if bots.stage is not None else None
        after = engine.apply_unchecked(state, seat, action)
        rewards = playout(engine, bots, after, stage, random.Random(stream), 1)
        totals = (
            list(rewards)
            if totals is None
            else [a + b for a, b in zip(totals, rewards, strict=True)]
        )
    assert totals is not None
    return [total / len(samples) for total in totals]


def review_match(
    engine: Engine,
    players: int,
    seed: int,
    options: dict[str, Any],
    moves: Sequence[tuple[int, Seat, Action]],
    *,
    budget: Budget,
    review_seed: int,
    start: int = 0,
    stop: int | None = None,
) -> Iterator[Decision]:
    """Each decision with a choice among ``moves[start:stop]`` (``(seq, seat, action)`` in
    order, from the match's first) weighed."""
    state = engine.setup(players, seed, options)
    for index, (seq, seat, action) in enumerate(moves[:stop]):
        if index >= start:
            info = info_set(engine, state, seat)
            if len(info.legal) > 1:
                rng = random.Random(f"{review_seed}:{seq}")
                yield replace(weigh(engine, info, action, rng, budget), seq=seq)
        state = engine.apply_unchecked(state, seat, action)


def choice_moves(
    engine: Engine,
    players: int,
    seed: int,
    options: dict[str, Any],
    moves: Sequence[tuple[int, Seat, Action]],
) -> list[int]:
    """The indices in ``moves`` of the decisions: the moves that had more than one action."""
    state = engine.setup(players, seed, options)
    found = []
    for index, (_, seat, action) in enumerate(moves):
        if len(info_set(engine, state, seat).legal) > 1:
            found.append(index)
        state = engine.apply_unchecked(state, seat, action)
    return found


def sample_evenly(indices: Sequence[int], limit: int) -> list[int]:
    """All of ``indices`` if there are at most ``limit``, else ``limit`` of them spread evenly
    from the first to the last."""
    if len(indices) <= limit:
        return list(indices)
    if limit == 1:
        return [indices[0]]
    step = (len(indices) - 1) / (limit - 1)
    return [indices[round(i * step)] for i in range(limit)]


_STATES: OrderedDict[tuple[Any, ...], tuple[int, State]] = OrderedDict()
"""In a worker process: where the latest parts of a few reviews stopped (the index of the next
move to apply, and the state before it), so the next part goes on from there."""
_STATES_KEPT = 8


def plan_part(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    moves: list[tuple[int, Seat, Action]],
) -> list[int]:
    """The first part of a review in a worker: the indices of the match's decisions."""
    return choice_moves(REGISTRY[game], players, seed, options, moves)


def weigh_part(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    moves: list[tuple[int, Seat, Action]],
    budget: Budget,
    review_seed: int,
    indices: list[int],
) -> list[dict[str, Any]]:
    """The decisions at ``indices`` (ascending; ``moves`` runs from the match's first move at
    least to the last of them) weighed, as JSON: a function of its arguments alone."""
    engine = REGISTRY[game]
    key = (game, players, seed, json.dumps(options, sort_keys=True), review_seed)
    at, state = _STATES.pop(key, (0, None))
    if state is None or at > indices[0]:
        at, state = 0, engine.setup(players, seed, options)
    wanted = set(indices)
    decisions = []
    for index in range(at, indices[-1] + 1):
        seq, seat, action = moves[index]
        if index in wanted:
            info = info_set(engine, state, seat)
            rng = random.Random(f"{review_seed}:{seq}")
            decisions.append(replace(weigh(engine, info, action, rng, budget), seq=seq).to_json())
        state = engine.apply_unchecked(state, seat, action)
    _STATES[key] = (indices[-1] + 1, state)
    while len(_STATES) > _STATES_KEPT:
        _STATES.popitem(last=False)
    return decisions


def review_part(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    moves: list[tuple[int, Seat, Action]],
    budget: Budget,
    review_seed: int,
    start: int,
    stop: int,
) -> list[dict[str, Any]]:
    """The weighed decisions of ``moves[start:stop]`` as JSON: a function of its arguments
    alone, so a worker process can compute a long match's review a part at a time."""
    decisions = review_match(
        REGISTRY[game],
        players,
        seed,
        options,
        moves,
        budget=budget,
        review_seed=review_seed,
        start=start,
        stop=stop,
    )
    return [decision.to_json() for decision in decisions]


def summary(decisions: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: the share of its decisions within ``ACCURATE_MARGIN`` of the best, and its
    average cost (``None`` for a seat that never had a choice)."""
    seats = []
    for seat in range(players):
        costs = [d["value_best"] - d["value_played"] for d in decisions if d["seat"] == seat]
        seats.append(
            {
                "seat": seat,
                "decisions": len(costs),
                "accuracy": round(sum(c <= ACCURATE_MARGIN for c in costs) / len(costs), 4)
                if costs
                else None,
                "average_cost": round(sum(costs) / len(costs), 4) if costs else None,
            }
        )
    return seats
