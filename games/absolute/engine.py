"""The ABSOLUTE engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.absolute import actions, determinize, rules, view
from games.base import Engine, GameInfo, OptionSpec, State

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
            default=0,
            label="Turns per player after which a round is scored as it stands (0 = none)",
            min=0,
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


class AbsoluteEngine(Engine, modules=(actions, determinize, rules, view)):
    """ABSOLUTE on the engine contract. A turn starts with a draw:

    >>> state = ENGINE.setup(2, seed=1)
    >>> ENGINE.legal_actions(state, 1)
    [{'type': 'draw', 'source': 'deck'}, {'type': 'draw', 'source': 'discard'}]
    >>> ENGINE.apply(state, 1, {"type": "hold"})
    Traceback (most recent call last):
    ...
    games.types.IllegalAction: Draw a card first, from the deck or the discard pile.
    >>> state = ENGINE.apply_unchecked(state, 1, {"type": "draw", "source": "deck"})
    >>> state["phase"], len(state["hands"][1])
    ('play', 6)
    """

    info = META
    version = "2"
    action_schema = actions.SCHEMA
    unlisted = {
        "play": "regroups, plays that take own sets apart: far too many to list (bots are "
        "offered some, actions.regroup_actions)",
    }

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))


ENGINE = AbsoluteEngine()
