"""The phases of a playthrough (spec section 4) as they appear in the state and the view."""

from __future__ import annotations

#: Everyone secretly picks an opening hand of five from their own piles (section 3).
PICK = "pick"
#: The roller decides whether to add the Piggy die (4.1).
PIGGY = "piggy"
#: Smiling piggy: the roller may give a hand card away (4.3).
GIFT = "gift"
#: Everyone secretly discards or declares "cannot" (4.4).
DECIDE = "decide"
#: Players who could not discard take a card, one after another (4.6).
TAKE = "take"
#: Only when the source chooses the card: the source hands one over (4.6 option).
GIVE = "give"
#: Players below five cards top up from their own piles (4.7).
REFILL = "refill"
#: The match is over.
OVER = "over"

#: Phases where several seats act at once and their choices stay hidden until all are in.
SECRET = frozenset({PICK, DECIDE})
