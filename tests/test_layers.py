"""The layers point one way: render -> sim -> geometry (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT


def imported_packages(path: Path) -> set[str]:
    """Top-level package names imported anywhere in a file (lazy imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "geometry").rglob("*.py")),
                         ids=lambda p: p.name)
def test_geometry_imports_neither_sim_nor_render_nor_pygame(path: Path) -> None:
    assert not imported_packages(path) & {"sim", "render", "pygame"}


@pytest.mark.parametrize("path", sorted((ROOT / "sim").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_sim_imports_pygame_and_render_only_in_its_window_bridge(path: Path) -> None:
    if path == ROOT / "sim" / "cli_render.py":  # the one bridge up to the window
        return
    assert not imported_packages(path) & {"render", "pygame"}
