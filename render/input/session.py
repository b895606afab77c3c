"""The game session of one window: the game, the history as last saved, the AI's sides.

:class:`Session` owns what outlives any click: the engine's
:class:`~sim.engine.state.GameState` (None when the scenario cannot be played:
the window is then read-only), where Ctrl+S writes, the history as last saved
or loaded (quitting saves only a changed game) and, in solo play, the AI's
sides (render.input.ai_turns). Applying, undoing and saving go through it and
come back as words for the status bar; the UI state around the game (set-up,
pointer, toggles) is the controller's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from render.input import history, words
from render.input.ai_turns import AiTurns
from sim.engine.actions import Action
from sim.engine.gamedata import Event
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.game.kinds import new_game
from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class Applied:
    """What applying an action came to: the events it caused (none when refused) and
    the status bar's words."""

    done: bool
    text: str
    events: tuple[Event, ...] = ()


class Session:
    """The game of one window (see the module docstring).

    Parameters
    ----------
    scenario
        The loaded scenario.
    save_dir
        Where Ctrl+S writes its files.
    state
        A game to continue (default: a new game of ``scenario``).
    """

    def __init__(self, scenario: Scenario, save_dir: Path, state: GameState | None) -> None:
        self.scenario = scenario
        self.save_dir = save_dir
        self.saves = 0
        self.ai: AiTurns | None = None  # solo play: the AI's sides (issue 18)
        self.problem: str | None = None  # why the game cannot be played (read-only)
        try:
            self.state: GameState | None = state or new_game(scenario)
        except WastelandError as exc:
            self.state, self.problem = None, str(exc)
        self.continued = state is not None and bool(state.history)
        self._saved_history = self.state.history if self.state is not None else ()

    def apply(self, action: Action) -> Applied:
        """Apply ``action`` through the engine; refused (an AI side's turn, or the
        engine's reason in player words), nothing changes."""
        if self.state is None:
            return Applied(False, "")
        blocked = self.ai.blocks(self.state) if self.ai is not None else None
        if blocked is not None:  # an AI side's turn (render/input/ai_turns.py)
            return Applied(False, blocked)
        before = len(self.state.events)
        try:
            self.state.apply(action)
        except WastelandError as exc:
            return Applied(False, words.refusal(self.scenario, action, exc))
        new = tuple(self.state.events[before:])
        # The status bar holds the last two events; Details and the log hold all.
        return Applied(True, " / ".join(e.text for e in new[-2:]) if new else "done", new)

    def undo(self) -> tuple[str, bool] | None:
        """Take back the last action (in solo play, back to the human's last decision):
        the status text and whether it is an error; None without a game."""
        if self.state is None:
            return None
        return self.ai.undo(self.state) if self.ai is not None else history.undo(self.state)

    def save(self) -> tuple[Path | None, str]:
        """Write the game to a new file in ``save_dir``: the file (None if it could not be
        written) and the status bar's words."""
        if self.state is None:
            return None, ""
        path, self.saves, problem = history.save_new(self.state, self.save_dir,
                                                     self.scenario, self.saves)
        if path is None:
            return None, problem or "not saved"
        self._saved_history = self.state.history
        return path, f"saved to {path}"

    @property
    def unsaved(self) -> bool:
        """Whether the game changed since it was started, loaded or last saved."""
        return self.state is not None and self.state.history != self._saved_history
