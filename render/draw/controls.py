"""Every key and mouse action of the window, in one table.

The F1 help overlay draws this table and docs/window.md shows it (a test
checks the doc holds :func:`markdown_table` verbatim;
``python -m render.draw.controls`` prints it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Control:
    """One input and what it does."""

    input: str
    action: str


CONTROLS: tuple[Control, ...] = (
    Control("Left click a button", "choose it; only what the engine lists as legal is offered"),
    Control("1 .. 9", "choose the entry with that number in the menu shown (side, model to "
            "ready or activate, target, way to attack, climb height); nothing else"),
    Control("M / S / C / F", "Move / Shoot / Charge / Close combat with the active model"),
    Control("E", "End activation (the model turns Used)"),
    Control("T", "End turn (Ready models turn Used: it asks first, T again confirms)"),
    Control("A / B", "option A (activate none) / option B (activate Ready)"),
    Control("Left click a model", "ready it, activate it, or pick it as the target; else its card"),
    Control("Hover a model", "its card; while shooting: sight, cover, range and the odds on it"),
    Control("Hover an enemy (activation)",
            "whether the active model can see it, its cover and range, and why"),
    Control("Left click the board (path)", "first: the shortest legal path there (clamped "
            "to the ruler); then a waypoint"),
    Control("Left drag (path)", "draw the path: a waypoint every half inch"),
    Control("Pointer (path)", "dashed: where a click would add the next waypoint; not committed"),
    Control("Climb to / Jump down buttons", "add a climb or jump step at the path's end"),
    Control("Enter", "commit the path drawn solid (Commit is dim while the engine refuses it)"),
    Control("Backspace", "remove the last step of the path"),
    Control("Tab", "next weapon of the attacking model"),
    Control("Right drag on the board", "measuring tape (base edges), in its ruler's colour"),
    Control("Right click / Esc", "put the tape away, else cancel the action being set up; "
            "Esc also closes the help"),
    Control("Ctrl+Z", "undo the last engine action (dice included)"),
    Control("Ctrl+S", "save the game to a new file, named in the status bar"),
    Control("F1", "show or hide this help"),
    Control("F2", "debug view on/off: click any two models for sight, cover and range"),
    Control("F3 (debug view)", "every model's sight lines to every enemy at once"),
    Control("F4 (debug view)", "significant edges and every model's reachable area"),
    Control("F5", "map of the active (or hovered) model: seen by / threat / sees target / off; "
            "hover a cell: who sees it"),
    Control("F6", "side view of the shot shown (a debug pair or an aimed shot): the pieces "
            "between the bases by height, the blocking one red"),
    Control("Mouse wheel", "zoom at the pointer on the board (Shift: scroll Details); "
            "scroll Details or the event log"),
    Control("Drag (no path), middle drag / Home", "pan / fit the whole board"),
    Control("L", "short window: switch the last box between event log and legend"),
    Control("Resize the window", "the board rescales and keeps its aspect"),
    Control("Ctrl+Q / close the window", "quit; a game changed since its last save is saved "
            "to a new file in the save folder, named on screen and on the terminal"),
)


def markdown_table() -> str:
    """The controls as a Markdown table (docs/window.md)."""
    rows = ["| input | what it does |", "| --- | --- |"]
    rows += [f"| {c.input} | {c.action} |" for c in CONTROLS]
    return "\n".join(rows) + "\n"


def legend_table() -> str:
    """Every legend entry (terrain, models, objectives, overlays) as a Markdown table
    (docs/window.md)."""
    from render.draw.theme import OBJECTIVE_LEGEND, OVERLAY_LEGEND, TERRAIN_LEGEND

    rows = ["| drawn as | colour (RGB) | name | meaning |", "| --- | --- | --- | --- |"]
    for e in (*TERRAIN_LEGEND, *OBJECTIVE_LEGEND, *OVERLAY_LEGEND):
        style = f"{e.style} {e.glyph!r}" if e.glyph else e.style
        rows.append(f"| {style} | {tuple(e.colour[:3])} | {e.label} | {e.meaning} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table())
    print(legend_table(), end="")
