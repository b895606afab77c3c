"""The editor's state and its changes: the draft and its history, the selection, the tool,
a field being typed, and saving.

Every change is a new draft made by :mod:`sim.scenario.edit` or
:mod:`sim.scenario.fields` and checked by the loader (:mod:`sim.scenario.draft`);
undo and redo walk the drafts (:class:`~render.editor.state.History`).
:class:`~render.editor.controller.EditorController` adds what the window
shows and how clicks, drags and keys reach these changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from render.editor.state import History, Tool
from render.explain.answers import Answers
from sim.atomic import WriteError, write_file
from sim.errors import WastelandError
from sim.scenario.draft import Draft
from sim.scenario.fields import set_field
from sim.scenario.format.rewrite import RewriteError, rewrite_text, scenario_text, tidy_text
from sim.scenario.objects import Point, Scenario

LOG_KEPT = 50


@dataclass(frozen=True)
class Drag:
    """A drag in progress: moving ``ident``, or drawing a rectangle or a circle."""

    kind: str  # "move", "rect" or "circle"
    start: Point
    now: Point
    ident: str = ""


class EditorCore:
    """The editor's state and its changes (the window's parts are in the subclass).

    Parameters
    ----------
    scenario
        The scenario to edit (loaded, or :func:`sim.scenario.draft.blank`).
    target
        The file Ctrl+S writes.
    opened_text
        The text ``scenario`` was loaded from, when ``target`` holds it: saving then
        changes only what changed in it (:func:`sim.scenario.format.rewrite.rewrite_text`).
    """

    def __init__(self, scenario: Scenario, target: Path, opened_text: str | None = None) -> None:
        self.history = History(Draft.of(scenario))
        self.target = target
        self.save_dir = target.parent
        self.opened = None if opened_text is None else (opened_text, scenario)
        self.saved: Scenario = scenario  # what the target holds (or the blank board)
        playing = [k for k, v in scenario.sides.items() if not v.neutral] or list(scenario.sides)
        self.tool = Tool(unit=next(iter(scenario.units), ""), side=playing[0] if playing else "")
        self.selected: str | None = None
        self.points: list[Point] = []  # a polygon being clicked
        self.drag: Drag | None = None
        # The draft as a drag would leave it: drawn over the board (a ghost), never the board
        # itself, whose terrain layer and edges are worked out again for each new scenario.
        self.preview: Scenario | None = None
        self.editing: tuple[str, str | None, str] | None = None  # field, ident, text typed
        self.pointer: Point | None = None
        self.hover_index: int | None = None
        self.debug = self.debug_sight = self.debug_edges = self.show_help = False
        self.show_legend = False  # the log's box shows the terrain legend (L)
        self.picks: list[str] = []
        self.answers = Answers()
        self.answers_for: Scenario | None = None
        self.log: list[str] = []
        self.scroll = {"details": 0, "log": 0}
        self.quit_requested = False
        self.state = None  # no game: what the game's window parts ask of a game controller
        self.play_requested = False
        self.status, self.status_error = "Editor. F1: keys.", False

    # --- what the window reads ----------------------------------------------------
    @property
    def draft(self) -> Draft:
        return self.history.draft

    @property
    def scenario(self) -> Scenario:
        return self.history.scenario

    @property
    def unsaved(self) -> bool:
        return self.history.scenario != self.saved

    # --- changes -------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Put ``text`` in the status bar (and, unless an error, in the log)."""
        self.status, self.status_error = text, error
        if not error:
            self.log = [*self.log[-(LOG_KEPT - 1):], text]

    def change(self, scenario: Scenario, what: str) -> bool:
        """Make ``scenario`` the draft; the status says what changed and what is wrong now."""
        if not self.history.change(scenario):
            return False
        problems = self.draft.problems
        self.say(what if not problems else f"{what}; {len(problems)} problem(s): {problems[0]}",
                  error=False)
        if problems:
            self.status_error = True
        return True

    def _apply(self, f: Callable[..., Scenario], *values: Any, what: str) -> None:
        """Call an edit function on the draft; its refusal goes to the status bar."""
        try:
            scenario = f(self.draft.scenario, *values)
        except (WastelandError, KeyError, ValueError) as exc:
            self.say(f"{what}: {exc}", error=True)
            return
        self.change(scenario, what)

    def undo(self) -> None:
        self._stop()
        if self.history.undo():
            self._settle_selection()
            self.say("undone")
        else:
            self.say("nothing to undo", error=True)

    def redo(self) -> None:
        self._stop()
        if self.history.redo():
            self._settle_selection()
            self.say("redone")
        else:
            self.say("nothing to redo", error=True)

    def _settle_selection(self) -> None:
        s = self.draft.scenario
        ids = {p.id for p in s.terrain} | set(s.model_ids)
        if self.selected not in ids:
            self.selected = None
        self.picks = [p for p in self.picks if p in s.model_ids]

    def _stop(self) -> None:
        """Drop what is half done: a polygon, a drag, a field being typed."""
        self.points, self.drag, self.preview, self.editing = [], None, None, None

    def save(self) -> Path | None:
        """Write the draft to the target; refused (None) while the loader finds problems,
        so a saved file always loads."""
        draft = self.draft
        if not draft.valid:
            self.say(f"not saved: {len(draft.problems)} problem(s) first: "
                      f"{draft.problems[0]}", error=True)
            return None
        try:
            text = scenario_text(draft.scenario, self.target, self.opened)
            write_file(self.target, text)
        except (OSError, WastelandError) as exc:
            why = exc.reason if isinstance(exc, WriteError) else exc
            self.say(f"could not save to {str(self.target)!r}: {why}", error=True)
            return None
        self.opened, self.saved = (text, draft.scenario), draft.scenario
        self.say(f"saved to {self.target}")
        return self.target

    def keep_unsaved(self) -> Path | None:
        """Write the draft, problems and all, beside the target as ``NAME.unsaved.toml``
        (leaving never overwrites the file with changes that were not saved)."""
        path = self.target.with_name(f"{self.target.stem}.unsaved.toml")
        s = self.draft.scenario
        try:
            try:  # like the opened file, comments and all, when it can take the changes
                text = (tidy_text(s, self.target) if self.opened is None
                        else rewrite_text(self.opened[0], self.opened[1], s))
            except RewriteError:
                text = tidy_text(s, self.target)
            write_file(path, text)
        except (OSError, WastelandError) as exc:
            why = exc.reason if isinstance(exc, WriteError) else exc
            self.say(f"could not write {str(path)!r}: {why}", error=True)
            return None
        return path

    # --- typed text ------------------------------------------------------------------------
    def type_text(self, text: str) -> None:
        if self.editing is not None:
            field, ident, typed = self.editing
            self.editing = (field, ident, typed + text)

    def _finish_editing(self) -> None:
        assert self.editing is not None  # only called while a field is typed
        field, ident, typed = self.editing
        self.editing = None
        try:
            scenario = set_field(self.draft.scenario, ident, field, typed)
        except WastelandError as exc:
            self.say(str(exc), error=True)
            return
        if field == "id" and ident == self.selected:
            self.selected = typed.strip()
            self.picks = [typed.strip() if p == ident else p for p in self.picks]
        self.change(scenario, f"{field} set")

