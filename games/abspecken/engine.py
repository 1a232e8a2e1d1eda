"""The ABspecken engine: ``META`` and the contract of ``games.base.Engine`` wired to this
package (players, room options, summary: spec sections 1, 4, 6, 7)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.abspecken import actions as act
from games.abspecken import determinize as det
from games.abspecken import fallback, phases, rules, scoring
from games.abspecken import view as view_mod
from games.base import (
    Action,
    Engine,
    GameInfo,
    InvalidOptions,
    OptionSpec,
    Outcome,
    Seat,
    State,
    check_turn,
)

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
            "smile_gift_mandatory",
            "bool",
            False,
            "Smiling piggy: the roller must give a card away (otherwise it is optional)",
        ),
        OptionSpec(
            "take_order",
            "choice",
            rules.CLOCKWISE,
            "Order of players who could not discard: "
            "clockwise from the roller, or who declared first",
            choices=(rules.CLOCKWISE, rules.SPEED),
        ),
        OptionSpec(
            "take_choice",
            "choice",
            rules.RANDOM,
            "Taking a card: drawn blind at random, or chosen by the player who gives it",
            choices=(rules.RANDOM, rules.SOURCE_CHOOSES),
        ),
        OptionSpec(
            "first_roller",
            "int",
            -1,
            "Seat that rolls first (0 is the first seat); -1 picks one at random",
            min=-1,
            max=4,
        ),
    ),
    perfect_information=False,
)

#: Actions whose content only the actor may see (the secret pick and decision).
SECRET_ACTIONS = frozenset({act.PICK, act.DISCARD, act.CANNOT})


class AbspeckenEngine(Engine):
    info = META
    version = "1"
    action_schema = act.SCHEMA

    def check_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        checked = super().check_options(options, players)
        if checked["first_roller"] >= players:
            raise InvalidOptions(f"option 'first_roller' must be a seat from 0 to {players - 1}")
        return checked

    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.setup(players, seed, self.check_options(options, players))

    def to_act(self, state: State) -> frozenset[Seat]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in rules.to_act(state):
            return []
        return act.legal_moves(state, seat)

    apply_unchecked = staticmethod(rules.apply)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view_mod.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """The replay's view: the table with every hand and secret choice shown."""
        return view_mod.reveal(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != phases.OVER:
            return None
        totals = state["totals"]
        return Outcome(
            scores=tuple(-float(total) for total in totals),
            winners=scoring.winners(totals),
            rounds=tuple(state["rounds"]),
            detail={
                "penalties": list(totals),
                "end_threshold": state["options"]["end_threshold"],
                "rounds_played": len(state["rounds"]),
            },
        )

    def is_over(self, state: State) -> bool:
        return self.outcome(state) is not None

    def determinize(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        return det.determinize(state, seat, rng)

    def redact_action(self, action: Action, actor: Seat, viewer: Seat | None) -> Action | None:
        """Secret picks and decisions show only that a choice was made; a passed card's
        value shows only to the two players it passes between."""
        if viewer == actor or not isinstance(action, dict):
            return action
        kind = action.get("type")
        if kind in SECRET_ACTIONS:
            return {"type": "hidden"}
        if kind == act.GIFT:
            if viewer == action.get("to"):
                return action
            return {"type": act.GIFT, "to": action.get("to")}
        if kind == act.GIVE:
            if viewer == action.get("to"):
                return action
            return {"type": act.GIVE, "to": action.get("to")}
        return action

    def fallback_action(self, state: State, seat: Seat) -> Action:
        check_turn(self, state, seat)
        return fallback.fallback(state, seat)


ENGINE = AbspeckenEngine()
