"""Window size: resizing re-lays out the window without overlap (issue 8);
``wasteland play`` without a display exits 1 with one line (issue 2)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import itertools
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from render.draw.panels import button_rects
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_layouts_after_resize_have_no_overlap(tmp_path: Path, size: tuple[int, int]) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path, size=(1024, 700))
    try:
        d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
        d.step()
        assert d.app.surface.get_size() == size
        lay = d.app.layout
        assert (lay.window.w, lay.window.h) == size
        for (na, a), (nb, b) in itertools.combinations(lay.areas().items(), 2):
            assert not a.overlaps(b), (na, nb)
        # the offered buttons fit in their panel and the board is drawn in its place
        for r in button_rects(lay.buttons, len(d.labels())):
            assert lay.buttons.x <= r.x and r.right <= lay.buttons.right
            assert lay.buttons.y <= r.y and r.bottom <= lay.buttons.bottom
        cx, cy = lay.board.x + lay.board.w // 2, lay.board.y + lay.board.h // 2
        assert tuple(d.app.surface.get_at((cx, cy)))[:3] != (0, 0, 0)
        # a click still lands: the first choice is pressed at its new place
        holder = d.state.acting
        d.click_button(d.labels()[0])
        assert d.state.acting != holder or d.state.phase != "choose-first"
    finally:
        d.close()


def test_too_small_a_window_is_clamped(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        d.post(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200)
        d.step()
        w, h = d.app.surface.get_size()
        assert w >= 800 and h >= 560
    finally:
        d.close()


def test_play_without_a_display_says_so_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    proc = subprocess.run([sys.executable, "-m", "sim.cli", "play"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "display" in lines[0]
