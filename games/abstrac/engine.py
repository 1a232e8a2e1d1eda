"""The Abstrac engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.abstrac import actions, determinize, rules, view
from games.base import (
    Action,
    Engine,
    GameInfo,
    OptionSpec,
    Outcome,
    Seat,
    State,
)

META = GameInfo(
    id="abstrac",
    title="Abstrac",
    min_players=2,
    max_players=2,
    summary=(
        "All 24 cards lie face up in a row: take 1, 2 or 3 from its end to build sets and "
        "suit sequences, scored times the cards your opponent took."
    ),
    options=(
        OptionSpec(
            name="target",
            type="int",
            default=500,
            label="Points to win",
            min=50,
            max=5000,
        ),
    ),
    perfect_information=True,
)


class AbstracEngine(Engine):
    info = META
    version = "1"
    action_schema = actions.SCHEMA

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        checked = self.check_options(options, players)
        return rules.setup(seed, checked["target"])

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return actions.legal_actions(state, seat)

    apply_unchecked = staticmethod(rules.apply)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def determinize(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        return determinize.determinize(state, seat, rng)


ENGINE = AbstracEngine()
