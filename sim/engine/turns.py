"""Rounds and turns (R-TURN-1..10): the turn-structure rules of the engine.

Functions here read a :class:`sim.engine.state.GameState` and change it through
its :class:`~sim.engine.state.StateWriter` (``set_model``, ``set_turn``, ``emit``,
``set_result``); :class:`GameState` calls them from ``apply`` and
``legal_actions``. Model action kinds never reach this module except
through :func:`damage` and :func:`remove` (via ``ActionContext``).

The flow of a round, rulebook (R-TURN-2..8)::

    round starts: markers removed, advantage given (or passed on a tie)
    choose-first: the holder picks the side that takes the first turn
    turn: ready (one Unready model)
          -> choose-option (A: turn ends | B) or, when every model now has a
             marker, B at once (forced)
          -> activate (a Ready model | end-turn: Ready models left turn Used)
          -> activation (model actions | end-activation) -> activate ...
          no Unready but some Ready at turn start: B without readying (R-TURN-5)
    sides alternate; a side with every model Used sits out (R-TURN-8)
    every model Used: the round ends; after the last round the game ends

``vts-1.5`` (R-TURN-9): ``ready`` starts that model's activation at once;
there is no option A, and the turn ends with that activation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sim.engine import objectives
from sim.engine.actions import (
    Action,
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    OptionA,
    OptionB,
    ReadyModel,
)
from sim.engine.gamedata import (
    Activation,
    GameResult,
    Illegal,
    Phase,
    Readiness,
    Status,
    TurnContext,
)
from sim.engine.rng import choice
from sim.errors import quoted
from sim.scenario.names import DisplayNames, display_names

if TYPE_CHECKING:
    from sim.engine.state import GameState, StateWriter


def _vts(state: GameState) -> bool:
    return state.scenario.rules == "vts-1.5"


def _with(w: StateWriter, model: str, **changes: object) -> None:
    state = w.state
    w.set_model(replace(state.model(model), **changes))  # type: ignore[arg-type]


def _count(state: GameState, side: str, readiness: str | None = None) -> int:
    return sum(1 for m in state.side_models(side)
               if readiness is None or m.readiness == readiness)


def _not_used(state: GameState, side: str) -> bool:
    return any(m.readiness != "used" for m in state.side_models(side))


# --- game and round start ----------------------------------------------------------

def start_game(w: StateWriter) -> None:
    """Round 1, or the end at once when a side has no models (R-TURN-10)."""
    if _check_end(w):
        return
    _start_round(w, 1)


def _names(state: GameState) -> DisplayNames:
    """Sides and models as the event texts name them (ids stay in the data)."""
    return display_names(state.scenario)


def _start_round(w: StateWriter, n: int) -> None:
    """R-TURN-1: markers removed; R-TURN-2: advantage marker; then choose-first."""
    state = w.state
    for m in state.models.values():
        if m.in_play and m.readiness is not Readiness.UNREADY:
            _with(w, m.id, readiness=Readiness.UNREADY)
    previous = state.advantage
    w.set_turn(TurnContext(round=n, phase=Phase.CHOOSE_FIRST, advantage=previous))
    w.emit("round-started", (), f"Round {n} begins; every model is Unready.")
    a, b = state.sides
    na, nb = _count(state, a), _count(state, b)
    if n == 1 and state.scenario.advantage in state.sides:
        holder = state.scenario.advantage
        why = "the scenario names it"
    elif na != nb:
        holder = a if na < nb else b
        fewest = "fewest models" if n == 1 else "fewest remaining models"
        why = f"{fewest} ({min(na, nb)} against {max(na, nb)})"
    elif n == 1 or previous is None:
        holder = choice(state.rng, state.sides)
        why = f"a tie ({na} each) decided at random"
    else:
        holder = state.opponent(previous)
        name = _names(state).side
        w.emit("advantage-passed", (), f"{name(previous)} passes the advantage marker "
                    f"to {name(holder)} on a tie ({na} each).", frm=previous, to=holder)
        why = f"passed on a tie ({na} each)"
    assert holder is not None
    w.set_turn(replace(state.turn, advantage=holder, acting=holder))
    w.emit("advantage", (), f"{_names(state).side(holder)} holds the advantage marker: "
                f"{why}.",
                side=holder, counts={a: na, b: nb})


def _start_turn(w: StateWriter, side: str) -> None:
    state = w.state
    if _count(state, side, "unready"):
        w.set_turn(replace(state.turn, phase=Phase.READY, acting=side, activation=None))
        w.emit("turn-started", (), f"Turn of {_names(state).side(side)}.", side=side)
    else:  # R-TURN-5: only Ready models left: option B without readying
        w.set_turn(replace(state.turn, phase=Phase.ACTIVATE, acting=side, activation=None))
        w.emit("turn-started", (), f"Turn of {_names(state).side(side)}: no Unready "
                    "model, so option B without readying.", side=side)


def _end_turn(w: StateWriter, side: str) -> None:
    """R-TURN-3/8: the other side takes the next turn unless all its models are Used."""
    state = w.state
    w.emit("turn-ended", (), f"End of the turn of {_names(state).side(side)}.", side=side)
    other = state.opponent(side)
    if _not_used(state, other):
        _start_turn(w, other)
    elif _not_used(state, side):
        name = _names(state).side
        w.emit("sits-out", (), f"Every model of {name(other)} is Used: {name(side)} "
                    "plays on.", side=other)
        _start_turn(w, side)
    else:
        _end_round(w)


def _end_round(w: StateWriter) -> None:
    state = w.state
    n = state.round
    markers = {m.id: str(m.readiness) for m in state.models.values()
               if m.in_play and m.side in state.sides}
    w.emit("round-ended", (), f"Round {n} ends: every model is Used.", readiness=markers)
    objectives.score_round(w)  # R-OBJ-2/3
    if state.rounds is not None and n >= state.rounds:
        _finish(w, f"the last round ({n}) ended")
        return
    _start_round(w, n + 1)


# --- end of game (R-TURN-10, R-EDGE-2) ------------------------------------------------

def _check_end(w: StateWriter) -> bool:
    state = w.state
    for side in state.sides:
        if not state.side_models(side):
            _finish(w, f"{_names(state).side(side)} has no models in play")
            return True
    return False


def score(state: GameState, side: str) -> int:
    """A side's score: the scenario's points (1 unless it says, R-OBJ-5) per enemy model
    eliminated or gone off the board (R-TURN-10, R-EDGE-2; not one that carried cargo off
    by its exit, R-OBJ-4), plus the objective points it has scored (R-OBJ-6). The one
    count, for the game's end and the AI alike."""
    enemy = state.opponent(side)
    kills = sum(1 for m in state.models.values()
                if m.side == enemy and m.status in (Status.ELIMINATED, Status.LEFT)
                and not (m.status is Status.LEFT and objectives.escaped(state, m.id)))
    return state.scenario.kill_points * kills + state.objectives.points.get(side, 0)


def _finish(w: StateWriter, reason: str) -> None:
    state = w.state
    scores = {side: score(state, side) for side in state.sides}
    a, b = state.sides
    winner = a if scores[a] > scores[b] else b if scores[b] > scores[a] else None
    result = GameResult(reason, scores, winner, _names(state).sides)
    w.set_turn(replace(state.turn, phase=Phase.OVER, acting=None, activation=None))
    w.set_result(result)
    w.emit("game-over", (), f"The game ends: {result}.", winner=winner, scores=scores)


# --- legality ----------------------------------------------------------------------

# The phase in which each turn-structure action is possible.
_PHASE_OF: dict[type[Action], Phase] = {
    ChooseFirst: Phase.CHOOSE_FIRST, ReadyModel: Phase.READY,
    OptionA: Phase.CHOOSE_OPTION, OptionB: Phase.CHOOSE_OPTION,
    Activate: Phase.ACTIVATE, EndTurn: Phase.ACTIVATE, EndActivation: Phase.ACTIVATION,
}


def why_illegal(state: GameState, action: Action) -> Illegal | None:
    """Why a turn-structure action is illegal now, or None.

    Checked in the order a player thinks: the rule set, the phase, the model
    (known, in play, of the side to act), then its marker.
    """
    model = action.model_id
    if isinstance(action, OptionA) and _vts(state):
        return Illegal("option A does not exist in vts-1.5 (R-TURN-9)")
    need = _PHASE_OF.get(type(action))
    if need is None:
        return Illegal(f"unknown action {str(action)!r}", model)
    if state.phase is not need:
        return Illegal(f"{action.keyword!r} is not possible in phase {state.phase} "
                       f"(it belongs to phase {need})", model)
    if model is not None:
        if model not in state.models:
            return Illegal(f"unknown model {quoted(model, 40)}; known: "
                           f"{', '.join(state.models)}")
        ms = state.model(model)
        if not ms.in_play:
            return Illegal(f"the model is {ms.status}, not in play", model)
        if ms.side != state.acting:
            return Illegal(f"the turn is {state.acting}'s and the model belongs to "
                           f"{ms.side}", model)
        if isinstance(action, ReadyModel) and ms.readiness is not Readiness.UNREADY:
            return Illegal(f"only an Unready model can be readied; it is {ms.readiness}",
                           model)
        if isinstance(action, Activate) and ms.readiness is not Readiness.READY:
            return Illegal(f"only a Ready model can be activated; it is {ms.readiness}",
                           model)
    if isinstance(action, ChooseFirst) and action.side not in state.sides:
        return Illegal(f"unknown side {action.side!r}; sides: {', '.join(state.sides)}")
    return None


def listed_actions(state: GameState) -> list[Action]:
    """The finite list of legal actions now (samples only for continuous kinds)."""
    phase, side = state.phase, state.acting
    if phase is Phase.OVER or side is None:
        return []
    if phase is Phase.CHOOSE_FIRST:
        return [ChooseFirst(s) for s in state.sides]
    if phase is Phase.READY:
        return [ReadyModel(m.id) for m in state.side_models(side)
                if m.readiness is Readiness.UNREADY]
    if phase is Phase.CHOOSE_OPTION:
        return [OptionA(), OptionB()]
    if phase is Phase.ACTIVATE:
        return [*(Activate(m.id) for m in state.side_models(side)
                  if m.readiness is Readiness.READY), EndTurn()]
    act = state.activation
    assert act is not None
    out: list[Action] = []
    for kind in state.kinds.values():
        out.extend(a for a in kind.samples(state, act.model) if state.why_illegal(a) is None)
    out.append(EndActivation())
    return out


# --- applying ----------------------------------------------------------------------

def apply(w: StateWriter, action: Action) -> None:
    """Apply a legal turn-structure action and everything that follows from it."""
    state = w.state
    side = state.acting
    assert side is not None
    if isinstance(action, ChooseFirst):
        w.set_turn(replace(state.turn, first=action.side))
        name = _names(state).side
        w.emit("first-turn", (), f"{name(side)} takes the first turn." if action.side == side
               else f"{name(side)} lets {name(action.side)} take the first turn.",
               side=action.side)
        _start_turn(w, action.side)
    elif isinstance(action, ReadyModel):
        m = action.model
        _with(w, m, readiness=Readiness.READY)
        names = _names(state)
        w.emit("readied", (m,), f"{names.side(side)} readies {names.model(m)}.")
        if _vts(state):  # R-TURN-9
            _begin_activation(w, m, "at once, vts-1.5")
        elif _count(state, side, "unready") == 0:  # R-TURN-4: B forced
            w.set_turn(replace(state.turn, phase=Phase.ACTIVATE))
            w.emit("option-b", (), f"Every model of {_names(state).side(side)} has a "
                        "marker: option B is forced.", side=side, forced=True)
        else:
            w.set_turn(replace(state.turn, phase=Phase.CHOOSE_OPTION))
    elif isinstance(action, OptionA):
        w.emit("option-a", (), f"{_names(state).side(side)} chooses option A: no model "
                    "is activated.", side=side)
        _end_turn(w, side)
    elif isinstance(action, OptionB):
        w.set_turn(replace(state.turn, phase=Phase.ACTIVATE))
        w.emit("option-b", (), f"{_names(state).side(side)} chooses option B: every "
                    "Ready model will be activated.", side=side, forced=False)
    elif isinstance(action, Activate):
        _begin_activation(w, action.model, "")
    elif isinstance(action, EndActivation):
        _finish_activation(w)
    elif isinstance(action, EndTurn):
        for ms in state.side_models(side):
            if ms.readiness is Readiness.READY:
                _with(w, ms.id, readiness=Readiness.USED)
                w.emit("forfeited", (ms.id,), f"{_names(state).model(ms.id)} was not "
                            "activated and turns Used.")
        _end_turn(w, side)
    else:  # pragma: no cover - why_illegal refuses every other action
        raise AssertionError(action)


def _begin_activation(w: StateWriter, model: str, how: str) -> None:
    state = w.state
    n = state.rules.actions_per_activation
    w.set_turn(replace(state.turn, phase=Phase.ACTIVATION,
                            activation=Activation(model, n)))
    text = f"{_names(state).model(model)} is activated{' ' + how if how else ''}: {n} actions."
    w.emit("activated", (model,), text)


def _finish_activation(w: StateWriter) -> None:
    """R-TURN-6: the model turns Used; next Ready model, or the turn ends."""
    state = w.state
    act = state.activation
    assert act is not None
    ms = state.model(act.model)
    if ms.in_play:
        _with(w, act.model, readiness=Readiness.USED)
        w.emit("activation-ended", (act.model,), f"{_names(state).model(act.model)}'s "
                    "activation ends; it is Used.")
    _after_activation(w)


def _after_activation(w: StateWriter) -> None:
    state = w.state
    side = state.acting
    assert side is not None
    w.set_turn(replace(state.turn, activation=None))
    if _count(state, side, "ready"):
        w.set_turn(replace(state.turn, phase=Phase.ACTIVATE))
    else:
        _end_turn(w, side)


def after_model_action(w: StateWriter) -> None:
    """After a model action: end of game, a removed active model, no actions left."""
    state = w.state
    if _check_end(w):
        return
    act = state.activation
    if act is None:  # the active model was removed during its action
        _after_activation(w)
    elif act.actions_left <= 0:
        _finish_activation(w)


# --- the generic damage and removal hooks ---------------------------------------------

def damage(w: StateWriter, model: str, points: int, cause: str) -> int:
    """Reduce a model's health; at 0 it is eliminated (R-DMG-1). Returns damage taken."""
    state = w.state
    ms = state.model(model)
    if points <= 0 or not ms.in_play:
        return 0
    taken = min(points, ms.health)
    _with(w, model, health=ms.health - taken)
    w.emit("damage", (model,), f"{_names(state).model(model)} takes {taken} damage "
                f"({cause}); health {ms.health - taken}.", points=taken, cause=cause)
    if ms.health - taken <= 0:
        remove(w, model, Status.ELIMINATED, cause)
    return taken


def remove(w: StateWriter, model: str, how: Status, cause: str,
           edge: str | None = None) -> None:
    """Remove a model from play, eliminated or by leaving the board (R-TURN-10, R-EDGE-2);
    its cargo dropped, scored or lost (R-OBJ-4; ``edge``: the edge it left by)."""
    state = w.state
    if how is Status.IN_PLAY:
        raise ValueError("remove() needs Status.ELIMINATED or Status.LEFT")
    ms = state.model(model)
    if not ms.in_play:
        return
    _with(w, model, status=how, climbing=False)
    verb = "is eliminated" if how is Status.ELIMINATED else "leaves the board"
    w.emit("removed", (model,), f"{_names(state).model(model)} {verb} ({cause}).",
                how=str(how), cause=cause)
    objectives.removed(w, model, how, edge)
    act = state.activation
    if act is not None and act.model == model:
        w.set_turn(replace(state.turn, activation=None))
