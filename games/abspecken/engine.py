"""The ABspecken engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package (players, room options, summary: spec sections 1, 4, 6, 7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.abspecken import actions as act
from games.abspecken import determinize, fallback, rules, view
from games.base import Action, Engine, GameInfo, InvalidOptions, OptionSpec, Seat, State, check_turn

META = GameInfo(
    id="abspecken",
    title="ABspecken",
    min_players=2,
    max_players=act.MAX_PLAYERS,
    summary=(
        "Roll two dice and a colour die, then all discard at once by the sum or by one die; "
        "whoever cannot takes a card from someone who did. Empty your hand and piles first; "
        "the lowest penalty total wins."
    ),
    options=(
        OptionSpec(
            "piggy_die",
            "bool",
            False,
            "Piggy die extension (the roller may add it once their discard pile has a card)",
        ),
        OptionSpec(
            "end_threshold",
            "int",
            33,
            "The game ends after the round in which someone reaches this many penalty points",
            min=1,
            max=999,
        ),
        OptionSpec(
            "number_die",
            "bool",
            False,
            "Show the number die instead of the colour die (for colour-blind players)",
        ),
        OptionSpec(
            "smile_gift",
            "choice",
            rules.GIFT_SEED,
            "Smiling piggy's gift: compulsory only when the roller cannot discard, "
            "always optional, or always compulsory",
            choices=(rules.GIFT_SEED, rules.GIFT_OPTIONAL, rules.GIFT_MANDATORY),
            choice_labels=(
                "Compulsory only when the roller cannot discard",
                "Always optional",
                "Always compulsory",
            ),
        ),
        OptionSpec(
            "take_order",
            "choice",
            rules.CLOCKWISE,
            "Order of players who could not discard: "
            "clockwise from the roller, or who declared first",
            choices=(rules.CLOCKWISE, rules.SPEED),
            choice_labels=("Clockwise from the roller", "Who declared first"),
        ),
        OptionSpec(
            "take_choice",
            "choice",
            rules.RANDOM,
            "Taking a card: drawn blind at random, or chosen by the player who gives it",
            choices=(rules.RANDOM, rules.SOURCE_CHOOSES),
            choice_labels=("Drawn blind at random", "Chosen by the player who gives it"),
        ),
        OptionSpec(
            "first_roller",
            "int",
            -1,
            "Seat that rolls first (0 is the first seat; \u22121 picks one at random)",
            min=-1,
            max=4,
        ),
    ),
    perfect_information=False,
)


class AbspeckenEngine(Engine, modules=(act, determinize, rules, view)):
    """ABspecken on the engine contract. The opening hands are picked by all at once, in secret:

    >>> state = ENGINE.setup(2, seed=1)
    >>> sorted(ENGINE.to_act(state))
    [0, 1]
    >>> pick = {"type": "pick", "cards": [1, 1, 1, 1, 2]}
    >>> state = ENGINE.apply(state, 0, pick)
    >>> sorted(ENGINE.to_act(state)), ENGINE.redact_action(pick, 0, 1)
    ([1], {'type': 'hidden'})
    >>> ENGINE.apply(state, 1, {"type": "pick", "cards": [1, 1]})
    Traceback (most recent call last):
    ...
    games.types.IllegalAction: Pick exactly 5 cards for your opening hand, not 2.
    """

    info = META
    version = "2"
    action_schema = act.SCHEMA

    def check_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        checked = super().check_options(options, players)
        if checked["first_roller"] >= players:
            raise InvalidOptions(f"option 'first_roller' must be a seat from 0 to {players - 1}")
        return checked

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in rules.to_act(state):
            return []
        return act.legal_moves(state, seat)

    def fallback_action(self, state: State, seat: Seat) -> Action:
        check_turn(self, state, seat)
        return fallback.fallback(state, seat)


ENGINE = AbspeckenEngine()
