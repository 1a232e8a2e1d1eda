"""Scoring a deal (spec section 5) and deciding the match (section 6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.abstrac.cards import RANK_INDEX, RANKS, SUIT_INDEX, SUITS, Card, rank_of, suit_of

#: Points of a set (same rank) by its size.
SET_POINTS: dict[int, int] = {3: 2, 4: 8}
#: Points of a suit sequence (consecutive ranks, one suit) by its length.
SEQUENCE_POINTS: dict[int, int] = {3: 3, 4: 4, 5: 6, 6: 12}


def groups(cards: Iterable[Card]) -> dict[str, list[list[Card]]]:
    """The scoring combinations in a collection: sets and suit sequences of 3 cards or more.

    Sets are listed by rank (A first), their cards by suit; sequences by suit, their cards high
    to low. A card may appear once in a set and once in a sequence.
    """
    by_rank: dict[str, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(rank_of(card), []).append(card)
        by_suit.setdefault(suit_of(card), []).append(card)
    sets = [
        sorted(by_rank[rank], key=lambda c: SUIT_INDEX[suit_of(c)])
        for rank in RANKS
        if len(by_rank.get(rank, ())) >= 3
    ]
    sequences: list[list[Card]] = []
    for suit in SUITS:
        chain: list[Card] = []
        last = -2
        for card in sorted(by_suit.get(suit, ()), key=lambda c: RANK_INDEX[rank_of(c)]):
            index = RANK_INDEX[rank_of(card)]
            if index != last + 1:
                if len(chain) >= 3:
                    sequences.append(chain)
                chain = []
            chain.append(card)
            last = index
        if len(chain) >= 3:
            sequences.append(chain)
    return {"sets": sets, "sequences": sequences}


def combo_of_groups(found: dict[str, list[list[Card]]]) -> int:
    """Each combination counts once, at its full size (B-7)."""
    return sum(SET_POINTS[len(s)] for s in found["sets"]) + sum(
        SEQUENCE_POINTS[len(s)] for s in found["sequences"]
    )


def combo(cards: Iterable[Card]) -> int:
    """Combination points of a collection (5.1)."""
    return combo_of_groups(groups(cards))


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
