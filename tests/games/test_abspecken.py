"""ABspecken: every test vector of the spec (E1-E18), the phases around them, hidden
information, the turn timer, and properties of random playouts."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games import get_game
from games.abspecken import rules, scoring
from games.abspecken.discards import targets
from games.abspecken.view import redact_log
from games.base import IllegalAction, InvalidOptions, MalformedAction, State, clone
from tests.games.playout import random_playout

ENGINE = get_game("abspecken")
GOLDEN = Path(__file__).parent / "playthroughs" / "abspecken.json"


# -- building positions --------------------------------------------------------------------


def table(
    hands: list[list[int]],
    *,
    roller: int = 0,
    discards: list[list[int]] | None = None,
    piles: list[list[int]] | None = None,
    totals: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> State:
    """A position at the start of a playthrough (dice not rolled yet).

    Unless given, each player's piles hold what their own 24-card set has left.
    """
    players = len(hands)
    state = clone(ENGINE.setup(players, 1, {"first_roller": roller, **(options or {})}))
    discards = discards or [[] for _ in hands]
    if piles is None:
        piles = [
            [max(0, 4 - hand.count(v) - pile.count(v)) for v in range(1, 7)]
            for hand, pile in zip(hands, discards, strict=True)
        ]
    state["hands"] = [sorted(hand) for hand in hands]
    state["discards"] = [list(pile) for pile in discards]
    state["piles"] = piles
    if totals is not None:
        state["totals"] = list(totals)
    rules.open_playthrough(state)
    return state


def rolled(
    hands: list[list[int]], d1: int, d2: int, forbidden: int, piggy: str | None = None, **kw: Any
) -> State:
    """A position right after a roll (Piggy die effects applied)."""
    state = table(hands, **kw)
    rules.resolve_roll(state, {"d1": d1, "d2": d2, "forbidden": forbidden, "piggy": piggy})
    return state


def discard_sets(state: State, seat: int) -> set[tuple[str, tuple[int, ...]]]:
    found = set()
    for action in ENGINE.legal_actions(state, seat):
        if action["type"] == "discard":
            found.add((action["option"], tuple(sorted(action["cards"]))))
    return found


def discard(option: str, *cards: int) -> dict[str, Any]:
    return {"type": "discard", "option": option, "cards": list(cards)}


CANNOT = {"type": "cannot"}


def refused(state: State, seat: int, action: Any, code: str) -> IllegalAction:
    """Apply must refuse with ``code``, a readable message, and leave the state alone."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, seat, action)
    assert caught.value.code == code, caught.value.message
    assert len(caught.value.message) > 15 and caught.value.message[0].isupper()
    assert json.dumps(state, sort_keys=True) == before
    return caught.value


# -- test vectors (spec section 8) ---------------------------------------------------------

ELFI = [1, 2, 5, 6, 4]  # the seed's 1, 2, 5, 6 plus an assumed 4
SERDAR = [2, 2, 6, 4, 4]  # the seed's 2, 2, 6 plus two assumed 4s


def test_E1_legal_discards_respect_the_forbidden_colour() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4)
    assert discard_sets(state, 0) == {("sum", (1, 5)), ("sum", (6,)), ("die", (2,))}
    refused(state, 0, discard("die", 4), "forbidden_value")
    refused(state, 0, discard("sum", 2, 4), "forbidden_value")
    refused(state, 0, discard("sum", 4, 2), "forbidden_value")


def test_E2_discarding_by_the_sum_then_refilling_two() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4)
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    assert state["phase"] == "decide"  # still hidden: Serdar has not decided
    assert state["hands"][0] == sorted(ELFI) and state["pending"][0]["cards"] == [5, 1]
    state = ENGINE.apply(state, 1, discard("die", 2))
    assert state["hands"][0] == [2, 4, 6]
    assert state["discards"][0] == [5, 1]  # the 1 was played last: it is on top
    assert state["phase"] == "refill" and ENGINE.to_act(state) == {0, 1}
    assert {len(a["cards"]) for a in ENGINE.legal_actions(state, 0)} == {2}
    state = ENGINE.apply(state, 0, {"type": "refill", "cards": [1, 3]})
    assert state["hands"][0] == [1, 2, 3, 4, 6]
    assert state["piles"][0] == [2, 3, 3, 3, 3, 3]


def test_E3_one_die_means_one_card() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4)
    assert discard_sets(state, 1) == {("die", (2,)), ("sum", (6,))}
    error = refused(state, 1, discard("die", 2, 2), "die_one_card")
    assert "one card" in error.message
    refused(state, 1, discard("sum", 2, 2), "sum_mismatch")


def test_E4_no_legal_discard_means_cannot() -> None:
    karin = [2, 2, 3, 4, 6]
    state = rolled([karin, [1, 1, 1, 1, 5]], 1, 1, 2)
    assert ENGINE.legal_actions(state, 0) == [CANNOT]
    refused(state, 0, discard("sum", 2), "forbidden_value")
    refused(state, 0, discard("die", 3), "die_mismatch")
    refused(state, 0, discard("sum", 3), "sum_mismatch")
    state = ENGINE.apply(state, 0, CANNOT)
    assert state["pending"][0] == CANNOT


def test_E5_piggy_plus_minus_two_gives_the_roller_a_four() -> None:
    karin = [2, 2, 3, 4, 6]
    state = rolled(
        [karin, [2, 2, 3, 4, 6]], 1, 1, 2, "pm2", discards=[[5], []], options={"piggy_die": True}
    )
    assert ENGINE.view(state, 0)["targets"] == [2, 4]
    assert ENGINE.legal_actions(state, 0) == [discard("sum", 4)]
    # the Piggy die helps only the roller
    assert ENGINE.legal_actions(state, 1) == [CANNOT]


def test_E6_smiling_piggy_gift_comes_before_the_discard() -> None:
    mic = [1, 1, 3, 5, 6]
    state = rolled(
        [mic, [2, 3, 3, 4, 4]], 2, 6, 5, "smile", discards=[[2], []], options={"piggy_die": True}
    )
    assert state["phase"] == "gift" and ENGINE.to_act(state) == {0}
    assert {"type": "gift", "card": 5, "to": 1} in ENGINE.legal_actions(state, 0)
    assert {"type": "no_gift"} in ENGINE.legal_actions(state, 0)
    refused(state, 0, discard("sum", 6, 1, 1), "wrong_phase")
    gave = ENGINE.apply(state, 0, {"type": "gift", "card": 5, "to": 1})
    assert gave["hands"][0] == [1, 1, 3, 6] and gave["hands"][1] == [2, 3, 3, 4, 4, 5]
    assert discard_sets(gave, 0) == {("sum", (1, 1, 6)), ("die", (6,))}
    # had Mic kept the 5, 5 + 3 would still be refused: yellow is forbidden
    kept = ENGINE.apply(state, 0, {"type": "gift", "card": 1, "to": 1})
    refused(kept, 0, discard("sum", 5, 3), "forbidden_value")


def test_E7_after_discarding_6_1_1_mic_refills_four_of_his_choice() -> None:
    mic = [1, 1, 3, 5, 6]
    state = rolled(
        [mic, [2, 3, 3, 4, 4]], 2, 6, 5, "smile", discards=[[2], []], options={"piggy_die": True}
    )
    state = ENGINE.apply(state, 0, {"type": "gift", "card": 5, "to": 1})
    state = ENGINE.apply(state, 0, discard("sum", 6, 1, 1))
    state = ENGINE.apply(state, 1, discard("die", 2))
    assert state["hands"][0] == [3]
    assert state["discards"][0] == [2, 6, 1, 1]
    assert ENGINE.to_act(state) == {0}  # seat 1 holds 5 cards after the gift and the discard
    refills = ENGINE.legal_actions(state, 0)
    assert len(refills) > 1 and all(len(a["cards"]) == 4 for a in refills)
    refused(state, 0, {"type": "refill", "cards": [1, 2, 3]}, "wrong_count")
    state = ENGINE.apply(state, 0, {"type": "refill", "cards": [1, 2, 4, 4]})
    assert state["hands"][0] == [1, 2, 3, 4, 4]


def test_E8_the_gift_recipient_cannot_discard_a_forbidden_5_and_does_not_refill() -> None:
    mic = [1, 1, 3, 5, 6]
    other = [1, 1, 1, 1, 3]
    state = rolled([mic, other], 2, 6, 5, "smile", discards=[[2], []], options={"piggy_die": True})
    state = ENGINE.apply(state, 0, {"type": "gift", "card": 5, "to": 1})
    assert ENGINE.legal_actions(state, 1) == [CANNOT]
    refused(state, 1, discard("sum", 5, 3), "forbidden_value")
    state = ENGINE.apply(state, 1, CANNOT)
    state = ENGINE.apply(state, 0, discard("sum", 6, 1, 1))
    assert ENGINE.to_act(state) == {1} and state["phase"] == "take"
    state = ENGINE.apply(state, 1, {"type": "take", "from": 0})
    assert state["hands"][1] == [1, 1, 1, 1, 3, 3, 5]  # got Mic's last card, the 3
    # Mic refills (all 5), the recipient holds 7 and draws nothing
    assert state["phase"] == "refill" and state["refilling"] == [0]
    assert ENGINE.view(state, None)["players"][1]["refill_need"] == 0


def test_E9_grim_piggy_takes_back_the_top_discard() -> None:
    state = rolled(
        [[2, 3, 4, 5, 5], [2, 2, 3, 3, 4]],
        1,
        3,
        6,
        "grim",
        discards=[[4, 6, 1], []],
        options={"piggy_die": True},
    )
    assert state["discards"][0] == [4, 6]
    assert state["hands"][0] == [1, 2, 3, 4, 5, 5]
    assert state["log"]["grim"] == 1
    assert ("die", (1,)) in discard_sets(state, 0)
    state = ENGINE.apply(state, 0, discard("die", 1))
    state = ENGINE.apply(state, 1, discard("die", 3))
    assert state["discards"][0] == [4, 6, 1]


def test_E10_no_piggy_die_with_an_empty_discard_pile() -> None:
    state = table([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], options={"piggy_die": True})
    rules.start_playthrough(state)
    assert state["phase"] == "decide" and state["dice"]["piggy"] is None
    offered = table(
        [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], discards=[[6], []], options={"piggy_die": True}
    )
    rules.start_playthrough(offered)
    assert offered["phase"] == "piggy" and offered["dice"] is None
    assert ENGINE.legal_actions(offered, 0) == [
        {"type": "roll", "piggy": False},
        {"type": "roll", "piggy": True},
    ]
    with_piggy = ENGINE.apply(offered, 0, {"type": "roll", "piggy": True})
    assert with_piggy["dice"]["piggy"] in {"pm1", "pm2", "pm3", "smile", "grim"}
    without = ENGINE.apply(offered, 0, {"type": "roll", "piggy": False})
    assert without["dice"]["piggy"] is None and without["phase"] == "decide"
    # without the extension the Piggy die is never offered
    plain = table([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], discards=[[6], []])
    rules.start_playthrough(plain)
    assert plain["phase"] == "decide"


def e11_position() -> State:
    a, b, c = [1, 5, 3, 3, 3], [6], [4, 5, 5, 5, 5]
    state = rolled([a, b, c], 2, 4, 4)
    state = ENGINE.apply(state, 2, CANNOT)
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    return ENGINE.apply(state, 1, discard("sum", 6))


def test_E11_take_only_from_a_discarder_with_cards_then_refill() -> None:
    state = e11_position()
    assert state["phase"] == "take" and ENGINE.to_act(state) == {2}
    assert [len(h) for h in state["hands"]] == [3, 0, 5]
    assert ENGINE.legal_actions(state, 2) == [{"type": "take", "from": 0}]
    refused(state, 2, {"type": "take", "from": 1}, "bad_source")
    refused(state, 2, {"type": "take", "from": 2}, "bad_source")
    state = ENGINE.apply(state, 2, {"type": "take", "from": 0})
    assert [len(h) for h in state["hands"]] == [2, 0, 6]
    assert state["hands"][2] == sorted([4, 5, 5, 5, 5, 3])
    assert state["phase"] == "refill" and sorted(state["refilling"]) == [0, 1]
    needs = {p["seat"]: p["refill_need"] for p in ENGINE.view(state, None)["players"]}
    assert needs == {0: 3, 1: 5, 2: 0}
    state = ENGINE.apply(state, 0, {"type": "refill", "cards": [1, 2, 6]})
    state = ENGINE.apply(state, 1, {"type": "refill", "cards": [1, 2, 3, 4, 5]})
    assert [len(h) for h in state["hands"]] == [5, 5, 6]
    assert state["phase"] == "decide" and state["roller"] == 1  # next playthrough


def test_E12_everyone_cannot_so_nobody_takes() -> None:
    hands = [[2, 2, 3, 4, 6], [3, 3, 4, 4, 6], [2, 3, 4, 4, 6]]
    state = rolled(hands, 1, 1, 2)
    for seat in (1, 2, 0):
        assert ENGINE.legal_actions(state, seat) == [CANNOT]
        state = ENGINE.apply(state, seat, CANNOT)
    assert state["hands"] == [sorted(h) for h in hands]
    assert state["previous"]["takes"] == [
        {"taker": seat, "source": None, "card": None} for seat in (0, 1, 2)
    ]
    assert state["phase"] == "decide" and state["roller"] == 1


def test_E13_discarding_the_last_card_with_empty_piles_ends_the_round() -> None:
    empty = [0] * 6
    state = rolled(
        [[6], [1, 2, 3, 3, 5]],
        2,
        4,
        1,
        piles=[empty, [4, 4, 2, 4, 4, 4]],
        options={"end_threshold": 999},
    )
    state = ENGINE.apply(state, 0, discard("sum", 6))
    state = ENGINE.apply(state, 1, discard("die", 2))
    record = state["rounds"][-1]
    assert record["finishers"] == [0]
    assert record["penalties"][0] == 0
    assert record["penalties"][1] == 1 + 3 + 3 + 5 + scoring.penalty([], [4, 4, 2, 4, 4, 4])
    assert state["round"] == 2 and state["phase"] == "pick"
    assert state["totals"] == record["totals"]


def test_E14_two_players_finishing_together_both_win_the_round() -> None:
    empty = [0] * 6
    state = rolled([[6], [2], [1, 1, 1, 1, 5]], 2, 4, 3, piles=[empty, empty, [0, 4, 4, 4, 3, 4]])
    state = ENGINE.apply(state, 0, discard("sum", 6))
    state = ENGINE.apply(state, 1, discard("die", 2))
    state = ENGINE.apply(state, 2, discard("sum", 5, 1))
    record = state["rounds"][-1]
    assert record["finishers"] == [0, 1]
    assert record["penalties"][:2] == [0, 0] and record["penalties"][2] > 0


def test_E15_round_penalty_counts_hand_and_piles() -> None:
    assert scoring.penalty([1, 6], [0, 0, 4, 0, 0, 0]) == 19
    empty = [0] * 6
    # seat 0 plays its last card; seat 1 cannot discard and keeps 1, 6 plus four 3s
    state = rolled([[2], [1, 6]], 2, 4, 6, piles=[empty, [0, 0, 4, 0, 0, 0]])
    state = ENGINE.apply(state, 0, discard("die", 2))
    state = ENGINE.apply(state, 1, CANNOT)
    record = state["rounds"][-1]
    assert record["penalties"] == [0, 19] and record["totals"] == [0, 19]
    assert record["hands"][1] == [1, 6] and record["piles"][1] == [0, 0, 4, 0, 0, 0]
    state = rolled([[6], [1, 6]], 2, 4, 1, piles=[empty, [0, 0, 4, 0, 0, 0]])
    state = ENGINE.apply(state, 0, discard("sum", 6))
    state = ENGINE.apply(state, 1, discard("sum", 6))  # the 6 goes, 1 + 12 is left
    assert state["rounds"][-1]["penalties"] == [0, 13]
    state = rolled([[6], [1, 6]], 2, 4, 6, piles=[empty, [0, 0, 4, 0, 0, 0]])
    state = ENGINE.apply(state, 1, CANNOT)
    state = ENGINE.apply(state, 0, CANNOT)
    assert state["rounds"] == []  # nobody finished: the round goes on


def test_E16_game_ends_at_33_and_the_lowest_total_wins() -> None:
    assert scoring.is_game_over([30, 12, 33], 33)
    assert not scoring.is_game_over([30, 12, 32], 33)
    assert scoring.winners([30, 12, 33]) == (1,)
    empty = [0] * 6
    # penalties 5, 0, 13 on top of 25, 12, 20
    state = rolled([[5], [6], [3, 5, 5]], 2, 4, 5, piles=[empty, empty, empty], totals=[25, 12, 20])
    state = ENGINE.apply(state, 1, discard("sum", 6))
    state = ENGINE.apply(state, 0, CANNOT)
    state = ENGINE.apply(state, 2, CANNOT)
    assert state["totals"] == [30, 12, 33]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.is_over(state)
    assert outcome.winners == (1,)
    assert outcome.scores == (-30.0, -12.0, -33.0)
    assert outcome.rounds[-1]["penalties"] == [5, 0, 13]
    assert ENGINE.to_act(state) == frozenset()
    assert ENGINE.view(state, 0)["winners"] == [1]


def test_E16_a_lower_threshold_is_a_room_option() -> None:
    empty = [0] * 6
    hands = [[5], [6], [3, 5, 5]]
    lower = rolled(hands, 2, 4, 5, piles=[empty] * 3, options={"end_threshold": 13})
    higher = rolled(hands, 2, 4, 5, piles=[empty] * 3, options={"end_threshold": 14})
    for seat, action in ((1, discard("sum", 6)), (0, CANNOT), (2, CANNOT)):
        lower = ENGINE.apply(lower, seat, action)
        higher = ENGINE.apply(higher, seat, action)
    assert ENGINE.outcome(lower) is not None
    assert ENGINE.outcome(higher) is None and higher["phase"] == "pick"


def test_E17_doubles_allow_one_three_or_any_sum_of_six() -> None:
    state = rolled([[3, 3, 2, 4, 6], [1, 1, 1, 1, 1]], 3, 3, 1)
    assert discard_sets(state, 0) == {
        ("die", (3,)),
        ("sum", (6,)),
        ("sum", (3, 3)),
        ("sum", (2, 4)),
    }
    # one action per card that may end on top: {2, 4} twice, {3, 3} once (C-15)
    assert len(ENGINE.legal_actions(state, 0)) == 5


def test_E18_piggy_minus_three_below_one_is_ignored() -> None:
    assert targets(1, 1, "pm3", is_roller=True) == (2, 5)
    assert targets(1, 1, "pm3", is_roller=False) == (2,)
    assert targets(1, 1, "pm2", is_roller=True) == (2, 4)
    assert targets(3, 4, "pm1", is_roller=True) == (6, 7, 8)
    assert targets(3, 4, "smile", is_roller=True) == (7,)
    state = rolled([[5, 5, 5, 6, 6], [5, 5, 5, 6, 6]], 1, 1, 6, "pm3", discards=[[1], []])
    assert ENGINE.legal_actions(state, 0) == [discard("sum", 5)]
    assert ENGINE.legal_actions(state, 1) == [CANNOT]
    view = ENGINE.view(state, 1)
    assert view["targets"] == [2] and view["roller_targets"] == [2, 5]


# -- more phases and options ---------------------------------------------------------------


def test_opening_pick_is_secret_and_simultaneous() -> None:
    state = ENGINE.setup(3, 5, {"first_roller": 1})
    assert state["phase"] == "pick" and ENGINE.to_act(state) == {0, 1, 2}
    assert len(ENGINE.legal_actions(state, 0)) == 246  # 5 of 6 values, at most 4 alike
    refused(state, 0, {"type": "pick", "cards": [6, 6, 6, 6, 6]}, "not_in_piles")
    refused(state, 0, {"type": "pick", "cards": [1, 2, 3, 4]}, "wrong_count")
    one = ENGINE.apply(state, 0, {"type": "pick", "cards": [6, 6, 6, 6, 5]})
    other = ENGINE.apply(state, 0, {"type": "pick", "cards": [1, 1, 2, 2, 3]})
    assert ENGINE.to_act(one) == {1, 2}
    for viewer in (None, 1, 2):
        assert ENGINE.view(one, viewer) == ENGINE.view(other, viewer)
    assert ENGINE.view(one, 0)["pending"] == {"type": "pick", "cards": [5, 6, 6, 6, 6]}
    assert one["piles"][0] == [4] * 6  # nothing moves before everyone has picked
    refused(one, 0, {"type": "pick", "cards": [1, 1, 2, 2, 3]}, "not_your_turn")
    state = ENGINE.apply(one, 1, {"type": "pick", "cards": [1, 2, 3, 4, 5]})
    state = ENGINE.apply(state, 2, {"type": "pick", "cards": [1, 1, 1, 1, 2]})
    assert state["hands"] == [[5, 6, 6, 6, 6], [1, 2, 3, 4, 5], [1, 1, 1, 1, 2]]
    assert state["piles"][0] == [4, 4, 4, 4, 3, 0]
    assert state["roller"] == 1 and state["dice"] is not None and state["phase"] == "decide"


def test_first_roller_option() -> None:
    assert ENGINE.setup(4, 9, {"first_roller": 3})["roller"] == 3
    rollers = {ENGINE.setup(4, seed, None)["roller"] for seed in range(40)}
    assert rollers == {0, 1, 2, 3}
    with pytest.raises(InvalidOptions):
        ENGINE.setup(2, 1, {"first_roller": 2})


def test_roller_passes_clockwise_every_playthrough_and_round() -> None:
    trace = random_playout(ENGINE, 3, 31)
    seen = [(s["round"], s["playthrough"], s["roller"]) for s in trace.states if s["log"]]
    firsts = sorted(set(seen))
    for (r1, p1, roller1), (r2, p2, roller2) in itertools.pairwise(firsts):
        assert roller2 == (roller1 + 1) % 3, ((r1, p1), (r2, p2))


def test_decision_phase_hides_everyones_choice() -> None:
    """While decisions are open no view shows anyone else's pending choice."""
    state = rolled([ELFI, SERDAR, [1, 1, 1, 1, 5]], 2, 4, 4)
    picks = [discard("sum", 5, 1), discard("sum", 6), discard("die", 2)]
    after = [ENGINE.apply(state, 0, pick) for pick in picks]
    for viewer in (None, 1, 2):
        views = [ENGINE.view(s, viewer) for s in after]
        assert views[0] == views[1] == views[2]
        assert views[0]["players"][0]["committed"] is True
        assert views[0]["pending"] is None
        assert "5, 1" not in json.dumps(views[0]["log"])
    assert ENGINE.view(after[0], 0)["pending"] == discard("sum", 5, 1)
    # the actions themselves are redacted for everybody else
    for pick in [*picks, CANNOT, {"type": "pick", "cards": [1, 2, 3, 4, 5]}]:
        assert ENGINE.redact_action(pick, 0, 0) == pick
        for viewer in (None, 1, 2):
            assert ENGINE.redact_action(pick, 0, viewer) == {"type": "hidden"}
    # once everyone is in, the decisions are revealed to all
    state = ENGINE.apply(after[0], 1, discard("die", 2))
    state = ENGINE.apply(state, 2, discard("sum", 5, 1))
    decisions = ENGINE.view(state, None)["log"]["decisions"]
    assert decisions[0] == discard("sum", 5, 1)


def test_passed_cards_are_seen_only_by_the_two_players() -> None:
    gift = {"type": "gift", "card": 5, "to": 1}
    assert ENGINE.redact_action(gift, 0, 1) == gift
    assert ENGINE.redact_action(gift, 0, 2) == {"type": "gift", "to": 1}
    assert ENGINE.redact_action(gift, 0, None) == {"type": "gift", "to": 1}
    give = {"type": "give", "to": 2, "card": 6}
    assert ENGINE.redact_action(give, 0, 2) == give
    assert ENGINE.redact_action(give, 0, 1) == {"type": "give", "to": 2}
    take = {"type": "take", "from": 0}
    assert ENGINE.redact_action(take, 2, None) == take
    state = ENGINE.apply(e11_position(), 2, {"type": "take", "from": 0})
    assert ENGINE.view(state, 2)["log"]["takes"][0]["card"] == 3
    assert ENGINE.view(state, 0)["log"]["takes"][0]["card"] == 3
    assert ENGINE.view(state, 1)["log"]["takes"][0] == {"taker": 2, "source": 0, "card": None}
    assert ENGINE.view(state, None)["log"]["takes"][0]["card"] is None


NO_GIFT = {"type": "no_gift"}


def test_smiling_piggy_gift_by_the_seed_is_optional_when_the_roller_can_discard() -> None:
    """C-14 (revised), option ``smile_gift`` = "seed" (the default): Mic can discard {6, 1, 1}
    or {6}, so the gift is his choice."""
    hands = [[1, 1, 3, 5, 6], [2, 3, 3, 4, 4], [1, 2, 3, 4, 5]]
    kw: dict[str, Any] = {"discards": [[2], [], []]}
    optional = rolled(hands, 2, 6, 5, "smile", options={"piggy_die": True}, **kw)
    assert optional["options"]["smile_gift"] == "seed"
    assert NO_GIFT in ENGINE.legal_actions(optional, 0)
    state = ENGINE.apply(optional, 0, NO_GIFT)
    assert state["phase"] == "decide" and state["hands"][0] == [1, 1, 3, 5, 6]
    refused(optional, 0, {"type": "gift", "card": 5, "to": 0}, "bad_recipient")
    refused(optional, 0, {"type": "gift", "card": 5, "to": 3}, "bad_recipient")
    refused(optional, 0, {"type": "gift", "card": 2, "to": 1}, "not_in_hand")


def test_smiling_piggy_gift_by_the_seed_is_compulsory_when_the_roller_cannot_discard() -> None:
    """C-14 (revised): "you must do this if you cannot discard". Dice 1 + 1, no 2s: a hand
    of 3s, 4s and 5s has no discard, so the roller must give."""
    hands = [[3, 3, 4, 4, 5], [2, 3, 3, 4, 4], [1, 2, 3, 4, 5]]
    state = rolled(hands, 1, 1, 2, "smile", discards=[[2], [], []])
    legal = ENGINE.legal_actions(state, 0)
    assert NO_GIFT not in legal
    assert legal == [
        {"type": "gift", "card": card, "to": to} for card in (3, 4, 5) for to in (1, 2)
    ]
    error = refused(state, 0, NO_GIFT, "gift_required")
    assert "cannot discard" in error.message
    # "optional" lets him keep his cards; "mandatory" makes every roller give (C-14 option)
    lenient = rolled(
        hands, 1, 1, 2, "smile", discards=[[2], [], []], options={"smile_gift": "optional"}
    )
    assert NO_GIFT in ENGINE.legal_actions(lenient, 0)
    assert ENGINE.apply(lenient, 0, NO_GIFT)["phase"] == "decide"


def test_smiling_piggy_gift_is_always_compulsory_when_the_table_says_so() -> None:
    hands = [[1, 1, 3, 5, 6], [2, 3, 3, 4, 4], [1, 2, 3, 4, 5]]
    kw: dict[str, Any] = {"discards": [[2], [], []]}
    mandatory = rolled(hands, 2, 6, 5, "smile", options={"smile_gift": "mandatory"}, **kw)
    assert NO_GIFT not in ENGINE.legal_actions(mandatory, 0)
    assert len(ENGINE.legal_actions(mandatory, 0)) == 4 * 2  # 4 distinct values, 2 recipients
    error = refused(mandatory, 0, NO_GIFT, "gift_required")
    assert "compulsory at this table" in error.message


def test_smile_gift_option_values() -> None:
    assert ENGINE.check_options({}, 3)["smile_gift"] == "seed"
    for value in ("seed", "optional", "mandatory"):
        assert ENGINE.check_options({"smile_gift": value}, 3)["smile_gift"] == value
    with pytest.raises(InvalidOptions):
        ENGINE.check_options({"smile_gift": True}, 3)
    with pytest.raises(InvalidOptions):
        ENGINE.check_options({"smile_gift_mandatory": True}, 3)
    spec = ENGINE.info.to_json()["options"]["smile_gift"]
    assert spec["choices"] == ["seed", "optional", "mandatory"] and spec["default"] == "seed"


def test_a_gift_that_empties_the_roller_makes_him_a_finisher() -> None:
    """Spec 4.3 (revised): giving away the last card with empty piles finishes the roller,
    as a take that empties a player does: he takes nothing, and the round ends with the
    playthrough, his penalty 0."""
    empty = [0] * 6
    hands = [[5], [1, 2, 3, 3, 4], [2, 2, 3, 3, 6]]
    piles = [empty, [3, 3, 1, 3, 4, 4], [4, 2, 2, 4, 4, 3]]
    kw: dict[str, Any] = {"discards": [[2], [], []], "options": {"end_threshold": 999}}
    state = rolled(hands, 1, 1, 2, "smile", piles=piles, **kw)
    assert NO_GIFT not in ENGINE.legal_actions(state, 0)  # the 5 cannot be discarded
    state = ENGINE.apply(state, 0, {"type": "gift", "card": 5, "to": 2})
    assert state["hands"][0] == [] and state["phase"] == "decide"
    assert ENGINE.to_act(state) == {1, 2}  # the finisher has nothing to decide
    assert ENGINE.legal_actions(state, 0) == []
    state = ENGINE.apply(state, 1, discard("die", 1))
    state = ENGINE.apply(state, 2, CANNOT)  # no 1s, no 2s allowed, no sum 2: takes from 1
    assert state["phase"] == "take" and state["takers"] == [2]
    state = ENGINE.apply(state, 2, {"type": "take", "from": 1})
    record = state["rounds"][-1]
    assert record["finishers"] == [0]
    assert record["penalties"][0] == 0 and min(record["penalties"][1:]) > 0
    assert state["round"] == 2


def test_a_gift_that_empties_the_roller_with_cards_in_his_piles_does_not_finish() -> None:
    hands = [[5], [1, 2, 3, 3, 4], [2, 2, 3, 3, 6]]
    state = rolled(hands, 1, 1, 2, "smile", discards=[[2], [], []])
    state = ENGINE.apply(state, 0, {"type": "gift", "card": 5, "to": 2})
    assert ENGINE.to_act(state) == {0, 1, 2}
    assert ENGINE.legal_actions(state, 0) == [CANNOT]


def test_the_player_chooses_which_discarded_card_ends_on_top() -> None:
    """C-15 (revised): one listed discard per card that may end on top, none twice."""
    mic = [1, 1, 3, 6, 2]
    state = rolled([mic, [2, 3, 3, 4, 4]], 2, 6, 5)
    sums = [a["cards"] for a in ENGINE.legal_actions(state, 0) if a["option"] == "sum"]
    assert [6, 1, 1] in sums and [1, 1, 6] in sums
    by_multiset: dict[tuple[int, ...], list[int]] = {}
    for cards in sums:
        by_multiset.setdefault(tuple(sorted(cards)), []).append(cards[-1])
    for multiset, tops in by_multiset.items():
        assert sorted(tops) == sorted(set(multiset)), multiset  # every top, each once
    assert by_multiset[(1, 1, 6)] == [1, 6]  # the lowest on top first (the seed's tip)
    low = ENGINE.apply(ENGINE.apply(state, 0, discard("sum", 6, 1, 1)), 1, discard("die", 2))
    high = ENGINE.apply(ENGINE.apply(state, 0, discard("sum", 1, 1, 6)), 1, discard("die", 2))
    assert low["discards"][0] == [6, 1, 1] and high["discards"][0] == [1, 1, 6]
    assert ENGINE.view(high, 1)["players"][0]["top"] == 6


def test_piggy_faces_reach_only_the_roller() -> None:
    hands = [[4, 4, 4, 4, 4], [4, 4, 4, 4, 4]]
    state = rolled(hands, 1, 2, 6, "pm1", discards=[[1], []])
    assert discard_sets(state, 0) == {("sum", (4,))}
    assert ENGINE.legal_actions(state, 1) == [CANNOT]


def test_speed_mode_orders_takers_by_declaration() -> None:
    hands = [[1, 5, 3, 3, 3], [4, 5, 5, 5, 5], [4, 5, 5, 5, 5]]
    for order, expected in (("clockwise", [1, 2]), ("speed", [2, 1])):
        state = rolled(hands, 2, 4, 4, options={"take_order": order})
        state = ENGINE.apply(state, 2, CANNOT)
        state = ENGINE.apply(state, 1, CANNOT)
        state = ENGINE.apply(state, 0, discard("sum", 5, 1))
        assert state["takers"] == expected
        assert ENGINE.to_act(state) == {expected[0]}


def test_clockwise_takers_start_at_the_roller() -> None:
    hands = [[4, 5, 5, 5, 5], [1, 5, 3, 3, 3], [4, 5, 5, 5, 5]]
    state = rolled(hands, 2, 4, 4, roller=2)
    for seat, action in ((0, CANNOT), (2, CANNOT), (1, discard("sum", 5, 1))):
        state = ENGINE.apply(state, seat, action)
    assert state["takers"] == [2, 0]


def test_source_chooses_the_card_when_the_table_says_so() -> None:
    hands = [[1, 5, 3, 3, 6], [4, 5, 5, 5, 5]]
    state = rolled(hands, 2, 4, 4, options={"take_choice": "source_chooses"})
    state = ENGINE.apply(state, 1, CANNOT)
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    state = ENGINE.apply(state, 1, {"type": "take", "from": 0})
    assert state["phase"] == "give" and ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "give", "to": 1, "card": 3},
        {"type": "give", "to": 1, "card": 6},
    ]
    refused(state, 0, {"type": "give", "to": 1, "card": 5}, "not_in_hand")
    refused(state, 0, {"type": "give", "to": 0, "card": 6}, "bad_recipient")
    state = ENGINE.apply(state, 0, {"type": "give", "to": 1, "card": 6})
    assert state["hands"] == [[3, 3], [4, 5, 5, 5, 5, 6]]
    assert state["phase"] == "refill"


def test_taker_without_an_eligible_source_gets_nothing() -> None:
    empty = [0] * 6
    hands = [[6], [4, 5, 5, 5, 5], [4, 5, 5, 5, 5]]
    state = rolled(hands, 2, 4, 4, piles=[[1, 0, 0, 0, 0, 0], empty, empty])
    for seat, action in ((0, discard("sum", 6)), (1, CANNOT), (2, CANNOT)):
        state = ENGINE.apply(state, seat, action)
    assert state["previous"]["takes"] == [
        {"taker": 1, "source": None, "card": None},
        {"taker": 2, "source": None, "card": None},
    ]
    # seat 0 had one card left in its piles: the forced refill is made for it
    assert state["hands"][0] == [1] and state["previous"]["refills"][0] == [1]


def test_a_player_emptied_by_a_take_finishes_too() -> None:
    empty = [0] * 6
    hands = [[5, 1], [4, 5, 5, 5, 5]]
    state = rolled(hands, 2, 4, 4, piles=[empty, [4, 4, 4, 0, 0, 4]])
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    state = ENGINE.apply(state, 1, CANNOT)
    assert state["rounds"][-1]["finishers"] == [0]  # nothing left to take from seat 0
    hands = [[5, 1, 2], [4, 5, 5, 5, 5]]
    state = rolled(hands, 2, 4, 4, piles=[empty, [4, 4, 4, 0, 0, 4]])
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    state = ENGINE.apply(state, 1, CANNOT)
    state = ENGINE.apply(state, 1, {"type": "take", "from": 0})
    record = state["rounds"][-1]
    assert record["finishers"] == [0] and record["hands"][1] == [2, 4, 5, 5, 5, 5]


def test_cannot_is_refused_while_a_discard_is_legal() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4)
    error = refused(state, 0, CANNOT, "can_discard")
    assert "must" in error.message


def test_illegal_and_malformed_actions_change_nothing() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4)
    refused(state, 0, discard("sum", 6, 6), "not_in_hand")
    refused(state, 0, discard("sum", 2, 1), "sum_mismatch")
    refused(state, 0, discard("die", 5), "die_mismatch")
    refused(state, 0, {"type": "take", "from": 1}, "wrong_phase")
    refused(state, 0, {"type": "refill", "cards": [1]}, "wrong_phase")
    for garbage in (
        {"type": "discard", "option": "sum", "cards": []},
        {"type": "discard", "option": "both", "cards": [6]},
        {"type": "discard", "option": "sum", "cards": 6},
        {"type": "discard", "option": "sum", "cards": [7]},
        {"type": "discard", "option": "sum", "cards": [True]},
        {"type": "take"},
        {"type": "roll", "piggy": "yes"},
        {"type": "gift", "card": "5", "to": 1},
    ):
        with pytest.raises(MalformedAction) as caught:
            ENGINE.apply(state, 0, garbage)
        assert caught.value.message
    committed = ENGINE.apply(state, 0, discard("die", 2))
    refused(committed, 0, discard("sum", 6), "not_your_turn")


# -- views, determinize, timer ------------------------------------------------------------


def test_view_shape_for_a_seated_player() -> None:
    state = rolled([ELFI, SERDAR], 2, 4, 4, options={"number_die": True})
    view = ENGINE.view(state, 0)
    assert view["hand"] == sorted(ELFI) and view["you"] == 0
    assert view["dice"] == {
        "d1": 2,
        "d2": 4,
        "sum": 6,
        "forbidden": 4,
        "forbidden_colour": "blue",
        "piggy": None,
        "piggy_shift": None,
    }
    assert view["options"]["number_die"] is True
    assert view["players"][1]["hand_count"] == 5 and "hand" not in view["players"][1]
    assert view["colours"]["3"] == "orange"
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["targets"] is None
    json.dumps(view)


def test_determinize_moves_only_hands_the_viewer_cannot_deduce() -> None:
    state = ENGINE.apply(e11_position(), 2, {"type": "take", "from": 0})
    rng = random.Random(3)
    moved = set()
    for _ in range(30):
        other = ENGINE.determinize(state, 1, rng)
        assert other["hands"][1] == state["hands"][1]
        assert sorted(other["hands"][0] + other["hands"][2]) == sorted(
            state["hands"][0] + state["hands"][2]
        )
        assert ENGINE.view(other, 1) == ENGINE.view(state, 1)
        moved.add(json.dumps(other["hands"]))
    assert len(moved) > 1
    # the two players involved know both hands exactly
    for seat in (0, 2):
        assert ENGINE.determinize(state, seat, rng)["hands"] == state["hands"]
    # right after the opening pick every hand is deducible from the open piles
    opening = rolled([ELFI, SERDAR], 2, 4, 4)
    assert ENGINE.determinize(opening, None, rng)["hands"] == opening["hands"]


def test_determinize_keeps_refilled_cards_in_a_hand_no_longer_deducible() -> None:
    """After the take, A's hand is uncertain to B; A then refills in the open from A's piles:
    those cards stay in A's hand in every sample (everyone saw them go there)."""
    state = ENGINE.apply(e11_position(), 2, {"type": "take", "from": 0})
    assert state["phase"] == "refill" and 0 in state["refilling"]
    refill = {"type": "refill", "cards": [6, 6, 6]}
    state = ENGINE.apply(state, 0, refill)
    assert state["seen"][0] == [6, 6, 6] and not state["public"][0]
    for sample in range(100):
        other = ENGINE.determinize(state, 1, random.Random(sample))
        assert other["hands"][0].count(6) >= 3
        assert ENGINE.view(other, 1) == ENGINE.view(state, 1)


def test_determinize_replaces_other_pending_choices() -> None:
    state = rolled([ELFI, SERDAR, [1, 1, 1, 1, 5]], 2, 4, 4)
    state = ENGINE.apply(state, 0, discard("sum", 5, 1))
    rng = random.Random(1)
    seen = {json.dumps(ENGINE.determinize(state, 1, rng)["pending"][0]) for _ in range(30)}
    assert len(seen) > 1
    assert ENGINE.determinize(state, 0, rng)["pending"][0] == discard("sum", 5, 1)


def test_timer_declares_cannot_or_the_smallest_discard() -> None:
    state = rolled([ELFI, SERDAR, [2, 2, 3, 4, 6]], 2, 4, 4)
    assert ENGINE.fallback_action(state, 0) == discard("die", 2)
    state17 = rolled([[3, 3, 2, 4, 6], [1, 1, 1, 1, 1]], 3, 3, 1)
    assert ENGINE.fallback_action(state17, 0) == discard("die", 3)
    assert ENGINE.fallback_action(state17, 1) == CANNOT
    pairs = rolled([[5, 4, 3, 3, 6], [1, 1, 1, 1, 1]], 1, 2, 6)
    assert ENGINE.fallback_action(pairs, 0) == discard("sum", 3)
    committed = ENGINE.apply(state, 0, discard("die", 2))
    with pytest.raises(IllegalAction):
        ENGINE.fallback_action(committed, 0)


def test_timer_in_the_other_phases() -> None:
    mic = rolled([[1, 1, 3, 5, 6], [2, 3, 3, 4, 4]], 2, 6, 5, "smile", discards=[[2], []])
    assert ENGINE.fallback_action(mic, 0) == {"type": "gift", "card": 5, "to": 1}
    opening = ENGINE.setup(2, 4, None)
    assert ENGINE.fallback_action(opening, 1) == {"type": "pick", "cards": [2, 3, 4, 5, 6]}
    offered = table(
        [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], discards=[[6], []], options={"piggy_die": True}
    )
    rules.start_playthrough(offered)
    assert ENGINE.fallback_action(offered, 0) == {"type": "roll", "piggy": False}
    state = e11_position()
    assert ENGINE.fallback_action(state, 2) == {"type": "take", "from": 0}
    state = ENGINE.apply(state, 2, {"type": "take", "from": 0})
    refill = ENGINE.fallback_action(state, 1)
    assert refill["type"] == "refill" and len(refill["cards"]) == 5
    assert refill in ENGINE.legal_actions(state, 1)


def test_timer_fallback_is_always_legal() -> None:
    options = {"piggy_die": True, "take_choice": "source_chooses"}
    for seed in range(6):
        trace = random_playout(ENGINE, 2 + seed % 4, seed, options)
        for state in trace.states[:-1]:
            for seat in ENGINE.to_act(state):
                assert ENGINE.fallback_action(state, seat) in ENGINE.legal_actions(state, seat)


# -- properties of random playouts -----------------------------------------------------------

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"piggy_die": True},
    {"piggy_die": True, "smile_gift": "mandatory", "take_order": "speed"},
    {"take_choice": "source_chooses", "end_threshold": 80},
    {"piggy_die": True, "take_choice": "source_chooses", "number_die": True},
]


def check_invariants(state: State, before: State | None) -> None:
    players = state["players"]
    for value in range(1, 7):
        held = sum(
            state["hands"][p].count(value)
            + state["piles"][p][value - 1]
            + state["discards"][p].count(value)
            for p in range(players)
        )
        assert held == 4 * players, f"value {value}: {held} cards"
    for p in range(players):
        assert state["hands"][p] == sorted(state["hands"][p])
        assert all(0 <= n <= 4 for n in state["piles"][p])
    if state["phase"] == "decide" and not any(state["pending"]):
        # everyone topped up to five as far as their piles allowed (a smiling-piggy
        # giver is one short)
        gift = state["log"]["gift"]
        for p in range(players):
            if gift is not None and gift["from"] == p:
                continue
            assert len(state["hands"][p]) >= 5 or not any(state["piles"][p])
    for p in range(players):  # what everyone saw go into a hand is still there
        rest = list(state["hands"][p])
        for card in state["seen"][p]:
            rest.remove(card)
    if before is not None:
        assert all(a <= b for a, b in zip(before["totals"], state["totals"], strict=True))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_random_playouts_end_and_conserve_cards(options: dict[str, Any]) -> None:
    for seed in range(8):
        players = 2 + seed % 4
        trace = random_playout(ENGINE, players, 1000 + seed, options)
        previous = None
        for state in trace.states:
            check_invariants(state, previous)
            previous = state
        final = trace.states[-1]
        outcome = ENGINE.outcome(final)
        assert outcome is not None
        threshold = trace.options["end_threshold"]
        assert max(final["totals"]) >= threshold
        assert all(max(r["totals"]) < threshold for r in final["rounds"][:-1])
        assert outcome.winners == scoring.winners(final["totals"])
        for record in final["rounds"]:
            assert record["finishers"]
            assert all(record["penalties"][p] == 0 for p in record["finishers"])


def test_apply_never_mutates_with_any_options() -> None:
    for index, options in enumerate(OPTION_SETS):
        trace = random_playout(ENGINE, 2 + index % 4, 50 + index, options)
        for (seat, action), before in zip(trace.actions, trace.states, strict=False):
            snapshot = json.dumps(before, sort_keys=True)
            after = ENGINE.apply(before, seat, action)
            assert json.dumps(before, sort_keys=True) == snapshot
            assert after == ENGINE.apply(json.loads(snapshot), seat, action)


def test_views_never_show_other_hands_or_pending_choices() -> None:
    trace = random_playout(ENGINE, 4, 77, {"piggy_die": True})
    rng = random.Random(0)
    for state in trace.states[::5]:
        for viewer in (None, 0, 1, 2, 3):
            view = ENGINE.view(state, viewer)
            assert view["hand"] == (None if viewer is None else state["hands"][viewer])
            if viewer is not None and view["pending"] is not None:
                assert view["pending"] == state["pending"][viewer]
            # nothing hidden from this viewer changes its view
            other = ENGINE.determinize(state, viewer, rng)
            assert ENGINE.view(other, viewer) == view


def test_reveal_shows_every_hand_and_otherwise_equals_the_spectator_view() -> None:
    """The replay's view shows all hands, pending secret choices and passed cards' values;
    take those away and it is exactly what a spectator sees."""
    trace = random_playout(ENGINE, 4, 91, {"piggy_die": True, "take_choice": "source_chooses"})
    seen_pending = seen_passed = False
    for state in trace.states:
        revealed = ENGINE.reveal(state)
        assert revealed.pop("revealed") is True
        secret = state["phase"] in ("pick", "decide")
        for entry in revealed["players"]:
            seat = entry["seat"]
            assert entry.pop("hand") == state["hands"][seat]
            pending = entry.pop("pending")
            assert pending == (state["pending"][seat] if secret else None)
            seen_pending |= pending is not None
        for key in ("log", "previous"):
            log = revealed[key]
            assert log == state[key]
            if log is not None:
                passed = [log["gift"]] if log["gift"] else []
                passed += [take for take in log["takes"] if take["source"] is not None]
                seen_passed |= any(item["card"] is not None for item in passed)
            revealed[key] = redact_log(log, None)
        assert revealed == ENGINE.view(state, None)
    assert seen_pending and seen_passed


def test_determinize_depends_only_on_what_the_viewer_knows() -> None:
    options = {"piggy_die": True, "take_choice": "source_chooses", "take_order": "speed"}
    trace = random_playout(ENGINE, 5, 88, options)
    for state in trace.states[::7]:
        for viewer in (None, 0, 1, 2, 3, 4):
            twin = ENGINE.determinize(state, viewer, random.Random(5))
            first = ENGINE.determinize(state, viewer, random.Random(6))
            assert first == ENGINE.determinize(twin, viewer, random.Random(6))


# -- golden playthrough --------------------------------------------------------------------


def test_the_golden_playthrough_goes_through_every_phase() -> None:
    """It replays in tests/games/test_playthroughs.py."""
    golden = json.loads(GOLDEN.read_text())
    kinds = {action["type"] for _, action in golden["actions"]}
    assert {"pick", "roll", "discard", "cannot", "take", "refill"} <= kinds
