"""docs/window.md shows the same controls as the F1 help and the same legend
as the window, generated from one table each (issue 8)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

from render.app import CTRL_KEYS, KEYS
from render.draw.controls import CONTROLS, legend_table, markdown_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "window.md"


def test_doc_holds_the_controls_table() -> None:
    assert markdown_table() in DOC.read_text(encoding="utf-8")


def test_doc_holds_the_legend_table() -> None:
    assert legend_table() in DOC.read_text(encoding="utf-8")


def test_every_bound_key_is_in_the_help() -> None:
    """Each key the window reacts to is named in the help table."""
    inputs = " ".join(c.input for c in CONTROLS)
    names = {"help": "F1", "debug": "F2", "all_sight": "F3", "edges_reach": "F4", "map": "F5",
             "next_weapon": "Tab", "confirm": "Enter", "backspace": "Backspace",
             "escape": "Esc", "legend": "L", "undo": "Ctrl+Z", "save": "Ctrl+S", "quit": "Ctrl+Q"}
    for command in {*KEYS.values(), *CTRL_KEYS.values()}:
        assert names[command] in inputs, command
