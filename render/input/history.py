"""The game's history from the window: undo (Ctrl+Z) and save (Ctrl+S) to new files.

Loading is the ``wasteland play --load`` command's job (sim/commands/play.py);
the controller is then handed the loaded state.
"""

from __future__ import annotations

from pathlib import Path

from render.input.words import described
from sim.atomic import WriteError
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.scenario.objects import Scenario


def undo(state: GameState) -> tuple[str, bool]:
    """Take back the last action: the status text (in player words, never the
    action's text) and whether it is an error."""
    try:
        action: Action = state.undo()
    except WastelandError as exc:
        return str(exc), True
    return f"undone: {described(state.scenario, action)}", False


def save_new(state: GameState, save_dir: Path, scenario: Scenario, saves: int
             ) -> tuple[Path | None, int, str | None]:
    """Write the game to a new file in ``save_dir``, never over an earlier save (the name is
    claimed atomically, so two windows in one folder each keep theirs): the file (None when
    it failed), the new save count, and the problem in words when it failed."""
    from sim.game.save import save_new_game

    stem = scenario.source.stem if scenario.source else "game"
    while True:
        saves += 1
        path = save_dir / f"{stem}-round{state.round}-{saves}.save.json"
        try:
            if save_new_game(state, path):
                return path, saves, None
        except (OSError, WastelandError) as exc:
            why = exc.reason if isinstance(exc, WriteError) else str(exc)
            return None, saves, f"could not save to {str(path)!r}: {why}"
