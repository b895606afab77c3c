"""The editor's flow: clicks, drags, keys and buttons -> changes of the draft.

It offers what the window's :class:`~render.app.App` asks of a controller
(the scene, the view, clicks, drags, buttons, save), so the editor runs
in the same window code as the game. Every change is a new draft made by
:mod:`sim.scenario.edit` or :mod:`sim.scenario.fields` and checked by the
loader (:mod:`sim.scenario.draft`); undo and redo walk the drafts
(:class:`~render.editor.state.History`).
"""

from __future__ import annotations

from dataclasses import replace

from render.draw.models import model_at
from render.draw.overlays import EdgesOverlay
from render.draw.theme import SELECTED, TEXT_DIM, TEXT_WARN
from render.draw.view import Button, Overlay, TextLine, ViewState
from render.editor import objective_tool, panel, tools
from render.editor.core import Drag, EditorCore
from render.editor.overlays import PROBLEM, Ghost, Pending, outlined
from render.editor.panel import Op
from render.editor.state import TOOL_NAMES
from render.explain import debug
from render.explain.answers import Answers
from render.scene import Scene, scene_from_scenario
from sim.scenario import edit
from sim.scenario.fields import current_text
from sim.scenario.names import display_names
from sim.scenario.objects import Point, Scenario
from sim.scenario.positions import Position
from sim.scenario.presets import PRESETS
from sim.scenario.rules import RULE_SETS

CLICK_SLACK = 0.25  # inches added to a base's radius when clicking it
DUPLICATE_OFFSET = (1.0, 1.0)  # inches: where Ctrl+D puts the copy from the original


class EditorController(EditorCore):
    """The editor behind the window: what it shows, its buttons, keys, clicks and drags."""

    picking: str | None = None  # the unit picker is open: for the tool ("unit") or a model
    clipboard: str | None = None  # Ctrl+C: the piece or model Ctrl+V pastes a copy of

    def scene(self) -> Scene:
        tool = TOOL_NAMES[self.tool.name]
        what = PRESETS[self.tool.preset].label if self.tool.name in ("rect", "circle", "polygon") \
            else self.tool.unit if self.tool.name == "model" else ""
        moving = self.preview
        positions = None
        if moving is not None and self.drag is not None and self.drag.ident in moving.model_ids:
            m = moving.model(self.drag.ident)  # a dragged base follows the pointer
            positions = {m.id: Position(m.at[0], m.at[1], m.z)}
        return replace(scene_from_scenario(self.scenario, positions),
                       phase=f"editing: {tool} {what}".rstrip() + (" *" if self.unsaved else ""))

    def buttons(self) -> list[Button]:
        if objective_tool.is_objective(self.draft.scenario, self.selected):
            assert self.selected is not None
            return objective_tool.buttons(self.draft, self.selected)
        out = panel.buttons(self.draft, self.tool, self.selected, self.picking is not None)
        if self.selected is None and self.picking is None:
            out += objective_tool.tool_buttons(self.tool.objective,
                                               self.tool.name == "objective")
        return out

    def view(self) -> ViewState:
        overlays, lines = self._overlays()
        if self.editing is not None:
            lines = panel.editing_lines(self.editing[0], self.editing[2]) + lines
        if self.show_help:
            lines = [TextLine(h, TEXT_WARN if i == 0 else TEXT_DIM)
                     for i, h in enumerate(panel.HELP)] + lines
        s = self.draft.scenario
        title = ("Piece " if self.selected in {p.id for p in s.terrain} else "Objective "
                 if objective_tool.is_objective(s, self.selected) else "Model ") + \
            self.selected if self.selected else "Tools and scenario"
        chosen = (objective_tool.lines(s, self.selected) if self.selected is not None
                  and objective_tool.is_objective(s, self.selected)
                  else panel.details(self.draft, self.selected))
        if self.picking is not None:
            title = "Unit: click one, or press its number"
        return ViewState(
            buttons=tuple(self.buttons()), buttons_title=title,
            details=tuple(lines + chosen),
            log=tuple(self.log), status=self.status, status_error=self.status_error,
            overlays=tuple(overlays), highlight=frozenset(self.picks), debug=self.debug,
            hover_button=self.hover_index, details_scroll=self.scroll["details"],
            show_legend=self.show_legend,
            log_scroll=self.scroll["log"])

    def _overlays(self) -> tuple[list[Overlay], list[TextLine]]:
        s = self.scenario
        out: list[Overlay] = []
        lines: list[TextLine] = []
        if self.debug or self.debug_sight or self.debug_edges:
            out, lines = self._explained()
        if self.selected is not None:  # wide, so a problem's red shows on it
            out.append(outlined(self.preview or s, [self.selected], SELECTED, 6))
        marked = sorted(self.draft.marked)
        if marked:
            out.append(outlined(s, marked, PROBLEM, 3, "!"))
        pending = self._pending()
        if pending is not None:
            out.append(pending)
        return out, lines

    def _explained(self) -> tuple[list[Overlay], list[TextLine]]:
        """The game's own debug view (render.explain.debug) on the draft: only a valid one
        (the sight code takes only boards the loader accepts)."""
        if not self.draft.valid:
            return [], [TextLine("F2/F3/F4: the overlays wait until the draft has no problems",
                                 TEXT_WARN)]
        s = self.draft.scenario
        if self.answers_for is not s:
            self.answers, self.answers_for = Answers(), s
        scene = scene_from_scenario(s)
        overlays, lines = debug.debug_details(self.answers, None, scene, self.picks,
                                              self.debug_sight, False)
        if self.debug_edges:
            overlays.insert(0, EdgesOverlay(scene.edges))
        if not self.debug:
            lines = lines[1:]
        return overlays, lines

    def _pending(self) -> Overlay | None:
        d = self.drag
        if d is not None and self.preview is not None and d.ident not in self.preview.model_ids:
            return Ghost(self.preview.piece(d.ident))  # the board stays as it is till release
        if d is not None and d.kind in ("rect", "circle"):
            s, props = self.draft.scenario, PRESETS[self.tool.preset].props
            piece = (tools.rect_from_drag(s, "x", props, d.start, d.now) if d.kind == "rect"
                     else tools.circle_from_drag(s, "x", props, d.start, d.now))
            return Pending(preview=piece.footprint if piece is not None else None)
        if self.points:
            return Pending(tuple(self.points), self.pointer)
        return None

    # --- buttons -------------------------------------------------------------------------
    def press_button(self, index: int) -> None:
        offered = self.buttons()
        if 0 <= index < len(offered) and offered[index].enabled:
            key = offered[index].key
            if isinstance(key, Op):
                self.do(key)

    def captions(self) -> list[str]:
        """The buttons as drawn (label with number or key), where the window lays them out."""
        return [b.caption for b in self.buttons()]

    def press_number(self, number: int) -> None:
        self.press_button(number - 1)

    def press_hotkey(self, letter: str) -> bool:
        """The editor's letters are its own keys (render.editor.app), never a button's."""
        return False

    def hover_button(self, index: int | None) -> None:
        self.hover_index = index

    def do(self, op: Op) -> None:
        """Carry out one button's :class:`~render.editor.panel.Op`."""
        s, sel, t = self.draft.scenario, self.selected, self.tool
        if op.verb == "tool":
            self.set_tool(op.arg)
        elif op.verb == "preset":
            self.tool = replace(t, preset=edit.next_in(tuple(PRESETS), t.preset))
            self.say(f"preset: {PRESETS[self.tool.preset].label}")
        elif op.verb in ("unit", "model_unit") and s.units:
            self.picking = op.verb  # the picker (panel.unit_picker), not the next unit
            self.say("choose a unit: click it or press its number; Esc cancels")
        elif op.verb == "pick":
            self._pick_unit(op.arg)
        elif op.verb == "side":
            self.tool = replace(t, side=edit.next_in(tuple(s.sides), t.side))
            self.say(f"side: {display_names(s).side(self.tool.side)}")
        elif op.verb == "rules":
            self.change(replace(s, rules=edit.next_in(RULE_SETS, s.rules)), "rule set changed")
        elif op.verb == "advantage":
            self.change(replace(s, advantage=edit.next_in((None, *s.sides), s.advantage)),
                        "advantage changed")
        elif op.verb == "edit":
            ident = sel if op.arg in ("height", "overrides", "id") else None
            self.editing = (op.arg, ident, current_text(s, ident, op.arg))
        elif op.verb == "side_name" and op.arg in s.sides:
            self.editing = ("side_name", op.arg, current_text(s, op.arg, "side_name"))
        elif op.verb == "cmd":
            self.command(op.arg)
        elif op.verb == "objective_kind":
            self.tool = replace(t, objective=objective_tool.next_kind(t.objective))
            self.say(f"objective kind: {self.tool.objective}")
        elif op.verb.startswith("objective_") and objective_tool.is_objective(s, sel):
            assert sel is not None
            changed = objective_tool.change(s, sel, op)
            if changed is not None:
                self.change(*changed)
        elif sel is not None:
            self._do_on_selection(op, s, sel)

    def _do_on_selection(self, op: Op, s: Scenario, sel: str) -> None:
        if op.verb == "movement":
            now = s.piece(sel).props.movement
            value = edit.next_in(("normal", "difficult", "impassable"), now)
            self.change(edit.set_props(s, sel, movement=value), f"{sel}: movement {value}")
        elif op.verb == "toggle":
            value = not getattr(s.piece(sel).props, op.arg)
            self.change(edit.set_props(s, sel, **{op.arg: value}), f"{sel}: {op.arg} {value}")
        elif op.verb == "rotate":
            self._apply(edit.rotate_piece, sel, float(op.arg), what=f"{sel} turned {op.arg} deg")
        elif op.verb == "scale":
            self._apply(edit.scale_piece, sel, float(op.arg), what=f"{sel} scaled")
        elif op.verb == "model_side":
            side = edit.next_in(tuple(s.sides), s.model(sel).side)
            self.change(edit.set_model(s, sel, side=side),
                        f"{sel}: side {display_names(s).side(side)}")

    def _pick_unit(self, unit: str) -> None:
        """The picker's choice: the unit the Model tool places, or the selected model's."""
        s, sel, picking = self.draft.scenario, self.selected, self.picking
        self.picking = None
        name = s.units[unit].name if unit in s.units else unit
        if picking == "model_unit" and sel in s.model_ids:
            self.change(edit.set_model(s, sel, unit=unit), f"{sel}: unit {name}")
        elif picking == "unit":
            self.tool = replace(self.tool, unit=unit)
            self.say(f"unit: {name}")

    def _duplicate(self, ident: str | None, at: Point | None = None) -> None:
        """A copy of ``ident`` beside it (Ctrl+D), or with its centre at ``at`` (Ctrl+V)."""
        s = self.draft.scenario
        objective = objective_tool.is_objective(s, ident)
        if ident is None or (ident not in s.model_ids and not objective and ident not in
                             {p.id for p in s.terrain}):
            self.say("select a piece, a model or an objective first (Ctrl+V: copy one with "
                     "Ctrl+C)", error=True)
            return
        dx, dy = DUPLICATE_OFFSET
        if at is not None:
            c = (s.model(ident).at if ident in s.model_ids else s.objective(ident).at
                 if objective else edit.centre_of(s.piece(ident)))
            dx, dy = tools.snap((at[0] - c[0], at[1] - c[1]))
        copy, new = edit.duplicate(s, ident, dx, dy)
        if self.change(copy, f"{new}: a copy of {ident}"):
            self.selected = new

    def set_tool(self, name: str) -> None:
        self._stop()
        self.tool = replace(self.tool, name=name)
        if name != "select":
            self.selected = None
        self.say(f"tool: {TOOL_NAMES[name]}")

    # --- commands (keys) -------------------------------------------------------------------
    def command(self, name: str) -> None:
        if self.editing is not None and name in ("confirm", "escape", "backspace"):
            if name == "confirm":
                self._finish_editing()
            elif name == "escape":
                self.editing = None
            else:
                field, ident, typed = self.editing
                self.editing = (field, ident, typed[:-1])
            return
        if self.editing is not None:
            self._finish_editing()
        handler = {
            "undo": self.undo, "redo": self.redo, "save": self.save, "escape": self._escape,
            "confirm": self._confirm, "backspace": self._backspace, "delete": self._delete,
            "deselect": self._deselect, "play": self._play, "help": self._toggle_help,
            "debug": self._toggle_debug, "all_sight": self._toggle_sight,
            "edges_reach": self._toggle_edges, "quit": self._quit, "legend": self._toggle_legend,
            "duplicate": self._duplicate_selected, "copy": self._copy, "paste": self._paste,
        }.get(name)
        if handler is not None:
            handler()
        elif name.startswith("tool_"):
            self.set_tool(name.removeprefix("tool_"))
        elif name == "next_unit":  # the picker, for the selected model if one is
            self.do(Op("model_unit" if self.selected in self.draft.scenario.model_ids
                       else "unit"))
        elif name in ("next_preset", "next_side", "next_objective_kind"):
            self.do(Op(name.removeprefix("next_")))
        elif name.startswith(("rotate", "scale", "nudge")):
            self._transform(name)

    def _transform(self, name: str) -> None:
        sel = self.selected
        if sel is None:
            self.say("select a piece or a model first", error=True)
            return
        verb, _, amount = name.partition(":")
        if verb == "nudge":
            dx, dy = (float(v) for v in amount.split(","))
            self._apply(edit.move, sel, dx, dy, what=f"{sel} moved")
        elif sel in self.draft.scenario.model_ids:
            self.say("models are round: select a piece to turn or scale it", error=True)
        else:
            self.do(Op(verb, amount))

    def _quit(self) -> None:
        self.quit_requested = True

    def _toggle_help(self) -> None:
        self.show_help = not self.show_help

    def _toggle_debug(self) -> None:
        self.debug, self.picks = not self.debug, []
        self.say("debug view: click two models" if self.debug else "debug view closed")

    def _toggle_legend(self) -> None:
        self.show_legend = not self.show_legend

    def _toggle_sight(self) -> None:
        self.debug_sight = not self.debug_sight

    def _toggle_edges(self) -> None:
        self.debug_edges = not self.debug_edges

    def _duplicate_selected(self) -> None:
        self._duplicate(self.selected)

    def _paste(self) -> None:
        self._duplicate(self.clipboard, self.pointer)

    def _copy(self) -> None:
        if self.selected is None:
            self.say("select a piece, a model or an objective to copy", error=True)
            return
        self.clipboard = self.selected
        self.say(f"{self.selected} copied: Ctrl+V pastes a copy at the pointer")

    def _escape(self) -> None:
        if self.picking is not None:
            self.picking = None
            self.say("cancelled")
        elif self.points or self.drag is not None:
            self._stop()
            self.say("cancelled")
        elif self.selected is not None:
            self.selected = None
        elif self.debug:
            self._toggle_debug()
        else:
            self.set_tool("select")

    def _deselect(self) -> None:
        self.selected = None

    def _confirm(self) -> None:
        if self.points:
            self._close_polygon()

    def _backspace(self) -> None:
        if self.points:
            self.points.pop()
        else:
            self._delete()

    def _delete(self) -> None:
        sel = self.selected
        if sel is None:
            self.say("select a piece or a model to delete", error=True)
            return
        self.selected = None
        self.picks = [p for p in self.picks if p != sel]
        self.change(edit.delete(self.draft.scenario, sel), f"{sel} deleted")

    def _play(self) -> None:
        """F5: save, then the window starts a game of the saved file (render.editor.app)."""
        if self.save() is not None:
            self.play_requested = True

    # --- the board ---------------------------------------------------------------------------
    def scroll_by(self, box: str, rows: int, limit: int) -> None:
        self.scroll[box] = max(0, min(limit, self.scroll[box] + rows))

    def hover(self, point: tuple[float, float] | None) -> None:
        self.pointer = point

    def hit(self, x: float, y: float) -> str | None:
        """The model under the pointer, else the piece on top there."""
        s = self.draft.scenario
        return (model_at(scene_from_scenario(s), x, y, CLICK_SLACK)
                or objective_tool.objective_at(s, x, y) or tools.piece_at(s, x, y))

    def click(self, x: float, y: float) -> None:
        if self.editing is not None:
            self._finish_editing()
        s, t, p = self.draft.scenario, self.tool, (x, y)
        if self.debug:
            self._pick(model_at(scene_from_scenario(s), x, y, CLICK_SLACK))
        elif t.name == "select":
            self.selected = self.hit(x, y)
        elif t.name == "model":
            if t.unit not in s.units or t.side not in s.sides:
                self.say("no unit or side to place", error=True)
                return
            before = set(s.model_ids)
            if self.change(edit.add_model(s, t.unit, t.side, tools.snap(p)),
                           f"{t.unit} placed for {t.side}"):
                self.selected = next(i for i in self.draft.scenario.model_ids if i not in before)
        elif t.name == "objective":
            if self.change(edit.add_objective(s, t.objective, tools.snap(p)),  # type: ignore[arg-type]
                           f"{t.objective} objective placed"):
                self.selected = self.draft.scenario.objectives[-1].id
        elif t.name == "polygon":
            if tools.closes(self.points, p):
                self._close_polygon()
            else:
                self.points.append(tools.snap(p))
        else:
            self.say(f"drag to draw a {TOOL_NAMES[t.name].lower()}", error=True)

    def _pick(self, hit: str | None) -> None:
        if hit is None:
            return
        self.picks = [*self.picks, hit][-2:]

    def _close_polygon(self) -> None:
        s, preset = self.draft.scenario, self.tool.preset
        piece = tools.polygon_from_points(s, preset, PRESETS[preset].props, self.points)
        self.points = []
        if piece is None:
            self.say("a polygon needs at least 3 points", error=True)
            return
        if self.change(edit.add_piece(s, piece), f"{piece.id} added"):
            self.selected = piece.id

    def drag_start(self, x: float, y: float) -> bool:
        if self.editing is not None:
            self._finish_editing()
        name = self.tool.name
        if name in ("rect", "circle"):
            self.drag = Drag(name, (x, y), (x, y))
            return True
        if name in ("select", "model", "objective") and not self.debug:
            hit = self.hit(x, y)
            if hit is not None:
                self.selected = hit
                self.drag = Drag("move", (x, y), (x, y), hit)
                return True
        return False

    def drag_to(self, x: float, y: float) -> None:
        d = self.drag
        if d is None:
            return
        self.drag = replace(d, now=(x, y))
        if d.kind == "move":
            dx, dy = self._moved_by(d.start, (x, y))
            self.preview = edit.move(self.draft.scenario, d.ident, dx, dy)

    @staticmethod
    def _moved_by(a: Point, b: Point) -> Point:
        return tools.snap((b[0] - a[0], b[1] - a[1]))  # moves by whole steps

    def drag_end(self, x: float | None, y: float | None) -> None:
        d, self.drag, self.preview = self.drag, None, None
        if d is None:
            return
        end = d.now if x is None or y is None else (x, y)
        s, preset = self.draft.scenario, self.tool.preset
        if d.kind == "move":
            dx, dy = self._moved_by(d.start, end)
            if dx or dy:
                self._apply(edit.move, d.ident, dx, dy, what=f"{d.ident} moved by "
                            f"({dx:g}, {dy:g})")
            return
        make = tools.rect_from_drag if d.kind == "rect" else tools.circle_from_drag
        piece = make(s, preset, PRESETS[preset].props, d.start, end)
        if piece is None:
            self.say(f"too small: drag at least {tools.MIN_SIZE:g} in", error=True)
        elif self.change(edit.add_piece(s, piece), f"{piece.id} added"):
            self.selected = piece.id

    def tick(self) -> None:
        """Nothing runs between frames (the App's loop calls this)."""

