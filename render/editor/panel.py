"""The editor's side panel: the buttons offered now, and the Details text.

With nothing selected the buttons are the tools and the scenario's own
settings (name, rule set, rounds, advantage, the sides' names); with a piece
selected, its properties (R-TER-1) and per-model overrides (R-TER-2); with a
model selected, its unit and side. Each button's key is an :class:`Op`
the controller carries out, and each shows the key that does the same
(render.editor.app), as the game's buttons do. Choosing a unit opens a
picker: every unit of the scenario as a numbered button (issue 34).
"""

from __future__ import annotations

from dataclasses import dataclass

from render.draw.theme import TEXT, TEXT_BAD, TEXT_DIM, TEXT_GOOD, TEXT_WARN
from render.draw.view import Button, TextLine
from render.editor.state import TOOL_NAMES, Tool
from sim.scenario.draft import Draft
from sim.scenario.fields import FIELDS, current_text
from sim.scenario.presets import PRESETS

TOOL_KEYS = {"select": "S", "rect": "R", "circle": "C", "polygon": "P", "model": "M"}
PROP_LABELS = {"climbable": "Climbable", "blocks_los": "Blocks sight", "cover": "Cover",
               "area": "Area", "dense": "Dense"}

HELP = (
    "EDITOR KEYS (F1 to close)",
    "S select/move, R rectangle, C circle, P polygon, M model",
    "drag with R or C to draw; P: click points, Enter or the first point closes",
    "Tab: next preset; U: pick a unit; V: next side",
    "O: objective tool; K: next objective kind (zone, marker, cargo)",
    "Delete: remove the selection; [ ]: rotate 15 deg; - =: shrink, grow",
    "Ctrl+D: duplicate the selection; Ctrl+C, Ctrl+V: copy it, paste it at the pointer",
    "arrows: nudge 0.1 in (Shift: 1 in); Esc or right click: cancel, deselect",
    "Ctrl+Z undo, Ctrl+Y redo, Ctrl+S save, F5 save and play, Ctrl+Q quit",
    "F2: click two models for sight, cover and range; F3 all sight; F4 edges",
    "L: the terrain legend in the log's box",
    "in a game started with F5: Ctrl+E back to the editor",
)


@dataclass(frozen=True)
class Op:
    """What a button does: ``verb`` (tool, preset, toggle, edit, ...) and its argument."""

    verb: str
    arg: str = ""


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _side_name(draft: Draft, side: str | None) -> str:
    sides = draft.scenario.sides
    return sides[side].name if side is not None and side in sides else "none"


def tool_buttons(draft: Draft, tool: Tool) -> list[Button]:
    s = draft.scenario
    unit = s.units.get(tool.unit)
    side = s.sides.get(tool.side)
    out = [Button(f"{TOOL_NAMES[n]}{' *' if tool.name == n else ''}", Op("tool", n),
                  hotkey=TOOL_KEYS[n]) for n in TOOL_NAMES if n != "objective"]  # that one last
    out += [
        Button(f"Preset: {PRESETS[tool.preset].label}", Op("preset"), hotkey="Tab"),
        Button(f"Unit: {unit.name if unit else '-'}", Op("unit"), hotkey="U"),
        Button(f"Rules: {s.rules}", Op("rules")),
        Button(f"Side: {side.name if side else '-'}", Op("side"), hotkey="V"),
        Button(f"Name: {s.name}", Op("edit", "name")),
        Button(f"Rounds: {s.rounds or 'no limit'}", Op("edit", "rounds")),
        Button(f"Advantage: {_side_name(draft, s.advantage)}", Op("advantage")),
        Button("Rename side", Op("side_name", tool.side)),
        Button("Save", Op("cmd", "save"), hotkey="Ctrl+S"),
        Button("Save and play", Op("cmd", "play"), hotkey="F5"),
        Button("Undo", Op("cmd", "undo"), hotkey="Ctrl+Z"),
        Button("Redo", Op("cmd", "redo"), hotkey="Ctrl+Y"),
    ]
    return out


def unit_picker(draft: Draft) -> list[Button]:
    """Every unit of the scenario, numbered (1 .. 9 press the first nine), and Cancel."""
    units = draft.scenario.units
    out = [Button(u.name, Op("pick", uid), number=i + 1 if i < 9 else None)
           for i, (uid, u) in enumerate(units.items())]
    return [*out, Button("Cancel", Op("cmd", "escape"), hotkey="Esc")]


def piece_buttons(draft: Draft, ident: str) -> list[Button]:
    p = draft.scenario.piece(ident).props
    out = [Button(f"Movement: {p.movement}", Op("movement"))]
    out += [Button(f"{label}: {_yes(getattr(p, name))}", Op("toggle", name))
            for name, label in PROP_LABELS.items()]
    out += [
        Button(f'Height: {p.height:g}"', Op("edit", "height")),
        Button("Overrides...", Op("edit", "overrides")),
        Button("Id...", Op("edit", "id")),
        Button("Rotate -15", Op("rotate", "-15"), hotkey="["),
        Button("Rotate +15", Op("rotate", "15"), hotkey="]"),
        Button("Smaller", Op("scale", "0.9"), hotkey="-"),
        Button("Bigger", Op("scale", "1.1"), hotkey="="),
        Button("Duplicate", Op("cmd", "duplicate"), hotkey="Ctrl+D"),
        Button("Delete", Op("cmd", "delete"), hotkey="Del"),
        Button("Done", Op("cmd", "deselect"), hotkey="Esc"),
    ]
    return out


def model_buttons(draft: Draft, ident: str) -> list[Button]:
    s = draft.scenario
    m = s.model(ident)
    unit = s.units.get(m.unit)
    return [
        Button(f"Unit: {unit.name if unit else m.unit}", Op("model_unit"), hotkey="U"),
        Button(f"Side: {s.sides[m.side].name if m.side in s.sides else m.side}",
               Op("model_side")),
        Button("Id...", Op("edit", "id")),
        Button("Duplicate", Op("cmd", "duplicate"), hotkey="Ctrl+D"),
        Button("Delete", Op("cmd", "delete"), hotkey="Del"),
        Button("Done", Op("cmd", "deselect"), hotkey="Esc"),
    ]


def buttons(draft: Draft, tool: Tool, selected: str | None, picking: bool = False
            ) -> list[Button]:
    if picking:
        return unit_picker(draft)
    if selected is not None and selected in draft.scenario.model_ids:
        return model_buttons(draft, selected)
    if selected is not None:
        return piece_buttons(draft, selected)
    return tool_buttons(draft, tool)


def editing_lines(field: str, text: str) -> list[TextLine]:
    return [TextLine(f"Type {FIELDS[field]}; Enter sets it, Esc leaves it:", TEXT_WARN),
            TextLine(f"> {text}_", TEXT)]


def details(draft: Draft, selected: str | None) -> list[TextLine]:
    """The selection (or the scenario) and the loader's problems, those on the selection first."""
    s = draft.scenario
    lines: list[TextLine] = []
    if selected is not None and selected in s.model_ids:
        m = s.model(selected)
        lines.append(TextLine(f"Model {m.id}: {m.unit} of {m.side} at ({m.at[0]:g}, "
                              f"{m.at[1]:g}), z {m.z:g}"))
    elif selected is not None:
        piece = s.piece(selected)
        shape = "circle" if piece.circle is not None else f"{len(piece.polygon or ())}-gon"
        lines.append(TextLine(f"Piece {piece.id} ({shape})"))
        if piece.overrides:
            lines.append(TextLine(f"overrides: {current_text(s, selected, 'overrides')}",
                                  TEXT_DIM))
    else:
        lines.append(TextLine(f"{s.name}: {s.board[0]:g} x {s.board[1]:g} in, "
                              f"{len(s.terrain)} pieces, {len(s.models)} models"))
    if draft.valid:
        lines.append(TextLine("wasteland check: ok", TEXT_GOOD))
        return lines
    mine = list(draft.on(selected)) if selected is not None else []
    rest = [p for p in draft.problems if p not in mine]
    lines.append(TextLine(f"wasteland check: {len(draft.problems)} problem(s)", TEXT_BAD))
    lines += [TextLine(str(p), TEXT_BAD) for p in mine]
    lines += [TextLine(str(p), TEXT_WARN) for p in rest]
    return lines
