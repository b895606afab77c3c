"""The window's named key commands as one table: a name -> what it does to the controller.

render.app maps keys to these names (its KEYS and CTRL_KEYS; the help table,
render.draw.controls, documents the keys) and the ``Do`` buttons hand them back;
:meth:`render.input.controller.Controller.command` runs them. A command that does
not apply now (F3 outside the debug view, Backspace without a path) does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from render.input.controller import Controller


def toggle_help(c: Controller) -> None:
    c.show_help = not c.show_help


def toggle_legend(c: Controller) -> None:
    c.show_legend = not c.show_legend


def escape(c: Controller) -> None:
    """Esc closes the help, else puts the tape away, else cancels a set-up, else drops
    picks and selection."""
    if c.show_help:
        c.show_help = False
    elif c.tape is not None:
        c.tape = None
    elif c.setup is not None:
        c.setup = None
        c.say("cancelled")
    else:
        c.debug_picks.clear()
        c.selected = None


def toggle_debug(c: Controller) -> None:
    c.debug = not c.debug
    c.debug_picks.clear()
    c.say("debug view on: click any two models" if c.debug else "debug view off")


def toggle_all_sight(c: Controller) -> None:
    if c.debug:
        c.debug_sight = not c.debug_sight


def toggle_edges_reach(c: Controller) -> None:
    if c.debug:
        c.debug_reach = not c.debug_reach


def next_map(c: Controller) -> None:
    c.say(c.maps.cycle(c, c.scene()))


def take_back_step(c: Controller) -> None:
    if c.setup is not None and c.setup.steps:
        c.setup.steps.pop()
        c.path_changed()


def next_weapon(c: Controller) -> None:
    if c.setup is not None and c.setup.form.weapon:
        c.setup.weapon += 1


COMMANDS: dict[str, Callable[[Controller], object]] = {
    "help": toggle_help,
    "legend": toggle_legend,
    "escape": escape,
    "debug": toggle_debug,
    "all_sight": toggle_all_sight,
    "edges_reach": toggle_edges_reach,
    "map": next_map,
    "undo": lambda c: c.undo(),
    "save": lambda c: c.save(),
    "confirm": lambda c: c.commit(),
    "backspace": take_back_step,
    "next_weapon": next_weapon,
}
