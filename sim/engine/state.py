"""The game state: board data, turn context, history, events and undo.

:class:`GameState` is built from a loaded :class:`~sim.scenario.objects.Scenario`
and a seed. It is mutated only by :meth:`GameState.apply`, which checks the
action, takes a snapshot (board, turn context, generator state, event count)
and applies it; :meth:`GameState.undo` restores that snapshot exactly, dice
included, as python-chess ``push``/``pop`` do.

- Board data: one frozen :class:`ModelState` per model (position, health,
  readiness, status, climbing marker).
- Turn context: one frozen :class:`TurnContext` (round, advantage holder,
  side to act, phase, activation in progress); the rules that move it are
  in :mod:`sim.engine.turns`.
- :meth:`GameState.legal_actions` is the single source of what may be done
  now; model action kinds plug in through a :class:`~sim.engine.kinds.KindRegistry` and change the
  board only through an :class:`ActionContext`.

Examples
--------
>>> from sim.engine.kinds import KindRegistry
>>> from sim.scenario.format.loader import load_scenario
>>> no_kinds = KindRegistry(())  # the game's are sim.game.kinds.GAME_KINDS
>>> state = GameState(load_scenario("scenarios/seed-activation.toml"), seed=1, kinds=no_kinds)
>>> state.phase
<Phase.CHOOSE_FIRST: 'choose-first'>
>>> [str(a) for a in state.legal_actions()]
['first settlers', 'first mutants']
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from sim.engine import objectives, turns
from sim.engine.actions import Action, ModelAction
from sim.engine.gamedata import (
    Activation,
    Event,
    GameResult,
    Illegal,
    ModelState,
    Phase,
    Status,
    TurnContext,
)
from sim.engine.kinds import KindRegistry
from sim.engine.memo import Memo
from sim.engine.objectives import ObjectiveState
from sim.engine.rng import GameRng, SeededRng
from sim.errors import IllegalActionError, Problem, ScenarioError, quoted
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from sim.scenario.rules import RulesData


@dataclass(frozen=True)
class _Snapshot:
    turn: TurnContext
    models: dict[str, ModelState]
    rng: int
    events: int
    result: GameResult | None
    objectives: ObjectiveState


class LegalActions:
    """A lazy view of the legal actions now (python-chess ``legal_moves`` style).

    ``action in view`` runs the full legality check, so it answers for any
    action, including a move to any point; iterating lists the turn actions
    and a few sample instances of each model action kind.
    """

    def __init__(self, state: GameState) -> None:
        self._state = state

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._state.why_illegal(action) is None

    def __iter__(self) -> Iterator[Action]:
        return iter(turns.listed_actions(self._state))

    def count(self) -> int:
        """How many actions iteration lists (no ``__len__``: ``list(view)`` would list twice)."""
        return len(turns.listed_actions(self._state))

    def __bool__(self) -> bool:
        return not self._state.is_over

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"


class GameState:
    """A game in progress: board data, turn context, generator, history, events.

    Parameters
    ----------
    scenario
        A loaded scenario with exactly two non-neutral sides.
    seed
        Seed of the game's one generator (R-ALL-1); defaults to the
        scenario's ``seed``, else a fresh random one (kept in ``self.seed``).
    rounds
        Last round, overriding the scenario's ``rounds`` (None: the scenario's).
    rng
        A generator to use instead of ``SeededRng(seed)`` (a scripted double in tests).
    kinds
        The model action kinds of this game (sim.game.kinds.new_game passes the game's).
    """

    def __init__(self, scenario: Scenario, seed: int | None = None, *,
                 rounds: int | None = None, rng: GameRng | None = None,
                 kinds: KindRegistry) -> None:
        self.scenario = scenario
        self.kinds = kinds
        self.rules: RulesData = scenario.rules_data
        self.seed: int = seed if seed is not None else (
            scenario.seed if scenario.seed is not None else secrets.randbits(32))
        self.rounds: int | None = rounds if rounds is not None else scenario.rounds
        self._rng: GameRng = rng if rng is not None else SeededRng(self.seed)
        self.sides: tuple[str, str] = _player_sides(scenario)
        self._radius = {m.id: scenario.radius_of(m.id) for m in scenario.models}
        start = initial_positions(scenario)
        self._models: dict[str, ModelState] = {
            m.id: ModelState(m.id, m.side, start[m.id], scenario.units[m.unit].health)
            for m in scenario.models
        }
        self._turn = TurnContext(round=0, phase=Phase.CHOOSE_FIRST)
        self._objectives = objectives.initial(scenario, self.sides)  # R-OBJ-4/6
        self._result: GameResult | None = None
        self._history: list[Action] = []
        self._events: list[Event] = []
        self._stack: list[_Snapshot] = []
        # Answers derived from the models as they stand (sim.engine.memo).
        self.memo = Memo()
        self._writer = StateWriter(self)
        turns.start_game(self._writer)

    # --- reading ---------------------------------------------------------------
    @property
    def turn(self) -> TurnContext:
        return self._turn

    @property
    def round(self) -> int:
        return self._turn.round

    @property
    def phase(self) -> Phase:
        return self._turn.phase

    @property
    def acting(self) -> str | None:
        """The side to act (the advantage holder while choosing the first side)."""
        return self._turn.acting

    @property
    def advantage(self) -> str | None:
        return self._turn.advantage

    @property
    def activation(self) -> Activation | None:
        return self._turn.activation

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def objectives(self) -> ObjectiveState:
        """Objective points scored and the cargo markers (R-OBJ-4/6)."""
        return self._objectives

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def rng(self) -> GameRng:
        return self._rng

    @property
    def models(self) -> Mapping[str, ModelState]:
        return MappingProxyType(self._models)

    def model(self, model_id: str) -> ModelState:
        return self._models[model_id]

    def radius(self, model_id: str) -> float:
        """Base radius in inches (R-UNIT-1)."""
        return self._radius[model_id]

    def positions(self) -> Mapping[str, Position]:
        """Where every model in play stands (climbing models at their marker)."""
        return {i: m.position for i, m in self._models.items() if m.in_play}

    def side_models(self, side: str) -> list[ModelState]:
        """The models of ``side`` in play, in scenario order."""
        return [m for m in self._models.values() if m.side == side and m.in_play]

    def opponent(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def log_by_action(self) -> list[tuple[Action | None, tuple[Event, ...]]]:
        """The event log split by cause: ``(None, events at the start)``, then each action."""
        bounds = [snap.events for snap in self._stack] + [len(self._events)]
        out: list[tuple[Action | None, tuple[Event, ...]]] = [
            (None, tuple(self._events[: bounds[0]]))]
        for i, action in enumerate(self._history):
            out.append((action, tuple(self._events[bounds[i]: bounds[i + 1]])))
        return out

    # --- legality --------------------------------------------------------------
    def legal_actions(self) -> LegalActions:
        """What may be done now: the single source (lazy view)."""
        return LegalActions(self)

    def why_illegal(self, action: Action) -> Illegal | None:
        """None when ``action`` is legal now, else the reason and model."""
        if self._result is not None:
            return Illegal("the game is over", action.model_id)
        if isinstance(action, ModelAction):
            return self._why_model_action_illegal(action)
        return turns.why_illegal(self, action)

    def is_legal(self, action: Action) -> bool:
        return self.why_illegal(action) is None

    def _why_model_action_illegal(self, action: ModelAction) -> Illegal | None:
        m = action.model
        kind = self.kinds.kind_of(action)
        if kind is None:
            return Illegal(f"no action kind {action.keyword!r} is registered", m)
        if m not in self._models:
            return Illegal(f"unknown model {quoted(m, 40)}", None)
        act = self._turn.activation
        if self._turn.phase is not Phase.ACTIVATION or act is None:
            return Illegal(f"no activation is in progress (phase {self.phase})", m)
        if act.model != m:
            return Illegal(f"the model being activated is {act.model!r}", m)
        if not self._models[m].in_play:
            return Illegal("the model is not in play", m)
        cost = kind.cost(self, action)
        if cost > act.actions_left:
            return Illegal(f"it needs {cost} actions and {act.actions_left} are left", m)
        reason = kind.check(self, action)
        return None if reason is None else Illegal(reason, m)

    # --- changing ----------------------------------------------------------------
    def apply(self, action: Action, *, check: bool = True) -> None:
        """Apply a legal action, or raise :class:`IllegalActionError` (state untouched).

        ``check=False`` skips the legality check: only for actions known to be
        legal (benchmarks); an illegal action then leaves the game inconsistent.
        """
        if check:
            why = self.why_illegal(action)
            if why is not None:
                raise IllegalActionError(action, why.reason, why.model)
        snap = self._snapshot()
        try:
            if isinstance(action, ModelAction):
                self._apply_model_action(action)
            else:
                turns.apply(self._writer, action)
        except BaseException:
            self._restore(snap)
            raise
        self._stack.append(snap)
        self._history.append(action)

    def _apply_model_action(self, action: ModelAction) -> None:
        kind = self.kinds.kind_of(action)
        act = self._turn.activation
        assert kind is not None and act is not None  # checked by why_illegal
        cost = kind.cost(self, action)
        left = act.actions_left - cost
        self._turn = replace(self._turn, activation=replace(act, actions_left=left))
        kind.apply(ActionContext(self), action)
        objectives.pick_up(self._writer, action.model)  # R-OBJ-4
        turns.after_model_action(self._writer)

    def undo(self) -> Action:
        """Take back the last action, restoring the state before it exactly."""
        if not self._stack:
            raise IllegalActionError("undo", "there is no action to take back")
        self._restore(self._stack.pop())
        return self._history.pop()

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self._turn, dict(self._models), self._rng.getstate(),
                         len(self._events), self._result, self._objectives)

    def _restore(self, snap: _Snapshot) -> None:
        self.memo = Memo()  # a new one: this one may be lent (sim.engine.memo)
        self._turn = snap.turn
        self._models = dict(snap.models)
        self._rng.setstate(snap.rng)
        del self._events[snap.events:]
        self._result = snap.result
        self._objectives = snap.objectives

    def copy(self) -> GameState:
        """An independent copy (history and undo stack included)."""
        other = copy.copy(self)
        other._rng = copy.deepcopy(self._rng)
        other._models = dict(self._models)
        other._history = list(self._history)
        other._events = list(self._events)
        other._stack = list(self._stack)
        other.memo = Memo()
        other._writer = StateWriter(other)
        return other

    # --- comparing and printing ----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything that matters, as plain data (equal states give equal dicts)."""
        t = self._turn
        return {
            "scenario": self.scenario.name,
            "rules": self.scenario.rules,
            "seed": self.seed,
            "rounds": self.rounds,
            "turn": {
                "round": t.round, "phase": str(t.phase), "advantage": t.advantage,
                "acting": t.acting, "first": t.first,
                "activation": None if t.activation is None else
                [t.activation.model, t.activation.actions_left],
            },
            "models": {
                i: {"side": m.side, "at": [m.position.x, m.position.y, m.position.z],
                    "health": m.health, "readiness": str(m.readiness),
                    "status": str(m.status), "climbing": m.climbing}
                for i, m in self._models.items()
            },
            "rng": self._rng.getstate(),
            "history": [str(a) for a in self._history],
            "events": [[e.round, e.kind, list(e.models), e.text, dict(e.data)]
                       for e in self._events],
            "result": None if self._result is None else str(self._result),
            # only with objectives: the states of games without them read as before
            **({"objectives": objectives.to_dict(self._objectives)}
               if self.scenario.objectives else {}),
        }

    def _key(self) -> tuple[Any, ...]:
        return (self.scenario.name, self.scenario.rules, self.seed, self.rounds, self._turn,
                self._models, self._rng.getstate(), self._history, self._events,
                self._result, self._objectives)

    def __eq__(self, other: object) -> bool:
        """Equal scenario, turn context, models, generator state, history, events, result."""
        if not isinstance(other, GameState):
            return NotImplemented
        return (self.scenario is other.scenario or self.scenario == other.scenario) and (
            self._key() == other._key())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def summary(self) -> str:
        """A short, deterministic text picture of the state (golden transcripts, CLI)."""
        t = self._turn
        lines = [f"round {t.round} | phase {t.phase} | to act {t.acting or '-'} | "
                 f"advantage {t.advantage or '-'} | first {t.first or '-'}"]
        if t.activation is not None:
            lines.append(f"activation {t.activation.model}: "
                         f"{t.activation.actions_left} action(s) left")
        lines.append(f"rng {self._rng.getstate():#x}")
        for m in self._models.values():
            p = m.position
            flags = " climbing" if m.climbing else ""
            lines.append(f"  {m.id} [{m.side}] {m.status} {m.readiness} "
                         f"health {m.health} at ({p.x:.3f}, {p.y:.3f}, {p.z:.3f}){flags}")
        if self.scenario.objectives:
            lines.append(_objective_line(self))
        if self._result is not None:
            lines.append(f"result: {self._result}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<GameState {self.scenario.name!r} round {self.round} phase {self.phase} "
                f"acting {self.acting}>")


class StateWriter:
    """The one way to change a GameState: handed to the turn rules (sim.engine.turns)
    and used by ActionContext while ``GameState.apply`` runs, so its snapshot covers
    everything written here and undo restores it."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def set_model(self, ms: ModelState) -> None:
        """Replace one model's state (the memo of position answers goes with it)."""
        self.state.memo = Memo()  # a new one: the old may be lent (sim.engine.memo)
        self.state._models[ms.id] = ms

    def set_turn(self, turn: TurnContext) -> None:
        self.state._turn = turn

    def set_result(self, result: GameResult) -> None:
        self.state._result = result

    def set_objectives(self, value: ObjectiveState) -> None:
        """Replace the objective state (R-OBJ-4/6)."""
        self.state._objectives = value

    def emit(self, kind: str, models: tuple[str, ...], text: str, **data: Any) -> Event:
        """Append an event to the log, in the current round."""
        event = Event(self.state._turn.round, kind, models, text, MappingProxyType(data))
        self.state._events.append(event)
        return event


class ActionContext:
    """What a model action kind may do while it is applied (docs/engine.md).

    Everything a kind changes goes through here, so the engine's snapshot
    covers it and ``undo`` restores it. Damage and removal are the one code
    path for every cause (shots, falls, pushes against the edge).
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._w = state._writer
        self.rng: GameRng = state.rng
        self.rules: RulesData = state.rules
        self.scenario: Scenario = state.scenario

    def model(self, model_id: str) -> ModelState:
        return self.state.model(model_id)

    def set_position(self, model_id: str, position: Position) -> None:
        """Put a model's base centre at ``position``."""
        self._w.set_model(replace(self.state.model(model_id), position=position))

    def set_climbing(self, model_id: str, climbing: bool) -> None:
        """Set or clear the climbing marker (R-CLIMB-3)."""
        self._w.set_model(replace(self.state.model(model_id), climbing=climbing))

    def log(self, kind: str, models: tuple[str, ...], text: str, **data: Any) -> Event:
        """Append an event (dice rolled, moved, ...) to the log."""
        return self._w.emit(kind, models, text, **data)

    def damage(self, model_id: str, points: int, cause: str) -> int:
        """Take ``points`` of health (after armor) from a model; eliminate it at 0 (R-DMG-1).

        Returns the damage actually taken (never more than the health left).
        """
        return turns.damage(self._w, model_id, points, cause)

    def remove(self, model_id: str, how: Status, cause: str, edge: str | None = None) -> None:
        """Remove a model from play: ``Status.ELIMINATED`` or ``Status.LEFT`` (R-EDGE-2);
        ``edge``: the board edge it left by (its cargo's exit or not, R-OBJ-4)."""
        turns.remove(self._w, model_id, how, cause, edge)

    def end_activation(self) -> None:
        """End the activation in progress after this action (no actions left)."""
        act = self.state.activation
        if act is not None:
            self._w.set_turn(replace(self.state.turn, activation=replace(act, actions_left=0)))


def _objective_line(state: GameState) -> str:
    points = ", ".join(f"{s} {n}" for s, n in state.objectives.points.items())
    cargo = "".join(f" | {c} " + (v.gone or (f"carried by {v.carrier}" if v.carrier
                                             else f"at ({v.at[0]:.3f}, {v.at[1]:.3f})"))
                    for c, v in state.objectives.cargo.items())
    return f"objective points: {points}{cargo}"


def _player_sides(scenario: Scenario) -> tuple[str, str]:
    players = [s.id for s in scenario.sides.values() if not s.neutral]
    if len(players) != 2:
        where = str(scenario.source) if scenario.source else scenario.name
        raise ScenarioError([Problem(where, "sides",
                                     f"a game needs exactly two non-neutral sides; "
                                     f"found {players!r}")])
    for ident in [*players, *(m.id for m in scenario.models)]:
        if not ident or any(c.isspace() for c in ident):
            where = str(scenario.source) if scenario.source else scenario.name
            raise ScenarioError([Problem(where, "models", f"id {ident!r} contains whitespace; "
                                         "actions are written as space-separated words")])
    return players[0], players[1]
