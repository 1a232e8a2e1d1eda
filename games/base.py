"""The engine contract every game implements.

An engine is a pure, deterministic state machine in the spirit of OpenSpiel's
``State`` and python-chess's ``Board``. A state is a plain JSON value (dicts,
lists, strings, numbers, booleans, None) so it can be stored, sent and compared.
Engines never mutate their inputs, never read the clock and never touch the
global ``random``: every random event is drawn from the seed held in the state
(see :func:`draw_rng`), so ``setup(seed)`` plus the action log reproduces every
state exactly.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, ClassVar, Literal

# the contract's types and errors live in a leaf module; they are named from here too
from games.types import (
    Action,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    Seat,
    State,
    Termination,
)
from games.wire import ActionSchema

OptionType = Literal["int", "bool", "choice"]


@dataclass(frozen=True)
class OptionSpec:
    name: str
    type: OptionType
    default: Any
    label: str
    choices: tuple[Any, ...] = ()
    # each choice in the player's words, in the order of ``choices``
    choice_labels: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    def check(self, value: Any) -> Any:
        if self.type == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {self.name!r} must be true or false")
            return value
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"option {self.name!r} must be a whole number")
            if self.min is not None and value < self.min:
                raise InvalidOptions(f"option {self.name!r} must be at least {self.min}")
            if self.max is not None and value > self.max:
                raise InvalidOptions(f"option {self.name!r} must be at most {self.max}")
            return value
        if value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name!r} must be one of {allowed}")
        return value

    def to_json(self) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": self.type, "default": self.default, "label": self.label}
        if self.choices:
            spec["choices"] = list(self.choices)
            spec["choice_labels"] = list(self.choice_labels or map(str, self.choices))
        if self.min is not None:
            spec["min"] = self.min
        if self.max is not None:
            spec["max"] = self.max
        return spec


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    min_players: int
    max_players: int
    summary: str
    options: tuple[OptionSpec, ...] = ()
    perfect_information: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": {o.name: o.to_json() for o in self.options},
            "summary": self.summary,
        }


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match, and why it ended (python-chess's ``Outcome`` holds its
    ``termination`` too). ``winners`` may hold several seats (a shared win); ``abandoned`` names
    the seats whose players had left it. An engine's ``outcome`` ends a match by its rules; the
    constructors below end it otherwise."""

    scores: tuple[float, ...]
    winners: tuple[Seat, ...]
    rounds: tuple[dict[str, Any], ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    termination: Termination = Termination.NORMAL
    abandoned: tuple[Seat, ...] = ()

    @classmethod
    def forfeit(cls, players: int, seat: Seat, reason: str) -> Outcome:
        """``seat`` loses by the table settings (``reason``: its timer ran out, its player is
        absent); every other seat shares the win."""
        return cls(
            scores=tuple(0 if s == seat else 1 for s in range(players)),
            winners=tuple(s for s in range(players) if s != seat),
            detail={"forfeit": seat, "reason": reason},
            termination=Termination.FORFEIT,
        )

    @classmethod
    def claimed(cls, players: int, away: Collection[Seat], by: Seat) -> Outcome:
        """Seat ``by`` ends the match while the ``away`` seats are gone: the others share the
        win."""
        return cls(
            scores=tuple(0 if s in away else 1 for s in range(players)),
            winners=tuple(s for s in range(players) if s not in away),
            detail={"claimed_by": by},
            termination=Termination.CLAIMED,
        )

    @classmethod
    def aborted(cls, players: int, reason: str, **detail: Any) -> Outcome:
        """The match cannot go on (``reason``: its rules changed since it began, or it reached
        the server's limit of moves, ``limit``): no result."""
        return cls(
            scores=(0,) * players,
            winners=(),
            detail={"reason": reason, **detail},
            termination=Termination.ABORTED,
        )

    def abandoning(self, seats: Iterable[Seat]) -> Outcome:
        """This outcome, saying the players of ``seats`` abandoned the match (none: itself)."""
        left = tuple(sorted(set(seats)))
        return replace(self, abandoned=left) if left else self

    def to_json(self) -> dict[str, Any]:
        """The wire and stored form; ``abandoned`` only when some seat did."""
        shown = {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": list(self.rounds),
            "detail": self.detail,
            "termination": self.termination.value,
        }
        if self.abandoned:
            shown["abandoned"] = list(self.abandoned)
        return shown

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> Outcome:
        """The outcome ``to_json`` gave (a stored match's): ``from_json(o.to_json()) == o``."""
        return cls(
            scores=tuple(stored["scores"]),
            winners=tuple(stored["winners"]),
            rounds=tuple(stored["rounds"]),
            detail=stored["detail"],
            termination=Termination(stored["termination"]),
            abandoned=tuple(stored.get("abandoned", ())),
        )


@dataclass(frozen=True)
class Transition:
    """What one move did, each part worked out once: the state after it, the move in its
    canonical form, who acts next (no one once the match is over) and the outcome."""

    state: State
    action: Action
    to_act: frozenset[Seat]
    outcome: Outcome | None


@dataclass(frozen=True)
class Observation:
    """What one viewer (a seat, or ``None`` for a spectator) is shown of a state: its view, its
    own legal actions, and the last move as it may know it (``None`` before the first)."""

    view: dict[str, Any]
    legal: list[Action]
    last: dict[str, Any] | None


#: Which function of a game's modules serves which call of the contract, as
#: ``method: (module's job, function)``: ``apply_unchecked`` is ``rules.apply``.
SERVED_BY: dict[str, tuple[str, str]] = {
    "to_act": ("rules", "to_act"),
    "legal_actions": ("actions", "legal_actions"),
    "apply_unchecked": ("rules", "apply"),
    "outcome": ("rules", "outcome"),
    "view": ("view", "view"),
    "determinize": ("determinize", "determinize"),
    "reveal": ("view", "reveal"),
    "redact_action": ("view", "redact_action"),
    "fallback_action": ("actions", "fallback_action"),
}
#: The calls every game must serve (the others have a default in :class:`Engine`).
REQUIRED = ("to_act", "legal_actions", "apply_unchecked", "outcome", "view", "determinize")


class Engine:
    """Base class for game engines; subclasses fill in the rules.

    ``legal_actions`` returns ``[]`` for a seat that is not to act or when the
    match is over. ``play`` makes every check of a client's move, once, and raises
    :class:`IllegalAction` for anything the rules refuse, including a seat acting out of
    turn; ``apply`` is its state alone, and ``apply_unchecked`` their trusted twin for
    actions known to be legal.

    ``legal_actions`` lists each move once, in one order of its lists (of cards, of seats);
    the rules may accept the other orders of those lists as the same move. An engine whose
    rules accept other actions too, by design, names their types and why in ``unlisted``;
    ``tests/games/test_contract.py`` holds everything else ``play`` accepts to
    ``legal_actions``.

    Every game declares itself the same way, in ``games/<id>/engine.py``: ``META``, then
    ``class <Name>Engine(Engine, modules=(actions, determinize, rules, view))`` whose
    contract methods are the package's own functions (see :data:`SERVED_BY`), then
    ``ENGINE``; ``games/<id>/__init__.py`` re-exports them.
    """

    info: ClassVar[GameInfo]
    version: ClassVar[str] = "1"
    action_schema: ClassVar[ActionSchema]
    unlisted: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, *, modules: Iterable[ModuleType] = (), **kwargs: Any) -> None:
        """Serve the contract from a game's modules, named for their jobs: with
        ``modules=(actions, determinize, rules, view)`` the class's ``to_act`` is
        ``rules.to_act`` itself (a staticmethod: no call in between), and so on by
        :data:`SERVED_BY`. A method the class defines itself wins; an optional one
        (``reveal``, ``redact_action``, ``fallback_action``) the module lacks stays the base's.
        """
        super().__init_subclass__(**kwargs)
        by_job = {module.__name__.rpartition(".")[2]: module for module in modules}
        for method, (job, name) in SERVED_BY.items():
            function = getattr(by_job.get(job), name, None)
            if method not in cls.__dict__ and function is not None:
                setattr(cls, method, staticmethod(function))
        if by_job:
            missing = [m for m in REQUIRED if getattr(cls, m) is getattr(Engine, m, None)]
            if missing:
                raise TypeError(f"{cls.__name__} does not serve {', '.join(missing)}")

    # -- options -----------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
        """Fill defaults and validate; raises :class:`InvalidOptions`."""
        options = dict(options or {})
        known = {o.name: o for o in self.info.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidOptions(f"unknown option {unknown[0]!r} for {self.info.title}")
        if not self.info.min_players <= players <= self.info.max_players:
            raise InvalidOptions(
                f"{self.info.title} is for {self.info.min_players} to "
                f"{self.info.max_players} players, not {players}"
            )
        return {name: spec.check(options.get(name, spec.default)) for name, spec in known.items()}

    # -- actions from outside ---------------------------------------------------------
    def parse_action(self, raw: Any) -> Action:
        """The canonical form of a client's action (known keys, right types, bounded size):
        the only form the server applies, stores and sends. Raises :class:`MalformedAction`.

        Every legal action is canonical: ``parse_action(a) == a``. ``play`` calls it on what
        clients send; ``apply_unchecked`` does not (bots and searches apply legal actions).
        """
        return self.action_schema.parse(raw)

    # -- the contract --------------------------------------------------------------
    def setup(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> frozenset[Seat]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        raise NotImplementedError

    def play(self, state: State, seat: Seat, raw: Any) -> Transition:
        """What ``seat``'s move ``raw`` (as a client sent it) does, every check made once.

        It refuses, in this order, a move after the end (``game_over``), from a seat that is
        not to act (``not_your_turn``), of the wrong shape (:class:`MalformedAction`, from
        ``parse_action``) and one the rules do not allow (the game's code), raising
        :class:`IllegalAction` with a sentence for the player. The input state is never
        changed. The transition holds the move in its canonical form, and who acts next and
        the outcome, worked out once for the new state.

        >>> from games.abstrac import ENGINE
        >>> state = ENGINE.setup(2, seed=1)
        >>> move = ENGINE.play(state, 0, {"first": True, "type": "order"})
        >>> move.action, sorted(move.to_act), move.outcome
        ({'type': 'order', 'first': True}, [0], None)
        >>> ENGINE.play(move.state, 1, {"type": "take", "count": "3"})
        Traceback (most recent call last):
        ...
        games.types.IllegalAction: It is not your turn.
        >>> ENGINE.play(move.state, 0, {"type": "take", "count": "3"})
        Traceback (most recent call last):
        ...
        games.types.MalformedAction: 'count' must be a whole number from -2147483648 to ...
        >>> len(ENGINE.play(move.state, 0, {"type": "take", "count": 3}).state["taken"][0])
        3
        """
        check_turn(self, state, seat)
        action = self.parse_action(raw)
        after = self.apply_unchecked(state, seat, action)
        outcome = self.outcome(after)
        to_act = self.to_act(after) if outcome is None else frozenset()
        return Transition(state=after, action=action, to_act=to_act, outcome=outcome)

    def apply(self, state: State, seat: Seat, action: Action) -> State:
        """The state after ``seat`` plays ``action``: ``play``'s state, every check made.

        >>> from games.abstrac import ENGINE
        >>> state = ENGINE.setup(2, seed=1)
        >>> ENGINE.legal_actions(state, 0)
        [{'type': 'order', 'first': True}, {'type': 'order', 'first': False}]
        >>> state = ENGINE.apply(state, 0, {"type": "order", "first": True})
        >>> ENGINE.apply(state, 1, {"type": "take", "count": 1})
        Traceback (most recent call last):
        ...
        games.types.IllegalAction: It is not your turn.
        >>> ENGINE.apply(state, 0, {"type": "take", "count": 4})
        Traceback (most recent call last):
        ...
        games.types.IllegalAction: You must take 1, 2 or 3 cards, not 4.
        >>> state = ENGINE.apply(state, 0, {"type": "take", "count": 3})
        >>> len(state["taken"][0])
        3
        """
        return self.play(state, seat, action).state

    def apply_unchecked(self, state: State, seat: Seat, action: Action) -> State:
        """The state after ``seat`` plays ``action``, for trusted callers: like python-chess's
        ``Board.push``, it does not check that the match is on, that ``seat`` is to act, or
        that the action is well-formed and legal.

        Use it only for an action from ``legal_actions(state, seat)`` (searches, bots'
        playouts) or from a stored move log that ``apply`` once accepted (replays, catch-up);
        anything else may raise any error or return a state the rules never reach. The rules
        may still refuse an illegal action where the check is part of the transition, but no
        caller may count on it. The input state is never changed.

        >>> from games.abstrac import ENGINE
        >>> state = ENGINE.setup(2, seed=1)
        >>> for action in ({"type": "order", "first": True}, {"type": "take", "count": 3}):
        ...     state = ENGINE.apply_unchecked(state, 0, action)
        >>> len(state["taken"][0]), sorted(ENGINE.to_act(state))
        (3, [1])
        """
        raise NotImplementedError

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def determinize(self, state: State, seat: Seat | None, rng: random.Random) -> State:
        raise NotImplementedError

    # -- derived, overridable ----------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return self.outcome(state) is not None

    def players(self, state: State) -> int:
        return int(state["players"])

    def reveal(self, state: State) -> dict[str, Any]:
        """A view in ``view``'s shape with every card shown: for finished matches' replays.

        Games with hidden information override it; for the others a spectator sees all.
        """
        return self.view(state, None)

    def redact_action(self, action: Action, actor: Seat, viewer: Seat | None) -> Action | None:
        """What ``viewer`` may learn of ``actor``'s last action; ``None`` hides it whole.

        Games whose actions carry hidden choices (a face-down pass, a secret
        decision) override this; the default shows actions as they are.
        """
        return action

    def observe(
        self,
        state: State,
        viewer: Seat | None,
        last: tuple[Seat, Action] | None,
        *,
        acting: bool = True,
        shared: dict[str, Any] | None = None,
    ) -> Observation:
        """Everything ``viewer`` is shown of ``state`` after ``last`` (the seat that moved, and
        its move), in one call: ``view`` (or ``shared``, a view already built that every
        viewer is shown alike, as in a game of perfect information), its legal actions
        (none when not ``acting``: the match is over, or a spectator) and the last move
        redacted for it.

        >>> from games.abstrac import ENGINE
        >>> state = ENGINE.setup(2, seed=1)
        >>> seen = ENGINE.observe(state, 1, None)
        >>> seen.legal, seen.last
        ([], None)
        """
        view = shared if shared is not None else self.view(state, viewer)
        legal = self.legal_actions(state, viewer) if acting and viewer is not None else []
        if last is None:
            return Observation(view, legal, None)
        actor, action = last
        return Observation(
            view, legal, {"seat": actor, "action": self.redact_action(action, actor, viewer)}
        )

    def fallback_action(self, state: State, seat: Seat) -> Action:
        """The action a turn timer takes for a seat that did not answer."""
        return self.legal_actions(state, seat)[0]


# -- helpers shared by engines ----------------------------------------------------------


def clone(state: State) -> State:
    """A deep copy of a JSON state; far faster than ``copy.deepcopy``."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def new_rng_state(seed: int) -> dict[str, int]:
    """The randomness record an engine keeps in its state under the key ``"rng"``."""
    return {"seed": int(seed), "n": 0}


def draw_rng(state: State) -> random.Random:
    """A generator for the next random event; advances the counter in ``state``.

    Call it only on a state you own (a clone inside ``apply``/``setup``).
    """
    record = state["rng"]
    record["n"] += 1
    return random.Random(f"{record['seed']}/{record['n']}")


def reseed(state: State, rng: random.Random) -> None:
    """Replace the seed so a determinized state cannot foresee the real future."""
    state["rng"] = {"seed": rng.getrandbits(63), "n": 0}


def require(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise IllegalAction(code, message)


def expect_int(action: Action, key: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"the action needs a whole number {key!r}")
    return value


def expect_type(action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise MalformedAction("an action is an object with a 'type'")
    return action["type"]


def check_turn(engine: Engine, state: State, seat: Seat) -> None:
    """Refuse an action from a seat that is not to act: after the end (when no seat is),
    ``game_over``, else ``not_your_turn``."""
    if seat not in engine.to_act(state):
        if engine.outcome(state) is not None:
            raise IllegalAction("game_over", "The match is over.")
        raise IllegalAction("not_your_turn", "It is not your turn.")
