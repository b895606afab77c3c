"""Every key and mouse action of the window, in one table.

The F1 help overlay draws this table and docs/window.md shows it (a test
checks the doc holds :func:`markdown_table` verbatim;
``python -m render.controls`` prints it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Control:
    """One input and what it does."""

    input: str
    action: str


CONTROLS: tuple[Control, ...] = (
    Control("Left click a button", "choose that option (only legal choices are offered)"),
    Control("1 .. 9", "choose the button with that number"),
    Control("Left click a model", "pick it: ready it, activate it, or make it the target"),
    Control("Hover a model", "show its card; while shooting, the shot preview on it"),
    Control("Left click the board (Move)", "add a waypoint; the ruler shows length vs. ruler"),
    Control("Left drag (Move)", "draw the path; release adds the end point"),
    Control("Enter / Space", "commit the move path (or confirm the highlighted choice)"),
    Control("Backspace", "remove the last waypoint"),
    Control("Tab", "next weapon of the shooting model"),
    Control("Right click / Esc", "cancel the action being set up; Esc closes the help"),
    Control("Ctrl+Z", "undo the last engine action"),
    Control("Ctrl+S", "save the game (the file is named in the status bar)"),
    Control("F1", "show or hide this help"),
    Control("F2", "debug view on/off: click any two models to see sight, cover and range"),
    Control("F3 (debug)", "every model's sight lines to every enemy at once"),
    Control("F4 (debug)", "significant edges and the reachable area of every model"),
    Control("Resize the window", "the board rescales, keeping its aspect"),
    Control("Ctrl+Q / close the window", "quit (save first: the game is not saved for you)"),
)


def markdown_table() -> str:
    """The controls as a Markdown table (docs/window.md)."""
    rows = ["| input | what it does |", "| --- | --- |"]
    rows += [f"| {c.input} | {c.action} |" for c in CONTROLS]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
