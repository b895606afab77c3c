"""The examples in the engine's docstrings run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import sim.actions
import sim.rng
import sim.save
import sim.state
from tests.conftest import ROOT


@pytest.mark.parametrize("module", [sim.rng, sim.actions, sim.state, sim.save],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name scenario files relative to the checkout
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
