"""Abstrac: every test vector of docs/rules/abstrac.md (T1-T13), rules, views and properties."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalAction, InvalidOptions, MalformedAction
from games.abstrac import ENGINE
from games.abstrac.cards import DECK, RANK_INDEX, RANKS, SUITS, rank_of, suit_of
from games.abstrac.scoring import (
    SEQUENCE_POINTS,
    combo,
    deal_record,
    deal_scores,
    groups,
    is_decided,
)
from games.base import Action, State
from tests.games.playout import Trace, random_playout

VIEW_KEYS = {
    "phase",
    "deal",
    "dealer",
    "target",
    "row",
    "taken",
    "combo",
    "groups",
    "totals",
    "to_move",
    "deals",
    "last_deal",
}


# -- helpers -------------------------------------------------------------------------------


def cards(text: str) -> list[str]:
    return text.split()


def take(count: int) -> Action:
    return {"type": "take", "count": count}


def order(first: bool) -> Action:
    return {"type": "order", "first": first}


def laid_out(
    row: list[str],
    *,
    dealer: int = 0,
    totals: tuple[int, int] = (0, 0),
    target: int = 500,
    seed: int = 1,
) -> State:
    """A fresh deal (choose-order phase) with a chosen layout, dealer and totals."""
    state = ENGINE.setup(2, seed, {"target": target})
    state.update(
        row=list(row),
        dealer=dealer,
        to_move=1 - dealer,
        totals=list(totals),
    )
    return state


def taking(state: State, first: int) -> State:
    """The same deal once the non-dealer has chosen who goes first."""
    return ENGINE.apply(state, 1 - state["dealer"], order(first == 1 - state["dealer"]))


def play_takes(state: State, counts: list[int]) -> State:
    for count in counts:
        state = ENGINE.apply(state, state["to_move"], take(count))
    return state


# T3-T5: Parlett's worked example. Suits S, H, C stand for his "one suit", "another", "a third".
T3_TAKES = [2, 2, 2, 3, 1, 1, 2, 3, 1, 3, 2, 2]  # alternating, the non-dealer first
T4_NON_DEALER = cards("AS 9S AH QH AC AD KD QD JD 9D")
T5_DEALER = cards("KS QS JS 10S KH JH 10H 9H KC QC JC 10C 9C 10D")


def parlett_row() -> list[str]:
    """A layout in which the T3 takes give the non-dealer T4's cards and the dealer T5's."""
    stock = {0: list(T4_NON_DEALER), 1: list(T5_DEALER)}  # 0 = non-dealer, 1 = dealer
    top_down: list[str] = []
    for turn, count in enumerate(T3_TAKES):
        hand = stock[turn % 2]
        top_down += [hand.pop() for _ in range(count)]
    assert not stock[0] and not stock[1]
    return top_down[::-1]


def parlett_deal(*, dealer: int = 1, totals: tuple[int, int] = (0, 0)) -> State:
    state = taking(laid_out(parlett_row(), dealer=dealer, totals=totals), first=1 - dealer)
    return play_takes(state, T3_TAKES)


# -- the spec's test vectors ----------------------------------------------------------------


def test_T1_deal_score_is_combo_times_cards_the_opponent_took() -> None:
    scores, misere = deal_scores([12, 5], [15, 9])
    assert scores == [12 * 9, 5 * 15] == [108, 75]
    assert not misere


def test_T2_a_card_counts_in_a_set_and_a_sequence() -> None:
    hand = cards("JS JC JD 9D 10D")
    assert combo(hand) == 5
    found = groups(hand)
    assert found == {"sets": [["JS", "JD", "JC"]], "sequences": [["JD", "10D", "9D"]]}


def test_T3_parlett_example_non_dealer_takes_10_dealer_14() -> None:
    assert sum(T3_TAKES[0::2]) == 10 and sum(T3_TAKES[1::2]) == 14
    before = taking(laid_out(parlett_row(), dealer=1), first=0)
    assert before["to_move"] == 0
    mid = play_takes(before, T3_TAKES[:-1])
    assert Counter(mid["taken"][0]) == Counter(T4_NON_DEALER)
    assert len(mid["taken"][1]) == 12 and len(mid["row"]) == 2
    after = parlett_deal(dealer=1)
    (record,) = after["deals"]
    assert record["taken"] == [10, 14]
    assert sum(record["taken"]) == 24


def test_T4_non_dealer_four_aces_and_diamond_sequence_score_168() -> None:
    assert combo(T4_NON_DEALER) == 8 + 4 == 12
    assert groups(T4_NON_DEALER) == {
        "sets": [["AS", "AH", "AD", "AC"]],
        "sequences": [["AD", "KD", "QD", "JD"]],
    }
    (record,) = parlett_deal(dealer=1)["deals"]
    assert record["combo"][0] == 12
    assert record["scores"][0] == 12 * 14 == 168


def test_T5_dealer_scores_250() -> None:
    assert combo(T5_DEALER) == (4 + 3 + 6) + (2 + 2 + 8) == 25
    found = groups(T5_DEALER)
    assert [len(s) for s in found["sequences"]] == [4, 3, 5]
    assert [rank_of(s[0]) for s in found["sets"]] == ["K", "J", "10"]
    after = parlett_deal(dealer=1)
    (record,) = after["deals"]
    assert record == {
        "deal": 1,
        "dealer": 1,
        "combo": [12, 25],
        "taken": [10, 14],
        "scores": [168, 250],
        "misere": False,
    }
    assert after["totals"] == [168, 250]


def test_T6_misere_reverses_the_scores() -> None:
    # P (no combination, 11 cards) would score 0 and Q (combo 10, 13 cards) 110: reversed.
    assert deal_scores([0, 10], [11, 13]) == ([110, 0], True)
    assert deal_scores([10, 0], [13, 11]) == ([0, 110], True)
    assert deal_scores([0, 0], [11, 13]) == ([0, 0], False)


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("AS KS QS", 3),
        ("KH QH JH 10H", 4),
        ("QD JD 10D 9D KD", 6),
        ("AC KC QC JC 10C 9C", 12),
    ],
)
def test_T7_sequence_values(hand: str, points: int) -> None:
    assert combo(cards(hand)) == points == SEQUENCE_POINTS[len(cards(hand))]


def test_T8_six_card_sequence_scores_12_and_no_sets() -> None:
    hand = cards("AS KS QS JS 10S 9S")
    assert combo(hand) == 12
    assert groups(hand) == {"sets": [], "sequences": [hand]}


def test_T9_four_nines_and_a_spade_sequence_score_11() -> None:
    hand = cards("9S 9H 9D 9C 10S JS")
    assert combo(hand) == 8 + 3 == 11


def test_T10_taking_three_takes_the_exposed_end() -> None:
    state = taking(ENGINE.setup(2, 10), first=0)
    row = state["row"]
    after = ENGINE.apply(state, 0, take(3))
    assert after["taken"][0] == [row[23], row[22], row[21]]
    assert after["row"] == row[:21]
    assert len(after["row"]) == 21
    assert after["to_move"] == 1


def test_T11_two_cards_left_allow_one_or_two() -> None:
    state = taking(ENGINE.setup(2, 11), first=0)
    state = play_takes(state, [3, 3, 3, 3, 3, 3, 2, 2])
    assert len(state["row"]) == 2
    seat = state["to_move"]
    assert ENGINE.legal_actions(state, seat) == [take(1), take(2)]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, take(3))
    assert refused.value.code == "not_enough_cards"


def test_T12_game_ends_at_target_and_exact_ties_play_on() -> None:
    assert is_decided([520, 505], 500)
    assert is_decided([505, 520], 500)
    assert not is_decided([510, 510], 500)
    assert not is_decided([499, 10], 500)
    # Dealer (seat 1) scores 250 and non-dealer 168 in the Parlett deal.
    won = parlett_deal(dealer=1, totals=(337, 270))
    assert won["totals"] == [505, 520]
    outcome = ENGINE.outcome(won)
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.scores == (505, 520)
    assert ENGINE.to_act(won) == frozenset()
    assert won["phase"] == "over" and won["to_move"] is None
    tied = parlett_deal(dealer=1, totals=(342, 260))
    assert tied["totals"] == [510, 510]
    assert ENGINE.outcome(tied) is None
    assert tied["phase"] == "choose_order" and tied["deal"] == 2


def test_T13_set_and_sequence_with_an_ace() -> None:
    assert combo(cards("AS AH AC KS QS")) == 2 + 3 == 5


# -- more scoring --------------------------------------------------------------------------


def test_no_wrap_around_from_ace_to_nine() -> None:
    assert combo(cards("9S AS KS")) == 0
    assert combo(cards("10H 9H AH KH")) == 0


def test_combinations_count_once_at_full_size() -> None:
    assert combo(cards("KS KH KD KC")) == 8
    assert combo(cards("AS KS QS JS 10S")) == 6


def test_a_suit_with_a_gap_scores_only_its_long_chain() -> None:
    assert combo(cards("AD KD QD 10D 9D")) == 3


def test_the_whole_pack_scores_96() -> None:
    assert combo(DECK) == 6 * 8 + 4 * 12


def reference_combo(hand: list[str]) -> int:
    """An independent count: sets by rank, then the longest run of each suit."""
    points = sum({3: 2, 4: 8}.get(n, 0) for n in Counter(rank_of(c) for c in hand).values())
    for suit in SUITS:
        held = [rank in {rank_of(c) for c in hand if suit_of(c) == suit} for rank in RANKS]
        run = 0
        for present in [*held, False]:
            if present:
                run += 1
                continue
            points += {3: 3, 4: 4, 5: 6, 6: 12}.get(run, 0)
            run = 0
    return points


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.sampled_from(DECK), unique=True), st.randoms(use_true_random=False))
def test_combo_matches_a_reference_and_ignores_order(hand: list[str], rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert combo(hand) == combo(shuffled) == reference_combo(hand)
    for group in [*groups(hand)["sets"], *groups(hand)["sequences"]]:
        assert len(group) >= 3 and set(group) <= set(hand)


@settings(max_examples=200, deadline=None, database=None)
@given(st.integers(0, 96), st.integers(0, 96), st.integers(0, 24))
def test_deal_scores_properties(a: int, b: int, taken_a: int) -> None:
    counts = [taken_a, 24 - taken_a]
    scores, misere = deal_scores([a, b], counts)
    assert misere == ((a == 0) != (b == 0))
    if misere:
        blank = 0 if a == 0 else 1
        assert scores[1 - blank] == 0
        assert scores[blank] == max(a, b) * counts[blank]
    else:
        assert scores == [a * counts[1], b * counts[0]]


# -- setup, options, order -------------------------------------------------------------------


def test_setup_lays_out_the_whole_pack() -> None:
    state = ENGINE.setup(2, 42)
    assert sorted(state["row"]) == sorted(DECK) and len(set(DECK)) == 24
    assert state["phase"] == "choose_order"
    assert state["deal"] == 1
    assert state["taken"] == [[], []]
    assert state["totals"] == [0, 0]
    assert state["to_move"] == 1 - state["dealer"]
    assert ENGINE.to_act(state) == frozenset({1 - state["dealer"]})
    assert ENGINE.legal_actions(state, state["to_move"]) == [order(True), order(False)]
    assert ENGINE.legal_actions(state, state["dealer"]) == []


def test_first_dealer_is_random() -> None:
    assert {ENGINE.setup(2, seed)["dealer"] for seed in range(20)} == {0, 1}
    assert len({tuple(ENGINE.setup(2, seed)["row"]) for seed in range(20)}) == 20


@pytest.mark.parametrize(("first", "mover"), [(True, "non-dealer"), (False, "dealer")])
def test_non_dealer_chooses_who_goes_first(first: bool, mover: str) -> None:
    state = ENGINE.setup(2, 5)
    dealer = state["dealer"]
    after = ENGINE.apply(state, 1 - dealer, order(first))
    assert after["phase"] == "taking"
    assert after["to_move"] == (1 - dealer if mover == "non-dealer" else dealer)
    assert after["row"] == state["row"]
    assert ENGINE.legal_actions(after, after["to_move"]) == [take(1), take(2), take(3)]


def test_target_option() -> None:
    assert ENGINE.check_options({}, 2) == {"target": 500}
    assert ENGINE.setup(2, 1)["target"] == 500
    assert ENGINE.setup(2, 1, {"target": 50})["target"] == 50
    assert ENGINE.info.to_json()["options"]["target"] == {
        "type": "int",
        "default": 500,
        "label": "Points to win",
        "min": 50,
        "max": 5000,
    }
    for bad in ({"target": 49}, {"target": 5001}, {"target": "500"}, {"target": True}, {"x": 1}):
        with pytest.raises(InvalidOptions):
            ENGINE.setup(2, 1, bad)
    for players in (1, 3):
        with pytest.raises(InvalidOptions):
            ENGINE.setup(players, 1)
    assert ENGINE.info.perfect_information


def test_next_deal_is_dealt_at_once_with_the_other_dealer() -> None:
    after = parlett_deal(dealer=1)
    assert after["deal"] == 2
    assert after["dealer"] == 0
    assert after["phase"] == "choose_order"
    assert after["to_move"] == 1 == 1 - after["dealer"]
    assert after["taken"] == [[], []]
    assert sorted(after["row"]) == sorted(DECK)
    assert ENGINE.to_act(after) == frozenset({1})


# -- illegal and malformed actions ------------------------------------------------------------


def _choose(seed: int = 3) -> State:
    return ENGINE.setup(2, seed)


def _taking(seed: int = 3) -> State:
    return taking(ENGINE.setup(2, seed), first=0)


def _two_left() -> State:
    return play_takes(_taking(), [3, 3, 3, 3, 3, 3, 2, 2])


def _over() -> State:
    return parlett_deal(dealer=1, totals=(337, 270))


ILLEGAL: list[tuple[str, Any, str, Any, str]] = [
    ("take before the order", _choose, "mover", take(1), "choose_order_first"),
    ("order twice", _taking, "mover", order(True), "order_already_chosen"),
    ("dealer chooses the order", _choose, "idle", order(True), "not_your_turn"),
    ("taking out of turn", _taking, "idle", take(1), "not_your_turn"),
    ("taking none", _taking, "mover", take(0), "bad_count"),
    ("taking four", _taking, "mover", take(4), "bad_count"),
    ("taking minus one", _taking, "mover", take(-1), "bad_count"),
    ("more than are left", _two_left, "mover", take(3), "not_enough_cards"),
    ("after the end", _over, 0, take(1), "game_over"),
    ("a seat that is not at the table", _taking, 5, take(1), "not_your_turn"),
]

MALFORMED: list[tuple[str, Any, Any]] = [
    ("count as a string", _taking, {"type": "take", "count": "2"}),
    ("count as a bool", _taking, {"type": "take", "count": True}),
    ("count missing", _taking, {"type": "take"}),
    ("first missing", _choose, {"type": "order"}),
    ("first as a number", _choose, {"type": "order", "first": 1}),
    ("unknown type", _taking, {"type": "pass"}),
    ("not an object", _taking, ["take", 1]),
    ("no type", _taking, {"count": 1}),
]


def _seat(state: State, who: Any) -> int:
    if who == "mover":
        return state["to_move"]
    if who == "idle":
        return 1 - state["to_move"]
    return int(who)


@pytest.mark.parametrize(
    ("name", "make", "who", "action", "code"), ILLEGAL, ids=[i[0] for i in ILLEGAL]
)
def test_illegal_actions_are_refused_with_a_reason(
    name: str, make: Any, who: Any, action: Action, code: str
) -> None:
    state = make()
    snapshot = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, _seat(state, who), action)
    assert refused.value.code == code
    message = refused.value.message
    assert message[0].isupper() and message.endswith(".") and len(message) > 15
    assert json.dumps(state, sort_keys=True) == snapshot


@pytest.mark.parametrize(("name", "make", "action"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_actions_are_refused(name: str, make: Any, action: Any) -> None:
    state = make()
    snapshot = json.dumps(state, sort_keys=True)
    with pytest.raises(MalformedAction) as refused:
        ENGINE.apply(state, state["to_move"], action)
    assert refused.value.code == "malformed_action"
    assert refused.value.message
    assert json.dumps(state, sort_keys=True) == snapshot


def test_too_many_cards_message_names_what_is_left() -> None:
    state = _two_left()
    with pytest.raises(IllegalAction, match="Only 2 cards are left in the row"):
        ENGINE.apply(state, state["to_move"], take(3))
    one_left = ENGINE.apply(state, state["to_move"], take(1))
    with pytest.raises(IllegalAction, match="Only 1 card is left in the row"):
        ENGINE.apply(one_left, one_left["to_move"], take(2))


# -- view and determinize ---------------------------------------------------------------------


def test_view_shape_for_a_seated_player() -> None:
    state = play_takes(_taking(), [3, 1])
    view = ENGINE.view(state, 0)
    assert set(view) == VIEW_KEYS
    assert view["phase"] == "taking"
    assert view["deal"] == 1
    assert view["row"] == state["row"] and len(view["row"]) == 20
    assert [len(hand) for hand in view["taken"]] == [3, 1]
    assert view["combo"] == [combo(hand) for hand in state["taken"]]
    assert view["groups"] == [groups(hand) for hand in state["taken"]]
    assert view["totals"] == [0, 0]
    assert view["to_move"] == 0
    assert view["target"] == 500
    assert view["deals"] == []
    assert ENGINE.view(state, None) == view == ENGINE.view(state, 1)
    assert "rng" not in json.dumps(view)


def test_view_at_the_end_keeps_the_last_collections() -> None:
    state = _over()
    view = ENGINE.view(state, None)
    assert view["phase"] == "over"
    assert view["to_move"] is None
    assert view["row"] == []
    assert view["combo"] == [12, 25]
    assert view["totals"] == [505, 520]
    assert view["deals"] == state["deals"]


def test_view_does_not_share_lists_with_the_state() -> None:
    state = parlett_deal(dealer=1, totals=(337, 270))
    view = ENGINE.view(state, 0)
    view["taken"][0].append("XX")
    view["deals"][0]["scores"][0] = -1
    view["totals"][0] = -1
    assert state["taken"][0][-1] != "XX"
    assert state["totals"][0] == 505
    assert state["deals"][0]["scores"][0] == 168


def test_determinize_only_reseeds() -> None:
    state = play_takes(_taking(), [2, 2])
    other = ENGINE.determinize(state, 0, random.Random(1))
    assert other["rng"] != state["rng"]
    assert {k: v for k, v in other.items() if k != "rng"} == {
        k: v for k, v in state.items() if k != "rng"
    }
    assert ENGINE.view(other, 0) == ENGINE.view(state, 0)


def test_all_actions_are_public_and_the_fallback_is_legal() -> None:
    for state in (_choose(), _taking(), _two_left()):
        seat = state["to_move"]
        fallback = ENGINE.fallback_action(state, seat)
        assert fallback in ENGINE.legal_actions(state, seat)
        assert ENGINE.redact_action(fallback, seat, 1 - seat) == fallback


# -- properties of whole matches -------------------------------------------------------------


def check_invariants(state: State) -> None:
    """What must hold in every reachable state."""
    everything = state["row"] + state["taken"][0] + state["taken"][1]
    assert sorted(everything) == sorted(DECK), "the 24 cards are not all accounted for"
    outcome = ENGINE.outcome(state)
    assert (outcome is None) == (state["phase"] != "over") == bool(ENGINE.to_act(state))
    assert state["totals"] == [sum(d["scores"][s] for d in state["deals"]) for s in (0, 1)]
    for number, record in enumerate(state["deals"], start=1):
        assert record["deal"] == number
        assert sum(record["taken"]) == 24
        assert (record["scores"], record["misere"]) == deal_scores(record["combo"], record["taken"])
    dealers = [d["dealer"] for d in state["deals"]] + ([] if outcome else [state["dealer"]])
    assert all(a != b for a, b in pairwise(dealers)), "dealer alternates"
    running = [0, 0]
    for record in state["deals"][:-1]:
        running = [a + b for a, b in zip(running, record["scores"], strict=True)]
        assert not is_decided(running, state["target"]), "play went on after the match was won"
    if state["phase"] == "choose_order":
        assert len(state["row"]) == 24 and state["taken"] == [[], []]
        assert state["to_move"] == 1 - state["dealer"]
        assert state["deal"] == len(state["deals"]) + 1
    elif state["phase"] == "taking":
        assert 1 <= len(state["row"]) <= 24 and state["to_move"] in (0, 1)
        assert state["deal"] == len(state["deals"]) + 1
    else:
        assert outcome is not None
        assert state["row"] == [] and state["to_move"] is None
        assert state["deal"] == len(state["deals"])
        assert max(state["totals"]) >= state["target"]
        assert state["totals"][0] != state["totals"][1]
        assert outcome.winners == (state["totals"].index(max(state["totals"])),)
        assert list(outcome.rounds) == state["deals"]
    view = ENGINE.view(state, None)
    assert view["combo"] == [combo(hand) for hand in state["taken"]]
    assert json.loads(json.dumps(state)) == state


def check_turn_order(trace: Trace) -> None:
    """Takes alternate within a deal, and the order is chosen by the non-dealer."""
    last_taker = -1
    for (seat, action), before in zip(trace.actions, trace.states[:-1], strict=True):
        if action["type"] == "order":
            assert seat == 1 - before["dealer"] and len(before["row"]) == 24
        elif before["phase"] == "taking" and len(before["row"]) < 24:
            # the previous action of this deal was a take by the other seat
            assert seat == 1 - last_taker
        last_taker = seat


@pytest.mark.parametrize("target", [50, 500, 2000])
def test_random_playouts_end_and_keep_the_invariants(target: int) -> None:
    for seed in range(25):
        trace = random_playout(ENGINE, 2, seed, {"target": target})
        for state in trace.states:
            check_invariants(state)
        check_turn_order(trace)
        assert ENGINE.outcome(trace.states[-1]) is not None


def test_replaying_seed_and_actions_reproduces_every_state() -> None:
    for seed in (1, 2, 3):
        trace = random_playout(ENGINE, 2, seed, {"target": 300})
        state = ENGINE.setup(2, seed, trace.options)
        for (seat, action), expected in zip(trace.actions, trace.states[1:], strict=True):
            state = ENGINE.apply(state, seat, json.loads(json.dumps(action)))
            assert state == expected


def test_deal_record_matches_the_scoring() -> None:
    assert deal_record(3, 0, [T4_NON_DEALER, T5_DEALER]) == {
        "deal": 3,
        "dealer": 0,
        "combo": [12, 25],
        "taken": [10, 14],
        "scores": [168, 250],
        "misere": False,
    }
    misere = deal_record(1, 1, [cards("AS 9H"), [c for c in DECK if c not in {"AS", "9H"}]])
    assert misere["misere"] and misere["scores"][1] == 0 and misere["scores"][0] > 0


def test_the_scored_deal_stays_on_view_until_the_next_deals_first_take() -> None:
    after = parlett_deal(dealer=1)
    shown = ENGINE.view(after, 0)["last_deal"]
    assert shown is not None
    assert Counter(shown["taken"][0]) == Counter(T4_NON_DEALER)
    assert shown["groups"][0] == groups(T4_NON_DEALER)
    ordered = ENGINE.apply(after, 1, {"type": "order", "first": True})
    assert ENGINE.view(ordered, None)["last_deal"] == shown  # choosing the order is no take
    took = ENGINE.apply(ordered, 1, {"type": "take", "count": 1})
    assert ENGINE.view(took, 0)["last_deal"] is None


def test_ranks_are_in_sequence_order() -> None:
    assert [RANK_INDEX[r] for r in ("A", "K", "Q", "J", "10", "9")] == list(range(6))
