"""Balance: every test vector of docs/rules/balance.md section 8, plus properties.

Vectors are named after their ids (M1-M8, K1-K3, G1-G5, S1-S9). Scenario states are built with
:func:`rig`, which takes a real ``setup`` state and puts chosen cards in the hands and stock.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games import REGISTRY, IllegalAction, InvalidOptions, MalformedAction
from games.balance import ENGINE
from games.balance.actions import legal_actions
from games.balance.cards import ALL_CARDS, VALUE, build_pack, card_name, is_joker, sort_hand
from games.balance.scoring import automaton_result, play_result
from games.base import Action, State, clone
from tests.games.playout import random_playout

NO_JOKERS = {"jokers_per_deck": 0}


def rig(
    players: int,
    hands: list[list[str]],
    *,
    stock: list[str] | None = None,
    balance: int = 0,
    current: int = 0,
    dealer: int | None = None,
    points: list[int] | None = None,
    eliminated: list[bool] | None = None,
    options: dict[str, Any] | None = None,
) -> State:
    """A state with the given hands, stock (top card last), balance and seat on turn."""
    state = clone(ENGINE.setup(players, 1, options))
    state["hands"] = [sorted(hand, key=ALL_CARDS.index) for hand in hands]
    state["stock"] = list(stock or [])
    state["balance"] = balance
    state["pile"] = []
    state["current"] = current
    state["drawn"] = None
    if dealer is not None:
        state["dealer"] = dealer
    if points is not None:
        state["points"] = list(points)
    if eliminated is not None:
        state["eliminated"] = list(eliminated)
    return state


def play(state: State, card: str, direction: int) -> State:
    return ENGINE.apply(
        state, state["current"], {"type": "play", "card": card, "direction": direction}
    )


def one_play(balance: int, card: str, direction: int) -> tuple[int, int]:
    """Balance after and points for seat 0 playing ``card`` on a two-player table."""
    state = rig(2, [[card, "2C"], ["3D", "4D"]], stock=["5S", "6S"], balance=balance)
    after = play(state, card, direction)
    assert after["last_play"]["before"] == balance
    assert after["round"] == 1 and after["current"] == 1
    return after["balance"], after["points"][0]


# -- multi-player scoring vectors (M1-M8) ------------------------------------------------------


def test_m1_six_added_to_four_costs_a_point() -> None:
    assert one_play(4, "6H", 1) == (10, -1)


def test_m2_six_subtracted_from_four() -> None:
    assert one_play(4, "6H", -1) == (-2, 0)


def test_m3_two_subtracted_from_minus_two() -> None:
    assert one_play(-2, "2S", -1) == (-4, 0)


def test_m4_two_added_to_minus_two_scores_zero() -> None:
    assert one_play(-2, "2S", 1) == (0, 1)


def test_m5_joker_subtracted_from_twenty_is_exempt() -> None:
    assert one_play(20, "XR", -1) == (10, 0)


@pytest.mark.parametrize("card", ["10S", "JH", "QD", "KC"])
@pytest.mark.parametrize("direction", [1, -1])
def test_m6_ten_value_card_from_zero_costs_a_point(card: str, direction: int) -> None:
    assert one_play(0, card, direction) == (10 * direction, -1)


def test_m7_joker_added_to_zero_is_exempt() -> None:
    assert one_play(0, "XB", 1) == (10, 0)


def test_m8_joker_reaching_zero_scores() -> None:
    assert one_play(10, "XR", -1) == (0, 1)


def test_every_nonjoker_play_beyond_nine_costs_again() -> None:
    """C-3: the balance has no limit, and each non-joker play that stays beyond 9 costs."""
    assert one_play(15, "AS", 1) == (16, -1)
    assert one_play(-30, "5S", 1) == (-25, -1)
    assert one_play(-12, "3S", 1) == (-9, 0)


def test_scoring_function_agrees_on_edges() -> None:
    assert play_result(0, "9S", 1) == (9, 0)
    assert play_result(0, "9S", -1) == (-9, 0)
    assert play_result(1, "9S", 1) == (10, -1)
    assert play_result(-1, "9S", -1) == (-10, -1)
    assert play_result(0, "AS", 1) == (1, 0)


# -- complements (K1-K3) ------------------------------------------------------------------------


def test_k1_two_players_four_and_six_are_complements() -> None:
    state = rig(2, [["4S", "6S", "2C"], ["10S", "KH", "3D"]])
    state = play(state, "4S", 1)
    state = play(state, "10S", -1)
    assert state["balance"] == -6
    state = play(state, "6S", 1)
    assert state["balance"] == 0
    assert state["tally"]["points"] == [1, 0]
    assert state["points"] == [1, 0]


def test_k2_three_players_equal_cards_are_complements() -> None:
    state = rig(3, [["3S", "3H", "2C"], ["10S", "4D"], ["10H", "5D"]])
    for card, direction, expected in [("3S", 1, 3), ("10S", -1, -7), ("10H", 1, 3), ("3H", -1, 0)]:
        state = play(state, card, direction)
        assert state["balance"] == expected
    assert state["points"] == [1, 0, 0]


def test_k3_balance_one_three_and_six_are_complements() -> None:
    state = rig(2, [["3S", "6S", "2C"], ["10S", "KH", "3D"]], balance=1)
    state = play(state, "3S", 1)
    assert state["balance"] == 4
    state = play(state, "10S", -1)
    assert state["balance"] == -6
    state = play(state, "6S", 1)
    assert state["balance"] == 0
    assert state["points"] == [1, 0]


# -- round and game flow (G1-G5) ----------------------------------------------------------------


def test_g1_two_players_one_deck_round_is_52_plays() -> None:
    state = ENGINE.setup(2, 11, NO_JOKERS)
    first = state["current"]
    assert first == (state["dealer"] + 1) % 2
    # dealt 10, stock 42; the first player has already drawn the top card
    assert len(state["stock"]) == 41 and state["drawn"] is not None
    assert len(state["hands"][first]) == 6 and len(state["hands"][1 - first]) == 5
    plays_after_stock: Counter[int] = Counter()
    plays = 0
    turn = first
    while state["round"] == 1 and ENGINE.outcome(state) is None:
        assert state["current"] == turn
        drew = state["drawn"] is not None
        assert drew == (plays < 42)
        if not drew:
            plays_after_stock[turn] += 1
        seat = state["current"]
        state = ENGINE.apply(state, seat, legal_actions(state, seat)[0])
        plays += 1
        turn = 1 - turn
    assert plays == 52
    assert plays_after_stock == {0: 5, 1: 5}
    assert state["rounds"][0]["round"] == 1


def _end_round_state(
    players: int, totals: list[int], *, dealer: int = 0, eliminated: list[bool] | None = None
) -> State:
    """A state one neutral play before the end of round 1 with the given totals after it."""
    hands: list[list[str]] = [[] for _ in range(players)]
    seat = next(s for s in range(players) if not (eliminated or [False] * players)[s])
    hands[seat] = ["2C"]
    return rig(
        players,
        hands,
        balance=3,
        current=seat,
        dealer=dealer,
        points=totals,
        eliminated=eliminated,
    )


def test_g2_win_check_comes_before_elimination() -> None:
    state = play(_end_round_state(3, [21, 19, -20]), "2C", 1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.scores == (21, 19, -20)
    assert outcome.detail["reason"] == "win"
    assert state["eliminated"] == [False, False, False]
    assert ENGINE.to_act(state) == frozenset()


def test_g3_player_at_minus_twenty_two_is_eliminated() -> None:
    state = play(_end_round_state(3, [12, -22, 3], dealer=0), "2C", 1)
    assert ENGINE.outcome(state) is None
    assert state["eliminated"] == [False, True, False]
    assert state["rounds"][-1]["eliminated"] == [1]
    assert state["round"] == 2
    assert state["dealer"] == 2  # the next active seat left of dealer 0 (seat 1 is out)
    assert state["hands"][1] == []
    assert [len(h) for h in state["hands"]] == [6, 0, 5]  # seat 0 is left of the dealer
    # the whole round is played by seats 0 and 2 only
    while state["round"] == 2 and ENGINE.outcome(state) is None:
        assert ENGINE.to_act(state) != frozenset({1})
        assert legal_actions(state, 1) == []
        seat = state["current"]
        state = ENGINE.apply(state, seat, legal_actions(state, seat)[0])


def test_g4_tie_at_twenty_plays_another_round() -> None:
    state = play(_end_round_state(2, [20, 20]), "2C", 1)
    assert ENGINE.outcome(state) is None
    assert state["rounds"][-1]["decision"] == "tie"
    assert state["round"] == 2
    assert state["eliminated"] == [False, False]
    assert all(len(hand) >= 5 for hand in state["hands"])


def test_g5_tie_at_the_top_still_eliminates_players_at_minus_twenty() -> None:
    """G5 (section 5, C-6, revised): A 20, B 20, C -25: C is out; A and B play another round."""
    state = play(_end_round_state(3, [20, 20, -25]), "2C", 1)
    assert ENGINE.outcome(state) is None
    assert state["rounds"][-1]["decision"] == "tie"
    assert state["rounds"][-1]["eliminated"] == [2]
    assert state["eliminated"] == [False, False, True]
    assert state["round"] == 2
    assert state["hands"][2] == [] and state["hands"][0] and state["hands"][1]
    while state["round"] == 2 and ENGINE.outcome(state) is None:
        assert legal_actions(state, 2) == []
        seat = state["current"]
        state = ENGINE.apply(state, seat, legal_actions(state, seat)[0])


def test_issue_case_five_players_tied_top_eliminates_all_at_minus_twenty() -> None:
    """Totals [-24, -21, 20, -23, 20] after a round: seats 0, 1 and 3 are out, 2 and 4 go on."""
    state = play(_end_round_state(5, [-24, -21, 20, -23, 20]), "2C", 1)
    assert ENGINE.outcome(state) is None
    assert state["eliminated"] == [True, True, False, True, False]
    assert ENGINE.to_act(state) <= frozenset({2, 4})


def test_tie_is_broken_by_the_next_round() -> None:
    state = play(_end_round_state(2, [22, 21]), "2C", 1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_last_survivor_wins() -> None:
    state = play(_end_round_state(3, [-5, -20, -31]), "2C", 1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.detail["reason"] == "last_survivor"
    assert outcome.detail["eliminated"] == [1, 2]


def test_all_eliminated_best_of_them_win_shared() -> None:
    state = play(_end_round_state(3, [-21, -21, -30]), "2C", 1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.detail["reason"] == "all_eliminated"


def test_dealer_moves_left_and_first_player_is_left_of_dealer() -> None:
    state = play(_end_round_state(4, [0, 0, 0, 0], dealer=3), "2C", 1)
    assert state["round"] == 2 and state["dealer"] == 0 and state["current"] == 1
    assert state["rounds"][-1]["dealer"] == 3


def test_empty_hands_are_skipped_after_the_stock_runs_out() -> None:
    """C-5: with the stock empty, a player without cards no longer takes turns."""
    state = rig(3, [["2C"], [], ["3C", "4C"]])
    state = play(state, "2C", 1)
    assert state["current"] == 2
    state = play(state, "3C", 1)
    assert state["current"] == 2


def test_round_cap_option_ends_with_best_total() -> None:
    state = play(_end_round_state(3, [5, 7, 7]), "2C", 1)
    assert ENGINE.outcome(state) is None
    capped = rig(3, [["2C"], [], []], balance=3, points=[5, 7, 7], options={"max_rounds": 1})
    outcome = ENGINE.outcome(play(capped, "2C", 1))
    assert outcome is not None
    assert outcome.winners == (1, 2)
    assert outcome.detail["reason"] == "round_cap"


def test_round_records_add_up_to_totals() -> None:
    trace = random_playout(ENGINE, 4, 5)
    outcome = ENGINE.outcome(trace.states[-1])
    assert outcome is not None
    for seat in range(4):
        assert sum(r["scores"][seat] for r in outcome.rounds) == outcome.scores[seat]
    assert [r["round"] for r in outcome.rounds] == list(range(1, len(outcome.rounds) + 1))


# -- solo (S1-S9) ---------------------------------------------------------------------------------


def solo(
    hand: list[str], *, stock: list[str] | None = None, balance: int = 0, points: int = 0
) -> State:
    return rig(1, [hand], stock=stock, balance=balance, points=[points])


def test_s1_start_card_sets_the_balance() -> None:
    seven = None
    for seed in range(200):
        state = ENGINE.setup(1, seed)
        start = state["pile"][0]
        assert start["kind"] == "start"
        assert state["balance"] == VALUE[start["card"]] > 0
        assert len(state["hands"][0]) == 6 and state["drawn"] is not None
        if start["card"].startswith("7"):
            seven = state
            break
    assert seven is not None and seven["balance"] == 7
    assert seven["mode"] == "solo" and seven["dealer"] is None


def test_s2_your_play_to_zero_scores() -> None:
    state = play(solo(["3S", "5H"], balance=3), "3S", -1)
    assert state["balance"] == 0 and state["points"] == [1]
    assert state["automaton"] is None  # the stock was empty: no automaton card


def test_s3_automaton_matching_card_costs_a_point() -> None:
    state = play(solo(["2S", "9H"], stock=["KD", "4C"], balance=2), "2S", 1)
    assert state["automaton"]["card"] == "4C"
    assert state["automaton"]["before"] == 4 and state["automaton"]["matched"]
    assert state["balance"] == 0 and state["points"] == [-1]
    assert state["drawn"] == "KD"  # your next turn drew the next card


def test_s4_automaton_matches_a_negative_balance() -> None:
    state = play(solo(["2S", "9H"], stock=["KD", "6D"], balance=-4), "2S", -1)
    assert state["automaton"]["before"] == -6
    assert state["balance"] == 0 and state["points"] == [-1]


def test_s5_automaton_pushes_a_negative_balance_down() -> None:
    state = play(solo(["2S", "9H"], stock=["KD", "2D"], balance=-4), "2S", -1)
    assert state["balance"] == -8 and state["points"] == [0]


def test_s6_automaton_adds_to_zero() -> None:
    state = play(solo(["3S", "9H"], stock=["KD", "5D"], balance=3), "3S", -1)
    assert state["last_play"]["after"] == 0
    assert state["balance"] == 5 and state["points"] == [1]


def test_s7_automaton_joker_zeroes_without_cost() -> None:
    state = play(solo(["XR", "9H"], stock=["KD", "XB"], balance=0), "XR", 1)
    assert state["automaton"]["before"] == 10 and state["automaton"]["matched"]
    assert state["balance"] == 0 and state["points"] == [0]


def test_s8_automaton_beyond_nine_has_no_penalty() -> None:
    state = play(solo(["3S", "9H"], stock=["KD", "8D"], balance=2), "3S", 1)
    assert state["automaton"]["before"] == 5
    assert state["balance"] == 13 and state["points"] == [0]


@pytest.mark.parametrize(("points", "won"), [(10, True), (9, False)])
def test_s9_win_at_ten_points(points: int, won: bool) -> None:
    state = play(solo(["5S"], balance=2, points=points), "5S", 1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (points,)
    assert outcome.detail["won"] is won
    assert outcome.winners == ((0,) if won else ())
    assert outcome.detail["reason"] == ("solo_win" if won else "solo_loss")
    assert outcome.rounds[0]["decision"] == outcome.detail["reason"]
    assert ENGINE.to_act(state) == frozenset()


def test_solo_automaton_function() -> None:
    assert automaton_result(4, "4C") == (0, -1, True)
    assert automaton_result(-6, "6C") == (0, -1, True)
    assert automaton_result(-6, "2C") == (-8, 0, False)
    assert automaton_result(0, "5C") == (5, 0, False)
    assert automaton_result(10, "XB") == (0, 0, True)
    assert automaton_result(10, "KS") == (0, -1, True)
    assert automaton_result(5, "8C") == (13, 0, False)


def test_solo_no_automaton_card_once_the_stock_is_empty() -> None:
    state = play(solo(["2S", "9H", "3C"], stock=["KD"], balance=0), "2S", 1)
    assert state["automaton"]["card"] == "KD" and state["stock"] == []
    assert state["drawn"] is None and state["hands"] == [["3C", "9H"]]
    state = play(state, "9H", -1)
    assert state["automaton"] is None and ENGINE.outcome(state) is None
    state = play(state, "3C", 1)
    assert ENGINE.outcome(state) is not None


# -- properties over random playouts -------------------------------------------------------------

PLAYOUT_CASES: list[tuple[int, dict[str, Any]]] = [
    (1, {}),
    (1, {"decks": 2, "jokers_per_deck": 0}),
    (2, {}),
    (2, {"jokers_per_deck": 0}),
    (3, {"jokers_per_deck": 1}),
    (4, {"decks": 2}),
    (6, {}),
    (10, {"jokers_per_deck": 0}),
]


def _signed(entry: dict[str, Any]) -> int:
    if entry["kind"] == "automaton":
        return entry["after"] - entry["before"]
    return entry["direction"] * VALUE[entry["card"]]


def check_invariants(state: State) -> None:
    options = state["options"]
    pack = Counter(build_pack(options["decks"], options["jokers_per_deck"]))
    held = Counter(state["stock"])
    for hand in state["hands"]:
        held.update(hand)
        assert hand == sorted(hand, key=ALL_CARDS.index)
    held.update(entry["card"] for entry in state["pile"])
    assert held == pack, "cards are not conserved"
    assert state["balance"] == sum(_signed(entry) for entry in state["pile"])
    for entry in state["pile"]:
        assert entry["before"] + _signed(entry) == entry["after"]
    points = [sum(r["scores"][s] for r in state["rounds"]) for s in range(state["players"])]
    if state["result"] is None:
        points = [p + t for p, t in zip(points, state["tally"]["points"], strict=True)]
    assert points == state["points"]
    for seat, out in enumerate(state["eliminated"]):
        if out:
            assert state["hands"][seat] == []
            assert state["points"][seat] <= -20
    if state["result"] is not None:
        assert state["current"] is None
        return
    current = state["current"]
    assert not state["eliminated"][current] and state["hands"][current]
    if state["stock"]:
        # while the stock lasts every active player holds five, the player on turn six
        for seat, hand in enumerate(state["hands"]):
            if not state["eliminated"][seat]:
                assert len(hand) == (6 if seat == current else 5)
        assert state["drawn"] in state["hands"][current]
    else:
        assert all(len(hand) <= 6 for hand in state["hands"])


@pytest.mark.parametrize(("players", "options"), PLAYOUT_CASES)
def test_random_playouts_end_and_keep_invariants(players: int, options: dict[str, Any]) -> None:
    for seed in range(6):
        trace = random_playout(ENGINE, players, 1000 + seed, options)
        previous: State | None = None
        for (seat, action), state in zip(trace.actions, trace.states[1:], strict=True):
            check_invariants(state)
            assert previous is None or seat == previous["current"]
            if previous is not None and state["round"] == previous["round"]:
                assert state["pile"][: len(previous["pile"])] == previous["pile"]
                played = [e for e in state["pile"] if e["kind"] == "play"]
                assert played[-1]["card"] == action["card"]
            previous = state
        outcome = ENGINE.outcome(trace.states[-1])
        assert outcome is not None and len(outcome.scores) == players
        if players > 1:
            _check_multi_result(trace.states[-1])


def _check_multi_result(final: State) -> None:
    outcome = ENGINE.outcome(final)
    assert outcome is not None
    reason = outcome.detail["reason"]
    points = final["points"]
    active = [s for s, out in enumerate(final["eliminated"]) if not out]
    if reason == "win":
        assert len(outcome.winners) == 1 and points[outcome.winners[0]] >= 20
    elif reason == "last_survivor":
        assert list(outcome.winners) == active
    elif reason == "all_eliminated":
        assert active == []
        newly = final["rounds"][-1]["eliminated"]
        assert set(outcome.winners) <= set(newly)
        assert {points[w] for w in outcome.winners} == {max(points[s] for s in newly)}


def test_turns_go_clockwise_skipping_eliminated_seats() -> None:
    trace = random_playout(ENGINE, 5, 77)
    for before, after in zip(trace.states, trace.states[1:], strict=False):
        if after["result"] is not None or after["round"] != before["round"]:
            continue
        seat, nxt, players = before["current"], after["current"], 5
        between = [(seat + k) % players for k in range(1, (nxt - seat) % players or players)]
        assert all(not after["hands"][s] for s in between)


def test_greedy_fallback_games_end_with_a_winner() -> None:
    """The turn-timer play (best score now) as every seat's bot: games end at 20 points."""
    for players in (2, 3):
        state = ENGINE.setup(players, 40 + players)
        for _ in range(5000):
            if ENGINE.outcome(state) is not None:
                break
            seat = state["current"]
            state = ENGINE.apply(state, seat, ENGINE.fallback_action(state, seat))
        outcome = ENGINE.outcome(state)
        assert outcome is not None and outcome.detail["reason"] == "win"
        assert max(outcome.scores) >= 20


# -- refusals -----------------------------------------------------------------------------------


def _refused(state: State, seat: int, action: Any) -> IllegalAction:
    snapshot = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == snapshot
    assert refused.value.message
    return refused.value


def test_card_not_in_hand_is_refused_in_words() -> None:
    state = rig(2, [["4S", "6S"], ["10H"]], stock=["2C"])
    error = _refused(state, 0, {"type": "play", "card": "10H", "direction": 1})
    assert error.code == "card_not_in_hand"
    assert error.message == "You do not hold the 10\u2665."
    assert not isinstance(error, MalformedAction)


def test_out_of_turn_is_refused() -> None:
    state = rig(2, [["4S", "6S"], ["10H"]], stock=["2C"])
    error = _refused(state, 1, {"type": "play", "card": "10H", "direction": 1})
    assert error.code == "not_your_turn"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "draw"},
        {"type": "play"},
        {"type": "play", "card": 7, "direction": 1},
        {"type": "play", "card": "1S", "direction": 1},
        {"type": "play", "card": "4S"},
        {"type": "play", "card": "4S", "direction": 0},
        {"type": "play", "card": "4S", "direction": 2},
        {"type": "play", "card": "4S", "direction": True},
        {"type": "play", "card": "4S", "direction": "+"},
        {"card": "4S", "direction": 1},
        ["play", "4S"],
    ],
)
def test_malformed_actions_are_refused(action: Any) -> None:
    state = rig(2, [["4S", "6S"], ["10H"]], stock=["2C"])
    error = _refused(state, 0, action)
    assert isinstance(error, MalformedAction)


def test_actions_after_the_end_are_refused() -> None:
    final = random_playout(ENGINE, 2, 3).states[-1]
    error = _refused(final, 0, {"type": "play", "card": "4S", "direction": 1})
    assert error.code == "game_over"
    assert all(legal_actions(final, seat) == [] for seat in range(2))


def test_legal_actions_list_each_distinct_card_both_ways() -> None:
    state = rig(2, [["4S", "4S", "XR", "XB"], ["10H"]], options={"decks": 2})
    assert legal_actions(state, 0) == [
        {"type": "play", "card": c, "direction": d} for c in ("4S", "XR", "XB") for d in (1, -1)
    ]
    assert legal_actions(state, 1) == []


def test_fallback_prefers_zero_then_staying_within_nine() -> None:
    state = rig(2, [["3S", "6S", "KD"], ["10H"]], balance=6)
    assert ENGINE.fallback_action(state, 0) == {"type": "play", "card": "6S", "direction": -1}
    state = rig(2, [["AS", "KD"], ["10H"]], balance=8)
    assert ENGINE.fallback_action(state, 0) == {"type": "play", "card": "KD", "direction": -1}
    state = rig(2, [["AS", "KD"], ["10H"]], balance=0)
    assert ENGINE.fallback_action(state, 0) == {"type": "play", "card": "AS", "direction": 1}


def test_redacting_an_action_hides_nothing() -> None:
    action: Action = {"type": "play", "card": "4S", "direction": 1}
    assert ENGINE.redact_action(action, 0, 1) == action


# -- options ------------------------------------------------------------------------------------


def test_options_and_player_counts() -> None:
    assert ENGINE.check_options({}, 2) == {"decks": 1, "jokers_per_deck": 2, "max_rounds": 0}
    assert ENGINE.info.min_players == 1 and ENGINE.info.max_players == 10
    assert 5 * ENGINE.info.max_players <= 52  # C-9 holds for every allowed table
    for bad in ({"decks": 0}, {"jokers_per_deck": 3}, {"max_rounds": -1}, {"mode": "solo"}):
        with pytest.raises(InvalidOptions):
            ENGINE.check_options(bad, 2)
    with pytest.raises(InvalidOptions):
        ENGINE.check_options({}, 11)
    assert REGISTRY["balance"] is ENGINE


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 1), (2, 2), (4, 2)])
def test_pack_size_follows_the_options(decks: int, jokers: int) -> None:
    state = ENGINE.setup(3, 9, {"decks": decks, "jokers_per_deck": jokers})
    cards = len(state["stock"]) + sum(len(h) for h in state["hands"])
    assert cards == decks * (52 + jokers)
    assert sum(is_joker(c) for c in build_pack(decks, jokers)) == decks * jokers


def test_card_helpers() -> None:
    hand = ["XB", "KD", "AS", "10C", "2H"]
    sort_hand(hand)
    assert hand == ["AS", "2H", "10C", "KD", "XB"]
    assert [VALUE[c] for c in hand] == [1, 2, 10, 10, 10]
    assert card_name("XR") == "joker" and card_name("QS") == "Q\u2660"


# -- views and determinize ------------------------------------------------------------------------


def test_view_of_a_seated_player() -> None:
    state = ENGINE.setup(3, 21, NO_JOKERS)
    me = state["current"]
    other = (me + 1) % 3
    mine = ENGINE.view(state, me)
    assert mine["hand"] == state["hands"][me] and mine["drawn"] == state["drawn"]
    assert mine["to_move"] == me and mine["phase"] == "playing" and mine["mode"] == "multi"
    assert mine["hand_counts"] == [len(h) for h in state["hands"]]
    assert mine["stock"] == len(state["stock"])
    assert mine["rules"] == {"limit": 9, "win_points": 20, "out_points": -20}
    theirs = ENGINE.view(state, other)
    assert theirs["drawn"] is None and theirs["hand"] == state["hands"][other]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["drawn"] is None
    assert "rng" not in json.dumps(spectator)


def test_views_never_show_hidden_cards() -> None:
    """With one deck and no jokers every code is unique, so a hidden code must not appear."""
    trace = random_playout(ENGINE, 3, 8, NO_JOKERS)
    for state in trace.states[::7]:
        for viewer in (None, 0, 1, 2):
            text = json.dumps(ENGINE.view(state, viewer))
            hidden = list(state["stock"])
            for seat in range(3):
                if seat != viewer:
                    hidden.extend(state["hands"][seat])
            assert not [c for c in hidden if f'"{c}"' in text]


def test_solo_view_shows_the_automaton_card() -> None:
    state = play(solo(["2S", "9H"], stock=["KD", "4C"], balance=2), "2S", 1)
    shown = ENGINE.view(state, 0)
    assert shown["mode"] == "solo" and shown["rules"] == {"limit": 9, "target": 10}
    assert shown["automaton"]["card"] == "4C" and shown["pile"][-1]["kind"] == "automaton"
    assert shown["drawn"] == "KD" and shown["dealer"] is None


@pytest.mark.parametrize("players", [1, 2, 4])
def test_reveal_shows_every_hand_and_otherwise_equals_the_spectator_view(players: int) -> None:
    trace = random_playout(ENGINE, players, 13, NO_JOKERS)
    for state in [*trace.states[:: max(1, len(trace.states) // 6)], trace.states[-1]]:
        revealed = ENGINE.reveal(state)
        spectator = ENGINE.view(state, None)
        assert revealed["hands"] == state["hands"]
        assert revealed["stock_cards"] == state["stock"][::-1]  # next card first
        assert revealed["drawn"] == state["drawn"]
        extra = {"hands", "stock_cards", "drawn"}
        assert {k: v for k, v in revealed.items() if k not in extra} == {
            k: v for k, v in spectator.items() if k not in extra
        }
        assert set(revealed) == set(spectator) | {"hands", "stock_cards"}
        assert "rng" not in revealed and "seed" not in revealed
        if state["round"] == 1 and state["result"] is None:  # every card of the pack is shown
            seen = [*revealed["stock_cards"], *(c for hand in revealed["hands"] for c in hand)]
            seen += [entry["card"] for entry in revealed["pile"]]
            assert Counter(seen) == Counter(build_pack(1, 0))


def test_determinize_redeals_only_hidden_cards() -> None:
    state = random_playout(ENGINE, 4, 31).states[20]
    for viewer in (None, 0, 1, 2, 3):
        other = ENGINE.determinize(state, viewer, random.Random(5))
        check_invariants(other)
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
        for seat in range(4):
            assert len(other["hands"][seat]) == len(state["hands"][seat])
        if viewer is not None:
            assert other["hands"][viewer] == state["hands"][viewer]
        assert other["stock"] != state["stock"]
        assert other["rng"] != state["rng"]
