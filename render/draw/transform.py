"""Board inches <-> screen pixels.

The board keeps its aspect ratio, so one scale serves both axes; board y
grows downwards like screen y (R-UNIT-1 origin top-left), so no flip.

Examples
--------
>>> from render.draw.layout import Rect
>>> t = BoardTransform.fit(Rect(10, 20, 360, 360), (36.0, 36.0))
>>> t.to_screen(0.0, 0.0), t.to_screen(36.0, 36.0)
((10, 20), (370, 380))
>>> t.to_board(190, 200)
(18.0, 18.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from render.draw.layout import Rect


@dataclass(frozen=True)
class BoardTransform:
    """Maps board inches to pixels: ``px = ox + x * scale``."""

    ox: float
    oy: float
    scale: float  # pixels per inch

    @classmethod
    def fit(cls, rect: Rect, board: tuple[float, float]) -> BoardTransform:
        """The transform drawing a ``board`` of inches into ``rect`` exactly."""
        scale = min(rect.w / board[0], rect.h / board[1])
        return cls(float(rect.x), float(rect.y), scale)

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
