"""Colours, fonts and the legend of the window and the PNG export.

One table per concern, so the legend drawn on screen, the F1 help and
docs/window.md all say the same thing (docs/window.md "Overlay colours").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame
import pygame.freetype

Colour = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

BACKGROUND: Colour = (28, 30, 34)
PANEL: Colour = (40, 43, 49)
PANEL_EDGE: Colour = (70, 74, 82)
TEXT: Colour = (225, 225, 220)
TEXT_DIM: Colour = (150, 152, 156)
TEXT_WARN: Colour = (255, 170, 90)
TEXT_BAD: Colour = (255, 110, 100)
TEXT_GOOD: Colour = (140, 220, 140)

TABLE: Colour = (196, 184, 150)  # the bare board (sand)
TABLE_GRID: Colour = (182, 170, 136)

# Terrain by class (R-TER-1). Fill by how it moves, outline by how it sees.
TERRAIN_NORMAL: Colour = (170, 150, 110)
TERRAIN_DIFFICULT: Colour = (139, 104, 60)
TERRAIN_IMPASSABLE: Colour = (88, 84, 80)
TERRAIN_AREA: RGBA = (70, 140, 60, 110)
TERRAIN_DENSE: RGBA = (30, 90, 35, 190)
TERRAIN_COVER: Colour = (230, 200, 70)
TERRAIN_LOS_EDGE: Colour = (20, 20, 20)
TERRAIN_CLIMBABLE: Colour = (240, 140, 40)
SIGNIFICANT_EDGE: Colour = (200, 40, 200)
HEIGHT_LABEL: Colour = (15, 15, 15)

# Sides in scenario order; a neutral side is always grey.
SIDE_COLOURS: tuple[Colour, ...] = ((60, 120, 220), (210, 60, 50), (60, 170, 90), (190, 120, 220))
NEUTRAL: Colour = (140, 140, 140)

# Readiness markers (R-TURN-1).
READY_MARK: Colour = (250, 220, 60)
USED_MARK: Colour = (120, 120, 120)
SELECTED: Colour = (255, 255, 255)

# Overlays.
SIGHT_LINE: Colour = (40, 240, 80)  # the sight segment found (R-LOS-1)
SIGHT_BLOCKED: Colour = (255, 40, 40)  # pieces that block every sight line
LINE_OF_COVER: Colour = (255, 255, 255)  # centre to centre (R-COV-1)
COVER_COUNTED: Colour = (255, 150, 0)  # a piece that gives cover (R-COV-2..6)
COVER_IGNORED: Colour = (90, 200, 255)  # a piece the LoC meets that does not count
RANGE_SHORT: Colour = (40, 200, 120)  # short band (R-RANGE-1)
RANGE_LONG: Colour = (230, 200, 40)  # long band
REACH_FILL: RGBA = (60, 160, 255, 60)  # reachable area of a move
REACH_EDGE: Colour = (60, 160, 255)
PATH_OK: Colour = (255, 255, 255)
PATH_BAD: Colour = (255, 60, 60)
GHOST: RGBA = (255, 255, 255, 90)  # end position preview

# Ruler colours as drawn (R-RULER-1): the colour names of rules data.
RULER_RGB: dict[str, Colour] = {
    "orange": (245, 140, 30),
    "yellow": (245, 220, 40),
    "red": (220, 40, 40),
    "green": (40, 170, 70),
    "blue": (40, 100, 230),
    "black": (20, 20, 20),
}


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a swatch style, its colour, what it means."""

    style: str  # "fill", "hatch", "outline", "dashed", "line", "dot", "ring", "diamond", ...
    colour: Colour | RGBA
    label: str
    meaning: str
    glyph: str = ""  # the text of a "text" or "tag" swatch


TERRAIN_LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry("fill", TERRAIN_NORMAL, "normal", "terrain that moves as open ground"),
    LegendEntry(
        "hatch", TERRAIN_DIFFICULT, "difficult", "a move over it uses a shorter ruler (R-MOV-1)"
    ),
    LegendEntry("fill", TERRAIN_IMPASSABLE, "impassable", "no base may cross it (R-MOV-3)"),
    LegendEntry("dashed", TERRAIN_CLIMBABLE, "climbable", "its faces can be climbed (R-CLIMB-1)"),
    LegendEntry("fill", TERRAIN_AREA, "area", "cover when the line of cover enters it (R-COV-4)"),
    LegendEntry("fill", TERRAIN_DENSE, "dense", "area that blocks sight (R-LOS-4)"),
    LegendEntry("dot", TERRAIN_COVER, "cover", "gives cover when passed through (R-COV-2)"),
    LegendEntry("outline", TERRAIN_LOS_EDGE, "blocks sight", "blocks line of sight (R-LOS-1)"),
    LegendEntry("line", SIGNIFICANT_EDGE, "significant edge", "drop of Orange or more (R-ELEV-2)"),
    LegendEntry("text", TEXT, "per model", "the piece differs for some models (R-TER-2)", "*"),
    LegendEntry("tag", READY_MARK, "Ready", "the model's Ready marker (R-TURN-1)", "R"),
    LegendEntry("tag", USED_MARK, "Used", "the model's Used marker; no tag: Unready", "U"),
    LegendEntry("pips", (70, 210, 90), "health", "one pip per health point, dark when lost"),
    LegendEntry("tag", (240, 240, 240), "height", "the model stands that high (R-UNIT-1)", '^3"'),
)

OBJECTIVE_FREE: Colour = (235, 200, 80)  # an objective nobody holds (render.draw.objectives)

#: Added to the terrain legend when the scenario has objectives (R-OBJ-1..4).
OBJECTIVE_LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry("ring", OBJECTIVE_FREE, "zone (points)",
                "scores each round for the side with more models in it (R-OBJ-2); "
                "tinted by the side that holds it now"),
    LegendEntry("diamond", OBJECTIVE_FREE, "marker (points)",
                "scores each round for the only side within its distance (R-OBJ-3)"),
    LegendEntry("crate", OBJECTIVE_FREE, "cargo (points)",
                "picked up within its distance, scores carried off its side's exit (R-OBJ-4)"),
    LegendEntry("line", SIDE_COLOURS[0], "cargo exit",
                "a band in a side's colour along the edge its cargo leaves by (R-OBJ-4)"),
)

OVERLAY_LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry(
        "line", SIGHT_LINE, "sight line", "a segment base to base that nothing blocks (R-LOS-1)"
    ),
    LegendEntry(
        "outline", SIGHT_BLOCKED, "blocks sight", "a piece or model that blocks every sight line"
    ),
    LegendEntry("line", LINE_OF_COVER, "line of cover", "centre to centre (R-COV-1)"),
    LegendEntry(
        "outline", COVER_COUNTED, "cover counted", "counts as cover (R-COV-2..6)"
    ),
    LegendEntry(
        "outline", COVER_IGNORED, "cover ignored", "met by the line of cover but does not count"
    ),
    LegendEntry("ring", RANGE_SHORT, "short range", "the weapon's short band (R-RANGE-1)"),
    LegendEntry("ring", RANGE_LONG, "long range", "the weapon's long band"),
    LegendEntry("fill", REACH_FILL, "reachable", "where the moving model's base can end"),
    LegendEntry("line", PATH_OK, "path", "a path the movement rules accept; the ghost base "
                "is where it ends"),
    LegendEntry("line", PATH_BAD, "illegal path", "refused by the movement rules; Details "
                "says why"),
)


def side_colour(index: int, neutral: bool) -> Colour:
    """The colour of the ``index``-th side of a scenario."""
    if neutral:
        return NEUTRAL
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


_FONTS: dict[tuple[int, bool], Face] = {}
_TEXTS: dict[tuple[str, int, bool, tuple[int, ...]], Any] = {}


def reset_fonts() -> None:
    """Forget cached fonts (they die with ``pygame.quit()``; call after a re-init)."""
    _FONTS.clear()
    _TEXTS.clear()


BOLDEN_FROM = 24  # px: bold text smaller than this is drawn as the (bold) font itself
SUPERSAMPLE = 4  # text smaller than BOLDEN_FROM is drawn this many times bigger, scaled down
DEFAULT_FONT_SCALE = 0.6875  # pygame.font's size for its bundled font, as pygame.freetype sizes


class Face:
    """The bundled font at one size, drawn by ``pygame.freetype`` without kerning.

    pygame.font (SDL_ttf) applies the bundled font's kerning table, whose pairs
    open gaps inside words at small sizes ("s urvivor", "knigh t"; issue 16,
    bug 8). FreeType draws the same glyphs at their plain advances. The
    methods are the few of ``pygame.font.Font`` the window uses.
    """

    def __init__(self, size: int, bold: bool) -> None:
        self._ft = pygame.freetype.Font(None, size * DEFAULT_FONT_SCALE)
        self._ft.kerning = False
        self._ft.pad = True  # every line the same height, descenders included
        # The bundled font is FreeSans Bold already: emboldening it again at small
        # sizes widens each glyph past its advance, which reads as gaps again.
        self._ft.strong = bold and size >= BOLDEN_FROM
        self._ft.antialiased = True
        self._height = int(self._ft.get_sized_height(0))
        self._widths: dict[str, int] = {}
        # Small type is drawn SUPERSAMPLE times bigger and scaled down: each glyph is
        # placed at its exact advance, not one rounded to whole pixels, whose errors
        # pile up into gaps ("Se ttlers", "Commonwea lth"; issue 34, bug 3).
        self._k = SUPERSAMPLE if size < BOLDEN_FROM else 1
        if self._k > 1:
            self._ft = pygame.freetype.Font(None, size * DEFAULT_FONT_SCALE * self._k)
            self._ft.kerning, self._ft.pad, self._ft.antialiased = False, True, True

    def render(self, words: str, antialias: bool, colour: Sequence[int]) -> Any:
        if not words:
            return pygame.Surface((0, self._height), pygame.SRCALPHA)
        # Drawn into a surface of the usual pixel format: FreeType's own surfaces are
        # ABGR, which blit some forty times slower (bench/frame.py).
        big = pygame.Surface(self._ft.get_rect(words).size, pygame.SRCALPHA)
        self._ft.render_to(big, (0, 0), words, tuple(colour))
        if self._k == 1:
            return big
        return pygame.transform.smoothscale(big, (self.size(words)[0], self._height))

    def size(self, words: str) -> tuple[int, int]:
        """Width and height of ``words`` as :meth:`render` draws them (kept: asked every frame)."""
        w = self._widths.get(words)
        if w is None:
            if len(self._widths) > 4000:
                self._widths.clear()
            w = self._widths[words] = (
                max(1, round(self._ft.get_rect(words).width / self._k)) if words else 0)
        return w, self._height

    def get_linesize(self) -> int:
        return self._height + 1

    def get_height(self) -> int:
        return self._height


def font(size: int, bold: bool = False) -> Face:
    """pygame's bundled default font at ``size`` px (works headless), cached."""
    if not pygame.freetype.get_init():
        # Fonts die with pygame.quit(); start afresh after a re-init.
        pygame.freetype.init()
        _FONTS.clear()
    key = (size, bold)
    if key not in _FONTS:
        _FONTS[key] = Face(size, bold)
    return _FONTS[key]


def text(words: str, size: int, colour: Sequence[int], bold: bool = False) -> Any:
    """``words`` rendered (antialiased), cached: most text is the same frame after frame."""
    key = (words, size, bold, tuple(colour))
    img = _TEXTS.get(key)
    if img is None or not pygame.freetype.get_init():
        if len(_TEXTS) > 4000:
            _TEXTS.clear()
        img = font(size, bold).render(words, True, colour)
        _TEXTS[key] = img
    return img
