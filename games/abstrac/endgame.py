"""The end of an Abstrac deal, solved exactly for the search's playouts.

The row is open and takes are 1 to 3 cards, so once few cards are left the rest of the deal
can be searched to the end. Unlike ``normal``'s counting, which maximises the deal's score
margin, this values a finished deal by each seat's chance to win the match from the totals it
leaves (:func:`match_chance`): a deal that reaches the target is won or lost, whatever the
margin. Positions are kept by (cards left, both collections, who takes), so the many playouts
of one search that reach the same position solve it once.
"""

from __future__ import annotations

import math
from functools import lru_cache

from games.abstrac.cards import Card
from games.abstrac.scoring import SEQUENCE_POINTS, SET_POINTS, _groups_of, _mask, deal_scores

MARGIN_WEIGHT = 0.02
"""Share of a finished deal's value given to its score margin, so a lost (or won) deal is still
played for the most points."""
MARGIN_SCALE = 100.0
MEMO_LIMIT = 500_000
"""Positions kept at most; past that the memo starts again (a few tens of megabytes)."""


@lru_cache(maxsize=1 << 16)
def combo_of_mask(mask: int) -> int:
    """``scoring.combo`` of the collection with these bits."""
    sets, sequences = _groups_of(mask)
    return sum(SET_POINTS[len(s)] for s in sets) + sum(SEQUENCE_POINTS[len(s)] for s in sequences)


def match_chance(totals: list[int], target: int) -> float:
    """Seat 0's chance to win the match from ``totals`` after a deal: 1 or 0 once someone
    reached the target (exactly equal totals play on), else a logistic of the lead."""
    lead = totals[0] - totals[1]
    if max(totals) >= target and lead:
        return 1.0 if lead > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-lead / max(20.0, target / 4)))


class Endgame:
    """Exact play of the rest of one deal: ``row`` as laid out, ``totals`` before the deal."""

    def __init__(self, row: list[Card], totals: list[int], target: int) -> None:
        self.row = list(row)
        self.bits = [_mask([card]) for card in row]
        self.totals = list(totals)
        self.target = target
        self._memo: dict[tuple[int, int, int, int], float] = {}

    def fits(self, row: list[Card], totals: list[int], target: int) -> bool:
        """Whether this solver is for the deal ``row`` is in: the row it was made for, less
        some takes, before the same totals."""
        return (
            target == self.target
            and totals == self.totals
            and len(row) <= len(self.row)
            and self.row[: len(row)] == row
        )

    def chance_after(self, left: int, masks: tuple[int, int], seat: int, count: int) -> float:
        """``seat``'s chance after taking ``count`` of the ``left`` cards still in the row,
        with the collections ``masks`` (by seat), if both sides then play their best."""
        taken = sum(self.bits[left - count : left])
        return 1.0 - self._value(left - count, masks[1 - seat], masks[seat] | taken, 1 - seat)

    def value(self, left: int, masks: tuple[int, int], seat: int) -> float:
        """``seat``'s chance with ``left`` cards in the row and ``seat`` to take."""
        return self._value(left, masks[seat], masks[1 - seat], seat)

    def _value(self, left: int, mover: int, other: int, seat: int) -> float:
        key = (left, mover, other, seat)
        found = self._memo.get(key)
        if found is not None:
            return found
        if not left:
            value = self._finished(mover, other, seat)
        else:
            value = 0.0
            taken = 0
            for count in range(1, min(3, left) + 1):
                taken |= self.bits[left - count]
                child = 1.0 - self._value(left - count, other, mover | taken, 1 - seat)
                if child > value:
                    value = child
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _finished(self, mover: int, other: int, seat: int) -> float:
        masks = (mover, other) if seat == 0 else (other, mover)
        combos = [combo_of_mask(m) for m in masks]
        scores, _ = deal_scores(combos, [m.bit_count() for m in masks])
        totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        margin = scores[0] - scores[1]
        chance = (1 - MARGIN_WEIGHT) * match_chance(totals, self.target) + MARGIN_WEIGHT / (
            1.0 + math.exp(-margin / MARGIN_SCALE)
        )
        return chance if seat == 0 else 1.0 - chance
