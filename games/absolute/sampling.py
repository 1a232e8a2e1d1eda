"""A uniformly random legal action without listing them all: for random playouts.

``random_action`` is ``rng.choice(legal_actions(state, seat))``, the same action for the same
numbers drawn: both draw one ``rng._randbelow(count)``. A play phase lists hundreds of swaps
and plays; here they are counted (the swaps set by set, from what each take needs and how many
parts of the hand meet it, the plays from bit masks of the hand), and only the action drawn
is built.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from operator import add
from typing import Any, NamedTuple

from games.absolute.actions import (
    DISCARDS,
    HOLD,
    GivePlaces,
    Plays,
    can_hold,
    can_swap,
    give_places,
    legal_actions,
    open_sets,
    part_at,
    part_order,
    plays,
    take_leasts,
    take_needs,
    zero_takes,
)
from games.absolute.cards import TOP_NUMBER, VALUE, Card
from games.base import Action, Seat, State


def random_action(state: State, seat: Seat, rng: random.Random) -> Action:
    """``rng.choice(legal_actions(state, seat))``, counted rather than listed in a play
    phase."""
    if state["phase"] != "play" or state["turn"]["seat"] != seat:
        return rng.choice(legal_actions(state, seat))  # a few draws or discards at most
    try:
        turn = PlayTurn(state, seat)
    except Uncountable:
        return rng.choice(legal_actions(state, seat))
    if not turn.count:
        raise IndexError("Cannot choose from an empty sequence")  # as rng.choice([])
    return turn.action(rng.randrange(turn.count))


class Uncountable(Exception):
    """A set or a hand with more parts than a byte counts (22 cards or more): list them."""


class PlayTurn:
    """The legal actions of a play phase in ``legal_actions``' order (the hold, the discards,
    the swaps, the plays), counted; ``action(index)`` builds the one at ``index``."""

    def __init__(self, state: State, seat: Seat) -> None:
        self.hand: list[Card] = state["hands"][seat]
        self.holds = 1 if can_hold(state) else 0
        self.swaps = Swaps(state, seat) if can_swap(state) else None
        self.plays = plays(state, seat)
        self.swap_count = self.swaps.count if self.swaps else 0
        self.count = self.holds + len(self.hand) + self.swap_count
        if self.plays is not None:
            self.count += self.plays.new_count() + sum(len(m) for _, m in self.plays.additions())

    def action(self, index: int) -> Action:
        if index < self.holds:
            return HOLD
        index -= self.holds
        if index < len(self.hand):
            return DISCARDS[self.hand[index]]
        index -= len(self.hand)
        if index < self.swap_count:
            assert self.swaps is not None
            return self.swaps.action(index)
        return _play_at(self.plays, index - self.swap_count)


class Swaps:
    """The legal swaps of a turn, in ``swap_actions``' order, counted set by set.

    Each part of the hand a swap may give is a byte, the slot of a need it meets (see
    ``SINGLE_SLOTS``); a set's table (cached per set) maps each slot to how many of its
    takes need it. So ``bytes.translate`` counts what each part may be swapped for, and
    ``sum`` adds that up.
    """

    def __init__(self, state: State, seat: Seat) -> None:
        self.hand: list[Card] = state["hands"][seat]
        self.passes = _give_slots(give_places(self.hand), len(self.hand))
        self.sets = sets = open_sets(state)
        exact = self.passes[0].slots
        if len(self.passes) == 1:
            self.counts = [
                sum(exact.translate(_set_takes(tuple(s["cards"]), s["zero"]).tables[0]))
                for s in sets
            ]
        else:
            wild = self.passes[1].slots
            self.counts = [
                sum(exact.translate(tables[0])) + sum(wild.translate(tables[1]))
                for tables in [_set_takes(tuple(s["cards"]), s["zero"]).tables for s in sets]
            ]
        self.count = sum(self.counts)

    def action(self, index: int) -> Action:
        for table_set, count in zip(self.sets, self.counts, strict=True):
            if index < count:
                return self._into_at(table_set, index)
            index -= count
        raise IndexError(index)

    def _into_at(self, table_set: dict[str, Any], index: int) -> Action:
        """The ``index``-th swap into ``table_set``: take by take, part by part."""
        cards = table_set["cards"]
        takes = _set_takes(tuple(cards), table_set["zero"])
        leasts = take_leasts(len(cards))
        for which, gives in enumerate(self.passes):
            counts = gives.histogram()
            for place in takes.places(which):
                need, least = takes.needs[place], leasts[place]
                count = counts[need + PAIR_SLOTS] + (
                    counts[need + SINGLE_SLOTS] if least < 2 else 0
                )
                if index < count:
                    give = gives.part(self.hand, need, least, index)
                    take = part_at(cards, *part_order(len(cards))[place])
                    return {"type": "swap", "set": table_set["id"], "give": give, "take": take}
                index -= count
        raise IndexError(index)


SINGLE_SLOTS = 2 * TOP_NUMBER
PAIR_SLOTS = 6 * TOP_NUMBER + 2
"""Needs lie in -20..20 (a single card meets -10..10). A part of one card meeting a need has
the slot need + SINGLE_SLOTS, a part of two need + PAIR_SLOTS: slots apart, below 256."""
SINGLES = slice(SINGLE_SLOTS - 2 * TOP_NUMBER, SINGLE_SLOTS + 2 * TOP_NUMBER + 1)
PAIRS = slice(PAIR_SLOTS - 2 * TOP_NUMBER, PAIR_SLOTS + 2 * TOP_NUMBER + 1)


class GiveSlots(NamedTuple):
    """One pass's parts of a hand (see ``Passes``) as bytes: the slot of each need each part
    meets, and the place (see ``part_order``) of the part of each."""

    slots: bytes
    owners: Sequence[tuple[int, int]]

    def histogram(self) -> bytearray:
        """How many parts meet the need of each slot."""
        counts = bytearray(256)
        for slot in self.slots:
            counts[slot] += 1
        return counts

    def part(self, hand: list[Card], need: int, least: int, index: int) -> list[Card]:
        """The ``index``-th part, in order, that meets ``need`` with at least ``least``
        cards."""
        found = []
        for slot in (need + PAIR_SLOTS, need + SINGLE_SLOTS) if least < 2 else (need + PAIR_SLOTS,):
            at = self.slots.find(slot)
            while at >= 0:
                found.append(at)
                at = self.slots.find(slot, at + 1)
        return part_at(hand, *self.owners[sorted(found)[index]])


@cache
def _give_offsets(size: int) -> bytes:
    """The slot less the need of each part (in ``part_order``) of ``size`` cards."""
    return bytes(SINGLE_SLOTS if second == size else PAIR_SLOTS for _, second in part_order(size))


def _give_slots(places: GivePlaces, size: int) -> list[GiveSlots]:
    """Per pass (see ``Passes``), the slots of the needs the parts of the hand meet: one for
    a part without a zero, one for each value its zero may stand for otherwise."""
    order, lows, highs, with_zero = places
    if len(order) > 255:
        raise Uncountable
    if not any(with_zero):  # every part, in part_order: lows are its sums
        return [GiveSlots(bytes(map(add, lows, _give_offsets(size))), order)]
    passes: tuple[tuple[bytearray, list[tuple[int, int]]], ...] = (
        (bytearray(), []),
        (bytearray(), []),
    )
    for place, low, high, has_zero in zip(order, lows, highs, with_zero, strict=True):
        offset = SINGLE_SLOTS if place[1] == size else PAIR_SLOTS
        slots, owners = passes[has_zero]
        slots.extend(range(low + offset, high + offset + 1))
        owners.extend([place] * (high - low + 1))
    return [GiveSlots(bytes(slots), owners) for slots, owners in passes]


class SetTakes(NamedTuple):
    """What a swap may take from one set (by ``part_order``), for counting: the need of each
    take; the takes of the second pass (``None``: all); per pass, the table from the slot of
    a part of the hand to how many takes it may be given for."""

    needs: tuple[int, ...]
    with_zero: tuple[int, ...] | None
    tables: tuple[bytes, bytes]

    def places(self, which: int) -> Sequence[int]:
        """The takes of pass ``which`` (see ``Passes``), in order."""
        return range(len(self.needs)) if not which or self.with_zero is None else self.with_zero


@lru_cache(maxsize=256)
def _set_takes(cards: tuple[Card, ...], zero_value: int | None) -> SetTakes:
    """A set keeps 3 cards, so only pairs may be given for a pair taken from a set of 3."""
    values = tuple(map(VALUE.__getitem__, cards))
    needs, leasts = tuple(take_needs(values, zero_value)), take_leasts(len(cards))
    if len(needs) > 255:
        raise Uncountable
    every = _table(needs, leasts)
    with_zero = zero_takes(values, zero_value)
    if with_zero is None:
        return SetTakes(needs, None, (every, every))
    zero = _table(map(needs.__getitem__, with_zero), map(leasts.__getitem__, with_zero))
    return SetTakes(needs, with_zero, (every, zero))


def _table(needs: Iterable[int], leasts: Iterable[int]) -> bytes:
    table = bytearray(256)
    pairs_only = []
    for need, least in zip(needs, leasts, strict=True):
        if least < 2:
            table[need + SINGLE_SLOTS] += 1
        else:
            pairs_only.append(need)
    table[PAIRS] = table[SINGLES]  # what a single card may be given for, a pair may too
    for need in pairs_only:
        table[need + PAIR_SLOTS] += 1
    return bytes(table)


def _play_at(found: Plays | None, index: int) -> Action:
    if found is None:
        raise IndexError(index)
    new = found.new()
    if index < len(new):
        return found.action(new[index])
    index -= len(new)
    for cards, masks in found.additions():
        if index < len(masks):
            return found.action(masks[index], cards)
        index -= len(masks)
    raise IndexError(index)
