"""The ABSOLUTE engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.absolute import actions, determinize, rules, view
from games.base import (
    Engine,
    GameInfo,
    OptionSpec,
    State,
)

META = GameInfo(
    id="absolute",
    title="ABSOLUTE",
    min_players=2,
    max_players=6,
    summary=(
        "Lay sets of three or more cards that add up to zero; zeros are wild. "
        "Go out with three sets and an empty hand. Highest total after three rounds wins."
    ),
    options=(
        OptionSpec(
            name="turn_limit",
            type="int",
            default=40,
            label="Turns per player after which a round is scored as it stands",
            min=5,
            max=200,
        ),
        OptionSpec(
            name="pure_regroup",
            type="bool",
            default=False,
            label="Allow regrouping your own sets without playing a card (a discard is still owed)",
        ),
    ),
    perfect_information=False,
)


class AbsoluteEngine(Engine):
    info = META
    version = "1"
    action_schema = actions.SCHEMA

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))

    # The contract's calls are the package's own functions, with no call in between.
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(actions.legal_actions)
    apply_unchecked = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    determinize = staticmethod(determinize.determinize)
    fallback_action = staticmethod(actions.fallback_action)
    reveal = staticmethod(view.reveal)  # every card shown, for replays
    view = staticmethod(view.view)  # last: from here on ``view`` is the method


ENGINE = AbsoluteEngine()
