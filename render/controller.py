"""The hot-seat flow, driven only by the engine's legal actions.

The controller holds the :class:`~sim.state.GameState` and the little UI
state around it (a model action being set up, the hovered model, the debug
picks). It offers as buttons exactly what ``state.legal_actions()`` lists,
turns clicks into engine actions and applies them; anything illegal is
refused by the engine, whose message goes to the status bar while the state
stays unchanged. It never decides a rule itself.

How a model action is set up is read from its usage text
(``ModelAction.usage``, e.g. ``"shoot MODEL TARGET [WEAPON]"``): ``TARGET``
is picked by clicking a model, ``X Y`` by clicking the board (waypoints when
the usage repeats them), ``WEAPON`` cycles with Tab. Kinds whose usage has
other words are offered as the engine's listed samples.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from render import analysis_view
from render.draw_models import model_at
from render.overlays import AreaOverlay, EdgesOverlay, PathOverlay, SightWeb
from render.scene import ModelView, Scene, scene_from_scenario
from render.theme import TEXT_BAD, TEXT_DIM, TEXT_GOOD, TEXT_WARN
from render.view import Button, Overlay, TextLine, ViewState
from sim.actions import (
    Action,
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    ModelAction,
    OptionA,
    OptionB,
    ReadyModel,
    action_kinds,
    parse_action,
)
from sim.combat import melee_weapons
from sim.errors import WastelandError
from sim.gamedata import Phase, Status
from sim.scenario import Scenario
from sim.state import GameState

CLICK_SLACK = 0.25  # inches added to a base's radius when clicking it
SNAP = 0.5  # inches: a charge's waypoint this near base contact snaps to it


@dataclass(frozen=True)
class Form:
    """What a model action's usage text asks for (see the module docstring)."""

    keyword: str
    target: bool
    weapon: bool
    points: bool
    many_points: bool
    other: bool

    vertical: bool = False  # "climb Z" / "jump Z" steps may be mixed in
    band: bool = False  # "short|long": the range band (R-RANGE-1)

    @classmethod
    def of(cls, keyword: str, usage: str) -> Form:
        words = [w.strip("[]") for part in usage.split()[1:] for w in part.split("|")]
        known = {"MODEL", "TARGET", "WEAPON", "X", "Y", "...", "climb", "jump", "Z",
                 "short", "long"}
        return cls(
            keyword=keyword,
            target="TARGET" in words,
            weapon="WEAPON" in words,
            points="X" in words,
            many_points="..." in usage,
            other=any(w not in known for w in words),
            vertical="climb" in words or "jump" in words,
            band="short" in words,
        )


@dataclass
class Setup:
    """A model action being set up by clicks."""

    form: Form
    model: str
    target: str | None = None
    # Steps in order: ("walk", x, y), or ("climb", z, 0.0) / ("jump", z, 0.0).
    steps: list[tuple[str, float, float]] = field(default_factory=list)
    weapon: int = 0

    @property
    def points(self) -> list[tuple[float, float]]:
        """The walked waypoints, in order."""
        return [(a, b) for k, a, b in self.steps if k == "walk"]

    def tokens(self, steps: list[tuple[str, float, float]] | None = None) -> list[str]:
        out: list[str] = []
        for kind, a, b in self.steps if steps is None else steps:
            out += [repr(a), repr(b)] if kind == "walk" else [kind, repr(a)]
        return out


def readable(text: str) -> str:
    """Action text with long decimals cut to two places (``9.478723404`` -> ``9.48``)."""
    return re.sub(r"-?\d+\.\d{3,}", lambda m: f"{float(m.group()):.2f}", text)


def action_label(scene_sides: dict[str, str], action: Action) -> str:
    """A button label for a turn-structure action."""
    if isinstance(action, ChooseFirst):
        return f"{scene_sides.get(action.side, action.side)} goes first"
    if isinstance(action, ReadyModel):
        return f"Ready {action.model}"
    if isinstance(action, OptionA):
        return "A: activate none"
    if isinstance(action, OptionB):
        return "B: activate Ready"
    if isinstance(action, Activate):
        return f"Activate {action.model}"
    if isinstance(action, EndActivation):
        return "End activation"
    if isinstance(action, EndTurn):
        return "End turn"
    return str(action)


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
            self.state: GameState | None = state or GameState(scenario)
        except WastelandError as exc:
            self.state = None
            self._say(f"read-only: {exc}", error=True)
        else:
            fresh = state is None or not state.history
            self._say("New game. F1: help." if fresh else
                      f"Saved game continued: round {self.state.round}. F1: help.")
        self._scene_cache: tuple[object, Scene] | None = None
        self._legal_cache: tuple[object, list[Action]] | None = None
        self._view_cache: tuple[object, ViewState] | None = None

    # --- reading ---------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self.status, self.status_error = text, error

    def scene(self) -> Scene:
        """The board as the engine has it now (cached per engine step)."""
        st = self.state
        if st is None:
            return scene_from_scenario(self.scenario)
        key = self._state_key()
        if self._scene_cache is not None and self._scene_cache[0] == key:
            return self._scene_cache[1]
        models = []
        for m in st.models.values():
            unit = self.scenario.unit_of(m.id)
            models.append(ModelView(
                id=m.id, side=m.side, unit_name=unit.name,
                x=m.position.x, y=m.position.y, z=m.position.z,
                radius=st.radius(m.id), health=m.health, max_health=unit.health,
                readiness=str(m.readiness), climbing=m.climbing,
                off_table=m.status is Status.LEFT, removed=m.status is Status.ELIMINATED))
        act = st.activation
        scene = Scene(
            scenario=self.scenario, models=tuple(models), round=st.round, rounds=st.rounds,
            advantage=st.advantage, side_to_act=st.acting,
            active_model=act.model if act else None,
            actions_left=act.actions_left if act else None,
            phase=str(st.phase), result=str(st.result) if st.result else None,
            side_order=st.sides)
        self._scene_cache = (key, scene)
        return scene

    def _state_key(self) -> object:
        """Changes whenever the engine state does (apply, undo, load)."""
        st = self.state
        if st is None:
            return None
        hist, events = st.history, st.events
        return (id(st), len(hist), hist[-1] if hist else None, len(events),
                events[-1].text if events else None)

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
        if self.state is None or self.state.is_over:
            return []
        if self.setup is not None:
            return self._setup_buttons(self.setup)
        sides = {s: self.scenario.sides[s].name for s in self.scenario.sides}
        out: list[Button] = []
        kinds_seen: list[str] = []
        for a in self._legal():
            if isinstance(a, ModelAction):
                if a.keyword not in kinds_seen:
                    kinds_seen.append(a.keyword)
                    out.append(Button(a.keyword.replace("-", " ").capitalize(),
                                      ("kind", a.keyword)))
            else:
                out.append(Button(action_label(sides, a), ("act", a)))
        act = self.state.activation
        if act is not None and act.actions_left > 0:
            # Free paths (Move, Leave): the engine lists only a few sample paths,
            # which can all fail where a shorter one would do; the kind stays
            # offered and the engine judges the path drawn.
            at = len(out) - 1 if out and out[-1].key == ("act", EndActivation()) else len(out)
            for kw, kind in action_kinds().items():
                form = Form.of(kw, kind.action_type.usage)
                if kw not in kinds_seen and form.points and not form.target and not form.other:
                    out.insert(at, Button(kw.replace("-", " ").capitalize(), ("kind", kw),
                                          hint="no sample path listed"))
                    at += 1
        return out

    def _setup_buttons(self, s: Setup) -> list[Button]:
        out: list[Button] = []
        if s.form.other or not (s.form.target or s.form.points):
            for a in self._legal():
                if isinstance(a, ModelAction) and a.keyword == s.form.keyword:
                    out.append(Button(" ".join(str(a).split()[2:]) or str(a), ("act", a)))
        elif s.form.target and s.target is None:
            for a in self._legal():
                if isinstance(a, ModelAction) and a.keyword == s.form.keyword:
                    tgt = str(a).split()[2]
                    if not any(b.key == ("target", tgt) for b in out):
                        out.append(Button(f"{s.form.keyword} {tgt}", ("target", tgt)))
        elif s.form.target and not s.form.points:
            for a in self._options(s, s.target):
                out.append(Button(" ".join(str(a).split()[3:]) or str(a), ("act", a)))
        if s.form.points:
            out.append(Button("Commit path", ("commit",), enabled=bool(s.steps)))
            out.append(Button("Remove last step", ("backspace",), enabled=bool(s.steps)))
        if s.form.vertical:
            for kind, z in self._vertical_choices(s):
                out.append(Button(f"{kind.capitalize()} to {z:g} in", ("vertical", kind, z)))
        if s.form.weapon:
            out.append(Button(f"Weapon: {self._weapon_name(s)} (Tab)", ("weapon",)))
        out.append(Button("Cancel", ("cancel",)))
        return out

    def _weapons(self, s: Setup) -> tuple[str, ...]:
        """Weapons to cycle: those the engine lists for this kind now, else all carried."""
        carried = self.scenario.unit_of(s.model).weapons
        listed = {w for a in self._legal() if isinstance(a, ModelAction)
                  and a.keyword == s.form.keyword for w in str(a).split()[3:] if w in carried}
        return tuple(w for w in carried if w in listed) or carried

    def _weapon_name(self, s: Setup) -> str:
        ws = self._weapons(s)
        return self.scenario.weapons[ws[s.weapon % len(ws)]].name if ws else "-"

    def _ui_key(self) -> object:
        s = self.setup
        setup = None if s is None else (s.form, s.model, s.target, tuple(s.steps), s.weapon)
        path_hover = self.hover_point if s is not None and s.form.points else None
        return (self._state_key(), setup, self.hovered, path_hover, self.hover_index,
                self.debug, self.debug_sight, self.debug_reach, tuple(self.debug_picks),
                self.show_help, self.status, self.status_error, self.selected,
                self.last_outcome, self._reach_work, self.show_legend, self._quiet_hover,
                tuple(self.scroll.values()))

    def view(self) -> ViewState:
        """Everything the frame draws besides the scene (recomputed only on a change)."""
        key = self._ui_key()
        if self._view_cache is None or self._view_cache[0] != key:
            self._view_cache = (key, self._make_view())
        return self._view_cache[1]

    def _make_view(self) -> ViewState:
        scene = self.scene()
        title = "Choices"
        if self.state is not None:
            title = f"Choices: {scene.phase}"
            act = self.state.activation
            if act is not None:
                n = act.actions_left
                title = f"{act.model}: {n} action{'' if n == 1 else 's'} left"
            if self.setup is not None:
                title = f"{self.setup.form.keyword} with {self.setup.model}"
        overlays, details = self._overlays_and_details(scene)
        if details != self._details_seen:  # new text starts at its top
            self._details_seen = details
            self.scroll["details"] = 0
        return ViewState(
            buttons=tuple(self.buttons()),
            buttons_title=title,
            details=details,
            log=tuple(str(e) for e in self.state.events) if self.state else (),
            status=self.status,
            status_error=self.status_error,
            overlays=tuple(overlays),
            highlight=self._highlight(),
            show_help=self.show_help,
            debug=self.debug,
            hover_button=self.hover_index,
            game_over=scene.result,
            legend="overlays" if overlays else "terrain",
            show_legend=self.show_legend,
            details_scroll=self.scroll["details"],
            log_scroll=self.scroll["log"],
        )

    def _highlight(self) -> frozenset[str]:
        """Models ringed in white besides the active one: picks, selection, target."""
        if self.debug:
            return frozenset(self.debug_picks)
        ids = {self.selected, self.setup.target if self.setup else None}
        return frozenset(i for i in ids if i is not None)

    def _overlays_and_details(self, scene: Scene) -> tuple[list[Overlay], tuple[TextLine, ...]]:
        overlays: list[Overlay] = []
        lines: list[TextLine] = []
        positions = scene.positions()
        if self.debug:
            lines.append(TextLine("DEBUG VIEW (F2 to leave): click two models", TEXT_WARN))
            if self.debug_sight:
                overlays.append(SightWeb(analysis_view.sight_web(self.scenario, positions,
                                                                 self._climbing(scene))))
            if self.debug_sight:
                lines.append(TextLine("F3: every model's sight to every enemy: green, the "
                                      "sight line found; dashed red, none (R-LOS-1)", TEXT_DIM))
            if self.debug_reach:
                overlays.append(EdgesOverlay(analysis_view.significant_edge_lines(self.scenario)))
                ids = self._reach_models()
                done = [i for i in ids if analysis_view.reach_known(self.state, i)]
                for i in done:  # only areas already worked out: tick() adds the rest
                    area = analysis_view.reach_area(self.state, i)
                    if area is not None:
                        overlays.append(AreaOverlay(area))
                more = f", working out {len(ids) - len(done)} more" if len(done) < len(ids) else ""
                lines.append(TextLine(f"F4: significant edges (R-ELEV-2) and where each model "
                                      f"can end a Move: {len(done)}/{len(ids)} areas{more}",
                                      TEXT_DIM))
            if len(self.debug_picks) == 2 and all(p in positions for p in self.debug_picks):
                a, t = self.debug_picks
                carried = self.scenario.unit_of(a).weapons  # rings of its first weapon
                shot, text = analysis_view.shot(self.scenario, positions, a, t,
                                                carried[0] if carried else None,
                                                self._climbing(scene))
                overlays.append(shot)
                lines += text
            return overlays, tuple(lines)
        s = self.setup
        if s is not None:
            if s.form.points:
                area = analysis_view.reach_area(self.state, s.model, s.form.keyword == "charge")
                if area is not None:
                    overlays.append(AreaOverlay(area))
                path = self._path_preview(s)
                if path is not None:
                    overlays.append(path)
                    lines.append(TextLine(f"path: {path.text}", TEXT_GOOD if path.ok else TEXT_BAD))
                    if path.reason:
                        lines.append(TextLine(f"not legal: {path.reason}", TEXT_BAD))
            target = s.target or (self.hovered if s.form.target else None)
            attack = s.form.target and not s.form.points  # a charge shows its path instead
            if attack and target is not None and target != s.model:
                weapon = self._current_weapon(s)
                if s.form.keyword == "close-combat" and self.state is not None:
                    # Base contact and odds; sight, cover and range do not apply.
                    lines += analysis_view.close_combat_lines(self.state, s.model, target,
                                                              weapon)
                    return overlays, tuple(lines)
                shot, text = analysis_view.shot(self.scenario, positions, s.model, target,
                                                weapon, self._climbing(scene))
                overlays.append(shot)
                lines += text
                if s.form.keyword == "shoot" and self.state is not None:
                    bands: list[str | None] = [
                        str(a).split()[-1] for a in self._options(s, target)
                        if weapon in str(a).split()[3:]] if s.form.band else []
                    for band in bands or [None]:
                        lines += analysis_view.odds_lines(self.state, s.model, target, weapon,
                                                          band)
            elif s.form.target and s.target is None:
                lines.append(TextLine("hover an enemy model to preview, click to choose", TEXT_DIM))
            elif s.target is not None:
                lines.append(TextLine(f"target: {s.target}"))
        if s is None:
            enemy = self._hovered_enemy()
            if enemy is not None:  # what the pointer asks about comes first
                overlay, text = self._could_shoot(scene, enemy)
                if overlay is not None:
                    overlays.append(overlay)
                lines += text
            lines += self._next_step()
            if enemy is None:
                lines += self.last_outcome
        shown = self.hovered or self.selected
        if shown is not None and (s is None or not s.form.target):
            lines += self._card(shown)
        out = [f"{m.id} ({'left the board' if m.off_table else 'eliminated'})"
               for m in scene.models if not m.on_board]
        if out:  # not drawn on the board (R-EDGE-2, R-TURN-10): say where they went
            lines.append(TextLine("out of play: " + ", ".join(out), TEXT_DIM))
        return overlays, tuple(lines)

    def _next_step(self) -> list[TextLine]:
        """What the side to act does now, in words (R-TURN-3..7); the buttons hold the choices."""
        st = self.state
        if st is None or st.is_over:
            return []
        acting = st.acting
        side = self.scenario.sides[acting].name if acting is not None else "-"
        phase, act = st.phase, st.activation
        if phase is Phase.CHOOSE_FIRST:
            text = f"{side} holds the advantage: choose who takes the first turn (R-TURN-3)"
        elif phase is Phase.READY:
            text = f"{side}: ready one of your Unready models: click it or its button (R-TURN-4)"
        elif phase is Phase.CHOOSE_OPTION:
            text = (f"{side}: A activates none and ends the turn at once; B activates every "
                    "Ready model, one at a time (R-TURN-4)")
        elif phase is Phase.ACTIVATE:
            text = (f"{side}: activate a Ready model (click it or its button); End turn makes "
                    "the rest Used (R-TURN-6)")
        elif phase is Phase.ACTIVATION and act is not None:
            n = act.actions_left
            text = (f"{act.model}: {n} action{'' if n == 1 else 's'} left: choose one, or End "
                    "activation (R-TURN-7)")
            if self._ranged(act.model):
                text += "; hover an enemy to see if it can be shot"
        else:
            return []
        return [TextLine(text, TEXT_DIM)]

    def _ranged(self, model: str) -> list[str]:
        """The weapons ``model`` carries that are not close-combat weapons."""
        unit = self.scenario.unit_of(model)
        melee = set(melee_weapons(self.scenario, unit))
        return [w for w in unit.weapons if w not in melee]

    def _hovered_enemy(self) -> str | None:
        """The hovered model when it is an enemy of the model being activated."""
        st, h = self.state, self.hovered
        if h is not None and h == self._quiet_hover:
            return None  # just attacked: its dice and outcome show instead
        if st is None or h is None or st.activation is None or not st.model(h).in_play:
            return None
        me = st.activation.model
        return h if st.model(me).side != st.model(h).side else None

    def _could_shoot(self, scene: Scene, target: str) -> tuple[Overlay | None, list[TextLine]]:
        """Why the active model can or cannot shoot ``target`` (issue 8): the
        analysis with its first ranged weapon and the engine's own verdict."""
        st = self.state
        assert st is not None and st.activation is not None
        me = st.activation.model
        ranged = self._ranged(me)
        if not ranged or not st.model(me).in_play:
            return None, []
        shot, text = analysis_view.shot(self.scenario, scene.positions(), me, target, ranged[0],
                                        self._climbing(scene))
        return shot, [*text, *analysis_view.odds_lines(st, me, target, ranged[0])]

    def _reach_models(self) -> list[str]:
        """The models whose reachable areas F4 shows: those on the table."""
        return [m.id for m in self.scene().models if m.on_board]

    def tick(self) -> None:
        """Work that would freeze one frame, spread over frames (the window calls it).

        F4's reachable areas take 0.1 to 0.3 s each: they are worked out for as
        many models as fit in :attr:`reach_budget` seconds per frame (at least
        one), so the window keeps drawing and answering input meanwhile.
        """
        if not (self.debug and self.debug_reach) or self.state is None:
            return
        start = time.perf_counter()
        for i in self._reach_models():
            if not analysis_view.reach_known(self.state, i):
                analysis_view.reach_area(self.state, i)
                self._reach_work += 1
                if time.perf_counter() - start >= self.reach_budget:
                    return

    def settle(self) -> None:
        """Finish the work :meth:`tick` spreads over frames (for a still picture)."""
        while self.debug and self.debug_reach and self.state is not None and not all(
                analysis_view.reach_known(self.state, i) for i in self._reach_models()):
            self.tick()

    def _climbing(self, scene: Scene) -> frozenset[str]:
        return frozenset(m.id for m in scene.models if m.climbing)

    def _current_weapon(self, s: Setup) -> str | None:
        ws = self._weapons(s)
        return ws[s.weapon % len(ws)] if ws else None

    def _card(self, model_id: str) -> tuple[TextLine, ...]:
        m = self.scene().model(model_id)
        unit = self.scenario.unit_of(model_id)
        state = "" if m.readiness == "unready" else f", {m.readiness}"
        where = " (climbing)" if m.climbing else ""
        where += f", standing {m.z:g} in up" if m.z > 0 and not m.climbing else ""
        where += " (off the table)" if m.off_table else " (eliminated)" if m.removed else ""
        lines = [
            TextLine(f"{m.id}: {unit.name}, {self.scenario.sides[m.side].name}{state}{where}"),
            TextLine(f"health {m.health}/{m.max_health}, base {unit.base:g} mm, "
                     f"move {unit.move}, charge {unit.charge}", TEXT_DIM),
            TextLine("S.P.E.C.I.A.L. " + " ".join(f"{k}{v}" for k, v in unit.special.items()),
                     TEXT_DIM),
        ]
        for w in unit.weapons:
            wp = self.scenario.weapons[w]
            rng = wp.short + (f"+{wp.long}" if wp.long else "")
            lines.append(TextLine(f"  {wp.name}: {rng}, damage {wp.damage} {wp.damage_type}",
                                  TEXT_DIM))
        return tuple(lines)

    def _path_preview(self, s: Setup) -> PathOverlay | None:
        if s.form.target and s.target is None:
            return None  # a charge's path starts once its target is picked
        start = self.scene().model(s.model)
        steps = list(s.steps)
        if self.hover_point is not None and (not steps or s.form.many_points):
            steps.append(("walk", *self._snap(s, *self.hover_point)))
        if not steps:
            return None
        pts = [(start.x, start.y)]
        marks: list[tuple[float, float, str]] = []
        for kind, a, b in steps:
            if kind == "walk":
                pts.append((a, b))
            else:  # a climb or jump where the path is at that point
                marks.append((*pts[-1], f"{kind} {a:g}\""))
        action = self.build(s, steps)
        why = None if action is None or self.state is None else self.state.why_illegal(action)
        text = analysis_view.path_text(self.state, action, pts)
        reason = why.reason if why is not None else ("" if action else "incomplete")
        return PathOverlay(tuple(pts), start.radius, not reason, text, reason, tuple(marks))

    def _snap(self, s: Setup, x: float, y: float) -> tuple[float, float]:
        """A point near the target of a charge, put exactly in base contact with it.

        No hand can click to a hundredth of an inch (R-UNIT-2); a click within
        :data:`SNAP` of the contact circle lands on it (bases touching, gap 0,
        R-DIST-1). The engine still checks the path.
        """
        if not s.form.points:
            return (x, y)
        if s.target is None:  # a Move: a base near a taller piece goes against its face
            return self._against_face(s, x, y)
        me, tgt = self.scene().model(s.model), self.scene().model(s.target)
        dx, dy = x - tgt.x, y - tgt.y
        d = math.hypot(dx, dy)
        contact = me.radius + tgt.radius
        if d == 0 or d > contact + SNAP:
            return (x, y)
        return (tgt.x + dx / d * contact, tgt.y + dy / d * contact)

    def _against_face(self, s: Setup, x: float, y: float) -> tuple[float, float]:
        """A waypoint that overlaps or nearly touches a taller piece, put against it."""
        if self.state is None or not s.form.vertical:
            return (x, y)
        z = self.scene().model(s.model).z
        for kind, a, _ in s.steps:
            if kind != "walk":
                z = a
        return analysis_view.against_face(self.state, s.model, z, (x, y))

    def _vertical_choices(self, s: Setup) -> list[tuple[str, float]]:
        """Climb/jump heights to offer at the path's end: the levels its base touches."""
        if self.state is None:
            return []
        m = self.scene().model(s.model)
        xy = s.points[-1] if s.points else (m.x, m.y)
        z = m.z
        for kind, a, _ in s.steps:
            if kind != "walk":
                z = a
        out: list[tuple[str, float]] = []
        for h in analysis_view.levels_at(self.state, s.model, xy):
            if abs(h - z) > 1e-9:
                out.append(("climb", h))
                if h < z and self.scenario.rules == "rulebook":
                    out.append(("jump", h))
        return out

    # --- building and applying actions ---------------------------------------------
    def build(self, s: Setup, steps: list[tuple[str, float, float]] | None = None
              ) -> Action | None:
        """The action text the usage asks for, parsed by the engine (None if incomplete)."""
        words = [s.form.keyword, s.model]
        if s.form.target:
            if s.target is None:
                return None
            words.append(s.target)
        use = s.steps if steps is None else steps
        if s.form.points:
            if not use:
                return None
            words += s.tokens(use if s.form.many_points else use[-1:])
        if s.form.weapon:
            w = self._current_weapon(s)
            if w is not None:
                words.append(w)
        if s.form.band:
            words.append("short")
        try:
            return parse_action(" ".join(words))
        except WastelandError:
            return None

    def apply(self, action: Action) -> bool:
        """Apply ``action`` through the engine; on refusal say why and change nothing."""
        if self.state is None:
            return False
        before = len(self.state.events)
        try:
            self.state.apply(action)
        except WastelandError as exc:
            self._say(str(exc), error=True)
            return False
        new = self.state.events[before:]
        # The status bar holds the last two events; Details and the log hold all.
        self._say(" / ".join(e.text for e in new[-2:]) if new else f"done: {action}")
        self.last_outcome = tuple(TextLine(e.text, TEXT_WARN) for e in new)
        self._quiet_hover = self.hovered  # the outcome stays until the pointer moves on
        self.setup = None
        self.selected = None
        return True

    # --- input -----------------------------------------------------------------
    def command(self, name: str) -> None:
        """A named key command (render.app maps keys to these names)."""
        if name == "help":
            self.show_help = not self.show_help
        elif name == "legend":
            self.show_legend = not self.show_legend
        elif name == "escape":
            if self.show_help:
                self.show_help = False
            elif self.setup is not None:
                self.setup = None
                self._say("cancelled")
            else:
                self.debug_picks.clear()
                self.selected = None
        elif name == "debug":
            self.debug = not self.debug
            self.debug_picks.clear()
            self._say("debug view on: click any two models" if self.debug else "debug view off")
        elif name == "all_sight" and self.debug:
            self.debug_sight = not self.debug_sight
        elif name == "edges_reach" and self.debug:
            self.debug_reach = not self.debug_reach
        elif name == "undo":
            self.undo()
        elif name == "save":
            self.save()
        elif name == "confirm":
            self._commit()
        elif name == "backspace" and self.setup is not None and self.setup.steps:
            self.setup.steps.pop()
        elif name == "next_weapon" and self.setup is not None and self.setup.form.weapon:
            self.setup.weapon += 1

    def scroll_by(self, box: str, rows: int, limit: int) -> None:
        """Scroll the text of ``box`` ("details" or "log") by ``rows``, within 0..limit."""
        self.scroll[box] = max(0, min(limit, self.scroll[box] + rows))

    def undo(self) -> None:
        if self.state is None:
            return
        self.setup = None
        try:
            action = self.state.undo()
        except WastelandError as exc:
            self._say(str(exc), error=True)
        else:
            text = f"undone: {readable(str(action))}"
            self._say(text)
            self.last_outcome = (TextLine(text, TEXT_WARN),)

    def save(self) -> Path | None:
        """Write the game to a new file in ``save_dir`` and name it in the status bar."""
        if self.state is None:
            return None
        from sim.save import save_game

        stem = self.scenario.source.stem if self.scenario.source else "game"
        while True:  # a new name each time: never overwrite an earlier save
            self.saves += 1
            path = self.save_dir / f"{stem}-round{self.state.round}-{self.saves}.save.json"
            if not path.exists():
                break
        try:
            save_game(self.state, path)
        except (OSError, WastelandError) as exc:
            self._say(f"could not save to {str(path)!r}: {exc}", error=True)
            return None
        self._say(f"saved to {path}")
        return path

    def _commit(self) -> None:
        s = self.setup
        if s is None:
            return
        action = self.build(s)
        if action is None:
            self._say(f"{s.form.keyword}: not complete yet (click the board or a model)",
                      error=True)
            return
        self.apply(action)

    def press_button(self, index: int) -> None:
        buttons = self.buttons()
        if not 0 <= index < len(buttons) or not buttons[index].enabled:
            return
        key = buttons[index].key
        assert isinstance(key, tuple)
        if key[0] == "act":
            self.apply(key[1])
        elif key[0] == "kind":
            self._start_setup(key[1])
        elif key[0] == "target" and self.setup is not None:
            self._pick_target(key[1])
        elif key[0] == "commit":
            self._commit()
        elif key[0] == "vertical" and self.setup is not None:
            self.setup.steps.append((key[1], key[2], 0.0))
        elif key[0] == "backspace":
            self.command("backspace")
        elif key[0] == "weapon":
            self.command("next_weapon")
        elif key[0] == "cancel":
            self.command("escape")

    def _start_setup(self, keyword: str) -> None:
        if self.state is None or self.state.activation is None:
            return
        kind = action_kinds()[keyword]
        form = Form.of(keyword, kind.action_type.usage)
        self.setup = Setup(form, self.state.activation.model)
        hint = []
        if form.target:
            hint.append("click a target")
        if form.points:
            hint.append("click waypoints, Enter to commit" if form.many_points
                        else "click where to go")
        self._say(f"{keyword}: " + (", ".join(hint) or "choose one") + "; Esc cancels")

    def _options(self, s: Setup, target: str | None) -> list[ModelAction]:
        """The engine's listed legal actions of this kind against ``target``."""
        return [a for a in self._legal() if isinstance(a, ModelAction)
                and a.keyword == s.form.keyword and str(a).split()[2:3] == [target]]

    def _pick_target(self, target: str) -> None:
        """Choose the target; act at once when the engine lists one way to do it.

        Several ways (weapons, both range bands, R-RANGE-1) become buttons; none
        means the attack is illegal: it is still sent, so the engine says why.
        """
        s = self.setup
        assert s is not None
        s.target = target
        if s.form.points:
            self._say(f"{s.form.keyword} {target}: click waypoints, Enter to commit; Esc cancels")
            return
        options = self._options(s, target)
        weapon = self._current_weapon(s)
        if len(options) > 1 and s.form.weapon:
            mine = [a for a in options if weapon in str(a).split()[3:]]
            options = mine or options
        if len(options) == 1:
            self.apply(options[0])
        elif not options:
            action = self.build(s)
            if action is not None:
                self.apply(action)
            if self.setup is not None:
                self.setup.target = None
        else:
            self._say(f"{s.form.keyword} {target}: choose how (buttons)")

    def hover_button(self, index: int | None) -> None:
        self.hover_index = index

    def hover(self, point: tuple[float, float] | None) -> None:
        self.hover_point = point
        self.hovered = None if point is None else model_at(self.scene(), *point, CLICK_SLACK)
        if self.hovered != self._quiet_hover:
            self._quiet_hover = None

    def click(self, x: float, y: float) -> None:
        """A left click on the board at ``(x, y)`` inches."""
        scene = self.scene()
        hit = model_at(scene, x, y, CLICK_SLACK)
        if self.debug:
            if hit is not None:
                self.debug_picks = [*self.debug_picks, hit][-2:]
            return
        if self.state is None:
            self.selected = hit
            return
        s = self.setup
        if s is not None:
            if s.form.target and s.target is None:
                if hit is None:
                    self._say(f"{s.form.keyword}: click a model to target", error=True)
                else:
                    self._pick_target(hit)
                return
            if s.form.points:
                step = ("walk", *self._snap(s, x, y))
                s.steps = [*s.steps, step] if s.form.many_points else [step]
                if not s.form.many_points:
                    self._commit()
            return
        self._click_model(hit)

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
        s = self.setup
        return s is not None and s.form.points and s.form.many_points and (
            not s.form.target or s.target is not None)

    def drag_to(self, x: float, y: float) -> None:
        s = self.setup
        if s is None:
            return
        last = s.points[-1] if s.points else (self.scene().model(s.model).x,
                                              self.scene().model(s.model).y)
        # A drag drops a waypoint every half inch, so the path follows the pointer.
        if (x - last[0]) ** 2 + (y - last[1]) ** 2 >= 0.25:
            s.steps.append(("walk", x, y))
        self.hover_point = (x, y)

    def drag_end(self, x: float | None, y: float | None) -> None:
        s = self.setup
        if s is not None and x is not None and y is not None:
            s.steps.append(("walk", *self._snap(s, x, y)))
