"""Setup, the turn state machine, ``apply``, ``to_act`` and ``outcome`` (spec sections 3-6).

The state is a plain JSON dict::

    players, rng, options        table size, seeded randomness, checked room options
    round, first_dealer, dealer  round number (1..players); dealers rotate to the left
    deck                         the face-down Draw Stack, top = last
    hands[seat], plus[seat], minus[seat]   cards; stacks have their top last
    current, phase               whose turn; "play" | "swap" | "king" | "pass" | "over"
    plays_left                   plays still owed this turn (1, plus 2 for each 5 played)
    first_turn                   whether this is the round's first turn (it drew 2)
    turn                         public record of this turn: seat, drawn, plays, lost
    last_turn                    the same record for the turn before, with "passed"
    last_pass                    {"from", "to", "card"} of the latest pass (card is secret)
    totals, rounds               running totals and one breakdown per finished round

Drawing is automatic at the start of a turn, as is losing a play nobody can make; a turn
ends after the pass (or without one when the hand is empty or, with the table option off, when
the player could not play), and the round ends at the end of the turn that emptied the deck.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, IllegalAction, Outcome, State, draw_rng, new_rng_state, require
from games.plus_minus.actions import at_table, can_play
from games.plus_minus.cards import DECK, FIVE, KING, RANK, TEN, card_name, fits
from games.plus_minus.scoring import seat_breakdown, winners

FIRST_TURN_DRAW = 2
TURN_DRAW = 1
FIVE_DRAW = 2
FIVE_PLAYS = 2
KING_MOVE = 2


# -- setup and the turn machine -----------------------------------------------------------


def setup(players: int, seed: int, options: dict[str, Any]) -> State:
    state: State = {"players": players, "rng": new_rng_state(seed), "options": dict(options)}
    first_dealer = draw_rng(state).randrange(players)
    state.update(
        first_dealer=first_dealer,
        totals=[0] * players,
        rounds=[],
        last_turn=None,
    )
    _deal_round(state, 1)
    _advance(state)
    return state


def _deal_round(state: State, round_no: int) -> None:
    """Shuffle, deal 2 face up (higher on Plus, lower on Minus) and 2 in hand to each seat."""
    players = state["players"]
    dealer = (state["first_dealer"] + round_no - 1) % players
    deck = list(DECK)
    draw_rng(state).shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    plus: list[list[str]] = [[] for _ in range(players)]
    minus: list[list[str]] = [[] for _ in range(players)]
    for i in range(players):
        seat = (dealer + 1 + i) % players
        plus[seat], minus[seat] = split_face_up(deck.pop(), deck.pop())
        hands[seat] = [deck.pop(), deck.pop()]
    state.update(
        round=round_no,
        dealer=dealer,
        deck=deck,
        hands=hands,
        plus=plus,
        minus=minus,
        last_pass=None,
    )
    _start_turn(state, (dealer + 1) % players, first=True)


def split_face_up(first: str, second: str) -> tuple[list[str], list[str]]:
    """The higher face-up card starts the Plus stack, the lower the Minus (equal: the first)."""
    if RANK[first] >= RANK[second]:
        return [first], [second]
    return [second], [first]


def _draw(state: State, seat: int, count: int) -> int:
    deck = state["deck"]
    count = min(count, len(deck))
    hand = state["hands"][seat]
    for _ in range(count):
        hand.append(deck.pop())
    return count


def _start_turn(state: State, seat: int, *, first: bool) -> None:
    drawn = _draw(state, seat, FIRST_TURN_DRAW if first else TURN_DRAW)
    state.update(
        current=seat,
        first_turn=first,
        plays_left=1,
        phase="play",
        turn={"seat": seat, "drawn": drawn, "plays": 0, "lost": 0},
    )


def _advance(state: State) -> None:
    """Move on until someone has a decision to make (or the match is over)."""
    while True:
        seat, turn = state["current"], state["turn"]
        if state["plays_left"]:
            if can_play(state, seat):
                state["phase"] = "play"
                return
            turn["lost"] += state["plays_left"]  # impossible plays are lost (spec 5.2, 5.3)
            state["plays_left"] = 0
        stuck = turn["plays"] == 0
        if state["hands"][seat] and (not stuck or state["options"]["pass_when_stuck"]):
            state["phase"] = "pass"
            return
        _end_turn(state, passed=False)
        if state["phase"] == "over":
            return


def _end_turn(state: State, *, passed: bool) -> None:
    state["last_turn"] = {**state["turn"], "passed": passed}
    players = state["players"]
    if state["deck"]:
        _start_turn(state, (state["current"] + 1) % players, first=False)
        return
    _score_round(state)
    if state["round"] == players:
        state.update(phase="over", plays_left=0)
        return
    _deal_round(state, state["round"] + 1)


def _score_round(state: State) -> None:
    seats = [
        seat_breakdown(state["plus"][s], state["minus"][s], state["hands"][s])
        for s in range(state["players"])
    ]
    scores = [entry["score"] for entry in seats]
    totals = [total + score for total, score in zip(state["totals"], scores, strict=True)]
    state["totals"] = totals
    state["rounds"].append(
        {
            "round": state["round"],
            "dealer": state["dealer"],
            "scores": scores,
            "totals": totals,
            "seats": seats,
        }
    )


# -- actions ------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> State:
    """Apply a turn-checked action of the schema's shape; raises :class:`IllegalAction`."""
    kind = action["type"]
    phase = state["phase"]
    if kind != phase:
        raise IllegalAction(f"expected_{phase}", _PHASE_HINT[phase])
    new = _copy(state)
    _HANDLERS[kind](new, seat, action)
    return new


def _copy(state: State) -> State:
    """A copy of everything ``apply`` may change; the rest (options, finished rounds, the last
    turn and pass records, which are replaced and never edited) is shared with the input."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["deck"] = list(state["deck"])
    new["hands"] = [list(cards) for cards in state["hands"]]
    new["plus"] = [list(cards) for cards in state["plus"]]
    new["minus"] = [list(cards) for cards in state["minus"]]
    new["turn"] = dict(state["turn"])
    new["rounds"] = list(state["rounds"])
    return new


_PHASE_HINT: dict[str, str] = {
    "play": "You must play a card first: at least one of your cards fits a stack.",
    "swap": "You played a 10: choose two stacks to swap first.",
    "king": "You played a King: choose two other players whose Minus cards move first.",
    "pass": "Your plays are done: pass one card to your left neighbour.",
}


def _stack_name(state: State, seat: int, stack: str) -> str:
    top = state[stack][seat]
    shown = f"top {card_name(top[-1])}" if top else "empty"
    return f"seat {seat}'s {stack.capitalize()} stack ({shown})"


def _play(state: State, seat: int, action: Action) -> None:
    players = state["players"]
    card, owner, stack_name = action["card"], at_table(action["seat"], players), action["stack"]
    hand = state["hands"][seat]
    require(card in hand, "not_in_hand", f"The {card_name(card)} is not in your hand.")
    stack = state[stack_name][owner]
    require(
        fits(card, stack),
        "does_not_fit",
        f"The {card_name(card)} does not fit on {_stack_name(state, owner, stack_name)}: "
        "play the same rank or one higher or lower, or any card on an Ace, a King or an "
        "empty stack.",
    )
    hand.remove(card)
    stack.append(card)
    state["plays_left"] -= 1
    state["turn"]["plays"] += 1
    rank = RANK[card]
    if rank == FIVE:
        state["turn"]["drawn"] += _draw(state, seat, FIVE_DRAW)
        state["plays_left"] += FIVE_PLAYS
    elif rank == TEN:
        state["phase"] = "swap"
        return
    elif rank == KING:
        if players == 3:
            _king_move(state, [s for s in range(players) if s != seat])
        else:
            state["phase"] = "king"
            return
    _advance(state)


def _swap(state: State, seat: int, action: Action) -> None:
    players = state["players"]
    a = at_table(action["a_seat"], players), action["a_stack"]
    b = at_table(action["b_seat"], players), action["b_stack"]
    require(a != b, "same_stack", "Choose two different stacks to swap.")
    first, second = state[a[1]][a[0]], state[b[1]][b[0]]
    state[a[1]][a[0]], state[b[1]][b[0]] = second, first
    _advance(state)


def _king(state: State, seat: int, action: Action) -> None:
    chosen = [at_table(other, state["players"]) for other in action["seats"]]
    require(
        len(set(chosen)) == 2 and seat not in chosen,
        "choose_two_others",
        "Choose exactly two other players (not yourself) for the King.",
    )
    _king_move(state, chosen)
    _advance(state)


def _king_move(state: State, chosen: list[int]) -> None:
    """Move each chosen player's top two Minus cards onto their Plus stack, as a block."""
    for target in chosen:
        minus = state["minus"][target]
        block = minus[-KING_MOVE:]
        del minus[-KING_MOVE:]
        state["plus"][target].extend(block)


def _pass(state: State, seat: int, action: Action) -> None:
    players = state["players"]
    card, to = action["card"], at_table(action["to"], players)
    left = (seat + 1) % players
    require(to == left, "pass_left", f"Cards are passed to your left neighbour, seat {left}.")
    hand = state["hands"][seat]
    require(card in hand, "not_in_hand", f"The {card_name(card)} is not in your hand.")
    hand.remove(card)
    state["hands"][left].append(card)
    state["last_pass"] = {"from": seat, "to": left, "card": card}
    _end_turn(state, passed=True)
    if state["phase"] != "over":
        _advance(state)


_HANDLERS = {"play": _play, "swap": _swap, "king": _king, "pass": _pass}


# -- derived --------------------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    if state["phase"] == "over":
        return frozenset()
    return frozenset((state["current"],))


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    totals = list(state["totals"])
    return Outcome(
        scores=tuple(totals),
        winners=winners(totals),
        rounds=tuple(state["rounds"]),
        detail={"dealers": [r["dealer"] for r in state["rounds"]]},
    )
