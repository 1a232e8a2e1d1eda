"""``Outcome``: why a match ended, its constructors, and its wire form (``to_json``)."""

from __future__ import annotations

import json

from games import REGISTRY, Outcome
from games.types import Termination
from tests.games.playout import player_counts, random_playout

KEYS = ["scores", "winners", "rounds", "detail", "termination"]


def test_a_forfeit_loses_one_seat_and_the_others_share_the_win() -> None:
    assert Outcome.forfeit(3, 1, "timeout").to_json() == {
        "scores": [1, 0, 1],
        "winners": [0, 2],
        "rounds": [],
        "detail": {"forfeit": 1, "reason": "timeout"},
        "termination": "forfeit",
    }


def test_a_claimed_win_goes_to_the_seats_still_at_the_table() -> None:
    assert Outcome.claimed(4, away=[0, 3], by=2).to_json() == {
        "scores": [0, 1, 1, 0],
        "winners": [1, 2],
        "rounds": [],
        "detail": {"claimed_by": 2},
        "termination": "claimed",
    }


def test_an_aborted_match_has_no_result() -> None:
    assert Outcome.aborted(2, "rules_changed").to_json() == {
        "scores": [0, 0],
        "winners": [],
        "rounds": [],
        "detail": {"reason": "rules_changed"},
        "termination": "aborted",
    }


def test_abandoned_seats_are_sorted_and_shown_only_when_there_are_some() -> None:
    ended = Outcome.forfeit(3, 2, "absent")
    assert ended.abandoning([]) is ended
    left = ended.abandoning({2, 0})
    assert left.abandoned == (0, 2) and left.termination is Termination.FORFEIT
    assert list(left.to_json()) == [*KEYS, "abandoned"]
    assert left.to_json()["abandoned"] == [0, 2]
    assert list(ended.to_json()) == KEYS


def test_the_stored_form_reads_back_exactly() -> None:
    ends = [
        Outcome.forfeit(2, 0, "absent").abandoning([0]),
        Outcome.claimed(3, away=[1], by=0),
        Outcome.aborted(4, "cannot_rebuild"),
        Outcome(scores=(46.0, 2.5), winners=(0,)),
    ]
    for engine in REGISTRY.values():
        trace = random_playout(engine, player_counts(engine)[0], 3)
        ended = engine.outcome(trace.states[-1])
        assert ended is not None and ended.termination is Termination.NORMAL
        ends.append(ended)
    for ended in ends:
        stored = json.loads(json.dumps(ended.to_json()))
        assert Outcome.from_json(stored) == ended
        assert list(map(type, Outcome.from_json(stored).scores)) == list(map(type, ended.scores))
