"""Wire forms of the actions, their parsing, and the list of legal actions.

Actions (all JSON objects with a ``type``):

- ``{"type": "draw", "source": "deck" | "discard"}``
- ``{"type": "swap", "set": 4, "give": ["-5C"], "take": ["-2S", "-3D"]}``: 1-2 hand cards
  into set 4 (anyone's, not locked), 1-2 of its cards back to the hand.
- ``{"type": "play", "groups": [["-1D", "-2D", "+3D"], ["+5C", "-8C", "+0C"]]}``: the atomic
  play of spec 5.3. Each group becomes a set. Cards come from the hand or from the player's
  own sets; an own set with any card in ``groups`` is taken apart, so all of its cards must be
  placed. Own sets not mentioned stay as they are. Adding to set ``[a, b, c]`` is the group
  ``[a, b, c, x, y]``; a new set is a group of hand cards only.
- ``{"type": "discard", "card": "+7D"}`` (one card; repeat while more are owed)
- ``{"type": "hold"}``

``legal_actions`` lists every draw, discard, hold and swap, every new set laid from the hand
and every addition of hand cards to one own set. Regroupings (plays that take own sets apart)
are not listed but ``apply`` accepts them: all of them would be far too many to list.
``regroup_actions`` lists the ones bots use, the splits of one own set into two. Listed
actions are the caller's to read, not to change: the card lists of swaps are shared (see
``Part``), and so are the actions without a choice of cards (see ``DISCARDS``).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from games.absolute.cards import (
    ALL_CARDS,
    HAND_LIMIT,
    MAX_SWAP,
    MIN_SET_SIZE,
    RANK,
    VALUE,
    ZEROS,
    Card,
    is_card,
    zero_range,
)
from games.absolute.cards import NUMBER as CARD_NUMBER
from games.absolute.groups import zero_card
from games.base import Action, MalformedAction, Seat, State
from games.wire import NUMBER, ActionSchema, ListOf, OneOf

DRAW_SOURCES = ("deck", "discard")

_CARD = OneOf(frozenset(ALL_CARDS), "a card such as '+7S', '-0C' or '-10D'")
_PART = ListOf(_CARD, 1, MAX_SWAP)
_GROUP = ListOf(_CARD, 1, len(ALL_CARDS))

#: The wire form of every action (see :mod:`games.wire`).
SCHEMA = ActionSchema(
    {
        "draw": {"source": OneOf(frozenset(DRAW_SOURCES), "'deck' or 'discard'")},
        "swap": {"set": NUMBER, "give": _PART, "take": _PART},
        "play": {"groups": ListOf(_GROUP, 1, len(ALL_CARDS))},
        "discard": {"card": _CARD},
        "hold": {},
    }
)

# -- parsing -------------------------------------------------------------------------------


def parse_card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise MalformedAction(f"{what} must be a card such as '+7S'")
    if not is_card(value):
        raise MalformedAction(f"{value!r} is not a card (cards look like '+7S', '-0C', '-10D')")
    return value


def parse_cards(value: Any, what: str, *, low: int, high: int) -> list[Card]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        span = f"{low} to {high}" if high < 1_000 else f"at least {low}"
        raise MalformedAction(f"{what!r} must be a list of {span} cards")
    for item in value:
        if not (isinstance(item, str) and item in RANK):  # is_card, inline: a hot path
            parse_card(item, what)  # raises with the reason
    return list(value)


def parse_source(action: Action) -> str:
    source = action.get("source")
    if source not in DRAW_SOURCES:
        raise MalformedAction("a draw needs 'source': 'deck' or 'discard'")
    return str(source)


def parse_swap(action: Action) -> tuple[int, list[Card], list[Card]]:
    set_id = action.get("set")
    if isinstance(set_id, bool) or not isinstance(set_id, int):
        raise MalformedAction("a swap needs the number of the target set in 'set'")
    give = parse_cards(action.get("give"), "give", low=1, high=MAX_SWAP)
    take = parse_cards(action.get("take"), "take", low=1, high=MAX_SWAP)
    return set_id, give, take


def parse_play(action: Action) -> list[list[Card]]:
    groups = action.get("groups")
    if not isinstance(groups, list) or not groups:
        raise MalformedAction("a play needs 'groups': a list of sets, each a list of cards")
    return [parse_cards(group, "groups", low=1, high=10_000) for group in groups]


def parse_discard(action: Action) -> Card:
    return parse_card(action.get("card"), "'card'")


# -- turn facts shared by legal_actions, apply and view --------------------------------------


def can_draw_deck(state: State) -> bool:
    """The deck has a card, or the discard pile can be reshuffled into one (spec 5.1)."""
    return bool(state["deck"]) or len(state["discard"]) >= 2


def can_hold(state: State) -> bool:
    turn = state["turn"]
    hand = state["hands"][turn["seat"]]
    return state["phase"] == "play" and not turn["played"] and len(hand) <= HAND_LIMIT


def discards_owed(state: State) -> int:
    """How many more cards the player must discard before the turn can end."""
    phase = state["phase"]
    if phase not in ("play", "discard"):
        return 0
    turn = state["turn"]
    over_limit = len(state["hands"][turn["seat"]]) - HAND_LIMIT
    if phase == "discard":
        return max(0, over_limit)
    return max(1 if turn["played"] else 0, over_limit)


def can_swap(state: State) -> bool:
    turn = state["turn"]
    return state["phase"] == "play" and not turn["swapped"] and not turn["played"]


# -- legal actions ---------------------------------------------------------------------------


HOLD: Action = {"type": "hold"}
DRAWS: dict[str, Action] = {source: {"type": "draw", "source": source} for source in DRAW_SOURCES}
DISCARDS: dict[Card, Action] = {card: {"type": "discard", "card": card} for card in ALL_CARDS}
"""The hold, the draws and the discards, made once and listed by every turn that allows them,
as the swaps share their card lists (see ``Part``): listed actions are read, never changed."""


def legal_actions(state: State, seat: Seat) -> list[Action]:
    phase = state["phase"]
    turn = state["turn"]
    if phase == "over" or turn["seat"] != seat:
        return []
    if phase == "draw":
        actions: list[Action] = []
        if can_draw_deck(state):
            actions.append(DRAWS["deck"])
        if state["discard"]:
            actions.append(DRAWS["discard"])
        return actions
    hand: list[Card] = state["hands"][seat]
    if phase == "discard":
        return [DISCARDS[card] for card in hand]
    unplayed = phase == "play" and not turn["played"]  # can_hold and can_swap share this
    actions = [HOLD] if unplayed and len(hand) <= HAND_LIMIT else []
    actions += [DISCARDS[card] for card in hand]
    if unplayed and not turn["swapped"]:
        actions += swap_actions(state, seat)
    if len(hand) >= 2:
        actions += play_actions(state, seat)
    return actions


Part = list[Card]
"""One or two cards a swap gives or takes. The swaps listed share these lists (with each
other, and the takes and single cards with later calls): making two fresh lists for each of
the thousands of swaps listed was a good part of the engine's time. No caller changes an
action it is given (actions are read, copied, serialised); one that wanted to would have to
copy it first."""
Take = tuple[int, Part, int]
"""A part a swap may take from a set: (what the cards given for it must stand for, its
cards, the fewest cards to give for it)."""
Gives = dict[int, list[Part]]
"""The 1- or 2-card parts of a hand a swap may give, in hand order, by what they can stand
for."""


ALONE: dict[Card, Part] = {card: [card] for card in ALL_CARDS}
"""Each card as the part a swap takes or gives on its own."""


@lru_cache(maxsize=128)
def _takes(
    cards: tuple[Card, ...], zero_value: int | None
) -> tuple[tuple[Take, ...], tuple[Take, ...]]:
    """The 1- or 2-card parts a swap may take from a set (every take, the takes for which a
    zero card may be given), in the order of the set's cards: each card, then each pair of it
    and a later card (a set holds at most one zero, so no pair holds two). Cached, as most
    sets stay on the table for many turns. The sets of one round are all it needs to hold: a
    bigger cache kept thousands of tuples and lists alive for every garbage collection to
    scan, which cost more than it saved.

    While the set's zero stays, its value is frozen, so the sums must match and no zero may
    come in; when it goes, what comes in must stand for its value plus the rest taken. So a
    take needs the sum of what its cards stand for, the zero for its value.
    """
    spare = len(cards) - MIN_SET_SIZE  # cards the set can lose without getting any back
    one, two = 1 - spare, 2 - spare
    stood = [(card, VALUE[card] if card not in ZEROS else zero_value or 0) for card in cards]
    every: list[Take] = []
    append = every.append
    for index, (first, value) in enumerate(stood):
        append((value, ALONE[first], one))
        for second, other in stood[index + 1 :]:
            append((value + other, [first, second], two))
    takes = tuple(every)
    if zero_value is None:
        return takes, takes
    zero = zero_card(cards)
    return takes, tuple([take for take in takes if zero in take[1]])


def _gives(hand: list[Card]) -> tuple[Gives, Gives]:
    """The parts of the hand a swap may give: (the zero-free parts by their sum, the parts
    with a zero by every need they can meet). A given zero stands for the need less the rest
    of its part, which must lie in its range. Parts with two zeros are left out: no set may
    hold two zeros."""
    exact: Gives = {}
    wild: Gives = {}
    for index, first in enumerate(hand):
        later = hand[index + 1 :]
        if first in ZEROS:
            _add_wild(wild, ALONE[first], first, 0)
            for second in later:
                if second not in ZEROS:
                    _add_wild(wild, [first, second], first, VALUE[second])
            continue
        value = VALUE[first]
        exact.setdefault(value, []).append(ALONE[first])
        for second in later:
            if second in ZEROS:
                _add_wild(wild, [first, second], second, value)
            else:
                exact.setdefault(value + VALUE[second], []).append([first, second])
    return exact, wild


def _add_wild(wild: Gives, part: Part, zero: Card, rest: int) -> None:
    low, high = zero_range(zero)
    for need in range(rest + low, rest + high + 1):
        wild.setdefault(need, []).append(part)


def swap_actions(state: State, seat: Seat) -> list[Action]:
    """Every legal swap (spec 5.2), set by set in table order: for each set, the zero-free
    gives take by take, then the gives holding a zero take by take.

    Swaps are most of what a turn lists (dozens, hundreds with a zero in hand), so this is
    the engine's hot spot: the set side is cached, the hand side computed once per call, and
    one comprehension pairs them.
    """
    exact, wild = _gives(state["hands"][seat])
    went_out = state["went_out"]
    sets = [
        (table_set["id"], _takes(tuple(table_set["cards"]), table_set["zero"]))
        for table_set in state["sets"]
        if not went_out[table_set["owner"]]
    ]
    passes = ((exact, 0), (wild, 1)) if wild else ((exact, 0),)
    return [
        {"type": "swap", "set": set_id, "give": give, "take": take}
        for set_id, takes in sets
        for gives, which in passes
        for need, take, least in takes[which]
        if need in gives
        for give in gives[need]
        if len(give) >= least
    ]


@cache
def _subsets(size: int) -> tuple[tuple[int, ...], ...]:
    """For each bit mask below 2**size, the indices of its set bits."""
    return tuple(
        tuple(index for index in range(size) if mask >> index & 1) for mask in range(1 << size)
    )


def _subset_sums(hand: list[Card]) -> list[int]:
    """For each bit mask below 2**len(hand), the sum of the values of the cards it picks."""
    sums = [0]
    for card in hand:
        value = VALUE[card]
        sums += [total + value for total in sums]
    return sums


def _zero_sum_masks(sums: list[int]) -> list[int]:
    """The masks but 0 whose sum is 0, ascending; found by list methods, as they are few."""
    masks: list[int] = []
    mask = 0
    for _ in range(sums.count(0) - 1):
        mask = sums.index(0, mask + 1)
        masks.append(mask)
    return masks


def _can_balance(hand: list[Card]) -> bool:
    """Whether a part of the negative cards and a part of the positive cards add up to
    opposite amounts, so that together they add up to 0. A quick test on two bit masks: bit s
    says some part of that sign adds up to s in size (bit 0, the empty part, is left out)."""
    negative = positive = 1
    for card in hand:
        value = VALUE[card]
        if value < 0:
            negative |= negative << -value
        else:
            positive |= positive << value
    return bool(negative & positive & ~1)


def _playable_masks(hand: list[Card]) -> tuple[list[int], list[int]]:
    """The parts of the hand that fit a set, as bit masks in ascending order, never the whole
    hand: (the zero-free parts adding up to 0, which fit any set; those and the parts with
    exactly one zero whose value is allowed for its sign, which fit a set without a zero).
    """
    if ZEROS.isdisjoint(hand):
        if not _can_balance(hand):
            return [], []
        sums = _subset_sums(hand)
        balanced = _zero_sum_masks(sums)  # not empty: _can_balance found one
        if balanced[-1] == len(sums) - 1:
            balanced.pop()
        return balanced, balanced
    zeros = [(1 << index, card) for index, card in enumerate(hand) if card in ZEROS]
    sums = _subset_sums(hand)
    full = len(sums) - 1
    zero_mask = sum(bit for bit, _ in zeros)
    balanced = [mask for mask in _zero_sum_masks(sums) if mask != full and not mask & zero_mask]
    wild: list[int] = []
    for bit, card in zeros:
        others = zero_mask ^ bit
        low, high = zero_range(card)
        wild += [
            mask
            for mask in range(bit, full)
            if mask & bit and not mask & others and low <= -sums[mask] <= high
        ]
    return balanced, sorted(balanced + wild)


def play_actions(state: State, seat: Seat) -> list[Action]:
    """Every new set laid from the hand, then every addition of hand cards to one own set.

    At least one card must stay in the hand (spec 5.3), so the whole hand is never played.
    """
    hand: list[Card] = state["hands"][seat]
    balanced, fitting = _playable_masks(hand)
    if not fitting:
        return []
    subsets = _subsets(len(hand))
    actions: list[Action] = [
        {"type": "play", "groups": [[hand[i] for i in subsets[mask]]]}
        for mask in fitting
        if len(subsets[mask]) >= MIN_SET_SIZE
    ]
    for table_set in state["sets"]:
        if table_set["owner"] != seat:
            continue
        cards = table_set["cards"]
        for mask in balanced if table_set["zero"] is not None else fitting:
            group = cards + [hand[i] for i in subsets[mask]]
            group.sort(key=RANK.__getitem__)
            actions.append({"type": "play", "groups": [group]})
    return actions


SPLIT_OFF = (3, 4)
"""The sizes of the zero-free set a regroup splits off (see ``regroup_actions``)."""


def regroup_actions(state: State, seat: Seat) -> list[Action]:
    """Regroupings that turn one own set into two (spec 5.3), for bots and the search.

    For each own set and each part of the hand that fits it (as in ``play_actions``), every
    way to split the set and the part into a zero-free set of 3 or 4 cards adding up to 0 and
    a set of the rest (holding the zero card, if any, at an unchanged value when it comes from
    the set), other than laying the part beside the set. Not every regroup: merging sets,
    splitting into three, or revaluing a set's zero are left out, and so are pure regroups
    (table option). Every one is accepted by ``apply`` and canonical; one group per set, cards
    in canonical order, the split-off set first.
    """
    phase = state["phase"]
    if phase != "play" or state["turn"]["seat"] != seat or state["went_out"][seat]:
        return []
    hand: list[Card] = state["hands"][seat]
    own = [s for s in state["sets"] if s["owner"] == seat]
    if len(hand) < 2 or not own:
        return []
    balanced, fitting = _playable_masks(hand)
    if not fitting:
        return []
    subsets = _subsets(len(hand))
    found: list[Action] = []
    for table_set in own:
        cards = table_set["cards"]
        for mask in balanced if table_set["zero"] is not None else fitting:
            part = [hand[i] for i in subsets[mask]]
            found += _splits(cards, part)
    return found


def _splits(cards: list[Card], part: list[Card]) -> list[Action]:
    """The splits of a set's ``cards`` and a hand ``part`` that fits them into two groups: a
    zero-free one of a size in ``SPLIT_OFF`` that adds up to 0, and the rest (at least 3)."""
    pool = sorted(cards + part, key=RANK.__getitem__)
    plain = [card for card in pool if card not in ZEROS]
    most = len(pool) - MIN_SET_SIZE
    if most < MIN_SET_SIZE:
        return []
    values = [VALUE[card] for card in plain]
    size = len(plain)
    later: dict[int, list[int]] = {}  # value -> indices holding it, ascending
    for index, value in enumerate(values):
        later.setdefault(value, []).append(index)
    picks: list[tuple[int, ...]] = []
    for i in range(size):
        for j in range(i + 1, size):
            pair = values[i] + values[j]
            for k in later.get(-pair, ()):
                if k > j:
                    picks.append((i, j, k))
            if most >= 4 and SPLIT_OFF[-1] >= 4:
                for k in range(j + 1, size):
                    for m in later.get(-pair - values[k], ()):
                        if m > k:
                            picks.append((i, j, k, m))
    if not picks:
        return []
    whole = set(cards)
    found: list[Action] = []
    seen: set[frozenset[Card]] = set()
    for pick in picks:
        group = [plain[i] for i in pick]
        chosen = set(group)
        rest = [card for card in pool if card not in chosen]
        if chosen == set(part) or chosen == whole:
            continue  # the part laid beside the set, or the set left as it was
        if not any(card in ZEROS for card in rest):
            key = frozenset(chosen if plain[0] in chosen else rest)
            if key in seen:
                continue  # the same split found from its other half
            seen.add(key)
        found.append({"type": "play", "groups": [group, rest]})
    return found


def fallback_action(state: State, seat: Seat) -> Action:
    """For a silent seat: draw from the deck, then hold, or shed the costliest card."""
    if state["phase"] == "draw":
        return legal_actions(state, seat)[0]
    if can_hold(state):
        return {"type": "hold"}
    hand = state["hands"][seat]
    worst = max(hand, key=lambda card: (CARD_NUMBER[card], RANK[card]))
    return {"type": "discard", "card": worst}
