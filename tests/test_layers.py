"""The layers point one way: render -> sim -> geometry, and inside each package its parts
(subpackages and top-level modules) point one way too (docs/architecture.md, issue 32)."""

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


# Each package's parts from top to bottom (docs/architecture.md): a part imports only
# parts on rows below its own, so parts on one row never import each other and no
# import cycle joins two parts. Lazy and TYPE_CHECKING imports count.
ORDER: dict[str, tuple[tuple[str, ...], ...]] = {
    "render": (("editor", "screenshots"), ("app",), ("window",), ("input",), ("map_layer",),
               ("png",), ("explain",), ("draw",), ("scene",)),
    "sim": (("__main__",), ("cli",), ("commands",), ("cli_io", "cli_render"), ("ai",),
            ("game", "maps"), ("combat",), ("shooting",), ("movement",), ("resolution",),
            ("engine",), ("scenario",), ("atomic",), ("errors", "data")),
    "geometry": (("compiled",), ("elevation", "movement", "sight"), ("cover",), ("ranges",),
                 ("discs", "jit", "numba_cache")),
}


def part(package: str, path: Path) -> str:
    """The part of ``package`` a file belongs to: its subpackage, or its own module."""
    return path.relative_to(ROOT / package).parts[0].removesuffix(".py")


def imported_parts(package: str, source: str) -> set[str]:
    """The parts of ``package`` a module's source imports (``from sim import ai``: ai)."""
    tree = ast.parse(source)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    out: set[str] = set()
    for name in names:
        top, _, rest = name.partition(".")
        first = rest.split(".")[0]
        if top == package and first and (
                (ROOT / package / first).is_dir() or (ROOT / package / f"{first}.py").exists()):
            out.add(first)
    return out


def package_files() -> list[tuple[str, Path]]:
    return [(pkg, path) for pkg in ORDER for path in sorted((ROOT / pkg).rglob("*.py"))
            if part(pkg, path) != "__init__"]


def upward(package: str, mine: str, source: str) -> list[str]:
    """The parts ``source`` (a module of part ``mine``) imports that are not below it."""
    row = {name: i for i, names in enumerate(ORDER[package]) for name in names}
    return sorted(p for p in imported_parts(package, source) - {mine} if row[p] <= row[mine])


@pytest.mark.parametrize("package,path", package_files(),
                         ids=lambda v: v if isinstance(v, str) else str(v.relative_to(ROOT)))
def test_each_part_imports_only_parts_below_it(package: str, path: Path) -> None:
    mine = part(package, path)
    assert any(mine in names for names in ORDER[package]), f"{package}.{mine}: not in ORDER"
    assert upward(package, mine, path.read_text(encoding="utf-8")) == []


def test_the_check_sees_an_upward_or_sideways_import() -> None:
    """Issue 32's imports would fail (draw -> explain, explain -> input) and so would maps -> ai."""
    lazy = "def f():\n    from render.explain.answers import state_key\n"
    assert upward("render", "draw", lazy) == ["explain"]
    assert upward("render", "explain", "from render.input import controller\n") == ["input"]
    assert upward("sim", "maps", "import sim.ai.scoring\n") == ["ai"]
    assert upward("render", "input", "from render.explain import show\n") == []


def test_sim_ai_needs_neither_the_maps_nor_the_command_line() -> None:
    """The players take a model's weapons from sim.combat and load text with the loader;
    only the learning environment (env.py, its observations are maps) reads sim.maps."""
    for path in sorted((ROOT / "sim" / "ai").rglob("*.py")):
        parts = imported_parts("sim", path.read_text(encoding="utf-8"))
        assert not parts & {"cli_io", "cli", "commands"}, path
        if path.name != "env.py":
            assert "maps" not in parts, path
