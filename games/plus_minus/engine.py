"""The Plus & Minus engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import (
    Engine,
    GameInfo,
    OptionSpec,
    State,
)
from games.plus_minus import actions, determinize, rules, view

META = GameInfo(
    id="plus_minus",
    title="Plus & Minus",
    min_players=3,
    max_players=actions.MAX_PLAYERS,
    summary=(
        "Play cards of the same or a neighbouring rank on anyone's Plus and Minus stacks; "
        "5s, 10s and Kings shake up the table. One round per dealer; highest total wins."
    ),
    options=(
        OptionSpec(
            name="pass_when_stuck",
            type="bool",
            default=True,
            label="A player who cannot play still passes a card to the left",
        ),
    ),
    perfect_information=False,
)


class PlusMinusEngine(Engine):
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
    reveal = staticmethod(view.reveal)  # every card shown, for replays
    redact_action = staticmethod(view.redact_action)
    view = staticmethod(view.view)  # last: from here on ``view`` is the method


ENGINE = PlusMinusEngine()
