"""Every example in a docstring of geometry/ and sim/ runs as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from tests.conftest import ROOT

MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for package in ("geometry", "sim")
    for p in (ROOT / package).rglob("*.py")
    if ">>>" in p.read_text(encoding="utf-8")
)


def test_the_examples_are_found() -> None:
    assert {"geometry.discs", "sim.scenario.rules", "sim.engine.state"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples name scenario files relative to the checkout
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} example(s) failed in {Path(name)}"
