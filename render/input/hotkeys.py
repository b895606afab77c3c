"""Stable keys: a fixed key per kind of choice, numbers only within a shown menu.

Issue 16, bug 4: a key must not change meaning when the list of buttons
shifts. So each action has one fixed key wherever it is offered (M move,
S shoot, C charge, F close combat, E end activation, T end turn, A and B
the turn options; Enter, Backspace, Tab and Esc in a set-up), and the
number keys press only the entries of a *menu*: a list of alternatives of
one sort (which side goes first, which model to ready or activate, which
target, which way to attack, which climb height), each drawn with its
number. A button with neither is clicked with the mouse (Leave).

The keys are matched on the buttons' typed keys (:mod:`render.input.keys`),
never on their labels or on action text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from render.draw.view import Button
from render.input.keys import AddStep, Apply, Do, PickTarget, StartKind
from sim.engine.actions import (
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    ModelAction,
    OptionA,
    OptionB,
    ReadyModel,
)

#: Fixed keys of the model action kinds, by keyword (a kind not here has none).
KIND_KEYS: dict[str, str] = {"move": "M", "shoot": "S", "charge": "C", "close-combat": "F"}
#: Kinds offered less prominently: last among the kinds, drawn dim, no key.
MINOR_KINDS = frozenset({"leave"})
#: Fixed keys of the turn actions that are no menu entry.
TURN_KEYS: tuple[tuple[type, str], ...] = (
    (EndActivation, "E"), (EndTurn, "T"), (OptionA, "A"), (OptionB, "B"))
#: The keys of a set-up's own buttons (the window maps these keys to the commands).
COMMAND_KEYS: dict[str, str] = {"confirm": "Enter", "backspace": "Backspace",
                                "next_weapon": "Tab", "escape": "Esc"}
MENU_ACTIONS = (ChooseFirst, ReadyModel, Activate)  # turn actions chosen from a list
MAX_NUMBER = 9


def fixed_key(b: Button) -> str:
    """The fixed key of a button ("" when it has none)."""
    match b.key:
        case StartKind(kind):
            return "" if kind.keyword in MINOR_KINDS else KIND_KEYS.get(kind.keyword, "")
        case Do(command):
            return COMMAND_KEYS.get(command, "")
        case Apply(action):
            return next((k for t, k in TURN_KEYS if isinstance(action, t)), "")
    return ""


def is_menu_entry(b: Button) -> bool:
    """Whether a button is one alternative of a menu (numbered)."""
    match b.key:
        case PickTarget() | AddStep():
            return True
        case Apply(action):
            return isinstance(action, (*MENU_ACTIONS, ModelAction))
    return False


def with_keys(buttons: Sequence[Button]) -> list[Button]:
    """``buttons`` with their fixed keys and menu numbers; minor kinds marked.

    Menu entries are numbered 1..9 in order; later ones have no number (the
    mouse still clicks them).
    """
    out: list[Button] = []
    n = 0
    for b in buttons:
        if is_menu_entry(b) and n < MAX_NUMBER:
            n += 1
            out.append(replace(b, number=n))
            continue
        minor = isinstance(b.key, StartKind) and b.key.kind.keyword in MINOR_KINDS
        out.append(replace(b, hotkey=fixed_key(b), minor=minor))
    return out


def by_number(buttons: Sequence[Button], number: int) -> int | None:
    """The index of the button drawn with ``number``, if any."""
    return next((i for i, b in enumerate(buttons) if b.number == number), None)


def by_hotkey(buttons: Sequence[Button], key: str) -> int | None:
    """The index of the button whose fixed key is ``key`` (a letter), if any."""
    return next((i for i, b in enumerate(buttons) if b.hotkey == key.upper()), None)
