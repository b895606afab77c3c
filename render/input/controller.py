"""The hot-seat flow, driven only by the engine's legal actions.

Split by job (issue 32): the game session (:class:`~render.input.session.Session`:
the game state, the history as last saved, the AI's sides), the UI state around
it that the controller changes click by click (a model action being set up, the
hovered and selected models, the debug picks and toggles, help, legend,
scrolling, the F5 maps, the status bar), taken each frame as one frozen
:class:`~render.input.ui_state.UiState` that keys the view, and the table of
named key commands (:data:`COMMANDS`). The engine's answers for one state (the
scene, the legal actions, shots, reach) are kept in one place, the controller's
:class:`~render.explain.answers.Answers`, which the window's ``Show`` asks too.

It offers as buttons exactly what ``state.legal_actions()`` lists, turns clicks
into engine actions and applies them; anything illegal is refused by the engine,
whose message goes to the status bar (:meth:`Controller.say`) while the state
stays unchanged. It never decides a rule itself. Refusals are said in player
words: the engine's reason after what was refused, with display names, never the
action's text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from render.draw.models import model_at
from render.draw.theme import TEXT_WARN
from render.draw.view import Button, TextLine, ViewState
from render.explain import debug, tape
from render.explain.answers import Answers, state_key
from render.explain.setup import Setup, build, current_weapon
from render.input import (
    ai_turns,
    attacks,
    choices,
    commands,
    confirm,
    hotkeys,
    paths,
    shown,
    words,
)
from render.input.keys import AddStep, Apply, Do, PickTarget, StartKind
from render.input.map_toggle import MapToggle
from render.input.session import Session
from render.input.ui_state import UiState, frozen_setup
from render.scene import Scene, scene_from_scenario, scene_from_state
from sim.engine.actions import Action, ActionKind, Activate, ModelAction, ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.movement.plan import Step
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario

CLICK_SLACK = 0.25  # inches added to a base's radius when clicking it


class Controller:
    """Holds what the window shows and turns clicks and keys into engine calls; its
    arguments are the game session's (:class:`~render.input.session.Session`)."""

    def __init__(self, scenario: Scenario, save_dir: Path | None = None,
                 state: GameState | None = None) -> None:
        self.session = Session(scenario, save_dir or Path.cwd(), state)
        self._status = ("", False)  # the status bar: its text and whether it is an error
        self.quit_requested = False
        self.show_help = False
        self.debug = False
        self.debug_sight = False
        self.debug_reach = False
        self.debug_picks: list[str] = []
        self.hovered: str | None = None
        self.hover_point: tuple[float, float] | None = None
        self.tape: tuple[tuple[float, float], tuple[float, float]] | None = None  # issue 34
        self.hover_index: int | None = None
        self.selected: str | None = None
        self.setup: Setup | None = None
        self.last_outcome: tuple[TextLine, ...] = ()
        self._quiet_hover: str | None = None  # no hover preview on it (see apply)
        self.show_legend = False  # a short window's shared box: legend (True) or log
        self.scroll = {"details": 0, "log": 0}  # rows scrolled by the mouse wheel
        self._details_seen: tuple[TextLine, ...] = ()
        self.reach_budget = 0.03  # seconds of F4 area work per frame (see tick)
        self._reach_work = 0  # areas worked out so far: part of the view's key
        self._view_cache: tuple[UiState, ViewState] | None = None
        self.answers = Answers()  # the engine's answers for one state: scene, legal, shots
        self.maps = MapToggle()  # F5: the visibility maps (issue 17)
        self._confirming: tuple[Action, int] | None = None  # End turn asked at this history
        s = self.session
        if s.state is None:
            self.say(f"read-only: {s.problem}", error=True)
        else:
            self.say(("Saved game continued: round " f"{s.state.round}." if s.continued
                      else "New game.")
                     + f" F1: help. Quitting saves a changed game in {s.save_dir}.")

    # --- the game session ----------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        return self.session.scenario

    @property
    def state(self) -> GameState | None:
        """The engine's game (None: the scenario cannot be played, the window is read-only)."""
        return self.session.state

    @property
    def ai(self) -> ai_turns.AiTurns | None:
        """Solo play: the AI's sides (issue 18)."""
        return self.session.ai

    @ai.setter
    def ai(self, ai: ai_turns.AiTurns | None) -> None:
        self.session.ai = ai

    @property
    def save_dir(self) -> Path:
        """Where Ctrl+S (and quitting) writes."""
        return self.session.save_dir

    @save_dir.setter
    def save_dir(self, path: Path) -> None:
        self.session.save_dir = path

    @property
    def unsaved(self) -> bool:
        """Whether the game changed since it was started, loaded or last saved."""
        return self.session.unsaved

    # --- the status bar --------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Put ``text`` in the status bar (the app and the AI's turns say theirs here)."""
        self._status = (text, error)

    @property
    def status(self) -> str:
        return self._status[0]

    @property
    def status_error(self) -> bool:
        return self._status[1]

    # --- reading (the engine's answers per state, the view per UI state) --------------
    def scene(self) -> Scene:
        """The board as the engine has it now (kept per engine state by :attr:`answers`)."""
        if self.state is None:
            return scene_from_scenario(self.scenario)
        state, scenario = self.state, self.scenario
        return self.answers.scene(state, lambda: scene_from_state(scenario, state))

    def legal(self) -> list[Action]:
        """The engine's listed legal actions, asked once per engine state (:attr:`answers`)."""
        return [] if self.state is None else self.answers.legal(self.state)

    def buttons(self) -> list[Button]:
        """The choices offered now: the engine's listed legal actions, grouped."""
        if self.state is None or self.state.is_over or (self.ai and self.ai.plays(self.state)):
            return []
        if self.setup is not None:
            return choices.setup_buttons(self.scenario, self.state, self.scene(), self.legal(),
                                         self.setup, self.answers)
        return choices.turn_buttons(self.scenario, self.state, self.legal())

    def _weapon(self, s: Setup) -> str | None:
        """The weapon Tab has cycled to, when the action takes one."""
        return current_weapon(self.scenario, self.legal(), s) if s.form.weapon else None

    def ui_state(self) -> UiState:
        """The UI state now, frozen: what the view depends on (see render.input.ui_state)."""
        s = self.setup
        return UiState(
            scenario=self.scenario, state=self.state, legal=self.legal(),
            hover_point=self.hover_point,
            state_key=None if self.state is None else state_key(self.state),
            setup=frozen_setup(s),
            path_hover=self.hover_point if s is not None and s.form.points else None,
            hovered=self.hovered, quiet_hover=self._quiet_hover, selected=self.selected,
            last_outcome=self.last_outcome, debug=self.debug, debug_sight=self.debug_sight,
            debug_reach=self.debug_reach, debug_picks=tuple(self.debug_picks),
            show_help=self.show_help, show_legend=self.show_legend, status=self.status,
            status_error=self.status_error, hover_index=self.hover_index,
            reach_work=self._reach_work,
            scroll=(self.scroll["details"], self.scroll["log"]),
            maps=self.maps.key(self.hover_point), tape=self.tape)

    def view(self) -> ViewState:
        """Everything the frame draws besides the scene (recomputed only on a change)."""
        ui = self.ui_state()
        if self._view_cache is None or self._view_cache[0] != ui:
            self.answers.follow(self.state)
            self._view_cache = (ui, self._make_view(ui))
        return self._view_cache[1]

    def _make_view(self, ui: UiState) -> ViewState:
        scene = self.scene()
        overlays, lines = shown.overlays_and_details(self.answers, ui, scene)
        overlays, lines = self.maps.shown(ui, scene, overlays, lines)
        tape_overlays, tape_lines = tape.shown(scene, ui.tape)
        overlays, lines = [*overlays, *tape_overlays], [*tape_lines, *lines]
        text = tuple(lines)
        if text != self._details_seen:  # new text starts at its top
            self._details_seen = text
            self.scroll["details"] = 0
        return ViewState(
            buttons=tuple(self.buttons()),
            buttons_title=shown.buttons_title(ui, scene),
            details=text,
            log=(() if self.state is None else self.ai.log_lines(self.state) if self.ai
                 else tuple(str(e) for e in self.state.events)),
            status=self.status,
            status_error=self.status_error,
            overlays=tuple(overlays),
            highlight=shown.highlight(ui),
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
        self._confirming = None  # a question asked before this action is answered
        applied = self.session.apply(action)
        self.say(applied.text, error=not applied.done)
        if not applied.done:
            return False
        self.last_outcome = tuple(TextLine(e.text, TEXT_WARN) for e in applied.events)
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
        self._confirming = None
        self.setup = None
        undone = self.session.undo()
        assert undone is not None
        text, error = undone
        self.say(text, error=error)
        if not error:
            self.last_outcome = (TextLine(text, TEXT_WARN),)

    def save(self) -> Path | None:
        """Write the game to a new file in ``save_dir`` and name it in the status bar."""
        if self.state is None:
            return None
        path, text = self.session.save()
        self.say(text, error=path is None)
        return path

    def commit(self) -> None:
        """Enter: apply the action as set up, or say what it still needs."""
        s = self.setup
        if s is None:
            return
        action = self.build(s)
        if action is None:
            self.say(f"{choices.kind_label(s.form.keyword)}: nothing to commit yet (click "
                      "the board for a waypoint, or a model)", error=True)
            return
        self.apply(action)

    def path_changed(self) -> None:
        """A new path drawn: an old refusal no longer applies to it (bug 6)."""
        if self.setup is not None and self.status_error:
            self.say(words.setup_hint(self.setup))

    def _start_setup(self, kind: ActionKind[Any]) -> None:
        if self.state is None or self.state.activation is None:
            return
        self.setup = Setup(kind, self.state.activation.model)
        self.say(words.setup_hint(self.setup))

    def _pick_target(self, target: str) -> None:
        """Choose the target; act at once when the engine lists one way to do it.

        Several ways (weapons, both range bands, R-RANGE-1) become buttons; none
        means the attack is illegal: it is still sent, so the engine says why.
        """
        s = self.setup
        assert s is not None
        s.target = target
        if s.form.points:
            self.say(words.setup_hint(s))
            return
        ways = attacks.ways_to_attack(self.legal(), s, target,
                                          current_weapon(self.scenario, self.legal(), s))
        if len(ways) == 1:
            self.apply(ways[0])
        elif not ways:
            action = self.build(s)
            if action is not None:
                self.apply(action)
            if self.setup is not None:
                self.setup.target = None
        else:
            self.say(f"{choices.kind_label(s.form.keyword)} "
                      f"{display_names(self.scenario).model(target)}: choose how (buttons)")

    # --- input -----------------------------------------------------------------
    def command(self, name: str) -> None:
        """A named key command (render.app maps keys to these names, render.input.commands)."""
        run = commands.COMMANDS.get(name)
        if run is not None:
            run(self)

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
                if self._asks_first(action):
                    return
                self.apply(action)
            case StartKind(kind):
                self._start_setup(kind)
            case PickTarget(target) if self.setup is not None:
                self._pick_target(target)
            case AddStep(step) if self.setup is not None:
                self.setup.steps.append(step)
                self.path_changed()
            case Do(name):
                self.command(name)

    def _asks_first(self, action: Action) -> bool:
        """End turn with Ready models asks first (render.input.confirm); True when it
        asked now, False when the action goes ahead (confirmed, or nothing to lose)."""
        ready = confirm.discarded(self.state, action)
        if not ready or self.state is None:
            return False
        asked = (action, len(self.state.history))
        if self._confirming == asked:
            self._confirming = None
            return False
        self._confirming = asked
        self.say(confirm.question(self.state, ready), error=True)
        return True

    def measure(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        """Lay the measuring tape from ``start`` to ``end`` (render.explain.tape)."""
        self.tape = (start, end)

    def hover_button(self, index: int | None) -> None:
        self.hover_index = index

    def hover(self, point: tuple[float, float] | None) -> None:
        self.hover_point = point
        before = self.hovered
        self.hovered = None if point is None else model_at(self.scene(), *point, CLICK_SLACK)
        if self.hovered != self._quiet_hover:
            self._quiet_hover = None
        if self.hovered != before and self.hovered is not None and self.status_error:
            # A refusal is about what was tried; hovering another model moves on: the
            # red goes, the words stay (issue 34, bug 6).
            self.say(self.status)

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
                self.say(f"{s.form.keyword}: click a model to target", error=True)
            else:
                self._pick_target(hit)
            return
        if s.form.points:
            paths.clicked_step(self.state, self.scene(), s, x, y, self.answers)
            self.path_changed()
            if not s.form.many_points:
                self.commit()

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
            self.path_changed()

    # --- work spread over frames ---------------------------------------------------
    def tick(self) -> None:
        """Work that would freeze one frame, spread over frames (the window calls it).

        F4's reachable areas take 0.1 to 0.3 s each: they are worked out for as
        many models as fit in :attr:`reach_budget` seconds per frame (at least
        one), so the window keeps drawing and answering input meanwhile. (A threat
        map is worked out in a thread of its own: render.input.map_thread.)
        """
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

