"""The one place sim/ reaches up into render/ (and so pygame), lazily.

The ``play``, ``edit``, ``render`` and ``map`` commands open the window or draw PNGs through
these functions; importing sim never imports pygame (tests/test_layers.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.atomic import WriteError
from sim.errors import WastelandError

if TYPE_CHECKING:
    from sim.engine.state import GameState
    from sim.maps.visibility import Map
    from sim.scenario.objects import Scenario


def window_size(text: str | None) -> tuple[int, int] | None:
    """``--size WxH`` in pixels (None: fit the screen); UsageError naming the limits.

    Checked before any display is looked for, so a wrong size is a usage error (exit 2)
    with or without a screen."""
    if text is None:
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from render.app import parse_size

    return parse_size(text)


def open_game_window(scenario: Scenario, state: GameState | None, save_dir: Path,
                     no_display: str, pixels: tuple[int, int] | None = None,
                     ai: Mapping[str, str] | None = None) -> int:
    """Run the hot-seat window until it is closed; 1 with ``no_display`` if none opens.

    ``pixels``: the window's size (:func:`window_size`), None to fit the screen.
    ``ai``: side id -> AI player name for solo play (render/input/ai_turns.py).
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from render.app import NoDisplayError, close_window, open_window
    from render.input.controller import Controller

    controller = Controller(scenario, save_dir=save_dir, state=state)
    if ai:
        from render.input.ai_turns import AiTurns

        controller.ai = AiTurns.named(ai)
    try:
        app = open_window(controller, pixels)
    except NoDisplayError as exc:
        print(f"{no_display} ({exc})", file=sys.stderr)
        return 1
    try:
        code: int = app.run()
        return code
    finally:
        close_window()


def open_editor_window(scenario: Scenario, target: Path, text: str | None, no_display: str,
                       pixels: tuple[int, int] | None = None) -> int:
    """Run the scenario editor (render/editor/) on ``scenario``, saving to ``target``
    (``text``: what ``target`` holds now, changed in place on saving); 1 with
    ``no_display`` if no window opens."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from render.app import NoDisplayError
    from render.editor.app import run_editor
    from render.editor.controller import EditorController

    editor = EditorController(scenario, target, text)
    try:
        return run_editor(editor, pixels)
    except NoDisplayError as exc:
        print(f"{no_display} ({exc})", file=sys.stderr)
        return 1


def export_png(scenario: Scenario, out: Path, **options: Any) -> None:
    """Draw ``scenario`` headless to the PNG file ``out`` (``render.png.export_scenario``).

    Raises :class:`WastelandError` naming ``out`` when the file cannot be written.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from render.png import export_scenario

    try:
        export_scenario(scenario, out, **options)
    except WriteError as exc:
        raise WastelandError(f"-o: {exc}") from None
    except (OSError, pygame.error) as exc:
        raise WastelandError(f"-o: cannot write {str(out)!r}: {exc}") from None


def export_map_png(scenario: Scenario, out: Path, shown: Map, width: int) -> None:
    """Draw ``scenario`` with the map ``shown`` on it to the PNG file ``out``
    (``render.map_layer.export_map``); errors as :func:`export_png`."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from render.map_layer import export_map

    try:
        export_map(scenario, shown, out, width)
    except WriteError as exc:
        raise WastelandError(f"-o: {exc}") from None
    except (OSError, pygame.error) as exc:
        raise WastelandError(f"-o: cannot write {str(out)!r}: {exc}") from None
