"""Actions: small frozen values that round-trip through text, and ActionKind.

Every action prints as one line of space-separated tokens, keyword first
(``str(action)``), and a :class:`~sim.engine.kinds.KindRegistry` reads it back to an equal value,
as python-chess ``Move.uci()``/``Move.from_uci()`` do. Saves, the golden
transcripts and the replay command store actions as this text.

Two families:

- turn-structure actions (R-TURN-1..9), handled by :mod:`sim.engine.turns`:
  ``first SIDE``, ``ready MODEL``, ``option-a``, ``option-b``,
  ``activate MODEL``, ``end-activation``, ``end-turn``;
- model actions, taken by the model whose activation is in progress
  (``move MODEL X Y`` ...). Each is a :class:`ModelAction` with an
  :class:`ActionKind` that checks and applies it. The game's kinds
  are built in one place, :mod:`sim.game.kinds`, into a
  :class:`~sim.engine.kinds.KindRegistry`; adding a kind (movement, combat)
  never touches the turn logic. See docs/engine.md, "Adding an action kind".

Examples
--------
>>> parse_turn_action("ready settler-2")
ReadyModel(model='settler-2')
>>> parse_turn_action("move settler-1 10.5 3.0") is None
True
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from sim.engine.params import Param, ParamKind, check_value, words
from sim.errors import IllegalActionError, quoted

if TYPE_CHECKING:
    from sim.engine.state import ActionContext, GameState

# --- text helpers ---------------------------------------------------------------

def fmt_num(x: float) -> str:
    """A float as the shortest text that reads back to the same float."""
    return repr(float(x))


def parse_num(text: str, token: str, what: str) -> float:
    """Read a finite number from ``token`` of the action ``text``."""
    try:
        value = float(token)
    except ValueError:
        raise IllegalActionError(text, f"{what} must be a number, got {quoted(token)}") from None
    if not math.isfinite(value):
        raise IllegalActionError(text, f"{what} must be a finite number, got {quoted(token)}")
    return value


# --- the action values -----------------------------------------------------------

@dataclass(frozen=True)
class Action(ABC):
    """Base of every action: ``keyword`` plus arguments, printable as one line."""

    keyword: ClassVar[str]
    usage: ClassVar[str]

    def args(self) -> tuple[str, ...]:
        """The argument tokens after the keyword."""
        return ()

    @property
    def model_id(self) -> str | None:
        """The model this action is about, if any (for error messages and logs)."""
        return None

    def __str__(self) -> str:
        return " ".join((self.keyword, *self.args()))


@dataclass(frozen=True)
class ChooseFirst(Action):
    """The advantage holder picks the side taking the round's first turn (R-TURN-3)."""

    side: str
    keyword: ClassVar[str] = "first"
    usage: ClassVar[str] = "first SIDE"

    def args(self) -> tuple[str, ...]:
        return (self.side,)


@dataclass(frozen=True)
class _OfModel(Action):
    """A turn action whose one argument is a model id."""

    model: str

    def args(self) -> tuple[str, ...]:
        return (self.model,)

    @property
    def model_id(self) -> str | None:
        return self.model


@dataclass(frozen=True)
class ReadyModel(_OfModel):
    """Put a Ready marker on an Unready model (R-TURN-4; in vts-1.5 it activates, R-TURN-9)."""

    keyword: ClassVar[str] = "ready"
    usage: ClassVar[str] = "ready MODEL"


@dataclass(frozen=True)
class OptionA(Action):
    """Option A: activate no Ready model; the turn ends at once (R-TURN-4, rulebook)."""

    keyword: ClassVar[str] = "option-a"
    usage: ClassVar[str] = "option-a"


@dataclass(frozen=True)
class OptionB(Action):
    """Option B: activate every Ready model, one at a time (R-TURN-4)."""

    keyword: ClassVar[str] = "option-b"
    usage: ClassVar[str] = "option-b"


@dataclass(frozen=True)
class Activate(_OfModel):
    """Start the activation of one Ready model during option B (R-TURN-6)."""

    keyword: ClassVar[str] = "activate"
    usage: ClassVar[str] = "activate MODEL"


@dataclass(frozen=True)
class EndActivation(Action):
    """Finish the activation in progress; the model turns Used (R-TURN-6)."""

    keyword: ClassVar[str] = "end-activation"
    usage: ClassVar[str] = "end-activation"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn during option B; Ready models left turn Used (R-TURN-6)."""

    keyword: ClassVar[str] = "end-turn"
    usage: ClassVar[str] = "end-turn"


TURN_ACTIONS: tuple[type[Action], ...] = (
    ChooseFirst, ReadyModel, OptionA, OptionB, Activate, EndActivation, EndTurn,
)


@dataclass(frozen=True)
class ModelAction(Action):
    """An action taken by the model whose activation is in progress.

    Subclasses add their fields after ``model``, declare them in ``params``
    (text order) and implement :meth:`args` and :meth:`from_args`; their
    :class:`ActionKind` builds them from values, checks and applies them.
    """

    model: str
    #: the fields after ``model``, as data (sim.engine.params); a kind with
    #: fields no Param declares is offered by the window as its listed samples
    params: ClassVar[tuple[Param, ...]] = ()

    def values(self) -> dict[str, object]:
        """The declared parameters' values, by name."""
        return {p.name: getattr(self, p.name) for p in self.params}

    @classmethod
    def undeclared(cls) -> tuple[str, ...]:
        """Fields after ``model`` that no Param declares (test kinds such as Zap)."""
        declared = {"model", *(p.name for p in cls.params)}
        return tuple(f.name for f in dataclasses.fields(cls) if f.name not in declared)

    @property
    def model_id(self) -> str | None:
        return self.model

    @classmethod
    @abstractmethod
    def from_args(cls, text: str, args: Sequence[str]) -> ModelAction:
        """Build the action from its argument tokens (``args[0]`` is the model).

        Raise :class:`IllegalActionError` naming ``text`` and the expected
        form (``cls.usage``) when the tokens do not fit.
        """


A = TypeVar("A", bound=ModelAction)


class ActionKind(ABC, Generic[A]):
    """How one kind of model action is checked, applied and sampled.

    The engine has already checked the turn structure before calling
    :meth:`check`: an activation is in progress, ``action.model`` is the
    active model, it is in play, and it has at least :meth:`cost` actions
    left. The engine counts the actions, ends the activation when none are
    left and handles readiness; a kind only deals with its own rules.
    """

    #: the action class this kind handles; its ``keyword`` is the text keyword
    action_type: type[A]

    @property
    def keyword(self) -> str:
        return self.action_type.keyword

    def parse(self, text: str, args: Sequence[str]) -> A:
        """Read the action from the tokens after the keyword."""
        action = self.action_type.from_args(text, args)
        assert isinstance(action, self.action_type)  # from_args returns its own class
        return action

    @property
    def params(self) -> tuple[Param, ...]:
        return self.action_type.params

    def param(self, kind: ParamKind) -> Param | None:
        """The parameter of that kind, if the action takes one."""
        return next((p for p in self.params if p.kind == kind), None)

    def build(self, model: str, values: Mapping[str, object]) -> A | None:
        """The action of ``model`` from typed values, by parameter name.

        None while a declared value is missing (a partial action being set
        up); :class:`IllegalActionError` when a value has the wrong type or is
        not among the choices. Legality now is :meth:`check`'s business.
        """
        if self.action_type.undeclared():
            return None  # only the listed samples fill fields no Param declares
        fields: dict[str, object] = {}
        for p in self.params:
            value = values.get(p.name)
            if value is None:
                return None
            try:
                fields[p.name] = check_value(p, value)
            except ValueError as exc:
                raise IllegalActionError(f"{self.keyword} {model}", str(exc), model) from None
        return self.action_type(model, **fields)  # type: ignore[call-arg]

    def describe(self, action: A, skip: Collection[str] = ()) -> str:
        """The declared values as words, in parameter order (button labels).

        The same words as the text form; the window shows them, never splits them.
        """
        return " ".join(w for p in self.params if p.name not in skip
                        for w in words(getattr(action, p.name)))

    def offers(self, state: GameState, model: str, param: Param,
               values: Mapping[str, object]) -> tuple[object, ...]:
        """Values the rules allow for ``param`` now, given the values set so far.

        A path kind offers the climb and jump steps that may follow the steps
        set up (sim.movement.kinds); the window shows exactly these, never a
        list of its own. None by default.
        """
        return ()

    def cost(self, state: GameState, action: A) -> int:
        """Actions of the activation this uses (R-TURN-7); one by default."""
        return 1

    @abstractmethod
    def check(self, state: GameState, action: A) -> str | None:
        """Why ``action`` is illegal now (a sentence), or None when it is legal."""

    @abstractmethod
    def apply(self, ctx: ActionContext, action: A) -> None:
        """Carry out a legal action through ``ctx`` (positions, dice, damage, events).

        Raising leaves the game state untouched (the engine restores its
        snapshot), so a kind may discover late that it cannot proceed.
        """

    def samples(self, state: GameState, model: str) -> Iterable[A]:
        """A few legal instances for ``model`` now, for listing and random playouts.

        Continuous actions (a move to any point) list a handful of
        representative targets; the engine filters them through the full
        check, so an illegal sample is harmless but wasted.
        """
        return ()


def _expect(text: str, cls: type[Action], args: Sequence[str], n: int) -> None:
    if len(args) != n:
        raise IllegalActionError(text, f"expected {cls.usage!r}")


def parse_turn_action(text: str) -> Action | None:
    """Read a turn-structure action from its text; None when the keyword is no turn action.

    Model actions are read by their kinds (:meth:`sim.engine.kinds.KindRegistry.parse`).
    Raises :class:`IllegalActionError` naming the text and the expected form
    when the text is empty or a turn action with the wrong arguments.
    """
    tokens = text.split()
    if not tokens:
        raise IllegalActionError(text, "empty action text")
    word, args = tokens[0], tokens[1:]
    if word == ChooseFirst.keyword:
        _expect(text, ChooseFirst, args, 1)
        return ChooseFirst(args[0])
    if word == ReadyModel.keyword:
        _expect(text, ReadyModel, args, 1)
        return ReadyModel(args[0])
    if word == Activate.keyword:
        _expect(text, Activate, args, 1)
        return Activate(args[0])
    for cls in (OptionA, OptionB, EndActivation, EndTurn):
        if word == cls.keyword:
            _expect(text, cls, args, 0)
            return cls()
    return None
