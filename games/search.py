"""Single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

Each iteration draws a state the searching seat cannot tell apart from the real one
(``info.sample``), walks one shared tree with it, and plays it out. Tree nodes are reached by
actions, whoever makes them; an action that is not legal in this iteration's sample is simply
not available, and UCB counts how often a child was available rather than how often its parent
was visited. Each node keeps the reward of the seat that made its action, so the search suits
any number of seats; in a simultaneous phase the seats are taken one after another.

Two pieces of game knowledge steer it. A node grows one child at a time, the playout policy's
pick among the actions not yet tried, and only as fast as progressive widening allows
(``widening * sqrt(visits)`` children), so nodes with hundreds of actions (an opening hand to
pick, a swap of two of twelve stacks) are still searched in depth. At the root the heuristic's
move (``favourite``, else ``normal``) is tried first and keeps a head start of ``trust``
times the iterations run: the search overrules the heuristic only when it clearly finds better.

A playout runs the playout policy until the match ends, the round ends (the game's ``stage``
key changes) or ``playout_depth`` actions have been played, and is scored by the outcome or
the game's ``evaluate``. The search stops at its time budget (``time.perf_counter``; the only
clock in ``games``), at its iteration cap, or once the leading move cannot be caught, and plays
the leading move. Without a budget it is a function of the information set and the random
stream alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from games.base import Engine
from games.policy import GameBots, InfoSet
from games.types import Action, State

_CHECK_EVERY = 8
"""Iterations between looks at whether the most visited action can still be caught."""


class _Node:
    __slots__ = ("action", "avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int, action: Action | None) -> None:
        self.seat = seat
        self.action = action
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def action_key(action: Action) -> Any:
    """A hashable key of a JSON action (its lists become tuples; key order does not matter)."""
    return tuple(
        sorted((k, _freeze(v)) for k, v in action.items()),
    )


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return action_key(value)
    return value


def bot_actions(engine: Engine, bots: GameBots, state: State, seat: int) -> list[Action]:
    """What a bot may play: ``engine.legal_actions`` and then the game's ``more_actions``."""
    legal = engine.legal_actions(state, seat)
    if bots.more_actions is not None and legal:
        more = bots.more_actions(state, seat)
        if more:
            return [*legal, *more]
    return legal


def outcome_rewards(engine: Engine, state: State) -> list[float] | None:
    """1 shared among the winners, 0 for the others; ``None`` while the match runs."""
    outcome = engine.outcome(state)
    if outcome is None:
        return None
    players = engine.players(state)
    rewards = [0.0] * players
    for seat in outcome.winners:
        rewards[seat] = 1.0 / len(outcome.winners)
    return rewards


def ismcts(
    engine: Engine,
    info: InfoSet,
    rng: random.Random,
    bots: GameBots,
    *,
    budget_s: float | None,
    iterations: int,
) -> Action:
    """The most visited root action after searching within ``budget_s`` and ``iterations``
    (one of the most visited at random, on a tie)."""
    start = time.perf_counter()
    deadline = None if budget_s is None else start + budget_s
    root = _Node(info.seat, None)
    for action in info.legal:
        root.children[action_key(action)] = _Node(info.seat, action)
    # The game's heuristic move is tried first, and kept unless the search finds better.
    favourite = root.children[action_key((bots.favourite or bots.normal)(info, rng))]
    done = 0
    while done < iterations:
        _iterate(engine, info, rng, bots, root, favourite)
        done += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if done % _CHECK_EVERY == 0 and _settled(
            root, favourite, bots.trust, done, iterations, start, deadline
        ):
            break
    standings = [
        (_standing(child, favourite, bots.trust, done), child) for child in root.children.values()
    ]
    top = max(standing for standing, _ in standings)
    leaders = [child for standing, child in standings if standing == top]
    # a tie is broken at random (a draw only then, so untied searches use the stream as before)
    best = leaders[0] if len(leaders) == 1 else leaders[rng.randrange(len(leaders))]
    assert best.action is not None
    return best.action


def _standing(child: _Node, favourite: _Node, trust: float, done: int) -> float:
    """A root action's visits, the heuristic's favourite credited ``trust`` of the iterations."""
    return child.visits + (trust * done if child is favourite else 0.0)


def _settled(
    root: _Node,
    favourite: _Node,
    trust: float,
    done: int,
    iterations: int,
    start: float,
    deadline: float | None,
) -> bool:
    """Whether the leading action can no longer be caught in the iterations left."""
    left = iterations - done
    if deadline is not None:
        now = time.perf_counter()
        left = min(left, int(done * (deadline - now) / max(now - start, 1e-9)) + 1)
    standings = sorted(
        (_standing(child, favourite, trust, done) for child in root.children.values()),
        reverse=True,
    )
    return len(standings) < 2 or standings[0] - standings[1] > left * (1 + trust)


def _iterate(
    engine: Engine,
    info: InfoSet,
    rng: random.Random,
    bots: GameBots,
    root: _Node,
    favourite: _Node,
) -> None:
    state = info.sample(rng)
    stage = bots.stage(state) if bots.stage is not None else None
    path = [root]
    node = root
    seat = info.seat
    legal = info.legal
    depth = 0
    # Selection and expansion: walk the tree while every available action has been tried.
    while True:
        children = node.children
        untried: list[Action] = []
        available: list[_Node] = []
        for action in legal:
            child = children.get(action_key(action))
            if child is None or not child.visits:
                untried.append(action)
            else:
                child.avail += 1
                available.append(child)
        expand = bool(untried) and (
            not available or len(available) < bots.widening * math.sqrt(node.visits)
        )
        if expand:
            if node is root and not favourite.visits:
                action = favourite.action  # type: ignore[assignment]
            else:
                action = _first_try(engine, bots, state, seat, untried, rng)
            key = action_key(action)
            child = children.get(key) or _Node(seat, action)
            child.avail += 1
            children[key] = child
        else:
            child = _select(available, bots.exploration)
            action = child.action  # type: ignore[assignment]
        state = engine.apply_unchecked(state, seat, action)
        depth += 1
        path.append(child)
        node = child
        if expand or _stops(engine, bots, state, stage):
            break
        seat = min(engine.to_act(state))
        legal = bot_actions(engine, bots, state, seat)
    rewards = playout(engine, bots, state, stage, rng, depth)
    for visited in path:
        visited.visits += 1
        if visited is not root:
            visited.total += rewards[visited.seat]


def _first_try(
    engine: Engine,
    bots: GameBots,
    state: State,
    seat: int,
    untried: list[Action],
    rng: random.Random,
) -> Action:
    """The untried action to add to the tree: the playout policy's pick, so the tree grows
    along the moves the game's heuristic likes first (random without one)."""
    if bots.rollout is None or len(untried) == 1:
        return untried[rng.randrange(len(untried))]
    return bots.rollout(engine, state, seat, untried, rng)


def _select(available: list[_Node], exploration: float) -> _Node:
    best = available[0]
    best_score = -math.inf
    for child in available:
        score = child.total / child.visits + exploration * math.sqrt(
            math.log(child.avail) / child.visits
        )
        if score > best_score:
            best, best_score = child, score
    return best


def _stops(engine: Engine, bots: GameBots, state: State, stage: Any) -> bool:
    if not engine.to_act(state):
        return True
    return bots.stage is not None and bots.stage(state) != stage


def playout(
    engine: Engine, bots: GameBots, state: State, stage: Any, rng: random.Random, depth: int
) -> Sequence[float]:
    policy = bots.rollout
    while depth < bots.playout_depth and not _stops(engine, bots, state, stage):
        seat = min(engine.to_act(state))
        legal = bot_actions(engine, bots, state, seat)
        action = (
            legal[rng.randrange(len(legal))]
            if policy is None
            else policy(engine, state, seat, legal, rng)
        )
        state = engine.apply_unchecked(state, seat, action)
        depth += 1
    rewards = outcome_rewards(engine, state)
    if rewards is not None:
        return rewards
    if bots.evaluate is not None:
        return bots.evaluate(state)
    players = engine.players(state)
    return [1.0 / players] * players
