"""The Balance state machine: setup, whose turn it is, apply, and the outcome.

The state is a plain JSON dict::

    players, rng, mode ("multi" | "solo"), options {decks, jokers_per_deck, max_rounds},
    round (1-based), dealer (seat; None in solo), current (seat on turn; None when over),
    stock [cards, top last], hands [[cards] per seat, sorted], balance (int),
    pile [entries of this round], drawn (the card the player on turn just drew, or None),
    points [totals per seat], tally {points, zeros, busts, automaton} (this round),
    eliminated [bool per seat], last_play (entry or None), automaton (solo: the automaton's
    last card, entry or None), rounds [records of finished rounds], result (None or
    {winners, reason})

A pile entry is ``{"kind": "play"|"start"|"automaton", "seat": seat or None, "card",
"direction", "before", "after", "points"}``. Solo mode is derived from ``players == 1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.balance.actions import parse_play
from games.balance.cards import VALUE, Card, build_pack, sort_hand
from games.balance.scoring import (
    SOLO_TARGET,
    automaton_result,
    decide_round,
    play_result,
)
from games.base import Action, Outcome, Seat, State, draw_rng, new_rng_state

HAND_SIZE = 5


def setup(players: int, seed: int, options: Mapping[str, Any]) -> State:
    state: State = {
        "players": players,
        "rng": new_rng_state(seed),
        "mode": "solo" if players == 1 else "multi",
        "options": dict(options),
        "round": 0,
        "dealer": None,
        "current": None,
        "stock": [],
        "hands": [[] for _ in range(players)],
        "balance": 0,
        "pile": [],
        "drawn": None,
        "points": [0] * players,
        "tally": _empty_tally(players),
        "eliminated": [False] * players,
        "last_play": None,
        "automaton": None,
        "rounds": [],
        "result": None,
    }
    if players == 1:
        _start_solo(state)
    else:
        state["dealer"] = draw_rng(state).randrange(players)
        _start_round(state)
    return state


def to_act(state: State) -> frozenset[Seat]:
    if state["result"] is not None:
        return frozenset()
    return frozenset((state["current"],))


def apply(state: State, seat: Seat, action: Action) -> State:
    """Apply a checked play (the engine has already checked the type and the turn)."""
    card, direction = parse_play(state, seat, action)
    new = _fork(state)
    _play(new, seat, card, direction)
    if new["mode"] == "solo":
        _after_solo_play(new)
    elif not new["stock"] and not any(new["hands"]):
        _end_round(new)
    else:
        _begin_turn(new, _next_holder(new, seat))
    return new


def outcome(state: State) -> Outcome | None:
    result = state["result"]
    if result is None:
        return None
    detail: dict[str, Any] = {"mode": state["mode"], "reason": result["reason"]}
    if state["mode"] == "solo":
        detail |= {"won": result["reason"] == "solo_win", "target": SOLO_TARGET}
    else:
        detail["eliminated"] = [s for s, out in enumerate(state["eliminated"]) if out]
    return Outcome(
        scores=tuple(state["points"]),
        winners=tuple(result["winners"]),
        rounds=tuple(state["rounds"]),
        detail=detail,
    )


def _fork(state: State) -> State:
    """A copy of ``state`` that ``apply`` may change: every container it mutates is new.

    Pile entries, round records and ``options`` are shared; they are never changed once made.
    Far cheaper than a deep :func:`~games.base.clone`.
    """
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["stock"] = list(state["stock"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["pile"] = list(state["pile"])
    new["points"] = list(state["points"])
    new["tally"] = {k: list(v) if isinstance(v, list) else v for k, v in state["tally"].items()}
    new["eliminated"] = list(state["eliminated"])
    new["rounds"] = list(state["rounds"])
    return new


# -- turns -------------------------------------------------------------------------------------


def _empty_tally(players: int) -> dict[str, Any]:
    return {"points": [0] * players, "zeros": [0] * players, "busts": [0] * players, "automaton": 0}


def _begin_turn(state: State, seat: Seat) -> None:
    """Make ``seat`` the player on turn and draw the stock's top card for them if there is one."""
    state["current"] = seat
    stock = state["stock"]
    if stock:
        card = stock.pop()
        hand = state["hands"][seat]
        hand.append(card)
        sort_hand(hand)
        state["drawn"] = card
    else:
        state["drawn"] = None


def _next_holder(state: State, seat: Seat) -> Seat:
    """The next seat clockwise that still holds cards (eliminated seats hold none)."""
    players = state["players"]
    hands = state["hands"]
    for step in range(1, players + 1):
        nxt = (seat + step) % players
        if hands[nxt]:
            return nxt
    raise AssertionError("no seat holds a card")  # the caller checked that one does


def _play(state: State, seat: Seat, card: Card, direction: int) -> None:
    before = state["balance"]
    after, points = play_result(before, card, direction)
    state["hands"][seat].remove(card)
    entry = {
        "kind": "play",
        "seat": seat,
        "card": card,
        "direction": direction,
        "before": before,
        "after": after,
        "points": points,
    }
    state["pile"].append(entry)
    state["balance"] = after
    state["last_play"] = entry | {"round": state["round"]}
    _score(state, seat, points)
    tally = state["tally"]
    if points > 0:
        tally["zeros"][seat] += 1
    elif points < 0:
        tally["busts"][seat] += 1


def _score(state: State, seat: Seat, points: int) -> None:
    state["points"][seat] += points
    state["tally"]["points"][seat] += points


# -- multi-player rounds ------------------------------------------------------------------------


def _start_round(state: State) -> None:
    """Shuffle the whole pack, deal five to every active player, and let the dealer's left play."""
    state["round"] += 1
    options = state["options"]
    pack = build_pack(options["decks"], options["jokers_per_deck"])
    draw_rng(state).shuffle(pack)
    players = state["players"]
    dealer = state["dealer"]
    order = [(dealer + step) % players for step in range(1, players + 1)]
    order = [s for s in order if not state["eliminated"][s]]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for s in order:
            hands[s].append(pack.pop())
    for hand in hands:
        sort_hand(hand)
    state["hands"] = hands
    state["stock"] = pack
    state["balance"] = 0
    state["pile"] = []
    state["tally"] = _empty_tally(players)
    _begin_turn(state, order[0])


def _end_round(state: State) -> None:
    """Score the finished round, then end the match or deal the next round (spec section 5)."""
    options = state["options"]
    decision = decide_round(
        state["points"], state["eliminated"], state["round"], options["max_rounds"]
    )
    for s in decision.eliminated:
        state["eliminated"][s] = True
    tally = state["tally"]
    state["rounds"].append(
        {
            "round": state["round"],
            "dealer": state["dealer"],
            "scores": list(tally["points"]),
            "zeros": list(tally["zeros"]),
            "busts": list(tally["busts"]),
            "totals": list(state["points"]),
            "eliminated": list(decision.eliminated),
            "decision": decision.kind,
        }
    )
    if decision.is_final:
        state["result"] = {"winners": list(decision.winners), "reason": decision.kind}
        state["current"] = None
        state["drawn"] = None
        return
    players = state["players"]
    dealer = state["dealer"]
    for step in range(1, players + 1):
        nxt = (dealer + step) % players
        if not state["eliminated"][nxt]:
            state["dealer"] = nxt
            break
    _start_round(state)


# -- solo -------------------------------------------------------------------------------------


def _start_solo(state: State) -> None:
    """Section 7.1: five cards to the hand, then the next card starts the balance and the pile."""
    state["round"] = 1
    options = state["options"]
    pack = build_pack(options["decks"], options["jokers_per_deck"])
    draw_rng(state).shuffle(pack)
    hand = [pack.pop() for _ in range(HAND_SIZE)]
    sort_hand(hand)
    start = pack.pop()
    value = VALUE[start]
    state["hands"] = [hand]
    state["stock"] = pack
    state["balance"] = value
    state["pile"] = [
        {
            "kind": "start",
            "seat": None,
            "card": start,
            "direction": 1,
            "before": 0,
            "after": value,
            "points": 0,
        }
    ]
    _begin_turn(state, 0)


def _after_solo_play(state: State) -> None:
    """The automaton's card (section 7.2b), then the next turn or the end (section 7.3)."""
    stock = state["stock"]
    if stock:
        card = stock.pop()
        before = state["balance"]
        after, points, matched = automaton_result(before, card)
        entry = {
            "kind": "automaton",
            "seat": None,
            "card": card,
            "direction": 1 if after >= before else -1,
            "before": before,
            "after": after,
            "points": points,
            "matched": matched,
        }
        state["pile"].append(entry)
        state["balance"] = after
        state["automaton"] = entry
        _score(state, 0, points)
        if points:
            state["tally"]["automaton"] += 1
    else:
        state["automaton"] = None
    if state["stock"] or state["hands"][0]:
        _begin_turn(state, 0)
        return
    won = state["points"][0] >= SOLO_TARGET
    tally = state["tally"]
    state["rounds"].append(
        {
            "round": 1,
            "dealer": None,
            "scores": list(tally["points"]),
            "zeros": list(tally["zeros"]),
            "busts": list(tally["busts"]),
            "automaton_zeroings": tally["automaton"],
            "totals": list(state["points"]),
            "eliminated": [],
            "decision": "solo_win" if won else "solo_loss",
        }
    )
    state["result"] = {"winners": [0] if won else [], "reason": "solo_win" if won else "solo_loss"}
    state["current"] = None
    state["drawn"] = None
