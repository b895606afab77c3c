"""The hot-seat flow, driven only by the engine's legal actions.

The controller holds the game session (the :class:`~sim.engine.state.GameState`,
the history as last saved, the AI's sides in solo play), the UI state around it
(a model action being set up, the hovered and selected models, the debug picks
and toggles, help, legend, scrolling, the F5 maps, the status bar) and the caches
of what it derives per engine and UI state (the scene, the legal actions, the
view, the engine's answers). It offers as buttons exactly what
``state.legal_actions()`` lists, turns clicks into engine actions and applies
them; anything illegal is refused by the engine, whose message goes to the
status bar while the state stays unchanged. It never decides a rule itself.

It coordinates the modules of render/input/ (buttons, keys, set-up, paths,
attacks, history, what is shown, the AI's turns, the maps) and render/explain/
(the answers kept per engine state, the debug view).
Refusals are said in player words: the engine's reason after what was
refused, with display names, never the action's text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from render.draw.models import model_at
from render.draw.theme import TEXT_WARN
from render.draw.view import Button, TextLine, ViewState
from render.explain import debug
from render.explain.answers import Answers, state_key
from render.input import ai_turns, attacks, choices, history, hotkeys, paths, shown, words
from render.input.keys import AddStep, Apply, Do, PickTarget, StartKind
from render.input.map_toggle import MapToggle
from render.input.setup import Setup, build, current_weapon
from render.scene import Scene, scene_from_scenario, scene_from_state
from sim.engine.actions import Action, ActionKind, Activate, ModelAction, ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.game.kinds import new_game
from sim.movement.plan import Step
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario

CLICK_SLACK = 0.25  # inches added to a base's radius when clicking it


class Controller:
    """Holds what the window shows and turns clicks and keys into engine calls.

    Parameters
    ----------
    scenario
        The loaded scenario.
    save_dir
        Where Ctrl+S writes its files.
    state
        A game to continue (default: a new game of ``scenario``).
    """

    def __init__(self, scenario: Scenario, save_dir: Path | None = None,
                 state: GameState | None = None) -> None:
        self.scenario = scenario
        self.save_dir = save_dir or Path.cwd()
        self.quit_requested = False
        self.show_help = False
        self.debug = False
        self.debug_sight = False
        self.debug_reach = False
        self.debug_picks: list[str] = []
        self.hovered: str | None = None
        self.hover_point: tuple[float, float] | None = None
        self.hover_index: int | None = None
        self.selected: str | None = None
        self.setup: Setup | None = None
        self.last_outcome: tuple[TextLine, ...] = ()
        self.saves = 0
        self._quiet_hover: str | None = None  # no hover preview on it (see apply)
        self.show_legend = False  # a short window's shared box: legend (True) or log
        self.scroll = {"details": 0, "log": 0}  # rows scrolled by the mouse wheel
        self._details_seen: tuple[TextLine, ...] = ()
        self.reach_budget = 0.03  # seconds of F4 area work per frame (see tick)
        self._reach_work = 0  # areas worked out so far: part of the view's key
        try:
            self.state: GameState | None = state or new_game(scenario)
        except WastelandError as exc:
            self.state = None
            self._say(f"read-only: {exc}", error=True)
        else:
            fresh = state is None or not state.history
            self._say(("New game." if fresh else
                       f"Saved game continued: round {self.state.round}.")
                      + f" F1: help. Quitting saves a changed game in {self.save_dir}.")
        # The history as last saved (or loaded): quitting saves only a changed game.
        self._saved_history = self.state.history if self.state is not None else ()
        self._scene_cache: tuple[object, Scene] | None = None
        self._legal_cache: tuple[object, list[Action]] | None = None
        self._view_cache: tuple[object, ViewState] | None = None
        self.answers = Answers()  # shots, sight webs, reach: dropped when the state changes
        self.ai: ai_turns.AiTurns | None = None  # solo play: the AI's sides (issue 18)
        self.maps = MapToggle()  # F5: the visibility maps (issue 17)

    # --- reading (cached per engine state and UI state) ---------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self.status, self.status_error = text, error

    def scene(self) -> Scene:
        """The board as the engine has it now (cached per engine step)."""
        if self.state is None:
            return scene_from_scenario(self.scenario)
        key = self._state_key()
        if self._scene_cache is None or self._scene_cache[0] != key:
            self._scene_cache = (key, scene_from_state(self.scenario, self.state))
        return self._scene_cache[1]

    def _state_key(self) -> object:
        """Changes whenever the engine state does (apply, undo, load)."""
        return None if self.state is None else state_key(self.state)  # one state per controller

    def _legal(self) -> list[Action]:
        """The engine's listed legal actions, asked once per engine state."""
        if self.state is None:
            return []
        key = self._state_key()
        if self._legal_cache is None or self._legal_cache[0] != key:
            self._legal_cache = (key, [a for a in self.state.legal_actions()])
        return self._legal_cache[1]

    def buttons(self) -> list[Button]:
        """The choices offered now: the engine's listed legal actions, grouped."""
        if self.state is None or self.state.is_over or (self.ai and self.ai.plays(self.state)):
            return []
        if self.setup is not None:
            return choices.setup_buttons(self.scenario, self.state, self.scene(), self._legal(),
                                         self.setup, self.answers)
        return choices.turn_buttons(self.scenario, self.state, self._legal())

    def _weapon(self, s: Setup) -> str | None:
        """The weapon Tab has cycled to, when the action takes one."""
        return current_weapon(self.scenario, self._legal(), s) if s.form.weapon else None

    def _ui_key(self) -> object:
        s = self.setup
        setup = None if s is None else (s.form, s.model, s.target, tuple(s.steps), s.weapon)
        path_hover = self.hover_point if s is not None and s.form.points else None
        return (self._state_key(), setup, self.hovered, path_hover, self.hover_index,
                self.debug, self.debug_sight, self.debug_reach, tuple(self.debug_picks),
                self.show_help, self.status, self.status_error, self.selected,
                self.last_outcome, self._reach_work, self.show_legend, self._quiet_hover,
                tuple(self.scroll.values()), self.maps.key(self.hover_point))

    def view(self) -> ViewState:
        """Everything the frame draws besides the scene (recomputed only on a change)."""
        key = self._ui_key()
        if self._view_cache is None or self._view_cache[0] != key:
            self.answers.follow(self.state)
            self._view_cache = (key, self._make_view())
        return self._view_cache[1]

    def _showing(self) -> shown.Showing:
        return shown.Showing(
            self.scenario, self.state, self._legal(), self.setup, self.hovered,
            self.hover_point, self._quiet_hover, self.selected, self.last_outcome, self.debug,
            self.debug_sight, self.debug_reach, tuple(self.debug_picks))

    def _make_view(self) -> ViewState:
        scene = self.scene()
        showing = self._showing()
        overlays, lines = shown.overlays_and_details(self.answers, showing, scene)
        overlays, lines = self.maps.shown(self, scene, overlays, lines)
        text = tuple(lines)
        if text != self._details_seen:  # new text starts at its top
            self._details_seen = text
            self.scroll["details"] = 0
        return ViewState(
            buttons=tuple(self.buttons()),
            buttons_title=shown.buttons_title(showing, scene),
            details=text,
            log=(() if self.state is None else self.ai.log_lines(self.state) if self.ai
                 else tuple(str(e) for e in self.state.events)),
            status=self.status,
            status_error=self.status_error,
            overlays=tuple(overlays),
            highlight=shown.highlight(showing),
            show_help=self.show_help,
            debug=self.debug,
            hover_button=self.hover_index,
            game_over=scene.result,
            legend="overlays" if overlays else "terrain",
            show_legend=self.show_legend,
            details_scroll=self.scroll["details"],
            log_scroll=self.scroll["log"],
        )

    def captions(self) -> list[str]:
        """The buttons as drawn (label with number or key), for where they go."""
        return [b.caption for b in self.view().buttons]

    # --- building and applying actions ---------------------------------------------
    def build(self, s: Setup, steps: list[Step] | None = None) -> Action | None:
        """The action as set up, built by its kind (None if incomplete)."""
        return build(s, self._weapon(s), steps)

    def apply(self, action: Action) -> bool:
        """Apply ``action`` through the engine; on refusal say why and change nothing."""
        if self.state is None:
            return False
        blocked = self.ai.blocks(self.state) if self.ai is not None else None
        if blocked is not None:  # an AI side's turn (render/input/ai_turns.py)
            self._say(blocked, error=True)
            return False
        before = len(self.state.events)
        try:
            self.state.apply(action)
        except WastelandError as exc:
            self._say(words.refusal(self.scenario, action, exc), error=True)
            return False
        new = self.state.events[before:]
        # The status bar holds the last two events; Details and the log hold all.
        self._say(" / ".join(e.text for e in new[-2:]) if new else "done")
        self.last_outcome = tuple(TextLine(e.text, TEXT_WARN) for e in new)
        # An attack's outcome stays until the pointer leaves its target (bug 5:
        # any other action leaves the hovered enemy's preview on).
        target = action.values().get("target") if isinstance(action, ModelAction) else None
        self._quiet_hover = self.hovered if target == self.hovered else None
        self.setup = None
        self.selected = None
        return True


    def undo(self) -> None:
        if self.state is None:
            return
        self.setup = None
        text, error = (self.ai.undo(self.state) if self.ai is not None
                       else history.undo(self.state))
        self._say(text, error=error)
        if not error:
            self.last_outcome = (TextLine(text, TEXT_WARN),)

    def save(self) -> Path | None:
        """Write the game to a new file in ``save_dir`` and name it in the status bar."""
        if self.state is None:
            return None
        path, self.saves, problem = history.save_new(self.state, self.save_dir,
                                                     self.scenario, self.saves)
        if path is None:
            self._say(problem or "not saved", error=True)
            return None
        self._say(f"saved to {path}")
        self._saved_history = self.state.history
        return path

    @property
    def unsaved(self) -> bool:
        """Whether the game changed since it was started, loaded or last saved."""
        return self.state is not None and self.state.history != self._saved_history

    def _commit(self) -> None:
        s = self.setup
        if s is None:
            return
        action = self.build(s)
        if action is None:
            self._say(f"{choices.kind_label(s.form.keyword)}: nothing to commit yet (click "
                      "the board for a waypoint, or a model)", error=True)
            return
        self.apply(action)

    def _path_changed(self) -> None:
        """A new path drawn: an old refusal no longer applies to it (bug 6)."""
        if self.setup is not None and self.status_error:
            self._say(words.setup_hint(self.setup))

    def _start_setup(self, kind: ActionKind[Any]) -> None:
        if self.state is None or self.state.activation is None:
            return
        self.setup = Setup(kind, self.state.activation.model)
        self._say(words.setup_hint(self.setup))

    def _pick_target(self, target: str) -> None:
        """Choose the target; act at once when the engine lists one way to do it.

        Several ways (weapons, both range bands, R-RANGE-1) become buttons; none
        means the attack is illegal: it is still sent, so the engine says why.
        """
        s = self.setup
        assert s is not None
        s.target = target
        if s.form.points:
            self._say(words.setup_hint(s))
            return
        ways = attacks.ways_to_attack(self._legal(), s, target,
                                          current_weapon(self.scenario, self._legal(), s))
        if len(ways) == 1:
            self.apply(ways[0])
        elif not ways:
            action = self.build(s)
            if action is not None:
                self.apply(action)
            if self.setup is not None:
                self.setup.target = None
        else:
            self._say(f"{choices.kind_label(s.form.keyword)} "
                      f"{display_names(self.scenario).model(target)}: choose how (buttons)")

    # --- input -----------------------------------------------------------------
    def command(self, name: str) -> None:
        """A named key command (render.app maps keys to these names)."""
        if name == "help":
            self.show_help = not self.show_help
        elif name == "legend":
            self.show_legend = not self.show_legend
        elif name == "escape":
            self._escape()
        elif name == "debug":
            self.debug = not self.debug
            self.debug_picks.clear()
            self._say("debug view on: click any two models" if self.debug else "debug view off")
        elif name == "all_sight" and self.debug:
            self.debug_sight = not self.debug_sight
        elif name == "edges_reach" and self.debug:
            self.debug_reach = not self.debug_reach
        elif name == "map":
            self._say(self.maps.cycle(self, self.scene()))
        elif name == "undo":
            self.undo()
        elif name == "save":
            self.save()
        elif name == "confirm":
            self._commit()
        elif name == "backspace" and self.setup is not None and self.setup.steps:
            self.setup.steps.pop()
            self._path_changed()
        elif name == "next_weapon" and self.setup is not None and self.setup.form.weapon:
            self.setup.weapon += 1

    def _escape(self) -> None:
        """Esc closes the help, else cancels a set-up, else drops picks and selection."""
        if self.show_help:
            self.show_help = False
        elif self.setup is not None:
            self.setup = None
            self._say("cancelled")
        else:
            self.debug_picks.clear()
            self.selected = None

    def scroll_by(self, box: str, rows: int, limit: int) -> None:
        """Scroll the text of ``box`` ("details" or "log") by ``rows``, within 0..limit."""
        self.scroll[box] = max(0, min(limit, self.scroll[box] + rows))

    def press_number(self, number: int) -> None:
        """A number key: the menu entry drawn with that number, if one is."""
        index = hotkeys.by_number(self.buttons(), number)
        if index is not None:
            self.press_button(index)

    def press_hotkey(self, key: str) -> bool:
        """A letter key: the button with that fixed key (M, S, C, E ...); False if none."""
        index = hotkeys.by_hotkey(self.buttons(), key)
        if index is None:
            return False
        self.press_button(index)
        return True

    def press_button(self, index: int) -> None:
        buttons = self.buttons()
        if not 0 <= index < len(buttons) or not buttons[index].enabled:
            return
        match buttons[index].key:
            case Apply(action):
                self.apply(action)
            case StartKind(kind):
                self._start_setup(kind)
            case PickTarget(target) if self.setup is not None:
                self._pick_target(target)
            case AddStep(step) if self.setup is not None:
                self.setup.steps.append(step)
                self._path_changed()
            case Do(name):
                self.command(name)

    def hover_button(self, index: int | None) -> None:
        self.hover_index = index

    def hover(self, point: tuple[float, float] | None) -> None:
        self.hover_point = point
        self.hovered = None if point is None else model_at(self.scene(), *point, CLICK_SLACK)
        if self.hovered != self._quiet_hover:
            self._quiet_hover = None

    def click(self, x: float, y: float) -> None:
        """A left click on the board at ``(x, y)`` inches."""
        hit = model_at(self.scene(), x, y, CLICK_SLACK)
        if self.debug:
            if hit is not None and self.debug_picks[-1:] != [hit]:
                # A second click on the same model keeps one pick: a model
                # has no shot at itself.
                self.debug_picks = [*self.debug_picks, hit][-2:]
            return
        if self.state is None:
            self.selected = hit
            return
        if self.setup is not None:
            self._click_in_setup(self.setup, hit, x, y)
            return
        self._click_model(hit)

    def _click_in_setup(self, s: Setup, hit: str | None, x: float, y: float) -> None:
        """While a model action is set up, a click picks its target or a waypoint."""
        if s.form.target and s.target is None:
            if hit is None:
                self._say(f"{s.form.keyword}: click a model to target", error=True)
            else:
                self._pick_target(hit)
            return
        if s.form.points:
            paths.clicked_step(self.state, self.scene(), s, x, y)
            self._path_changed()
            if not s.form.many_points:
                self._commit()

    def _click_model(self, hit: str | None) -> None:
        """Outside an action setup, clicking a model readies or activates it."""
        assert self.state is not None
        if hit is None:
            self.selected = None
            return
        phase = self.state.phase
        if phase is Phase.READY:
            self.apply(ReadyModel(hit))
        elif phase is Phase.ACTIVATE:
            self.apply(Activate(hit))
        else:
            self.selected = hit

    def drag_start(self, x: float, y: float) -> bool:
        """A drag on the board starts a path while a path action is set up."""
        return paths.can_drag(self.setup)

    def drag_to(self, x: float, y: float) -> None:
        if self.setup is None:
            return
        paths.dragged_to(self.scene(), self.setup, x, y)
        self.hover_point = (x, y)

    def drag_end(self, x: float | None, y: float | None) -> None:
        s = self.setup
        if s is not None and x is not None and y is not None:
            s.steps.append(Step("walk", *paths.snap(self.state, self.scene(), s, x, y)))
            self._path_changed()

    # --- work spread over frames ---------------------------------------------------
    def tick(self) -> None:
        """Work that would freeze one frame, spread over frames (the window calls it).

        F4's reachable areas take 0.1 to 0.3 s each: they are worked out for as
        many models as fit in :attr:`reach_budget` seconds per frame (at least
        one), so the window keeps drawing and answering input meanwhile.
        """
        self.maps.work()  # a threat map's cells (render.input.map_toggle)
        if not (self.debug and self.debug_reach) or self.state is None:
            return
        self._reach_work += debug.work_out_reach(self.answers, self.state, self.scene(),
                                                 self.reach_budget)

    def settle(self) -> None:
        """Finish the work :meth:`tick` spreads over frames (for a still picture)."""
        self.maps.settle()
        while self.debug and self.debug_reach and self.state is not None and not (
                debug.reach_done(self.answers, self.state, self.scene())):
            self.tick()
