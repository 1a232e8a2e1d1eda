"""Which cards may leave a hand (spec section 5), and which cards may be drawn from piles.

Everything here is pure and cached: the answers depend only on small tuples of numbers.
``legal_discards`` gives each discard once per multiset, its cards high to low; ``top_orders``
gives the orders a player chooses between: one per card that may end on top of the pile
(spec C-15; two orders with the same top card are the same choice). ``apply`` accepts the
same cards in any order.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Literal, TypeAlias

from games.abspecken.cards import VALUES, Card

Option: TypeAlias = Literal["sum", "die"]
SUM: Option = "sum"
DIE: Option = "die"

#: Piggy-die faces; "pmN" lets the roller add or subtract N from the eye sum.
PIGGY_FACES: tuple[str, ...] = ("pm1", "pm2", "pm3", "smile", "grim", "grim")
PIGGY_SHIFT: dict[str, int] = {"pm1": 1, "pm2": 2, "pm3": 3}


def targets(d1: int, d2: int, piggy: str | None, *, is_roller: bool) -> tuple[int, ...]:
    """The sums a player may discard to: S, and for the roller with a ±N face also S±N (>0)."""
    total = d1 + d2
    shift = PIGGY_SHIFT.get(piggy or "", 0) if is_roller else 0
    if not shift:
        return (total,)
    return tuple(sorted(t for t in {total, total + shift, total - shift} if t > 0))


@lru_cache(maxsize=16384)
def legal_discards(
    hand: tuple[int, ...],
    dice: tuple[int, int],
    forbidden: int,
    sums: tuple[int, ...],
) -> tuple[tuple[Option, tuple[Card, ...]], ...]:
    """Every legal discard of a hand given as six counts: die options first, then sums.

    A single card that fits both options is listed under both (the effect is the same).
    """
    found: list[tuple[Option, tuple[Card, ...]]] = []
    for value in sorted(set(dice)):
        if value != forbidden and hand[value - 1] > 0:
            found.append((DIE, (value,)))
    best = max(sums)
    partials: list[tuple[tuple[Card, ...], int]] = [((), 0)]
    for value in reversed(VALUES):  # 6 down to 1, so every multiset comes out high to low
        have = 0 if value == forbidden else hand[value - 1]
        if not have:
            continue
        grown = []
        for cards, total in partials:
            grown.append((cards, total))
            more, reached = cards, total
            for _ in range(have):
                reached += value
                if reached > best:
                    break
                more = (*more, value)
                grown.append((more, reached))
        partials = grown
    subsets = [cards for cards, total in partials if cards and total in sums]
    subsets.sort(key=lambda cards: (len(cards), sum(cards), [-c for c in cards]))
    found.extend((SUM, cards) for cards in subsets)
    return tuple(found)


@lru_cache(maxsize=4096)
def top_orders(cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """The orders of a discard (cards high to low) that differ in the card ending on top (the
    last): the lowest on top first (the seed's tip against the grim piggy), then each other
    value from low to high, the rest kept high to low beneath it.

    >>> top_orders((6, 1, 1))
    ((6, 1, 1), (1, 1, 6))
    >>> top_orders((4, 2, 1))
    ((4, 2, 1), (4, 1, 2), (2, 1, 4))
    """
    orders = [cards]
    for top in sorted(set(cards[:-1]) - {cards[-1]}):
        rest = list(cards)
        rest.remove(top)
        orders.append((*rest, top))
    return tuple(orders)


@lru_cache(maxsize=2048)
def draws(piles: tuple[int, ...], count: int) -> tuple[tuple[Card, ...], ...]:
    """Every multiset of ``count`` cards that can be taken from six piles, sorted."""
    return tuple(
        cards
        for cards in combinations_with_replacement(VALUES, count)
        if all(cards.count(value) <= piles[value - 1] for value in set(cards))
    )
