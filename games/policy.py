"""What a bot decides from, and how a game's heuristics plug in: ``InfoSet``, ``GameBots``.

The search (:mod:`games.search`) and the bot levels (:mod:`games.bots`) both read these, and each
game's ``games/<id>/bots.py`` builds its ``BOTS`` from them, so none of those imports another
for its types.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Engine
from games.types import Action, Seat, State


@dataclass(frozen=True)
class InfoSet:
    """Everything one seat may use to decide: its view, its legal actions, and samples.

    ``sample(rng)`` is ``engine.determinize(true_state, seat, rng)``: a full state consistent with
    the view, drawn from ``rng`` alone (the engine contract makes it independent of where the
    hidden cards really are).
    """

    seat: Seat
    view: dict[str, Any]
    legal: list[Action]
    sample: Callable[[random.Random], State]


Policy = Callable[[InfoSet, random.Random], Action]
"""A decision from an information set and a random stream."""

RolloutPolicy = Callable[[Engine, State, Seat, list[Action], random.Random], Action]
"""A quick decision inside a search playout, on a sampled (fully known) state."""


@dataclass(frozen=True)
class GameBots:
    """A game's bot heuristics, exported as ``BOTS`` by ``games/<id>/bots.py``.

    - ``normal``: the ``normal`` level's policy.
    - ``rollout``: how the search plays a sampled state forward; ``None`` plays at random.
    - ``evaluate``: each seat's utility in [0, 1] for an unfinished sampled state where a playout
      stops; ``None`` scores every seat alike.
    - ``stage``: a key of the state that changes when a round (or deal) ends; a playout stops
      there and is evaluated. ``None`` plays on to the end of the match.
    - ``exploration``: the UCB constant of the search.
    - ``playout_depth``: the most actions one playout makes before it is evaluated.
    - ``widening``: progressive widening; a tree node visited ``n`` times tries at most
      ``widening * sqrt(n)`` of its actions (the playout policy's favourites first), so a
      node with hundreds of actions still gets searched in depth.
    - ``more_actions``: legal actions that ``legal_actions`` leaves out (there would be too many
      to list) but bots should consider, from the acting seat's own cards only: ABSOLUTE's
      regroups. ``None``: none.
    - ``trust``: the search tries ``normal``'s move (or ``favourite``'s) first and credits it
      with this share of its iterations as extra visits, so it plays something else only when
      the search clearly prefers it (a short search under a busy CPU falls back on the
      heuristic).
    - ``favourite``: the heuristic whose move the search tries first and trusts, when it is
      not ``normal``'s (a game whose ``normal`` plays the spec's notes as written can give
      the search better-fitted weights); ``None``: ``normal``.
    """

    normal: Policy
    rollout: RolloutPolicy | None = None
    evaluate: Callable[[State], Sequence[float]] | None = None
    stage: Callable[[State], Any] | None = None
    exploration: float = 0.7
    playout_depth: int = 400
    widening: float = 2.0
    trust: float = 0.1
    more_actions: Callable[[State, Seat], list[Action]] | None = None
    favourite: Policy | None = None


def round_stage(state: State) -> int:
    """``GameBots.stage`` for games that count their rounds in ``state["round"]``."""
    return int(state["round"])


def margin_utilities(standing: Sequence[float], scale: float) -> list[float]:
    """Each seat's utility in [0, 1]: a logistic of its margin over its best rival, for a
    ``GameBots.evaluate`` whose standings are better when higher."""
    utilities = []
    for seat, mine in enumerate(standing):
        rival = max((s for other, s in enumerate(standing) if other != seat), default=mine)
        utilities.append(1.0 / (1.0 + math.exp(-(mine - rival) / scale)))
    return utilities
