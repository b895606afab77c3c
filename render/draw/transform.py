"""Board inches <-> screen pixels, and the camera that zooms and pans the board.

The board keeps its aspect ratio, so one scale serves both axes; board y
grows downwards like screen y (R-UNIT-1 origin top-left), so no flip. A
:class:`Camera` (issue 34: wheel zoom at the pointer, drag to pan, Home fits)
scales and moves the fitted board inside its rectangle; drawing and every
click go through the one transform it gives, so a click always lands where
it is drawn.

Examples
--------
>>> from render.draw.layout import Camera, Rect
>>> t = BoardTransform.fit(Rect(10, 20, 360, 360), (36.0, 36.0))
>>> t.to_screen(0.0, 0.0), t.to_screen(36.0, 36.0)
((10, 20), (370, 380))
>>> t.to_board(190, 200)
(18.0, 18.0)
>>> cam = zoomed(Camera(), Rect(10, 20, 360, 360), (36.0, 36.0), (190, 200), 2.0)
>>> z = BoardTransform.fit(Rect(10, 20, 360, 360), (36.0, 36.0), cam)
>>> z.scale, z.to_board(190, 200)
(20.0, (18.0, 18.0))
"""

from __future__ import annotations

from dataclasses import dataclass

from render.draw.layout import Camera, Rect

__all__ = ["MAX_ZOOM", "BoardTransform", "Camera", "panned", "refitted", "zoomed"]

MAX_ZOOM = 8.0  # a 30 mm base is about 11 px fitted on a 36 in board at 1280x800


def zoomed(c: Camera, rect: Rect, board: tuple[float, float], at: tuple[float, float],
           factor: float) -> Camera:
    """``c`` zoomed by ``factor`` (kept in 1 .. MAX_ZOOM) with the board point under the
    pixel ``at`` staying under it (as far as the board still fills ``rect``)."""
    bx, by = BoardTransform.fit(rect, board, c).to_board(*at)
    zoom = min(MAX_ZOOM, max(1.0, c.zoom * factor))
    scale = BoardTransform.fit(rect, board).scale * zoom
    return _kept_in(Camera(zoom, at[0] - bx * scale - rect.x, at[1] - by * scale - rect.y),
                    rect, board)


def panned(c: Camera, rect: Rect, board: tuple[float, float], dx: float, dy: float) -> Camera:
    """``c`` moved by ``(dx, dy)`` pixels, never showing past the board's edges."""
    return _kept_in(Camera(c.zoom, c.dx + dx, c.dy + dy), rect, board)


def refitted(c: Camera, old: Rect, new: Rect, board: tuple[float, float]) -> Camera:
    """``c`` for the board drawn into ``new`` instead of ``old`` (a resized window): the
    same zoom, the board point at the middle of the view kept at the middle."""
    if c.zoom == 1.0:
        return Camera()
    mid = BoardTransform.fit(old, board, c).to_board(old.x + old.w / 2, old.y + old.h / 2)
    scale = BoardTransform.fit(new, board).scale * c.zoom
    return _kept_in(Camera(c.zoom, new.w / 2 - mid[0] * scale, new.h / 2 - mid[1] * scale),
                    new, board)


def _kept_in(c: Camera, rect: Rect, board: tuple[float, float]) -> Camera:
    """``c`` moved so the zoomed board still covers the fitted board's pixels."""
    scale = BoardTransform.fit(rect, board).scale
    grown = (scale * c.zoom - scale) * board[0], (scale * c.zoom - scale) * board[1]
    return Camera(c.zoom, min(0.0, max(c.dx, -grown[0])), min(0.0, max(c.dy, -grown[1])))


@dataclass(frozen=True)
class BoardTransform:
    """Maps board inches to pixels: ``px = ox + x * scale``."""

    ox: float
    oy: float
    scale: float  # pixels per inch

    @classmethod
    def fit(cls, rect: Rect, board: tuple[float, float], camera: Camera | None = None
            ) -> BoardTransform:
        """The transform drawing a ``board`` of inches into ``rect`` exactly, then
        zoomed and panned by ``camera``."""
        scale = min(rect.w / board[0], rect.h / board[1])
        if camera is None:
            return cls(float(rect.x), float(rect.y), scale)
        return cls(rect.x + camera.dx, rect.y + camera.dy, scale * camera.zoom)

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.ox + x * self.scale), round(self.oy + y * self.scale))

    def to_screen_f(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.scale, self.oy + y * self.scale)

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        return ((px - self.ox) / self.scale, (py - self.oy) / self.scale)

    def length(self, inches: float) -> float:
        """A length in inches as pixels."""
        return inches * self.scale

    def shifted(self, dx: float, dy: float) -> BoardTransform:
        """The same mapping drawn onto a surface whose origin is at ``(dx, dy)``."""
        return BoardTransform(self.ox - dx, self.oy - dy, self.scale)
