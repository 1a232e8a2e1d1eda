"""Plus & Minus: every test vector of docs/rules/plus_minus.md section 8, plus properties."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import IllegalAction, MalformedAction, get_game
from games.base import State
from games.plus_minus.cards import DECK, POINTS, RANK, fits
from games.plus_minus.rules import split_face_up
from games.plus_minus.scoring import seat_breakdown
from tests.games.playout import random_playout

ENGINE = get_game("plus_minus")


# -- helpers ------------------------------------------------------------------------------------


def table(
    players: int,
    *,
    hands: list[list[str]],
    plus: list[list[str]],
    minus: list[list[str]],
    deck: list[str],
    current: int = 0,
    options: dict[str, Any] | None = None,
) -> State:
    """A mid-round state with the given cards; ``current`` has drawn and is about to play."""
    state = ENGINE.setup(players, 1, options)
    state.update(
        hands=hands,
        plus=plus,
        minus=minus,
        deck=deck,
        current=current,
        phase="play",
        plays_left=1,
        first_turn=False,
        turn={"seat": current, "drawn": 1, "plays": 0, "lost": 0},
        last_pass=None,
    )
    return state


def filler(used: list[str], count: int) -> list[str]:
    """``count`` plain cards (6-9, no effect) not in ``used``, for decks and spare hands."""
    spare = [c for c in DECK if c not in used and 6 <= RANK[c] <= 9]
    return spare[:count]


def play(card: str, seat: int, stack: str) -> dict[str, Any]:
    return {"type": "play", "card": card, "seat": seat, "stack": stack}


def all_cards(state: State) -> list[str]:
    cards = list(state["deck"])
    for seat in range(state["players"]):
        cards += state["hands"][seat] + state["plus"][seat] + state["minus"][seat]
    return cards


def cards_in(value: Any) -> Iterator[str]:
    """Every card string anywhere inside a JSON value."""
    if isinstance(value, str):
        if value in RANK:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)


def refused(state: State, seat: int, action: Any, code: str | None = None) -> IllegalAction:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    assert caught.value.message
    if not isinstance(caught.value, MalformedAction):
        assert caught.value.message[0].isupper() and caught.value.message.endswith(".")
    if code is not None:
        assert caught.value.code == code
    return caught.value


# -- points [SEED] ------------------------------------------------------------------------------

POINT_TABLE = {
    "A": 20,
    "2": 5,
    "3": 5,
    "4": 5,
    "5": 5,
    "6": 0,
    "7": 0,
    "8": 0,
    "9": 0,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}


@pytest.mark.parametrize("rank", POINT_TABLE)
def test_points_vector(rank: str) -> None:
    for suit in "SHDC":
        assert POINTS[rank + suit] == POINT_TABLE[rank]


def test_deck_is_52_cards_without_jokers() -> None:
    assert len(set(DECK)) == 52


# -- playability [SEED + PROPOSAL] ---------------------------------------------------------------

PLAYABILITY = [
    ("7", "6", True),
    ("5", "6", True),
    ("6", "6", True),
    ("8", "6", False),
    ("A", "9", True),
    ("K", "2", True),
    ("Q", "K", True),
    ("Q", "A", False),
    ("2", "A", True),
]


@pytest.mark.parametrize(
    ("top", "card", "legal"), PLAYABILITY, ids=[f"{t}-then-{c}" for t, c, _ in PLAYABILITY]
)
def test_playability_vector(top: str, card: str, legal: bool) -> None:
    assert fits(card + "S", [top + "H"]) is legal
    assert fits(card + "S", ["3D", top + "H"]) is legal  # only the top counts


def test_playability_empty_stack_takes_anything() -> None:
    assert fits("8S", [])
    assert all(fits(card, []) for card in DECK)


def test_playability_king_then_seven_then_nine() -> None:
    """A 7 played on a K: normal rules again, so a 9 no longer fits."""
    state = table(
        3,
        hands=[["7S", "9S", "8C"], ["6H", "6D"], ["7D", "7C"]],
        plus=[["KH"], ["QD"], ["JD"]],
        minus=[["2H"], ["2D"], ["3C"]],
        deck=filler(["7S", "9S", "8C", "6H", "6D", "7D", "7C"], 5),
    )
    assert play("9S", 0, "plus") in ENGINE.legal_actions(state, 0)
    state = ENGINE.apply(state, 0, play("7S", 0, "plus"))
    assert state["plus"][0] == ["KH", "7S"]
    assert not fits("9S", state["plus"][0])


def test_wild_top_holds_for_a_dealt_or_moved_ace_or_king() -> None:
    """D-4: an Ace or King on top takes anything, however it got there."""
    state = table(
        4,
        hands=[["KS", "9S"], ["6H"], ["6D"], ["6C"]],
        plus=[["QS"], ["4H"], ["4D"], ["4C"]],
        minus=[["8S"], ["3H", "AH"], ["3D", "KD"], ["2C"]],
        deck=filler(["KS", "9S", "6H", "6D", "6C"], 5),
    )
    state = ENGINE.apply(state, 0, play("KS", 0, "plus"))
    state = ENGINE.apply(state, 0, {"type": "king", "seats": [1, 2]})
    assert state["plus"][1][-1] == "AH" and state["plus"][2][-1] == "KD"
    assert fits("9S", state["plus"][1]) and fits("9S", state["plus"][2])


# -- setup and hand flow ---------------------------------------------------------------------------


def test_H1_higher_face_up_card_starts_plus() -> None:
    assert split_face_up("9S", "4H") == (["9S"], ["4H"])
    assert split_face_up("4H", "9S") == (["9S"], ["4H"])
    assert split_face_up("7H", "7S") in ((["7H"], ["7S"]), (["7S"], ["7H"]))
    for seed in range(20):
        state = ENGINE.setup(3 + seed % 4, seed)
        for seat in range(state["players"]):
            assert len(state["plus"][seat]) == len(state["minus"][seat]) == 1
            assert RANK[state["plus"][seat][0]] >= RANK[state["minus"][seat][0]]


@pytest.mark.parametrize(("players", "left"), [(3, 40), (4, 36), (5, 32), (6, 28)])
def test_H2_draw_stack_size(players: int, left: int) -> None:
    state = ENGINE.setup(players, 5)
    # the first player has already drawn their 2 cards
    assert len(state["deck"]) + 2 == left == 52 - 4 * players
    assert sorted(all_cards(state)) == sorted(DECK)


def _plain_first_turn_seed(players: int) -> int:
    """A seed whose first player can play a card without an effect (not a 5, 10 or King)."""
    for seed in range(200):
        state = ENGINE.setup(players, seed)
        legal = ENGINE.legal_actions(state, state["current"])
        if legal[0]["type"] == "play" and RANK[legal[0]["card"]] not in (5, 10, 13):
            return seed
    raise AssertionError("no plain first turn found")


def test_H3_first_turn_hand_flow() -> None:
    seed = _plain_first_turn_seed(4)
    state = ENGINE.setup(4, seed)
    first = state["current"]
    assert first == (state["dealer"] + 1) % 4
    assert state["first_turn"] and state["turn"]["drawn"] == 2
    assert len(state["hands"][first]) == 4  # 2 dealt + 2 drawn
    state = ENGINE.apply(state, first, ENGINE.legal_actions(state, first)[0])
    assert len(state["hands"][first]) == 3
    assert state["phase"] == "pass"
    state = ENGINE.apply(state, first, ENGINE.legal_actions(state, first)[0])
    assert len(state["hands"][first]) == 2


def test_H4_second_player_first_turn() -> None:
    seed = _plain_first_turn_seed(4)
    state = ENGINE.setup(4, seed)
    first = state["current"]
    second = (first + 1) % 4
    deck_before = len(state["deck"])
    state = ENGINE.apply(state, first, ENGINE.legal_actions(state, first)[0])
    state = ENGINE.apply(state, first, ENGINE.legal_actions(state, first)[0])
    assert state["current"] == second and not state["first_turn"]
    assert state["turn"]["drawn"] == 1
    assert len(state["deck"]) == deck_before - 1
    assert len(state["hands"][second]) == 4  # 2 dealt + 1 received + 1 drawn


# -- effects -----------------------------------------------------------------------------------


def test_X1_king_moves_top_two_minus_cards_onto_plus() -> None:
    hands = [["KS", "8S"], ["6H"], ["6D"], ["6C"]]
    state = table(
        4,
        hands=hands,
        plus=[["QS"], ["9H"], ["2D"], ["8C"]],
        minus=[["2S"], ["3H", "7H", "JH"], ["4D"], ["7C"]],
        deck=filler(["KS", "8S", "6H", "6D", "6C", "8C", "7C", "7H", "9H"], 5),
    )
    state = ENGINE.apply(state, 0, play("KS", 0, "plus"))
    assert state["phase"] == "king"
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "king", "seats": [1, 2]},
        {"type": "king", "seats": [1, 3]},
        {"type": "king", "seats": [2, 3]},
    ]
    state = ENGINE.apply(state, 0, {"type": "king", "seats": [1, 2]})
    assert state["minus"][1] == ["3H"] and state["plus"][1] == ["9H", "7H", "JH"]
    assert state["minus"][2] == [] and state["plus"][2] == ["2D", "4D"]
    assert state["minus"][3] == ["7C"] and state["plus"][3] == ["8C"]
    # D-5: the emptied Minus stack now takes any card
    assert state["phase"] == "pass"


def test_X1_king_with_three_players_takes_both_others() -> None:
    state = table(
        3,
        hands=[["KS", "8S"], ["6H"], ["6D"]],
        plus=[["QS"], ["9H"], ["2D"]],
        minus=[["2S"], ["3H", "7H", "QH"], ["4D"]],
        deck=filler(["KS", "8S", "6H", "6D", "7H", "9H"], 5),
    )
    state = ENGINE.apply(state, 0, play("KS", 1, "minus"))
    # the King itself sits on seat 1's Minus and moves with the card under it
    assert state["plus"][1] == ["9H", "QH", "KS"] and state["minus"][1] == ["3H", "7H"]
    assert state["plus"][2] == ["2D", "4D"] and state["minus"][2] == []
    assert state["plus"][0] == ["QS"] and state["minus"][0] == ["2S"]
    assert state["phase"] == "pass"


def test_empty_stack_takes_any_card() -> None:
    state = table(
        3,
        hands=[["8S", "9S"], ["6H"], ["6D"]],
        plus=[["2S"], ["2H"], ["2D"]],
        minus=[["QS"], ["QH"], []],
        deck=filler(["8S", "9S", "6H", "6D"], 5),
    )
    assert ENGINE.legal_actions(state, 0) == [play("8S", 2, "minus"), play("9S", 2, "minus")]


def test_X2_ten_swaps_two_stacks() -> None:
    state = table(
        3,
        hands=[["10S", "8S"], ["6H"], ["6D"]],
        plus=[["JS"], ["9H"], ["2D"]],
        minus=[["2S"], ["AH", "3H"], ["4D"]],
        deck=filler(["10S", "8S", "6H", "6D", "9H"], 5),
    )
    state = ENGINE.apply(state, 0, play("10S", 0, "plus"))
    assert state["plus"][0] == ["JS", "10S"]
    assert state["phase"] == "swap"
    swaps = ENGINE.legal_actions(state, 0)
    assert len(swaps) == 15  # every pair of the 6 stacks
    swap = {"type": "swap", "a_seat": 0, "a_stack": "plus", "b_seat": 1, "b_stack": "minus"}
    assert swap in swaps
    state = ENGINE.apply(state, 0, swap)
    assert state["plus"][0] == ["AH", "3H"]
    assert state["minus"][1] == ["JS", "10S"]
    assert state["phase"] == "pass"


def test_ten_swap_may_take_two_stacks_of_one_player_in_either_order() -> None:
    state = table(
        3,
        hands=[["10S", "8S"], ["6H"], ["6D"]],
        plus=[["JS"], ["9H"], ["2D"]],
        minus=[["2S"], ["AH", "3H"], ["4D"]],
        deck=filler(["10S", "8S", "6H", "6D", "9H"], 5),
    )
    state = ENGINE.apply(state, 0, play("10S", 0, "plus"))
    state = ENGINE.apply(
        state, 0, {"type": "swap", "a_seat": 1, "a_stack": "minus", "b_seat": 1, "b_stack": "plus"}
    )
    assert state["plus"][1] == ["AH", "3H"] and state["minus"][1] == ["9H"]


def _five_table(deck_size: int, hand: list[str]) -> State:
    used = [*hand, "6H", "6D", "QS", "KH", "2D", "AS", "JH", "3D"]
    return table(
        3,
        hands=[hand, ["6H"], ["6D"]],
        plus=[["QS"], ["KH"], ["2D"]],
        minus=[["AS"], ["JH"], ["3D"]],
        deck=filler(used, deck_size),
    )


def test_X3_five_with_three_cards_left() -> None:
    state = _five_table(3, ["5S", "4S", "8C"])
    top_two = list(reversed(state["deck"][-2:]))
    state = ENGINE.apply(state, 0, play("5S", 1, "plus"))
    assert len(state["deck"]) == 1
    assert all(card in state["hands"][0] for card in top_two)
    assert state["plays_left"] == 2 and state["phase"] == "play"
    while state["phase"] == "play":
        state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["phase"] == "pass" and state["current"] == 0
    assert state["turn"]["plays"] + state["turn"]["lost"] == 3  # the 5 and up to 2 more
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["round"] == 1 and state["rounds"] == []  # not the end: 1 card left
    assert state["current"] == 1 and len(state["deck"]) == 0  # seat 1 drew the last card


def test_X4_five_with_one_card_left_ends_the_round_after_the_turn() -> None:
    state = _five_table(1, ["5S", "4S", "8C"])
    state = ENGINE.apply(state, 0, play("5S", 1, "plus"))
    assert len(state["deck"]) == 0 and state["turn"]["drawn"] == 2  # 1 at start + 1 for the 5
    assert state["plays_left"] == 2
    while state["phase"] == "play":
        state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["round"] == 1 and state["phase"] == "pass"
    state = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["round"] == 2 and len(state["rounds"]) == 1


def _stuck_table(options: dict[str, Any] | None = None) -> State:
    """Seat 2 is about to pass; seat 0 will then hold nothing that fits any stack."""
    state = table(
        3,
        hands=[["6S", "7S"], ["JH"], ["9D"]],
        plus=[["QS"], ["QH"], ["QD"]],
        minus=[["2S"], ["2H"], ["3D"]],
        deck=filler(["6S", "7S", "JH", "9D"], 5),
        current=2,
        options=options,
    )
    state.update(phase="pass", plays_left=0, turn={"seat": 2, "drawn": 1, "plays": 1, "lost": 0})
    return state


def test_X5_no_playable_card_loses_the_play_but_passes() -> None:
    state = ENGINE.apply(_stuck_table(), 2, {"type": "pass", "card": "9D", "to": 0})
    assert state["current"] == 0 and len(state["hands"][0]) == 4  # 2 + 9D + 1 drawn
    assert state["phase"] == "pass" and state["turn"]["lost"] == 1 and state["plays_left"] == 0
    legal = ENGINE.legal_actions(state, 0)
    assert [a["type"] for a in legal] == ["pass"] * 4 and all(a["to"] == 1 for a in legal)
    state = ENGINE.apply(state, 0, {"type": "pass", "card": "7S", "to": 1})
    assert state["current"] == 1 and "7S" in state["hands"][1]
    assert state["last_turn"] == {"seat": 0, "drawn": 1, "plays": 0, "lost": 1, "passed": True}


def test_X5_option_no_pass_when_stuck() -> None:
    state = _stuck_table({"pass_when_stuck": False})
    state = ENGINE.apply(state, 2, {"type": "pass", "card": "9D", "to": 0})
    assert len(state["hands"][0]) == 4  # nothing passed on
    assert state["last_turn"] == {"seat": 0, "drawn": 1, "plays": 0, "lost": 1, "passed": False}
    assert state["current"] == 1


def test_extra_plays_that_are_impossible_are_lost() -> None:
    state = table(
        3,
        hands=[["5S", "9C"], ["6H"], ["6D"]],
        plus=[["4S"], ["QH"], ["QD"]],
        minus=[["2S"], ["2H"], ["2D"]],
        deck=["8D", "QC", "JC"],  # the 5 draws JC and QC: neither fits after the 5 is on 4S
    )
    state = ENGINE.apply(state, 0, play("5S", 0, "plus"))
    assert sorted(state["hands"][0]) == ["9C", "JC", "QC"]
    # JC fits the Q tops: extra plays go on while possible
    assert state["phase"] == "play"
    state = ENGINE.apply(state, 0, play("JC", 1, "plus"))
    state = ENGINE.apply(state, 0, play("QC", 1, "plus"))
    assert state["phase"] == "pass" and state["turn"] == {
        "seat": 0,
        "drawn": 3,
        "plays": 3,
        "lost": 0,
    }

    state = table(
        3,
        hands=[["5S", "9C"], ["6H"], ["6D"]],
        plus=[["4S"], ["2H"], ["2C"]],
        minus=[["2S"], ["3H"], ["3D"]],
        deck=["8D", "JC", "JD"],
    )
    state = ENGINE.apply(state, 0, play("5S", 0, "plus"))
    assert state["phase"] == "pass" and state["turn"]["lost"] == 2 and state["plays_left"] == 0


def test_five_chains_during_extra_plays() -> None:
    state = table(
        3,
        hands=[["5S", "5H", "9C"], ["6H"], ["6D"]],
        plus=[["4S"], ["KH"], ["QD"]],
        minus=[["2S"], ["2H"], ["2D"]],
        deck=filler(["5S", "5H", "9C", "6H", "6D"], 10),
    )
    state = ENGINE.apply(state, 0, play("5S", 0, "plus"))
    assert state["plays_left"] == 2 and len(state["deck"]) == 8
    state = ENGINE.apply(state, 0, play("5H", 0, "plus"))
    assert state["plays_left"] == 3 and len(state["deck"]) == 6  # 1 left + 2 more
    assert state["turn"]["drawn"] == 5


def test_five_with_empty_deck_still_gives_two_plays() -> None:
    state = _five_table(0, ["5S", "4S", "4C"])
    state = ENGINE.apply(state, 0, play("5S", 1, "plus"))
    assert state["plays_left"] == 2 and state["turn"]["drawn"] == 1


def test_one_pass_per_turn_after_all_plays() -> None:
    state = _five_table(5, ["5S", "4S", "8C"])
    state = ENGINE.apply(state, 0, play("5S", 1, "plus"))
    passes = 0
    while state["current"] == 0:
        action = ENGINE.legal_actions(state, 0)[0]
        if action["type"] == "pass":
            passes += 1
            assert state["plays_left"] == 0
        state = ENGINE.apply(state, 0, action)
    assert passes == 1


def test_empty_hand_passes_nothing() -> None:
    state = table(
        3,
        hands=[["5S"], ["6H"], ["6D"]],
        plus=[["4S"], ["KH"], ["QD"]],
        minus=[["2S"], ["2H"], ["2D"]],
        deck=[],
    )
    state = ENGINE.apply(state, 0, play("5S", 0, "plus"))
    # no card to draw, none to play or pass: the turn and, the deck being empty, the round end
    assert state["rounds"][0]["seats"][0]["hand"] == []
    assert state["rounds"][0]["seats"][0]["plus"] == ["4S", "5S"]
    assert state["round"] == 2


# -- scoring ---------------------------------------------------------------------------------------


def test_S1_round_score() -> None:
    entry = seat_breakdown(["9S", "5S", "AS", "KS"], ["4H", "10H"], ["2D"])
    assert (entry["plus_points"], entry["minus_points"], entry["hand_points"]) == (35, 15, 5)
    assert entry["score"] == 15


def test_S2_round_score() -> None:
    entry = seat_breakdown(["6S", "7S", "8S"], ["AH"], ["9D", "9C"])
    assert entry["score"] == -20


def test_stacks_count_where_they_sit_at_round_end() -> None:
    state = table(
        3,
        hands=[["10S"], ["6H"], ["6D"]],
        plus=[["JS"], ["9H"], ["2D"]],
        minus=[["2S"], ["AH", "AD"], ["4D"]],
        deck=[],
    )
    state = ENGINE.apply(state, 0, play("10S", 0, "plus"))
    state = ENGINE.apply(
        state, 0, {"type": "swap", "a_seat": 0, "a_stack": "plus", "b_seat": 1, "b_stack": "minus"}
    )
    scores = state["rounds"][0]["scores"]
    # seat 0: Plus A A = 40, Minus 2 = 5, empty hand; seat 1: Plus 9 = 0, Minus J 10 = 20, hand 0
    assert scores[0] == 35 and scores[1] == -20
    assert state["totals"][:2] == [35, -20]


def test_one_round_per_dealer_clockwise_and_totals_add_up() -> None:
    for players in (3, 4, 5, 6):
        trace = random_playout(ENGINE, players, 40 + players)
        final = trace.states[-1]
        outcome = ENGINE.outcome(final)
        assert outcome is not None
        dealers = [r["dealer"] for r in outcome.rounds]
        first = final["first_dealer"]
        assert dealers == [(first + i) % players for i in range(players)]
        assert sorted(dealers) == list(range(players))
        for seat in range(players):
            assert outcome.scores[seat] == sum(r["scores"][seat] for r in outcome.rounds)
        assert outcome.winners == tuple(
            s for s in range(players) if outcome.scores[s] == max(outcome.scores)
        )
        # each round's first turn is the dealer's left neighbour, drawing 2
        starts = [
            s
            for s in trace.states
            if s["first_turn"] and s["turn"]["plays"] == 0 and s["phase"] != "over"
        ]
        for s in starts:
            assert s["current"] == (s["dealer"] + 1) % players


def test_tie_is_a_shared_win() -> None:
    trace = random_playout(ENGINE, 4, 9)
    final = dict(trace.states[-1])
    final["totals"] = [30, -5, 30, 10]
    outcome = ENGINE.outcome(final)
    assert outcome is not None and outcome.winners == (0, 2)


# -- illegal actions -----------------------------------------------------------------------------


def _basic() -> State:
    return table(
        4,
        hands=[["7S", "KS", "10S", "2C"], ["6H"], ["6D"], ["6C"]],
        plus=[["8S"], ["JH"], ["KD"], ["QC"]],
        minus=[["3S"], ["2H"], ["3D"], ["4C"]],
        deck=filler(["7S", "KS", "10S", "2C", "6H", "6D", "6C", "8S"], 6),
    )


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    state = _basic()
    assert refused(state, 0, {"type": "pass", "card": "2C", "to": 1}, "expected_play")
    assert "must play" in refused(state, 0, {"type": "pass", "card": "2C", "to": 1}).message
    assert refused(state, 0, play("2C", 0, "plus"), "does_not_fit")
    assert refused(state, 0, play("AD", 0, "plus"), "not_in_hand")
    assert refused(state, 0, play("7S", 5, "plus"), "no_such_seat")  # a seat of a larger table
    refused(state, 0, play("7S", 9, "plus"), "malformed_action")  # of no table
    assert refused(state, 1, play("6H", 0, "plus"), "not_your_turn")
    refused(state, 0, {"type": "play", "card": "7S", "seat": 0, "stack": "middle"})
    refused(state, 0, {"type": "play", "card": "ZZ", "seat": 0, "stack": "plus"})
    refused(state, 0, {"type": "play", "card": "7S", "seat": True, "stack": "plus"})
    refused(
        state, 0, {"type": "swap", "a_seat": 0, "a_stack": "plus", "b_seat": 1, "b_stack": "plus"}
    )
    refused(state, 0, {"type": "king", "seats": [1, 2]}, "expected_play")
    refused(state, 0, {"type": "shuffle"}, "malformed_action")

    swapping = ENGINE.apply(state, 0, play("10S", 1, "plus"))
    same = {"type": "swap", "a_seat": 2, "a_stack": "minus", "b_seat": 2, "b_stack": "minus"}
    assert refused(swapping, 0, same, "same_stack")
    assert refused(swapping, 0, play("7S", 0, "plus"), "expected_swap")
    refused(swapping, 0, {"type": "swap", "a_seat": 0, "a_stack": "plus"})

    king = ENGINE.apply(state, 0, play("KS", 2, "plus"))
    assert refused(king, 0, {"type": "king", "seats": [0, 1]}, "choose_two_others")
    assert refused(king, 0, {"type": "king", "seats": [1, 1]}, "choose_two_others")
    refused(king, 0, {"type": "king", "seats": [1]}, "malformed_action")
    refused(king, 0, {"type": "king", "seats": [1, 2, 3]}, "malformed_action")
    assert refused(king, 0, {"type": "king", "seats": [1, 5]}, "no_such_seat")
    refused(king, 0, {"type": "king", "seats": "1,2"})

    passing = ENGINE.apply(state, 0, play("7S", 0, "plus"))
    assert passing["phase"] == "pass"
    assert refused(passing, 0, {"type": "pass", "card": "KS", "to": 3}, "pass_left")
    assert refused(passing, 0, {"type": "pass", "card": "7S", "to": 1}, "not_in_hand")
    assert refused(passing, 0, play("KS", 2, "plus"), "expected_pass")
    refused(passing, 0, {"type": "pass", "card": "KS"}, "malformed_action")


def test_messages_name_the_card_and_the_stack() -> None:
    message = refused(_basic(), 0, play("2C", 0, "plus")).message
    assert "2\u2663" in message and "seat 0's Plus stack (top 8\u2660)" in message


def test_after_the_end_everything_is_refused() -> None:
    final = random_playout(ENGINE, 3, 2).states[-1]
    assert ENGINE.legal_actions(final, 0) == []
    refused(final, 0, play("7S", 0, "plus"), "game_over")


# -- properties over random playouts ---------------------------------------------------------------


def _playouts() -> Iterator[tuple[int, list[State], list[tuple[int, dict[str, Any]]]]]:
    for seed in range(8):
        players = 3 + seed % 4
        options = {"pass_when_stuck": seed % 3 != 2}
        trace = random_playout(ENGINE, players, 500 + seed, options)
        yield players, trace.states, trace.actions


PLAYOUTS = list(_playouts())


def test_cards_are_conserved_at_every_state() -> None:
    for _, states, _ in PLAYOUTS:
        for state in states:
            assert sorted(all_cards(state)) == sorted(DECK)


def test_turn_invariants() -> None:
    for players, states, actions in PLAYOUTS:
        for state, (seat, action) in zip(states, actions, strict=False):
            assert ENGINE.to_act(state) == frozenset({state["current"]})
            assert seat == state["current"]
            if state["phase"] == "pass":
                assert state["plays_left"] == 0 and state["hands"][seat]
            if state["phase"] == "play":
                assert action["type"] == "play"  # must play when able
            assert 0 <= state["round"] <= players
        final = states[-1]
        assert final["deck"] == [] and len(final["rounds"]) == players


def test_X5_stuck_turns_happen_in_dealt_games() -> None:
    stuck = 0
    for _, states, _ in PLAYOUTS:
        for state in states:
            if state["phase"] == "pass" and state["turn"]["plays"] == 0:
                assert state["turn"]["lost"] == 1 and state["options"]["pass_when_stuck"]
                stuck += 1
            turn = state["last_turn"]
            if turn is not None and turn["plays"] == 0:
                assert turn["passed"] == state["options"]["pass_when_stuck"]
    assert stuck > 0


def test_views_show_only_stack_tops_and_sizes() -> None:
    for players, states, _ in PLAYOUTS:
        for state in states[::7]:
            for viewer in [None, *range(players)]:
                seen = ENGINE.view(state, viewer)
                allowed = set()
                for seat, entry in enumerate(seen["seats"]):
                    for name in ("plus", "minus"):
                        stack = state[name][seat]
                        assert entry[name] == {
                            "top": stack[-1] if stack else None,
                            "size": len(stack),
                        }
                        allowed.update(stack[-1:])
                    assert entry["hand_count"] == len(state["hands"][seat])
                if viewer is not None:
                    allowed.update(state["hands"][viewer])
                last_pass = state["last_pass"]
                if last_pass and viewer in (last_pass["from"], last_pass["to"]):
                    allowed.add(last_pass["card"])
                live = {k: v for k, v in seen.items() if k != "last_round"}
                assert set(cards_in(live)) <= allowed
                assert "rng" not in seen and "deck" not in seen


def test_passed_card_is_seen_only_by_giver_and_receiver() -> None:
    checked = 0
    for players, states, actions in PLAYOUTS:
        for after, (seat, action) in zip(states[1:], actions, strict=True):
            if action["type"] != "pass":
                continue
            receiver = (seat + 1) % players
            card = action["card"]
            for viewer in [None, *range(players)]:
                redacted = ENGINE.redact_action(action, seat, viewer)
                seen = ENGINE.view(after, viewer)
                live = {k: v for k, v in seen.items() if k != "last_round"}
                if viewer in (seat, receiver):
                    assert redacted == action
                    if after["last_pass"] == {"from": seat, "to": receiver, "card": card}:
                        assert seen["last_pass"]["card"] == card
                else:
                    assert redacted == {"type": "pass", "to": receiver}
                    if after["last_pass"] is not None:
                        assert "card" not in seen["last_pass"]
                    if card in after["hands"][receiver]:
                        assert card not in set(cards_in(live))
            checked += 1
    assert checked > 100


def test_other_actions_are_shown_to_everyone() -> None:
    action = play("7S", 1, "plus")
    assert ENGINE.redact_action(action, 0, None) == action
    assert ENGINE.redact_action(action, 0, 2) == action


def test_determinize_keeps_what_the_viewer_knows() -> None:
    rng = random.Random(3)
    pinned = 0
    for players, states, _ in PLAYOUTS[:4]:
        for state in states[1:-1:9]:
            for viewer in [None, *range(players)]:
                other = ENGINE.determinize(state, viewer, rng)
                assert sorted(all_cards(other)) == sorted(DECK)
                assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
                # every stack card was seen face up arriving where it is: none moves
                assert other["plus"] == state["plus"] and other["minus"] == state["minus"]
                last_pass = state["last_pass"]
                if (
                    last_pass is not None
                    and viewer == last_pass["from"]
                    and last_pass["card"] in state["hands"][last_pass["to"]]
                ):
                    assert last_pass["card"] in other["hands"][last_pass["to"]]
                    pinned += 1
                assert other["rng"] != state["rng"]
    assert pinned > 0


def test_determinize_moves_hidden_cards_only() -> None:
    _, states, _ = PLAYOUTS[1]
    state = states[len(states) // 3]
    other = ENGINE.determinize(state, 0, random.Random(1))
    assert other["hands"][0] == state["hands"][0]
    assert other["deck"] != state["deck"]


# -- the revealed view of replays -----------------------------------------------------------------


def without_revealed_parts(revealed: dict[str, Any]) -> dict[str, Any]:
    """The revealed view with what ``reveal`` adds taken out again."""
    plain = json.loads(json.dumps(revealed))
    for key in ("deck", "revealed"):
        del plain[key]
    for entry in plain["seats"]:
        del entry["hand"]
        del entry["plus"]["cards"], entry["minus"]["cards"]
    if plain["last_pass"] is not None:
        del plain["last_pass"]["card"]
    return plain


def test_reveal_shows_every_card_and_equals_the_spectator_view_otherwise() -> None:
    checked = 0
    for _, states, _ in PLAYOUTS:
        for state in [*states[::5], states[-1]]:
            revealed = ENGINE.reveal(state)
            assert without_revealed_parts(revealed) == ENGINE.view(state, None)
            for seat, entry in enumerate(revealed["seats"]):
                assert sorted(entry["hand"]) == sorted(state["hands"][seat])
                assert entry["hand_count"] == len(entry["hand"])
                for name in ("plus", "minus"):
                    assert entry[name]["cards"] == state[name][seat]
                    assert entry[name]["size"] == len(entry[name]["cards"])
            assert revealed["deck"] == state["deck"]
            assert revealed["draw_stack"] == len(revealed["deck"])
            if state["last_pass"] is not None:
                assert revealed["last_pass"]["card"] == state["last_pass"]["card"]
            places = [revealed["deck"]] + [
                entry[key]["cards"] if key != "hand" else entry[key]
                for entry in revealed["seats"]
                for key in ("hand", "plus", "minus")
            ]
            assert sorted(card for place in places for card in place) == sorted(DECK)
            assert "rng" not in revealed and str(state["rng"]["seed"]) not in json.dumps(revealed)
            checked += 1
    assert checked > 50 and len({players for players, _, _ in PLAYOUTS}) > 1
