"""The Abstrac engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.abstrac import actions, determinize, rules, view
from games.base import (
    Engine,
    GameInfo,
    OptionSpec,
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

    # The contract's calls are the package's own functions, with no call in between.
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(actions.legal_actions)
    apply_unchecked = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    determinize = staticmethod(determinize.determinize)
    view = staticmethod(view.view)


ENGINE = AbstracEngine()
