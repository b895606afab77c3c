"""Quick start-up (issue 30): the commands that read no board's geometry import neither
numba (the compiled sight kernels, half a second and 50 MiB) nor pygame.

Checked as ``python -X importtime -m sim ...`` reports it, in a fresh process: every
module imported, whoever imported it. ``make bench`` measures the CPU time these
commands cost against a bare ``python -c pass`` (bench/startup.py).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

LIGHT = {
    "help": ["--help"],
    "version": ["--version"],
    "scenarios": ["scenarios"],
    "check": ["check", "skirmish"],
    "command-help": ["simulate", "--help"],
    "ladder-help": ["ladder", "--help"],
}
HEAVY = ("numba", "pygame", "llvmlite")


def imported_modules(argv: list[str]) -> set[str]:
    """Every module ``python -m sim ARGV`` imports (from ``-X importtime``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sim", *argv],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "sim.cli" in names  # the report was read
    return names


@pytest.mark.parametrize("argv", LIGHT.values(), ids=LIGHT.keys())
def test_light_commands_import_no_compiled_kernels_and_no_window(argv: list[str]) -> None:
    heavy = sorted(m for m in imported_modules(argv) if m.split(".")[0] in HEAVY)
    assert heavy == [], f"wasteland {' '.join(argv)} imports {heavy[:5]}"


def test_a_sight_command_does_import_the_kernels() -> None:
    """The check above can fail: ``los`` really needs numba, and the report shows it."""
    assert "numba" in imported_modules(["los", "seed-cover-1", "mutant", "knight"])


#: What only reading a board needs: no command's help or version asks for them.
BOARD = ("numpy", "shapely")
HELP = {k: v for k, v in LIGHT.items() if k in ("help", "version", "command-help", "ladder-help")}


@pytest.mark.parametrize("argv", HELP.values(), ids=HELP.keys())
def test_help_and_version_import_no_board_geometry(argv: list[str]) -> None:
    """``wasteland --help`` and a command's help read no scenario, so they load neither
    numpy nor shapely (a tenth of a second of start-up each time a user asks)."""
    heavy = sorted(m for m in imported_modules(argv) if m.split(".")[0] in BOARD)
    assert heavy == [], f"wasteland {' '.join(argv)} imports {heavy[:5]}"


def test_a_board_command_does_import_the_geometry() -> None:
    """The check above can fail: ``check`` reads a board, and the report shows numpy."""
    assert "numpy" in imported_modules(["check", "skirmish"])
