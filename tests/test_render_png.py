"""``wasteland render``: the PNG shows the sight line and the cover marks (issue 8).

Seed 004, cover example 1 (scenarios/seed-cover-1.toml): the knight sees the
mutant past the corner of the building; the line of cover runs through the
building, which touches the knight's base, and through the crate. So for
knight -> mutant the crate counts and the building is ignored (R-COV-2,
"objects touching the attacker's base are ignored"); for mutant -> knight
both count. The checks are tolerant: colours within a small distance, a
few pixels of slack, never a byte-exact golden image.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw import theme
from render.draw.layout import compute_layout
from render.draw.transform import BoardTransform
from sim.cli import main
from sim.scenario.format.loader import load_scenario

ROOT = Path(__file__).resolve().parent.parent
COVER_1 = ROOT / "scenarios" / "seed-cover-1.toml"


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(int(a) - int(b)) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def colour_near_point(img: pygame.Surface, px: tuple[int, int], want: tuple[int, ...],
                      slack: int = 3) -> bool:
    """Whether a pixel within ``slack`` of ``px`` has the colour ``want``."""
    w, h = img.get_size()
    for dx in range(-slack, slack + 1):
        for dy in range(-slack, slack + 1):
            x, y = px[0] + dx, px[1] + dy
            if 0 <= x < w and 0 <= y < h and near(tuple(img.get_at((x, y))), want):
                return True
    return False


def render(tmp_path: Path, *args: str) -> tuple[pygame.Surface, BoardTransform]:
    out = tmp_path / "shot.png"
    assert main(["render", str(COVER_1), "-o", str(out), *args]) == 0
    img = pygame.image.load(str(out))
    scenario = load_scenario(COVER_1)
    lay = compute_layout(img.get_size(), scenario.board, status=False, buttons=False)
    return img, BoardTransform.fit(lay.board, scenario.board)


def outline_hits(img: pygame.Surface, t: BoardTransform, box: tuple[float, float, float, float],
                 want: tuple[int, ...]) -> float:
    """Share of sample points along a rectangle's outline that show ``want`` nearby."""
    x0, y0, x1, y1 = box
    pts = []
    for i in range(1, 10):
        f = i / 10
        pts += [(x0 + (x1 - x0) * f, y0), (x0 + (x1 - x0) * f, y1),
                (x0, y0 + (y1 - y0) * f), (x1, y0 + (y1 - y0) * f)]
    hits = sum(colour_near_point(img, t.to_screen(*p), want) for p in pts)
    return hits / len(pts)


def test_sight_line_runs_past_the_building_corner(tmp_path: Path) -> None:
    """R-LOS-1: sight exists, along a segment above the building (y < 9.8)."""
    img, t = render(tmp_path, "--los", "knight", "mutant")
    # Between the bases (x 6..14), the green sight line lies in the strip
    # 9.2 < y < 9.8: above the building's top edge, inside both bases' reach.
    columns_with_line = 0
    for i in range(20):
        x = 6.5 + i * 0.35
        top, bottom = t.to_screen(x, 9.2), t.to_screen(x, 9.8)
        if any(near(tuple(img.get_at((top[0], y))), theme.SIGHT_LINE)
               for y in range(top[1], bottom[1] + 1)):
            columns_with_line += 1
    assert columns_with_line >= 18
    # no sight line drawn through the building or below the line of cover
    below = [t.to_screen(6.5 + i * 0.35, 11.0) for i in range(20)]
    assert not any(near(tuple(img.get_at(p)), theme.SIGHT_LINE, 20) for p in below)


def test_cover_marks_knight_to_mutant(tmp_path: Path) -> None:
    """R-COV-2: the crate counts; the building touches the attacker and is ignored."""
    img, t = render(tmp_path, "--los", "knight", "mutant")
    crate, building = (9.5, 9.5, 10.5, 10.5), (5.79, 9.8, 7.5, 14.0)
    assert outline_hits(img, t, crate, theme.COVER_COUNTED) >= 0.8
    assert outline_hits(img, t, building, theme.COVER_IGNORED) >= 0.6
    assert outline_hits(img, t, building, theme.COVER_COUNTED) <= 0.1


def test_cover_marks_mutant_to_knight(tmp_path: Path) -> None:
    """Seed example 1 the other way: building and crate both count."""
    img, t = render(tmp_path, "--los", "mutant", "knight")
    crate, building = (9.5, 9.5, 10.5, 10.5), (5.79, 9.8, 7.5, 14.0)
    assert outline_hits(img, t, crate, theme.COVER_COUNTED) >= 0.8
    assert outline_hits(img, t, building, theme.COVER_COUNTED) >= 0.6


def test_range_rings_and_width(tmp_path: Path) -> None:
    """R-RANGE-1: rings at short and at short+long from the attacker's base edge."""
    img, t = render(tmp_path, "--los", "knight", "mutant", "--width", "1000")
    assert img.get_width() == 1000
    scenario = load_scenario(COVER_1)
    weapon = scenario.weapons[scenario.unit_of("knight").weapons[0]]
    r = scenario.radius_of("knight") + scenario.rules_data.ruler(weapon.short)
    # straight below the knight the short ring crosses the board (y = 10 + r)
    assert colour_near_point(img, t.to_screen(5.0, 10.0 + r), theme.RANGE_SHORT)


def test_bad_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(COVER_1), "-o", str(out), "--los", "knigth", "mutant"]) == 1
    err = capsys.readouterr().err
    assert "'knigth'" in err and "knight" in err
    assert main(["render", str(COVER_1), "-o", str(out), "--width", "10"]) == 2
    assert not out.exists()


def test_reach_is_shaded(tmp_path: Path) -> None:
    """--reach: the reachable area of the mutant's Move is drawn around it."""
    img, t = render(tmp_path, "--reach", "mutant")
    scenario = load_scenario(COVER_1)
    mv = scenario.rules_data.ruler(scenario.unit_of("mutant").move)
    # a point half a Move to the right of the mutant is inside the area: bluish
    px = t.to_screen(15.0 + mv / 2, 10.0)
    c = tuple(img.get_at(px))
    assert c[2] > c[0], c  # the sand table is red-heavy; the reach shade tips it to blue
