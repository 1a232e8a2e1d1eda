"""Generic tests every registered engine must pass (the engine contract, design section 2)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import REGISTRY, IllegalAction, InvalidOptions, MalformedAction
from games.abstrac import actions as abstrac_actions
from games.abstrac import rules as abstrac_rules
from games.base import SERVED_BY, Action, Engine, OptionSpec, State
from games.bots import game_bots
from games.search import bot_actions
from games.wire import ActionSchema, Bool, Int, Kind, ListOf, OneOf
from tests.games.playout import player_counts, random_playout, unordered

ENGINES = sorted(REGISTRY.items())
IDS = [game_id for game_id, _ in ENGINES]


@pytest.fixture(params=[engine for _, engine in ENGINES], ids=IDS)
def engine(request: pytest.FixtureRequest) -> Engine:
    return request.param


def test_registry_declares_every_game() -> None:
    assert {"abstrac"} <= set(REGISTRY)
    for game_id, engine in REGISTRY.items():
        info = engine.info.to_json()
        assert info["id"] == game_id
        assert 1 <= info["min_players"] <= info["max_players"]
        json.dumps(info)


def test_engines_are_served_by_their_modules(engine: Engine) -> None:
    """Each engine's calls are its package's functions, from the module named for the job."""
    package = f"games.{engine.info.id}"
    for method, (job, name) in SERVED_BY.items():
        served = type(engine).__dict__.get(method)
        if isinstance(served, staticmethod):
            assert served.__func__.__module__ == f"{package}.{job}", method
            assert served.__func__.__name__ == name, method


def test_an_engine_missing_a_required_call_is_refused() -> None:
    with pytest.raises(TypeError, match="view, determinize"):

        class Partial(Engine, modules=(abstrac_actions, abstrac_rules)):
            pass


def test_default_options_are_valid(engine: Engine) -> None:
    for players in player_counts(engine):
        options = engine.check_options({}, players)
        assert set(options) == {o.name for o in engine.info.options}


def _edge_values(spec: OptionSpec) -> list[Any]:
    if spec.type == "bool":
        return [False, True]
    if spec.type == "choice":
        return list(spec.choices)
    low = spec.min if spec.min is not None else spec.default - 10
    high = spec.max if spec.max is not None else spec.default + 10
    return sorted({low, low + 1, spec.default, high - 1, high})


def test_options_accepted_are_options_a_match_starts_with(engine: Engine) -> None:
    """What ``check_options`` accepts (a room is created with it) ``setup`` starts, for any
    table size: constraints across options or on the player count are checked up front."""
    specs = engine.info.options
    for players in range(engine.info.min_players, engine.info.max_players + 1):
        for spec in specs:
            for value in _edge_values(spec):
                for base in ({}, {other.name: _edge_values(other)[-1] for other in specs}):
                    options = {**base, spec.name: value}
                    try:
                        checked = engine.check_options(options, players)
                    except InvalidOptions:
                        continue
                    state = engine.setup(players, 1, checked)
                    assert engine.to_act(state), (players, options)


def test_random_playouts_end_and_stay_json(engine: Engine) -> None:
    for seed in range(12):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, seed)
        final = trace.states[-1]
        outcome = engine.outcome(final)
        assert outcome is not None, f"seed {seed}: no outcome"
        assert engine.to_act(final) == frozenset()
        assert len(outcome.scores) == players
        assert all(0 <= w < players for w in outcome.winners)
        assert outcome.winners or players == 1, "a table of several always has a winner"
        assert json.loads(json.dumps(final)) == final
        json.dumps(outcome.to_json())
        for record in outcome.rounds:  # the history page's round-by-round table reads these
            assert len(record["scores"]) == players


def test_replay_is_exact(engine: Engine) -> None:
    for seed in range(4):
        players = player_counts(engine)[-1 - seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 100 + seed)
        state = engine.setup(players, 100 + seed, trace.options)
        assert state == trace.states[0]
        for (seat, action), expected in zip(trace.actions, trace.states[1:], strict=True):
            state = engine.apply(state, seat, json.loads(json.dumps(action)))
            assert state == expected


def test_play_works_out_the_next_seats_and_the_outcome_once(engine: Engine) -> None:
    """A move's transition holds what the separate calls give: the state ``apply`` gives, the
    canonical action, and who is to act and the outcome of the new state."""
    for seed in range(2):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 500 + seed)
        steps = zip(trace.actions, trace.states[:-1], trace.states[1:], strict=True)
        for (seat, action), before, after in steps:
            move = engine.play(before, seat, json.loads(json.dumps(action)))
            assert (move.state, move.action) == (after, action)
            assert move.outcome == engine.outcome(after)
            assert move.to_act == (engine.to_act(after) if move.outcome is None else frozenset())


def test_apply_never_mutates_its_input(engine: Engine) -> None:
    trace = random_playout(engine, player_counts(engine)[0], 7)
    for (seat, action), before in zip(trace.actions, trace.states, strict=False):
        snapshot = json.dumps(before, sort_keys=True)
        engine.apply(before, seat, action)
        assert json.dumps(before, sort_keys=True) == snapshot
        engine.apply_unchecked(before, seat, action)
        assert json.dumps(before, sort_keys=True) == snapshot


def test_apply_unchecked_gives_what_apply_gives_for_legal_actions(engine: Engine) -> None:
    """The trusted path is the checked one without its checks: for every action of random
    playouts, and for a few other legal actions at each step, both give the same state."""
    for seed in range(6):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        rng = random.Random(seed)
        trace = random_playout(engine, players, 600 + seed)
        steps = zip(trace.actions, trace.states[:-1], trace.states[1:], strict=True)
        for (seat, action), before, after in steps:
            assert engine.apply_unchecked(before, seat, action) == after
            legal = engine.legal_actions(before, seat)
            for other in rng.sample(legal, min(2, len(legal))):
                checked = engine.apply(before, seat, other)
                assert engine.apply_unchecked(before, seat, other) == checked


def test_legal_actions_are_empty_off_turn_and_all_apply(engine: Engine) -> None:
    trace = random_playout(engine, player_counts(engine)[-1], 11)
    players = engine.players(trace.states[0])
    for state in trace.states[:: max(1, len(trace.states) // 40)]:
        acting = engine.to_act(state)
        for seat in range(players):
            legal = engine.legal_actions(state, seat)
            if seat not in acting:
                assert legal == []
                continue
            for action in legal[:30]:
                engine.apply(state, seat, action)


def test_legal_actions_are_canonical(engine: Engine) -> None:
    """Every legal action is its own canonical form: parsing it (as the server parses what a
    client sends) gives it back, as a fresh value."""
    checked = 0
    for seed in range(6):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 400 + seed)
        for state in trace.states[:: max(1, len(trace.states) // 30)]:
            for seat in engine.to_act(state):
                for action in engine.legal_actions(state, seat):
                    parsed = engine.parse_action(action)
                    assert parsed == action
                    assert parsed is not action
                    checked += 1
        for _, action in trace.actions:  # every action played, whatever its state
            assert engine.parse_action(json.loads(json.dumps(action))) == action
    assert checked


def test_parse_action_refuses_what_is_not_canonical(engine: Engine) -> None:
    state = engine.setup(player_counts(engine)[-1], 3, None)
    action = engine.legal_actions(state, min(engine.to_act(state)))[0]
    for junk in (
        {**action, "x": 1},
        dict(list(action.items())[:-1]),  # its last key left out (or its type)
        {**action, "type": action["type"] + "!"},
        [action],
        None,
    ):
        with pytest.raises(MalformedAction):
            engine.parse_action(junk)


def test_out_of_turn_and_garbage_are_refused(engine: Engine) -> None:
    state = engine.setup(player_counts(engine)[-1], 3, None)
    acting = engine.to_act(state)
    idle = [s for s in range(engine.players(state)) if s not in acting]
    mover = min(acting)
    if idle:
        action = engine.legal_actions(state, mover)[0]
        with pytest.raises(IllegalAction):
            engine.apply(state, idle[0], action)
    for garbage in ({}, {"type": "no_such_action"}, {"type": 5}, [], "take", None):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, mover, garbage)  # type: ignore[arg-type]
        assert refused.value.message
    final = random_playout(engine, player_counts(engine)[0], 5).states[-1]
    with pytest.raises(IllegalAction):
        engine.apply(final, 0, {"type": "anything"})


def test_apply_checks_game_over_then_turn_then_shape(engine: Engine) -> None:
    """Every game refuses in one order, so the first failing check names the refusal."""
    state = engine.setup(player_counts(engine)[-1], 3, None)
    acting = engine.to_act(state)
    for seat in range(engine.players(state)):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, seat, None)  # type: ignore[arg-type]
        assert refused.value.code == ("malformed_action" if seat in acting else "not_your_turn")
    final = random_playout(engine, player_counts(engine)[0], 5).states[-1]
    for seat in range(engine.players(final)):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(final, seat, None)  # type: ignore[arg-type]
        assert refused.value.code == "game_over"


def _drawn(kind: Kind, rng: random.Random) -> Any:
    """A value of ``kind``; whole numbers near the seats, counts and values of the games."""
    if isinstance(kind, Int):
        return rng.randint(max(kind.min, -1), min(kind.max, 12))
    if isinstance(kind, Bool):
        return rng.random() < 0.5
    if isinstance(kind, OneOf):
        return rng.choice(sorted(kind.values, key=str))
    assert isinstance(kind, ListOf)
    size = rng.randint(kind.min, min(kind.max, kind.min + 5))
    return [_drawn(kind.item, rng) for _ in range(size)]


def _candidates(schema: ActionSchema, near: list[Action], rng: random.Random) -> Iterator[Any]:
    """Actions of every type with fields drawn from the schema, and each of ``near`` with one
    field drawn anew or one of its lists reordered, cut short, grown or changed in an item."""
    for kind, fields in schema.actions.items():
        for _ in range(3):
            yield {"type": kind, **{key: _drawn(field, rng) for key, field in fields.items()}}
    for action in near:
        for key, field in schema.actions[action["type"]].items():
            yield {**action, key: _drawn(field, rng)}
            value = action[key]
            if not isinstance(field, ListOf) or not value:
                continue
            at = rng.randrange(len(value))
            yield {**action, key: value[::-1]}
            yield {**action, key: rng.sample(value, len(value))}
            yield {**action, key: value[1:]}
            yield {**action, key: [*value, value[0]]}
            yield {**action, key: [*value[:at], _drawn(field.item, rng), *value[at + 1 :]]}
            if isinstance(field.item, ListOf):
                yield {**action, key: [inner[::-1] for inner in value]}


def test_whatever_play_accepts_is_listed(engine: Engine) -> None:
    """The reverse of "every legal action applies": along seeded playouts, each action that
    ``play`` accepts from a seat to act (legal ones, and bots' extra ones, changed a little;
    actions of every type drawn from the schema) is in ``legal_actions``, up to the order of
    its lists, or of a type the engine names in ``unlisted``, each of which is met."""
    accepted, unlisted = 0, set()
    bots = game_bots(engine)
    for seed in range(4):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 700 + seed)
        rng = random.Random(seed)
        for state in trace.states[:: max(1, len(trace.states) // 40)]:
            for seat in sorted(engine.to_act(state)):
                legal = engine.legal_actions(state, seat)
                listed = {unordered(action) for action in legal}
                extra = bot_actions(engine, bots, state, seat)[len(legal) :]
                near = rng.sample(legal, min(4, len(legal))) + rng.sample(extra, min(2, len(extra)))
                for raw in _candidates(engine.action_schema, near, rng):
                    try:
                        action = engine.play(state, seat, raw).action
                    except IllegalAction:
                        continue
                    accepted += 1
                    if unordered(action) not in listed:
                        assert action["type"] in engine.unlisted, (seed, seat, action)
                        unlisted.add(action["type"])
    assert accepted
    assert unlisted == set(engine.unlisted)


def _viewers(engine: Engine, state: State) -> list[int | None]:
    return [None, *range(engine.players(state))]


def test_view_is_invariant_under_determinize(engine: Engine) -> None:
    moved = 0
    for seed in range(6):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 200 + seed)
        for state in trace.states[:: max(1, len(trace.states) // 25)]:
            for viewer in _viewers(engine, state):
                rng = random.Random(seed)
                other = engine.determinize(state, viewer, rng)
                assert engine.view(other, viewer) == engine.view(state, viewer)
                assert engine.to_act(other) == engine.to_act(state)
                for seat in engine.to_act(state):
                    if seat == viewer:
                        assert engine.legal_actions(other, seat) == engine.legal_actions(
                            state, seat
                        )
                if _cards_of(other) != _cards_of(state):
                    moved += 1
    if engine.info.perfect_information:
        assert moved == 0
    else:
        assert moved > 0, "determinize never moved a hidden card"


def test_a_perfect_information_view_is_the_same_for_every_viewer(engine: Engine) -> None:
    """The server builds such a view once a move for every viewer (app/rooms/views.py)."""
    if not engine.info.perfect_information:
        pytest.skip("views of hidden information differ by seat")
    for seed in range(4):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 300 + seed)
        for state in trace.states:
            spectator = engine.view(state, None)
            assert all(engine.view(state, seat) == spectator for seat in range(players))


def test_observe_is_the_view_the_legal_actions_and_the_redacted_last_move(
    engine: Engine,
) -> None:
    """What the live table shows each viewer, in one call, is what the three calls give."""
    for seed in range(3):
        players = player_counts(engine)[seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 400 + seed)
        lasts = [None, *trace.actions]
        for state, last in list(zip(trace.states, lasts, strict=True))[::7]:
            for viewer in _viewers(engine, state):
                seen = engine.observe(state, viewer, last)
                assert seen.view == engine.view(state, viewer)
                legal = engine.legal_actions(state, viewer) if viewer is not None else []
                assert seen.legal == legal
                if last is None:
                    assert seen.last is None
                else:
                    hidden = engine.redact_action(last[1], last[0], viewer)
                    assert seen.last == {"seat": last[0], "action": hidden}
                closed = engine.observe(state, viewer, last, acting=False)
                assert closed.legal == [] and closed.view == seen.view


def _cards_of(state: State) -> str:
    without_rng = {k: v for k, v in state.items() if k != "rng"}
    return json.dumps(without_rng, sort_keys=True)


def test_views_do_not_carry_the_seed(engine: Engine) -> None:
    state = engine.setup(player_counts(engine)[0], 987654321987, None)
    for viewer in _viewers(engine, state):
        assert "987654321987" not in json.dumps(engine.view(state, viewer))


def test_determinize_depends_only_on_what_the_seat_sees(engine: Engine) -> None:
    """Two states a seat cannot tell apart give the same sample for the same random stream,
    so a bot that plans on samples decides from its own information only."""
    for seed in range(4):
        players = player_counts(engine)[-1 - seed % len(player_counts(engine))]
        trace = random_playout(engine, players, 300 + seed)
        for state in trace.states[:: max(1, len(trace.states) // 15)]:
            for viewer in _viewers(engine, state):
                twin = engine.determinize(state, viewer, random.Random(seed + 1000))
                assert engine.view(twin, viewer) == engine.view(state, viewer)
                first = engine.determinize(state, viewer, random.Random(seed))
                second = engine.determinize(twin, viewer, random.Random(seed))
                assert first == second


def test_reveal_is_json_without_the_seed(engine: Engine) -> None:
    """The replay's revealed view (what it shows is each game's own test) never holds the seed."""
    trace = random_playout(engine, player_counts(engine)[-1], 987_654_321_987)
    for state in trace.states[:: max(1, len(trace.states) // 10)]:
        revealed = json.dumps(engine.reveal(state), sort_keys=True)
        assert str(state["rng"]["seed"]) not in revealed
        if engine.info.perfect_information:
            assert engine.reveal(state) == engine.view(state, None)
