"""Scoring a deal (spec section 5) and deciding the match (section 6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from games.abstrac.cards import DECK, RANKS, SUITS, Card

#: Points of a set (same rank) by its size.
SET_POINTS: dict[int, int] = {3: 2, 4: 8}
#: Points of a suit sequence (consecutive ranks, one suit) by its length.
SEQUENCE_POINTS: dict[int, int] = {3: 3, 4: 4, 5: 6, 6: 12}


def groups(cards: Iterable[Card]) -> dict[str, list[list[Card]]]:
    """The scoring combinations in a collection: sets and suit sequences of 3 cards or more.

    Sets are listed by rank (A first), their cards by suit; sequences by suit, their cards high
    to low. A card may appear once in a set and once in a sequence.
    """
    sets, sequences = _groups_of(_mask(cards))
    return {"sets": [list(s) for s in sets], "sequences": [list(s) for s in sequences]}


def combo_of_groups(found: dict[str, list[list[Card]]]) -> int:
    """Each combination counts once, at its full size (B-7)."""
    return sum(SET_POINTS[len(s)] for s in found["sets"]) + sum(
        SEQUENCE_POINTS[len(s)] for s in found["sequences"]
    )


def combo(cards: Iterable[Card]) -> int:
    """Combination points of a collection (5.1)."""
    sets, sequences = _groups_of(_mask(cards))
    return sum(SET_POINTS[len(s)] for s in sets) + sum(SEQUENCE_POINTS[len(s)] for s in sequences)


# A collection as a bit mask over the pack in DECK order (suit by suit, high to low): every
# view and bot evaluation groups both collections, and from the cards themselves that took
# most of a view's time. The groups of a mask are looked up, a rank or a suit at a time, in
# tables made once: a set is 3 or 4 bits one suit block apart, a sequence a run of 3 or more
# bits inside one block.
_BIT: dict[Card, int] = {card: 1 << index for index, card in enumerate(DECK)}
_BLOCK = len(RANKS)  # bits per suit
_SUIT_BITS = (1 << _BLOCK) - 1
_RANK_BITS = sum(1 << (suit * _BLOCK) for suit in range(len(SUITS)))  # a rank's bits, at rank 0
_Group = tuple[Card, ...]
_Groups = tuple[tuple[_Group, ...], tuple[_Group, ...]]


def _mask(cards: Iterable[Card]) -> int:
    return sum(map(_BIT.__getitem__, cards))  # the bits are distinct: the sum is their union


def _set_table(rank: int) -> dict[int, _Group]:
    """The set of ``rank`` by the rank's bits of a mask (shifted down to rank 0)."""
    table = {}
    for bits in range(1 << len(SUITS)):
        suits = [suit for suit in range(len(SUITS)) if bits >> suit & 1]
        if len(suits) >= 3:
            at = [suit * _BLOCK for suit in suits]
            table[sum(1 << place for place in at)] = tuple(DECK[place + rank] for place in at)
    return table


def _run_table(suit: int) -> tuple[tuple[_Group, ...], ...]:
    """The sequences of ``suit`` by the suit's block of a mask (shifted down to bit 0)."""
    table = []
    for bits in range(1 << _BLOCK):
        runs: list[_Group] = []
        run: list[Card] = []
        for rank in range(_BLOCK + 1):  # one past the end closes the last run
            if rank < _BLOCK and bits >> rank & 1:
                run.append(DECK[suit * _BLOCK + rank])
                continue
            if len(run) >= 3:
                runs.append(tuple(run))
            run = []
        table.append(tuple(runs))
    return tuple(table)


_SETS = tuple(_set_table(rank) for rank in range(_BLOCK))
_RUNS = tuple(_run_table(suit) for suit in range(len(SUITS)))


@lru_cache(maxsize=1 << 14)
def _groups_of(mask: int) -> _Groups:
    """(sets, sequences) of the cards in ``mask``. Kept for the masks seen last: a view groups
    both collections at every move, and only one of them has changed."""
    sets = tuple(
        found for rank, table in enumerate(_SETS) if (found := table.get(mask >> rank & _RANK_BITS))
    )
    sequences = tuple(
        run
        for suit, table in enumerate(_RUNS)
        for run in table[mask >> (suit * _BLOCK) & _SUIT_BITS]
    )
    return sets, sequences


def deal_scores(combos: Sequence[int], taken: Sequence[int]) -> tuple[list[int], bool]:
    """Each seat's deal score and whether the misère reversal applied (5.2, B-8).

    Normally a seat scores its combination points times the cards its opponent took. If one
    seat has no combination and the other has some, the empty-handed seat scores what the
    other would have scored, and the other scores 0.
    """
    normal = [combos[0] * taken[1], combos[1] * taken[0]]
    for blank, other in ((0, 1), (1, 0)):
        if combos[blank] == 0 and combos[other] > 0:
            scores = [0, 0]
            scores[blank] = normal[other]
            return scores, True
    return normal, False


def is_decided(totals: Sequence[int], target: int) -> bool:
    """The match ends once someone reaches the target, unless the totals are exactly equal."""
    return max(totals) >= target and totals[0] != totals[1]


def leaders(totals: Sequence[int]) -> tuple[int, ...]:
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def deal_record(deal: int, dealer: int, hands: Sequence[Sequence[Card]]) -> dict[str, Any]:
    """The breakdown of one scored deal, as kept in the state and shown to players."""
    combos = [combo(hand) for hand in hands]
    counts = [len(hand) for hand in hands]
    scores, misere = deal_scores(combos, counts)
    return {
        "deal": deal,
        "dealer": dealer,
        "combo": combos,
        "taken": counts,
        "scores": scores,
        "misere": misere,
    }


def copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A deal record that shares no list with the state it came from."""
    return {key: list(value) if isinstance(value, list) else value for key, value in record.items()}
