"""The windows start as users start them (issue 30): ``wasteland edit --new 10x10 -o x.toml``,
``wasteland edit skirmish`` and ``wasteland play skirmish`` each run their real
``App.run()`` loop under the dummy driver, keep running until told to stop, and stop
cleanly (exit 0, no traceback) on SIGTERM.

Each runs in a process of its own through :func:`sim.cli.main`, exactly as the
``wasteland`` script does; the only addition is a count of the frames shown
(``pygame.display.flip``), which says "ready" once the loop has drawn a few frames,
so the test knows the loop runs before it signals. Until issue 30 the editor died
before its first frame (``App.frame_rate`` asked the editor for an AI player).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

BOOT = textwrap.dedent("""
    import sys
    import pygame
    from sim.cli import main

    flip, frames = pygame.display.flip, [0]

    def counted() -> None:
        frames[0] += 1
        if frames[0] == 5:  # the loop has run five whole frames
            print("ready", flush=True)
        flip()

    pygame.display.flip = counted
    sys.exit(main(sys.argv[1:]))
""")

COMMANDS = {
    "edit-new": ["edit", "--new", "10x10", "-o", "x.toml"],
    "edit-shipped": ["edit", "skirmish"],
    "edit-file": ["edit", str(ROOT / "scenarios" / "seed-cover-1.toml"), "-o", "copy.toml"],
    "play-shipped": ["play", "skirmish"],
    "play-file": ["play", str(ROOT / "scenarios" / "seed-cover-1.toml")],
}


@pytest.mark.parametrize("argv", COMMANDS.values(), ids=COMMANDS.keys())
def test_the_window_runs_until_told_to_stop(tmp_path: Path, argv: list[str]) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", BOOT, *argv], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        lines = iter(child.stdout.readline, "")
        if "ready" not in (line.strip() for line in lines):
            _, err = child.communicate(timeout=60)
            pytest.fail(f"the window never drew five frames (exit {child.returncode}):\n{err}")
        time.sleep(0.3)  # more frames: it keeps running until told to stop
        assert child.poll() is None, child.communicate(timeout=60)[1]
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert "Traceback" not in err, err
    assert not (tmp_path / "x.toml").exists()  # an untouched new board is not written
