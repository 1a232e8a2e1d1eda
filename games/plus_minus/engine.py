"""The Plus & Minus engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Engine, GameInfo, OptionSpec, State
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


class PlusMinusEngine(Engine, modules=(actions, determinize, rules, view)):
    """Plus & Minus on the engine contract. A pass shows its card to giver and receiver only:

    >>> state = ENGINE.setup(3, seed=1)
    >>> sorted(ENGINE.to_act(state))
    [2]
    >>> ENGINE.apply(state, 2, {"type": "pass", "card": "5H", "to": 0})
    Traceback (most recent call last):
    ...
    games.types.IllegalAction: You must play a card first: at least one of your cards fits a stack.
    >>> ENGINE.redact_action({"type": "pass", "card": "5H", "to": 0}, 2, 1)
    {'type': 'pass', 'to': 0}
    """

    info = META
    version = "1"
    action_schema = actions.SCHEMA
    unlisted = {"swap": "the two stacks named the other way round: the same swap"}

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))


ENGINE = PlusMinusEngine()
