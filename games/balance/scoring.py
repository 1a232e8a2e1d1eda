"""Scoring of Balance: one play, one automaton card (solo), and the end-of-round decision."""

from __future__ import annotations

from dataclasses import dataclass

from games.balance.cards import VALUE, Card, is_joker

LIMIT = 9
"""A non-joker play that leaves ``|balance| > LIMIT`` costs the player a point."""
WIN_POINTS = 20
"""Multi-player: a total of at least this at the end of a round wins (highest total)."""
OUT_POINTS = -20
"""Multi-player: a total of at most this at the end of a round puts the player out."""
SOLO_TARGET = 10
"""Solo: the points needed at the end to win."""


def play_result(balance: int, card: Card, direction: int) -> tuple[int, int]:
    """The new balance and the player's points for playing ``card`` in ``direction`` (+1/-1).

    Zero scores +1 (jokers too); beyond +-9 costs 1 unless the card is a joker.
    """
    after = balance + direction * VALUE[card]
    if after == 0:
        return after, 1
    if (after > LIMIT or after < -LIMIT) and not is_joker(card):
        return after, -1
    return after, 0


def automaton_result(balance: int, card: Card) -> tuple[int, int, bool]:
    """Solo: the new balance, the player's points and whether the automaton's card matched.

    A card whose value equals ``|balance|`` (balance not 0) zeroes the balance and costs the
    player a point unless it is a joker (spec S-1). Otherwise it pushes the balance further
    from zero (added when the balance is 0 or positive, subtracted when negative), never with
    a beyond-9 penalty.
    """
    value = VALUE[card]
    if balance != 0 and value == abs(balance):
        return 0, 0 if is_joker(card) else -1, True
    if balance >= 0:
        return balance + value, 0, False
    return balance - value, 0, False


@dataclass(frozen=True)
class RoundDecision:
    """What happens after a multi-player round: ``kind`` is one of

    ``"win"`` (a single leader at 20 or more), ``"tie"`` (several leaders at 20 or more: another
    round, without the players at -20 or less), ``"last_survivor"``, ``"all_eliminated"`` (the
    best of those just eliminated win), ``"round_cap"`` (the ``max_rounds`` option ran out: the
    best totals win) or ``"continue"``.
    """

    kind: str
    winners: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()

    @property
    def is_final(self) -> bool:
        return bool(self.winners)


def _best(points: list[int], seats: list[int]) -> tuple[int, ...]:
    top = max(points[s] for s in seats)
    return tuple(s for s in seats if points[s] == top)


def decide_round(
    points: list[int], eliminated: list[bool], round_no: int, max_rounds: int
) -> RoundDecision:
    """Spec section 5: the win check first, then eliminations, then the optional round cap."""
    active = [s for s, out in enumerate(eliminated) if not out]
    leaders = _best(points, active)
    if points[leaders[0]] >= WIN_POINTS and len(leaders) == 1:
        return RoundDecision("win", leaders)
    # No single leader at 20 or more: everyone at -20 or less is out, even after a tie at the
    # top (spec C-6, vector G5); the tied leaders are at 20 or more, so some remain then.
    kind = "tie" if points[leaders[0]] >= WIN_POINTS else "continue"
    newly = tuple(s for s in active if points[s] <= OUT_POINTS)
    remaining = [s for s in active if s not in newly]
    if len(remaining) == 1:
        return RoundDecision("last_survivor", tuple(remaining), newly)
    if not remaining:
        return RoundDecision("all_eliminated", _best(points, list(newly)), newly)
    if max_rounds and round_no >= max_rounds:
        return RoundDecision("round_cap", _best(points, remaining), newly)
    return RoundDecision(kind, (), newly)
