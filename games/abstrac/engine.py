"""The Abstrac engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.abstrac import actions, determinize, rules, view
from games.base import Engine, GameInfo, OptionSpec, State

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


class AbstracEngine(Engine, modules=(actions, determinize, rules, view)):
    """Abstrac on the engine contract. The first player chooses who takes first:

    >>> state = ENGINE.setup(2, seed=1)
    >>> len(state["row"]), ENGINE.legal_actions(state, 0)
    (24, [{'type': 'order', 'first': True}, {'type': 'order', 'first': False}])
    >>> state = ENGINE.apply_unchecked(state, 0, {"type": "order", "first": False})
    >>> sorted(ENGINE.to_act(state))
    [1]
    """

    info = META
    version = "1"
    action_schema = actions.SCHEMA

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        checked = self.check_options(options, players)
        return rules.setup(seed, checked["target"])


ENGINE = AbstracEngine()
