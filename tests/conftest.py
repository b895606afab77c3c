"""Shared test helpers: paths of the shipped scenarios and test data; hypothesis profiles;
every window a test opened is closed after it (the window tests' games are seeded by
tests/window_driver.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DATA = Path(__file__).resolve().parent / "data"

# No test is timed (speed lives in `make bench`), so no hypothesis deadline.
# Locally each run draws new examples, to keep finding cases; CI (CI=true)
# draws the same ones every run, so a red CI is always reproducible.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(autouse=True)
def close_the_window() -> Iterator[None]:
    """A window left open by a test (a failed assertion before its ``close``) is closed, so
    the next test starts without it. pygame is not imported for tests that never did."""
    yield
    pygame = sys.modules.get("pygame")
    if pygame is not None and pygame.display.get_init():
        pygame.display.quit()
