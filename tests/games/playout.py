"""Seeded random playouts, and a way to compare actions, shared by the engine tests."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.base import Action, Engine, Seat, State

MAX_STEPS = 20_000


@dataclass
class Trace:
    options: dict[str, Any]
    states: list[State] = field(default_factory=list)
    actions: list[tuple[Seat, Action]] = field(default_factory=list)


def player_counts(engine: Engine) -> list[int]:
    low, high = engine.info.min_players, engine.info.max_players
    return sorted({low, min(high, low + 1), high})


def random_playout(
    engine: Engine, players: int, seed: int, options: dict[str, Any] | None = None
) -> Trace:
    """Play uniformly random legal actions until the match ends (or fail loudly)."""
    options = engine.check_options(options, players)
    rng = random.Random(seed)
    state = engine.setup(players, seed, options)
    trace = Trace(options=options, states=[state])
    acting = engine.to_act(state)
    for _ in range(MAX_STEPS):
        if not acting:
            return trace
        seat = rng.choice(sorted(acting))
        legal = engine.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        action = rng.choice(legal)
        move = engine.play(state, seat, action)
        state, acting = move.state, move.to_act
        trace.actions.append((seat, action))
        trace.states.append(state)
    raise AssertionError(f"{engine.info.id}: no end after {MAX_STEPS} actions (seed {seed})")


def unordered(value: Any) -> Any:
    """A hashable key of a JSON value (an action) in which the order of its lists does not
    count: the rules take a move's cards in any order, ``legal_actions`` lists one."""
    if isinstance(value, list):
        return tuple(sorted((unordered(item) for item in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted((key, unordered(item)) for key, item in value.items()))
    return value
