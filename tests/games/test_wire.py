"""The declared wire form of actions (games/wire.py): what a client sends is refused unless it
is exactly an action of the game, and the action kept is a fresh, bounded copy."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import REGISTRY, MalformedAction
from games.base import Action, Engine
from games.wire import ActionSchema, Bool, Int, ListOf, OneOf
from tests.games.playout import player_counts

ENGINES = sorted(REGISTRY.items())

SCHEMA = ActionSchema(
    {
        "take": {"count": Int(1, 3)},
        "order": {"first": Bool()},
        "lay": {"groups": ListOf(ListOf(OneOf(frozenset({"AS", "2S"}), "a card"), 1, 3), 1, 2)},
        "turn": {"direction": OneOf(frozenset({1, -1}), "1 or -1")},
    }
)


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_a_canonical_action_is_a_fresh_copy() -> None:
    raw: Action = {"groups": [["AS", "2S"], ["AS"]], "type": "lay"}
    parsed = SCHEMA.parse(raw)
    assert parsed == raw
    assert list(parsed) == ["type", "groups"]
    parsed["groups"][0].append("changed")
    assert raw["groups"][0] == ["AS", "2S"]


@pytest.mark.parametrize(
    "junk",
    [
        {"type": "take", "count": 1, "x": nested(1000)},
        {"type": "take", "count": 1, "pad": "x" * 15_000},
        {"type": "take", "count": nested(100_000)},
        {"type": "take", "count": True},
        {"type": "take", "count": 1.0},
        {"type": "take", "count": 2**70},
        {"type": "take", "count": 0},
        {"type": "take", "count": "1"},
        {"type": "take"},
        {"type": "order", "first": 1},
        {"type": "turn", "direction": True},
        {"type": "turn", "direction": 1.0},
        {"type": "lay", "groups": [["AS"]] * 3},
        {"type": "lay", "groups": [["AS", "2S", "AS", "2S"]]},
        {"type": "lay", "groups": [[["AS"]]]},
        {"type": "lay", "groups": [[]]},
        {"type": "lay", "groups": ("AS",)},
        {"type": "take" * 4000, "count": 1},
        {"type": ["take"], "count": 1},
        {"count": 1},
        [{"type": "take", "count": 1}],
        "take",
        None,
    ],
)
def test_junk_is_refused(junk: Any) -> None:
    with pytest.raises(MalformedAction) as refused:
        SCHEMA.parse(junk)
    assert 0 < len(refused.value.message) < 200


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from([game_id for game_id, _ in ENGINES]),
    pick=st.integers(min_value=0),
    key=st.text(max_size=8),
    junk=JSON,
)
def test_a_changed_legal_action_is_refused_or_canonical(
    game: str, pick: int, key: str, junk: Any
) -> None:
    """Whatever a client puts in place of a value, or adds under a new key, the result is
    refused, or is an action of the game with exactly its declared keys."""
    engine: Engine = REGISTRY[game]
    state = engine.setup(player_counts(engine)[-1], pick % 1000, None)
    legal = engine.legal_actions(state, min(engine.to_act(state)))
    action = dict(legal[pick % len(legal)])
    action[key] = junk
    try:
        parsed = engine.parse_action(action)
    except MalformedAction:
        return
    assert engine.parse_action(parsed) == parsed
    assert set(parsed) <= set(action)
    assert len(json.dumps(parsed)) < 4000
