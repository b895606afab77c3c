"""The game's history from the window: undo (Ctrl+Z) and save (Ctrl+S) to new files.

Loading is the ``wasteland play --load`` command's job (sim/commands/play.py);
the controller is then handed the loaded state.
"""

from __future__ import annotations

from pathlib import Path

from render.input.words import described
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


def next_save_path(save_dir: Path, scenario: Scenario, round_: int, saves: int
                   ) -> tuple[Path, int]:
    """A new file name in ``save_dir`` (never an earlier save's) and the new save count."""
    stem = scenario.source.stem if scenario.source else "game"
    while True:
        saves += 1
        path = save_dir / f"{stem}-round{round_}-{saves}.save.json"
        if not path.exists():
            return path, saves


def write_save(state: GameState, path: Path) -> str | None:
    """Write the game to ``path``; the problem in words if that fails, else None."""
    from sim.game.save import save_game

    try:
        save_game(state, path)
    except (OSError, WastelandError) as exc:
        return f"could not save to {str(path)!r}: {exc}"
    return None
