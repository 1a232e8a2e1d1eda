"""Setup, turn flow, apply and outcome: the ABSOLUTE state machine (spec sections 2, 5, 6).

State (a plain JSON dict)::

    players, rng, options       as the contract asks
    round                       1..3
    first_player                the seat that started this round
    phase                       "draw" | "play" | "discard" | "over"
    turn                        {"seat", "drew": None|"deck"|"discard"|"skipped",
                                 "card": the drawn card or None, "swapped", "played"}
    deck                        face-down cards, the top is the last item
    discard                     face-up cards, the top is the last item
    hands                       one sorted list of cards per seat
    seen                        per seat, the cards of its hand everyone saw go there (taken
                                from the discard pile or from a set by a swap), sorted
    sets                        [{"id", "owner", "cards" (sorted), "zero": value|None}] by id
    next_set_id                 the id the next new set gets
    went_out, first_out         who has gone out this round (their sets are locked)
    turns_taken, dry_turns      turns this round; consecutive turns without a possible draw
    totals, rounds              game totals per seat; one breakdown per finished round

Phases: "draw" (take from deck or discard), "play" (optional swap, plays, then discard or
hold), "discard" (keep discarding down to 7), "over".
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from games.absolute.actions import (
    parse_discard,
    parse_play,
    parse_source,
    parse_swap,
)
from games.absolute.cards import (
    ALL_CARDS,
    DEAL_SIZE,
    HAND_LIMIT,
    MIN_SET_SIZE,
    RANK,
    ROUNDS,
    SETS_TO_GO_OUT,
    VALUE,
    ZEROS,
    Card,
    card_name,
    names,
    sort_cards,
)
from games.absolute.groups import check_group, new_set, signed, zero_card
from games.absolute.scoring import hand_penalty, score_set
from games.base import (
    Action,
    IllegalAction,
    MalformedAction,
    Outcome,
    Seat,
    State,
    clone,
    draw_rng,
    new_rng_state,
    require,
)

# -- setup -----------------------------------------------------------------------------------


def setup(players: int, seed: int, options: Mapping[str, Any]) -> State:
    state: State = {
        "players": players,
        "rng": new_rng_state(seed),
        "options": dict(options),
        "round": 0,
        "first_player": 0,
        "phase": "draw",
        "turn": None,
        "deck": [],
        "discard": [],
        "hands": [[] for _ in range(players)],
        "seen": [[] for _ in range(players)],
        "sets": [],
        "next_set_id": 1,
        "went_out": [False] * players,
        "first_out": None,
        "turns_taken": 0,
        "dry_turns": 0,
        "totals": [0] * players,
        "rounds": [],
    }
    first = _rng(state).randrange(players)  # spec 2.4: round 1 starts at a random seat
    _start_round(state, 1, first)
    return state


def _start_round(state: State, number: int, first: Seat) -> None:
    players = state["players"]
    deck = list(ALL_CARDS)
    _rng(state).shuffle(deck)
    hands = []
    for _ in range(players):
        hands.append(sort_cards(deck[-DEAL_SIZE:]))
        del deck[-DEAL_SIZE:]
    state.update(
        round=number,
        first_player=first,
        deck=deck,
        discard=[deck.pop()],
        hands=hands,
        seen=[[] for _ in range(players)],
        sets=[],
        next_set_id=1,
        went_out=[False] * players,
        first_out=None,
        turns_taken=0,
        dry_turns=0,
    )
    _begin_turn(state, first)


def _begin_turn(state: State, seat: Seat) -> None:
    """A new turn; the draw is skipped when deck and discard are both empty (spec 5.1)."""
    can_draw = bool(state["deck"] or state["discard"])
    state["phase"] = "draw" if can_draw else "play"
    state["turn"] = {
        "seat": seat,
        "drew": None if can_draw else "skipped",
        "card": None,
        "swapped": False,
        "played": False,
    }


# -- queries ---------------------------------------------------------------------------------


def to_act(state: State) -> frozenset[Seat]:
    if state["phase"] == "over":
        return frozenset()
    return _only(state["turn"]["seat"])


@cache
def _only(seat: Seat) -> frozenset[Seat]:
    """The set of one seat; immutable, so one object per seat serves every state."""
    return frozenset((seat,))


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    totals = state["totals"]
    best = max(totals)
    return Outcome(
        scores=tuple(float(total) for total in totals),
        winners=tuple(seat for seat, total in enumerate(totals) if total == best),
        rounds=tuple(clone(state["rounds"])),
        detail={
            "totals": list(totals),
            "round_scores": [[p["score"] for p in r["players"]] for r in state["rounds"]],
        },
    )


def set_by_id(state: State, set_id: int) -> dict[str, Any] | None:
    for table_set in state["sets"]:
        if table_set["id"] == set_id:
            return table_set
    return None


def sets_owned(state: State, seat: Seat) -> int:
    return sum(1 for table_set in state["sets"] if table_set["owner"] == seat)


# -- apply -----------------------------------------------------------------------------------


# States share unchanged parts with the state they came from (lists such as the deck, the
# hands and the sets are replaced, never changed in place), which keeps apply cheap.


def _with_hand(state: State, seat: Seat, hand: list[Card]) -> list[list[Card]]:
    hands = list(state["hands"])
    hands[seat] = hand
    return hands


def _with_seen(
    state: State, seat: Seat, gone: Iterable[Card], came: Sequence[Card] = ()
) -> list[list[Card]]:
    """``state["seen"]`` after ``gone`` left ``seat``'s hand and ``came`` publicly went in.

    Cards are unique, so a card seen going into a hand stays known there until it leaves."""
    seen = state["seen"]
    if not came and (not seen[seat] or set(gone).isdisjoint(seen[seat])):
        return seen
    new = list(seen)
    new[seat] = sort_cards([card for card in seen[seat] if card not in gone] + list(came))
    return new


def _rng(state: State) -> random.Random:
    """draw_rng on a private copy of the randomness record of a new state."""
    state["rng"] = dict(state["rng"])
    return draw_rng(state)


def apply(state: State, seat: Seat, action: Action) -> State:
    """Apply one action (turn, game-over and type checks are done by the engine)."""
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise MalformedAction(f"unknown action type {kind!r} (draw, swap, play, discard, hold)")
    return handler(state, seat, action)


def _need_play_phase(state: State) -> None:
    phase = state["phase"]
    if phase == "draw":
        raise IllegalAction("draw_first", "Draw a card first, from the deck or the discard pile.")
    if phase == "discard":
        raise IllegalAction(
            "must_discard", f"Discard down to {HAND_LIMIT} cards to finish your turn."
        )


def _draw(state: State, seat: Seat, action: Action) -> State:
    source = parse_source(action)
    require(state["phase"] == "draw", "already_drew", "You have already drawn this turn.")
    deck, discard = state["deck"], state["discard"]
    new = dict(state)
    if source == "deck":
        if not deck:
            require(
                len(discard) >= 2,
                "deck_empty",
                "The deck is empty and there is nothing to shuffle into a new one: "
                "take the discard instead.",
            )
            # Keep the top discard, shuffle the rest into a new deck (spec 5.1).
            deck = discard[:-1]
            _rng(new).shuffle(deck)
            new["discard"] = discard[-1:]
        card = deck[-1]
        new["deck"] = deck[:-1]
    else:
        require(bool(discard), "discard_empty", "The discard pile is empty.")
        card = discard[-1]
        new["discard"] = discard[:-1]
        new["seen"] = _with_seen(state, seat, (), [card])  # everyone saw it taken
    hand = [*state["hands"][seat]]
    insort(hand, card, key=RANK.__getitem__)
    new["hands"] = _with_hand(state, seat, hand)
    new["phase"] = "play"
    new["turn"] = {**state["turn"], "drew": source, "card": card}
    return new


def _swap(state: State, seat: Seat, action: Action) -> State:
    set_id, give, take = parse_swap(action)
    _need_play_phase(state)
    turn = state["turn"]
    require(not turn["swapped"], "already_swapped", "You may swap only once per turn.")
    require(
        not turn["played"],
        "swap_after_play",
        "Swaps come before playing: you have already played cards this turn.",
    )
    target = set_by_id(state, set_id)
    if target is None:
        raise IllegalAction("no_such_set", f"There is no set {set_id} on the table.")
    if state["went_out"][target["owner"]]:
        raise IllegalAction("locked", f"Set {set_id} is locked: its owner has gone out this round.")
    hand: list[Card] = state["hands"][seat]
    _require_distinct(give + take)
    missing = [card for card in give if card not in hand]
    if missing:
        raise IllegalAction("not_in_hand", f"You do not hold {names(missing)}.")
    cards: list[Card] = target["cards"]
    absent = [card for card in take if card not in cards]
    if absent:
        raise IllegalAction("not_in_set", f"Set {set_id} does not hold {names(absent)}.")
    result = sort_cards([card for card in cards if card not in take] + give)
    if len(result) < MIN_SET_SIZE:
        raise IllegalAction(
            "set_too_small",
            f"After this swap set {set_id} would hold only {len(result)} cards; "
            f"a set needs at least {MIN_SET_SIZE}.",
        )
    old_zero = zero_card(cards) if target["zero"] is not None else None
    if ZEROS.isdisjoint(give):
        given = sum(map(VALUE.__getitem__, give))
        taken = sum(map(VALUE.__getitem__, take))
        if old_zero in take:
            taken += target["zero"]
        if given != taken:
            raise IllegalAction(
                "swap_sum",
                f"The cards you give add up to {signed(given)} but the cards you take stand "
                f"for {signed(taken)}: set {set_id} must still add up to zero"
                + (
                    f" (the {card_name(old_zero)} stands for {signed(target['zero'])})."
                    if old_zero is not None
                    else "."
                ),
            )
    frozen = {old_zero: target["zero"]} if old_zero is not None and old_zero not in take else {}
    zero_value = check_group(result, frozen)
    new = dict(state)
    new["hands"] = _with_hand(
        state, seat, sort_cards([card for card in hand if card not in give] + take)
    )
    new["seen"] = _with_seen(state, seat, give, take)  # the taken cards left a set in view
    new["sets"] = [
        {**s, "cards": result, "zero": zero_value} if s["id"] == set_id else s
        for s in state["sets"]
    ]
    new["turn"] = {**turn, "swapped": True}
    return new


def _require_distinct(cards: list[Card]) -> None:
    if len(set(cards)) == len(cards):
        return
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise IllegalAction("duplicate_card", f"{card_name(card)} appears twice.")
        seen.add(card)


def _play(state: State, seat: Seat, action: Action) -> State:
    groups = parse_play(action)
    _need_play_phase(state)
    hand: list[Card] = state["hands"][seat]
    in_hand = set(hand)
    own: dict[Card, dict[str, Any]] = {}
    others: set[Card] = set()
    for table_set in state["sets"]:
        if table_set["owner"] == seat:
            own.update(dict.fromkeys(table_set["cards"], table_set))
        else:
            others.update(table_set["cards"])
    _require_distinct([card for group in groups for card in group])
    played: list[Card] = []
    touched: dict[int, dict[str, Any]] = {}
    for group in groups:
        for card in group:
            if card in in_hand:
                played.append(card)
            elif card in own:
                touched[own[card]["id"]] = own[card]
            elif card in others:
                raise IllegalAction(
                    "not_your_set",
                    f"{card_name(card)} lies in another player's set; you can change other "
                    "players' sets only by swapping.",
                )
            else:
                raise IllegalAction("not_in_hand", f"You do not hold {card_name(card)}.")
    require(
        bool(played) or state["options"]["pure_regroup"],
        "no_hand_card",
        "A play must put at least one card from your hand on the table.",
    )
    require(
        len(hand) > len(played),
        "keep_a_card",
        "Keep at least one card in your hand: you must discard at the end of your turn.",
    )
    placed = {card for group in groups for card in group}
    frozen: dict[Card, int] = {}
    for set_id, table_set in touched.items():
        left = [card for card in table_set["cards"] if card not in placed]
        if left:
            raise IllegalAction(
                "set_not_whole",
                f"You are regrouping set {set_id}, so all of its cards must be placed; "
                f"{names(left)} {'is' if len(left) == 1 else 'are'} missing.",
            )
        if table_set["zero"] is not None:
            _freeze_zero(table_set, groups, frozen)
    sorted_groups = [sort_cards(group) for group in groups]
    zero_values = [check_group(group, frozen) for group in sorted_groups]
    if not played:
        before = sorted(sorted(s["cards"], key=RANK.__getitem__) for s in touched.values())
        require(before != sorted(sorted_groups), "no_change", "That play changes nothing.")
    new = dict(state)
    new["hands"] = _with_hand(state, seat, [card for card in hand if card not in placed])
    new["seen"] = _with_seen(state, seat, placed)
    kept = [s for s in state["sets"] if s["id"] not in touched]
    for group, zero_value in zip(sorted_groups, zero_values, strict=True):
        members = set(group)
        whole = [s for s in touched.values() if members.issuperset(s["cards"])]
        if len(whole) == 1:
            set_id = whole[0]["id"]
        else:
            set_id = new["next_set_id"]
            new["next_set_id"] += 1
        kept.append(new_set(set_id, seat, group, zero_value))
    kept.sort(key=lambda s: s["id"])
    new["sets"] = kept
    new["turn"] = {**state["turn"], "played": True}
    return new


def _freeze_zero(
    table_set: dict[str, Any], groups: list[list[Card]], frozen: dict[Card, int]
) -> None:
    """Spec 4.4: a zero keeps its value if it ends up beside any of its old set-mates."""
    zero = zero_card(table_set["cards"])
    assert zero is not None
    mates = {card for card in table_set["cards"] if card != zero}
    for group in groups:
        if zero in group:
            if mates.intersection(group):
                frozen[zero] = table_set["zero"]
            return


def _discard(state: State, seat: Seat, action: Action) -> State:
    card = parse_discard(action)
    require(
        state["phase"] != "draw",
        "draw_first",
        "Draw a card first, from the deck or the discard pile.",
    )
    hand: list[Card] = state["hands"][seat]
    if card not in hand:
        raise IllegalAction("not_in_hand", f"You do not hold {card_name(card)}.")
    new = dict(state)
    new_hand = [other for other in hand if other != card]
    new["hands"] = _with_hand(state, seat, new_hand)
    new["seen"] = _with_seen(state, seat, (card,))
    new["discard"] = [*state["discard"], card]
    if len(new_hand) > HAND_LIMIT:
        new["phase"] = "discard"
    else:
        _end_turn(new)
    return new


def _hold(state: State, seat: Seat, action: Action) -> State:
    _need_play_phase(state)
    require(
        not state["turn"]["played"],
        "must_discard",
        "You played cards this turn, so you must discard a card.",
    )
    count = len(state["hands"][seat])
    require(
        count <= HAND_LIMIT,
        "must_discard",
        f"You hold {count} cards: discard down to {HAND_LIMIT}.",
    )
    new = dict(state)
    _end_turn(new)
    return new


_HANDLERS: dict[str, Callable[[State, Seat, Action], State]] = {
    "draw": _draw,
    "swap": _swap,
    "play": _play,
    "discard": _discard,
    "hold": _hold,
}

# -- end of turn, round and game -----------------------------------------------------------------


def _end_turn(state: State) -> None:
    """Spec 5.4 (refill an empty discard pile), 5.5 (going out), 6 (round end: the optional
    turn limit and the safety valve, never during the final lap).

    ``state`` is a new top-level dict whose lists may still be shared: replace, never change.
    """
    turn = state["turn"]
    seat = turn["seat"]
    if not state["discard"] and state["deck"]:
        state["discard"] = state["deck"][-1:]
        state["deck"] = state["deck"][:-1]
    if not state["hands"][seat] and sets_owned(state, seat) >= SETS_TO_GO_OUT:
        went_out = list(state["went_out"])
        went_out[seat] = True
        state["went_out"] = went_out
        if state["first_out"] is None:
            state["first_out"] = seat
    state["turns_taken"] += 1
    state["dry_turns"] = state["dry_turns"] + 1 if turn["drew"] == "skipped" else 0
    players = state["players"]
    following = (seat + 1) % players
    limit = state["options"]["turn_limit"]
    if state["first_out"] is not None:
        # The final lap (spec 5.5): every other player gets their last turn, whatever the
        # turn limit or the safety valve would say (spec 6).
        if following == state["first_out"]:
            _end_round(state, "went_out")
        else:
            _begin_turn(state, following)
    elif limit and state["turns_taken"] >= limit * players:
        _end_round(state, "turn_limit")
    elif state["dry_turns"] >= players:
        _end_round(state, "stalled")
    else:
        _begin_turn(state, following)


def round_breakdown(state: State, ended_by: str) -> dict[str, Any]:
    """Score the round as it stands (spec 7) without changing the totals."""
    players: list[dict[str, Any]] = []
    for seat in range(state["players"]):
        sets = [
            {"id": s["id"], "cards": list(s["cards"]), "zero": s["zero"], **score_set(s["cards"])}
            for s in state["sets"]
            if s["owner"] == seat
        ]
        hand = list(state["hands"][seat])
        sets_score = sum(s["score"] for s in sets)
        penalty = hand_penalty(hand)
        players.append(
            {
                "sets": sets,
                "sets_score": sets_score,
                "hand": hand,
                "hand_penalty": penalty,
                "score": sets_score - penalty,
                "total": state["totals"][seat] + sets_score - penalty,
            }
        )
    return {
        "round": state["round"],
        "first_player": state["first_player"],
        "ended_by": ended_by,
        "first_out": state["first_out"],
        "went_out": [seat for seat, out in enumerate(state["went_out"]) if out],
        "turns": state["turns_taken"],
        "players": players,
        "scores": [player["score"] for player in players],
    }


def _end_round(state: State, ended_by: str) -> None:
    breakdown = round_breakdown(state, ended_by)
    state["rounds"] = [*state["rounds"], breakdown]
    state["totals"] = [p["total"] for p in breakdown["players"]]
    if state["round"] >= ROUNDS:
        state["phase"] = "over"
        state["turn"] = None
        return
    _start_round(state, state["round"] + 1, (state["first_player"] + 1) % state["players"])
