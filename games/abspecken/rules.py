"""Setup, whose turn it is, and applying actions (spec sections 3, 4 and 6).

The state is a plain JSON dict::

    players, rng, options, phase, round, playthrough, roller,
    dice      {"d1", "d2", "forbidden", "piggy"} or None; piggy is None, "pm1".."pm3",
              "smile" or "grim"
    piles     per seat, six counts (index 0 holds the 1s)          public
    hands     per seat, sorted card values                         secret
    discards  per seat, oldest first, top = last                   public
    totals    per seat, penalty points so far                      public
    pending   per seat, the secret pick/decision not yet revealed  secret
    commits   seats in the order their decisions arrived           public
    takers    seats still to take a card this playthrough          public
    giving    {"taker", "source"} while a source chooses a card, else None
    refilling seats still to choose their refill                   public
    known     per seat, the seats that know that hand exactly (by deduction)
    public    per seat, whether everybody (spectators too) can deduce that hand
    seen      per seat, cards everyone saw go into that hand (refills, the grim piggy's card)
              that must still be there, sorted: what is public of a hand no longer deducible
    log       the current playthrough's events; previous: the last finished one
    rounds    per-round breakdowns

Hands are hidden but usually deducible: piles are public, so everything a player draws is
known. Only cards passed between players (the smiling piggy's gift, a taken card) are
secret to the two players involved; ``known``/``public`` track that for ``determinize``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.abspecken import actions as act
from games.abspecken import discards, phases, scoring
from games.abspecken.actions import sums_for
from games.abspecken.cards import HAND_SIZE, add, contains, counts_of, full_piles, remove
from games.base import (
    Action,
    IllegalAction,
    Outcome,
    Seat,
    State,
    draw_rng,
    new_rng_state,
    require,
)

#: Take order: clockwise from the roller, or the order the "cannot" declarations arrived.
CLOCKWISE = "clockwise"
SPEED = "speed"
#: Which card a taker receives: a blind random draw, or one the source chooses.
RANDOM = "random"
SOURCE_CHOOSES = "source_chooses"
#: The smiling piggy's gift: compulsory only when the roller cannot discard (the seed's
#: reading), always optional, or always compulsory (option ``smile_gift``).
GIFT_SEED = "seed"
GIFT_OPTIONAL = "optional"
GIFT_MANDATORY = "mandatory"


def setup(players: int, seed: int, options: Mapping[str, Any]) -> State:
    state: State = {
        "players": players,
        "rng": new_rng_state(seed),
        "options": dict(options),
        "phase": phases.PICK,
        "round": 0,
        "playthrough": 0,
        "roller": 0,
        "dice": None,
        "piles": [],
        "hands": [],
        "discards": [],
        "totals": [0] * players,
        "pending": [None] * players,
        "commits": [],
        "takers": [],
        "giving": None,
        "refilling": [],
        "known": [],
        "public": [],
        "seen": [],
        "log": None,
        "previous": None,
        "rounds": [],
    }
    first = options["first_roller"]
    state["roller"] = draw_rng(state).randrange(players) if first < 0 else first
    start_round(state)
    return state


def to_act(state: State) -> frozenset[Seat]:
    phase = state["phase"]
    if phase in phases.SECRET:
        return frozenset(seat for seat, p in enumerate(state["pending"]) if p is None)
    if phase in (phases.PIGGY, phases.GIFT):
        return frozenset((state["roller"],))
    if phase == phases.TAKE:
        return frozenset(state["takers"][:1])
    if phase == phases.GIVE:
        return frozenset((state["giving"]["source"],))
    if phase == phases.REFILL:
        return frozenset(state["refilling"])
    return frozenset()


def outcome(state: State) -> Outcome | None:
    if state["phase"] != phases.OVER:
        return None
    totals = state["totals"]
    return Outcome(
        scores=tuple(-float(total) for total in totals),
        winners=scoring.winners(totals),
        rounds=tuple(state["rounds"]),
        detail={
            "penalties": list(totals),
            "end_threshold": state["options"]["end_threshold"],
            "rounds_played": len(state["rounds"]),
        },
    )


def apply(state: State, seat: Seat, action: Action) -> State:
    """The state after ``seat`` (known to be on turn) plays ``action``; its shape is checked
    here, as it is parsed."""
    move = act.from_wire(action)
    phase = state["phase"]
    kind = act.KIND[type(move)]
    if kind not in act.PHASE_ACTIONS.get(phase, ()):
        raise IllegalAction("wrong_phase", _wrong_phase_message(phase, kind))
    handler = _HANDLERS[kind]
    new = working_copy(state)
    handler(new, seat, move)
    return new


def working_copy(state: State) -> State:
    """A copy of ``state`` that ``apply`` may change: every part it mutates in place is new.

    Parts that are only ever replaced whole (options, the previous playthrough, finished
    round records, revealed decisions) are shared; this is much cheaper than a deep clone.
    """
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["piles"] = [list(piles) for piles in state["piles"]]
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["discards"] = [list(pile) for pile in state["discards"]]
    new["totals"] = list(state["totals"])
    new["pending"] = list(state["pending"])
    new["commits"] = list(state["commits"])
    new["takers"] = list(state["takers"])
    new["refilling"] = list(state["refilling"])
    new["known"] = list(state["known"])
    new["public"] = list(state["public"])
    new["seen"] = list(state["seen"])
    new["rounds"] = list(state["rounds"])
    log = state["log"]
    if log is not None:
        new["log"] = {**log, "takes": list(log["takes"]), "refills": list(log["refills"])}
    return new


# -- phase flow (all helpers mutate a state the caller owns) ---------------------------------


def start_round(state: State) -> None:
    players = state["players"]
    state["round"] += 1
    state["playthrough"] = 0
    state["phase"] = phases.PICK
    state["dice"] = None
    state["piles"] = [full_piles() for _ in range(players)]
    state["hands"] = [[] for _ in range(players)]
    state["discards"] = [[] for _ in range(players)]
    state["pending"] = [None] * players
    state["commits"] = []
    state["takers"] = []
    state["giving"] = None
    state["refilling"] = []
    state["known"] = [list(range(players)) for _ in range(players)]
    state["public"] = [True] * players
    state["seen"] = [[] for _ in range(players)]
    if state["log"] is not None:
        state["previous"] = state["log"]
    state["log"] = None


def start_playthrough(state: State) -> None:
    """Open the next playthrough; the roller may first choose the Piggy die (4.1)."""
    open_playthrough(state)
    if piggy_offered(state):
        state["phase"] = phases.PIGGY
    else:
        roll(state, use_piggy=False)


def piggy_offered(state: State) -> bool:
    """With the extension, the roller may add the Piggy die once their discard pile has a card."""
    return bool(state["options"]["piggy_die"] and state["discards"][state["roller"]])


def open_playthrough(state: State) -> None:
    """Number the playthrough and start its record; the dice are not rolled yet."""
    players = state["players"]
    state["playthrough"] += 1
    if state["log"] is not None:
        state["previous"] = state["log"]
    state["log"] = {
        "round": state["round"],
        "playthrough": state["playthrough"],
        "roller": state["roller"],
        "dice": None,
        "piggy_used": False,
        "gift": None,
        "grim": None,
        "decisions": None,
        "takes": [],
        "refills": [None] * players,
    }
    state["dice"] = None
    state["pending"] = [None] * players
    state["commits"] = []
    state["takers"] = []
    state["giving"] = None
    state["refilling"] = []


def roll(state: State, *, use_piggy: bool) -> None:
    """Roll the eye dice, the colour die and (if used) the Piggy die; then resolve it."""
    rng = draw_rng(state)
    dice = {
        "d1": rng.randint(1, 6),
        "d2": rng.randint(1, 6),
        "forbidden": rng.randint(1, 6),
        "piggy": rng.choice(discards.PIGGY_FACES) if use_piggy else None,
    }
    resolve_roll(state, dice)


def resolve_roll(state: State, dice: dict[str, Any]) -> None:
    """Put a roll on the table and apply the Piggy die's immediate effect (4.3)."""
    roller = state["roller"]
    state["dice"] = dict(dice)
    state["log"]["dice"] = dict(dice)
    state["log"]["piggy_used"] = dice["piggy"] is not None
    if dice["piggy"] == "grim" and state["discards"][roller]:
        card = state["discards"][roller].pop()
        state["hands"][roller] = add(state["hands"][roller], [card])
        state["seen"][roller] = add(state["seen"][roller], [card])
        state["log"]["grim"] = card
    if dice["piggy"] == "smile" and state["hands"][roller]:
        state["phase"] = phases.GIFT
        return
    start_decide(state)


def start_decide(state: State) -> None:
    """Everyone decides in secret, except a player with no card left in hand or piles (a
    smiling-piggy gift can empty the roller, spec 4.3): a finisher, who cannot discard and
    takes nothing, so their "cannot" is filled in and they wait for the playthrough's end."""
    state["phase"] = phases.DECIDE
    state["pending"] = [
        {"type": act.CANNOT} if is_finished(state, seat) else None
        for seat in range(state["players"])
    ]
    state["commits"] = []


def is_finished(state: State, seat: Seat) -> bool:
    """No card left in hand or piles: the player has finished the round (spec 4.8)."""
    return not state["hands"][seat] and not any(state["piles"][seat])


def reveal(state: State) -> None:
    """Apply every decision at once (4.5), then line up the takers (4.6)."""
    players = state["players"]
    decisions = state["pending"]
    for seat, decision in enumerate(decisions):
        if decision["type"] == act.DISCARD:
            state["hands"][seat] = remove(state["hands"][seat], decision["cards"])
            if state["seen"][seat]:
                state["seen"][seat] = _unseen(state["seen"][seat], decision["cards"])
            state["discards"][seat].extend(decision["cards"])
    state["log"]["decisions"] = decisions
    state["pending"] = [None] * players
    cannot = [
        seat
        for seat in range(players)
        if decisions[seat]["type"] == act.CANNOT and not is_finished(state, seat)
    ]
    if state["options"]["take_order"] == SPEED:
        order = [seat for seat in state["commits"] if seat in cannot]
    else:
        roller = state["roller"]
        order = [(roller + step) % players for step in range(players)]
        order = [seat for seat in order if seat in cannot]
    state["takers"] = order
    next_taker(state)


def next_taker(state: State) -> None:
    """Move to the next player who can take; a taker with no eligible source takes nothing."""
    while state["takers"]:
        taker = state["takers"][0]
        if act.sources_for(state, taker):
            state["phase"] = phases.TAKE
            return
        state["log"]["takes"].append({"taker": taker, "source": None, "card": None})
        state["takers"].pop(0)
    after_takes(state)


def transfer(state: State, source: Seat, target: Seat, card: int) -> None:
    """A card passes secretly from one hand to another; only those two know which."""
    state["hands"][source] = remove(state["hands"][source], [card])
    state["hands"][target] = add(state["hands"][target], [card])
    known = state["known"]
    known_source = known[source]
    known_target = known[target]
    known[source] = sorted({source} | ({target} & set(known_source)))
    known[target] = sorted({target} | ({source} & set(known_target)))
    state["public"][source] = False
    state["public"][target] = False
    state["seen"][source] = []  # outsiders do not know which card left


def after_takes(state: State) -> None:
    """End the round if someone has no cards left (4.8); otherwise refill (4.7)."""
    finishers = [seat for seat in range(state["players"]) if is_finished(state, seat)]
    if finishers:
        end_round(state, finishers)
        return
    state["phase"] = phases.REFILL
    state["takers"] = []
    state["giving"] = None
    waiting = []
    for seat in range(state["players"]):
        need = act.refill_need(state, seat)
        if not need:
            continue
        choices = discards.draws(tuple(state["piles"][seat]), need)
        if len(choices) == 1:
            draw(state, seat, choices[0])
        else:
            waiting.append(seat)
    state["refilling"] = waiting
    if not waiting:
        next_playthrough(state)


def draw(state: State, seat: Seat, cards: tuple[int, ...] | list[int]) -> None:
    """Move cards from a player's own piles to their hand (public: the piles are open)."""
    piles = state["piles"][seat]
    for card in cards:
        piles[card - 1] -= 1
    state["hands"][seat] = add(state["hands"][seat], cards)
    state["seen"][seat] = add(state["seen"][seat], cards)
    state["log"]["refills"][seat] = sorted(cards)


def _unseen(seen: list[int], gone: list[int]) -> list[int]:
    """What is still surely in a hand after ``gone`` left it: one card of ``seen`` fewer for
    each card of the same value that left (the one that left may have been the seen one)."""
    rest = list(seen)
    for card in gone:
        if card in rest:
            rest.remove(card)
    return rest


def next_playthrough(state: State) -> None:
    state["refilling"] = []
    state["roller"] = (state["roller"] + 1) % state["players"]
    start_playthrough(state)


def end_round(state: State, finishers: list[Seat]) -> None:
    breakdown = scoring.round_breakdown(state, finishers)
    state["totals"] = breakdown["totals"]
    state["rounds"].append(breakdown)
    state["takers"] = []
    state["giving"] = None
    state["refilling"] = []
    state["pending"] = [None] * state["players"]
    if scoring.is_game_over(state["totals"], state["options"]["end_threshold"]):
        state["phase"] = phases.OVER
        state["dice"] = None
        return
    state["roller"] = (state["roller"] + 1) % state["players"]
    start_round(state)


# -- one handler per action type ------------------------------------------------------------


def _pick(state: State, seat: Seat, move: act.Pick) -> None:
    require(
        len(move.cards) == HAND_SIZE,
        "wrong_count",
        f"Pick exactly {HAND_SIZE} cards for your opening hand, not {len(move.cards)}.",
    )
    require(
        contains(state["piles"][seat], move.cards),
        "not_in_piles",
        "Your draw piles do not hold those cards: each value has only 4 cards.",
    )
    state["pending"][seat] = {"type": act.PICK, "cards": sorted(move.cards)}
    if all(p is not None for p in state["pending"]):
        for player, pick in enumerate(state["pending"]):
            piles = state["piles"][player]
            for card in pick["cards"]:
                piles[card - 1] -= 1
            state["hands"][player] = list(pick["cards"])
        state["pending"] = [None] * state["players"]
        start_playthrough(state)


def _roll(state: State, seat: Seat, move: act.Roll) -> None:
    roll(state, use_piggy=move.piggy)


def _gift(state: State, seat: Seat, move: act.Gift) -> None:
    players = state["players"]
    require(
        0 <= move.to < players and move.to != seat,
        "bad_recipient",
        "Give the card to another player at the table.",
    )
    require(
        move.card in state["hands"][seat],
        "not_in_hand",
        f"You have no {move.card} in your hand to give away.",
    )
    transfer(state, seat, move.to, move.card)
    state["log"]["gift"] = {"from": seat, "to": move.to, "card": move.card}
    start_decide(state)


def _no_gift(state: State, seat: Seat, move: act.NoGift) -> None:
    if act.gift_required(state, seat):
        reason = (
            "you cannot discard with these dice"
            if state["options"]["smile_gift"] == GIFT_SEED
            else "the gift is compulsory at this table"
        )
        raise IllegalAction(
            "gift_required", f"The smiling piggy says give: {reason}. Give one of your cards away."
        )
    start_decide(state)


def _discard(state: State, seat: Seat, move: act.Discard) -> None:
    cards = move.cards
    dice = state["dice"]
    forbidden = dice["forbidden"]
    require(
        contains(counts_of(state["hands"][seat]), cards),
        "not_in_hand",
        "You do not hold all of those cards.",
    )
    require(
        forbidden not in cards,
        "forbidden_value",
        f"The colour die forbids discarding {forbidden}s this playthrough.",
    )
    if move.option == discards.DIE:
        require(
            len(cards) == 1,
            "die_one_card",
            "Discarding by one die allows exactly one card.",
        )
        require(
            cards[0] in (dice["d1"], dice["d2"]),
            "die_mismatch",
            f"A single card must match one die: {dice['d1']} or {dice['d2']}.",
        )
    else:
        sums = sums_for(state, seat)
        wanted = " or ".join(str(t) for t in sums)
        require(
            sum(cards) in sums,
            "sum_mismatch",
            f"Your cards add up to {sum(cards)}, but they must add up to {wanted}.",
        )
    _commit(state, seat, {"type": act.DISCARD, "option": move.option, "cards": list(cards)})


def _cannot(state: State, seat: Seat, move: act.Cannot) -> None:
    require(
        not act.discard_options(state, seat),
        "can_discard",
        "You can discard with these dice, so you must: declaring 'cannot' is not allowed.",
    )
    _commit(state, seat, {"type": act.CANNOT})


def _commit(state: State, seat: Seat, decision: dict[str, Any]) -> None:
    state["pending"][seat] = decision
    state["commits"].append(seat)
    if all(p is not None for p in state["pending"]):
        reveal(state)


def _take(state: State, seat: Seat, move: act.Take) -> None:
    sources = act.sources_for(state, seat)
    require(
        move.source in sources,
        "bad_source",
        "You can only take a card from a player who discarded this playthrough and still "
        "holds a card.",
    )
    if state["options"]["take_choice"] == SOURCE_CHOOSES:
        state["giving"] = {"taker": seat, "source": move.source}
        state["phase"] = phases.GIVE
        return
    hand = state["hands"][move.source]
    card = hand[draw_rng(state).randrange(len(hand))]
    _hand_over(state, move.source, seat, card)


def _give(state: State, seat: Seat, move: act.Give) -> None:
    taker = state["giving"]["taker"]
    require(move.to == taker, "bad_recipient", f"The card goes to seat {taker}, who is taking.")
    require(
        move.card in state["hands"][seat],
        "not_in_hand",
        f"You have no {move.card} in your hand to give.",
    )
    state["giving"] = None
    _hand_over(state, seat, taker, move.card)


def _hand_over(state: State, source: Seat, taker: Seat, card: int) -> None:
    transfer(state, source, taker, card)
    state["log"]["takes"].append({"taker": taker, "source": source, "card": card})
    state["takers"].pop(0)
    next_taker(state)


def _refill(state: State, seat: Seat, move: act.Refill) -> None:
    need = act.refill_need(state, seat)
    require(
        len(move.cards) == need,
        "wrong_count",
        f"Take exactly {need} card{'s' if need != 1 else ''} to get back to {HAND_SIZE}.",
    )
    require(
        contains(state["piles"][seat], move.cards),
        "not_in_piles",
        "Your draw piles do not hold those cards.",
    )
    draw(state, seat, move.cards)
    state["refilling"].remove(seat)
    if not state["refilling"]:
        next_playthrough(state)


_HANDLERS: dict[str, Any] = {
    act.PICK: _pick,
    act.ROLL: _roll,
    act.GIFT: _gift,
    act.NO_GIFT: _no_gift,
    act.DISCARD: _discard,
    act.CANNOT: _cannot,
    act.TAKE: _take,
    act.GIVE: _give,
    act.REFILL: _refill,
}

_PHASE_WORDS: dict[str, str] = {
    phases.PICK: "everyone is picking an opening hand",
    phases.PIGGY: "the roller is deciding whether to use the Piggy die",
    phases.GIFT: "the roller may give a card away (smiling piggy)",
    phases.DECIDE: "everyone is choosing what to discard",
    phases.TAKE: "players who could not discard are taking cards",
    phases.GIVE: "a player is choosing which card to hand over",
    phases.REFILL: "players are topping their hands up to five",
}


def _wrong_phase_message(phase: str, kind: str) -> str:
    return f"You cannot {kind.replace('_', ' ')} now: {_PHASE_WORDS.get(phase, 'not now')}."
