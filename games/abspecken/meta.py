"""ABspecken declared as data: players, room options, summary (spec sections 1, 4, 6, 7)."""

from __future__ import annotations

from games.base import GameInfo, OptionSpec

#: Take order: clockwise from the roller, or the order the "cannot" declarations arrived.
CLOCKWISE = "clockwise"
SPEED = "speed"
#: Which card a taker receives: a blind random draw, or one the source chooses.
RANDOM = "random"
SOURCE_CHOOSES = "source_chooses"

OPTIONS: tuple[OptionSpec, ...] = (
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
        CLOCKWISE,
        "Order of players who could not discard: clockwise from the roller, or who declared first",
        choices=(CLOCKWISE, SPEED),
    ),
    OptionSpec(
        "take_choice",
        "choice",
        RANDOM,
        "Taking a card: drawn blind at random, or chosen by the player who gives it",
        choices=(RANDOM, SOURCE_CHOOSES),
    ),
    OptionSpec(
        "first_roller",
        "int",
        -1,
        "Seat that rolls first (0 is the first seat); -1 picks one at random",
        min=-1,
        max=4,
    ),
)

INFO = GameInfo(
    id="abspecken",
    title="ABspecken",
    min_players=2,
    max_players=5,
    summary=(
        "Roll two dice and a colour die, then all discard at once by the sum or by one die; "
        "whoever cannot takes a card from someone who did. Empty your hand and piles first; "
        "the lowest penalty total wins."
    ),
    options=OPTIONS,
    perfect_information=False,
)
