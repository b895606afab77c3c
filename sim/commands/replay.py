"""``wasteland replay SAVE``: replay a saved game and print its event log.

``SAVE`` may be ``-``: the save is read from stdin, and a relative scenario
reference in it is taken from the working folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli_io import STDIN, read_stdin_text
from sim.errors import SaveError, WastelandError

if TYPE_CHECKING:
    from sim.engine.state import GameState


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print the event log of a saved game",
        description="Replay a saved game from its seed and actions (refused when the "
                    "scenario changed since) and print every event, one per line.")
    p.add_argument("save", metavar="SAVE", help="a save file (JSON), or - for stdin")
    p.add_argument("--actions", action="store_true",
                   help="also print each action before the events it caused")
    p.add_argument("--summary", action="store_true",
                   help="print the final state summary at the end")
    p.set_defaults(run=run)


def load_save_arg(name: str) -> GameState:
    """The game a SAVE argument names: a save file, or ``-`` for one read from stdin."""
    from sim.game.save import game_from_text, load_game  # the engine: only when run
    from sim.scenario.format.loader import STDIN_NAME

    if name != STDIN:
        return load_game(name)
    try:
        text = read_stdin_text()
    except WastelandError as exc:
        raise SaveError(str(exc)) from None
    return game_from_text(text, Path.cwd(), STDIN_NAME)


def run(args: argparse.Namespace) -> int:
    state = load_save_arg(args.save)
    for action, events in state.log_by_action():
        if args.actions and action is not None:
            print(f"> {action}")
        for event in events:
            print(event)
    if args.summary:
        print(state.summary())
    return 0
