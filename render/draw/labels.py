"""Placing labels on the board so none covers another, a base's marks or a line
(issue 16, bug 8).

A :class:`Placer` holds the screen rectangles already taken (bases' health
pips, model names, terrain height labels, overlay labels) and the lines
that must stay readable (the sight line, the line of cover); :meth:`Placer.place`
gives the first candidate spot whose box meets none of them, or the first
spot when every one is taken (a label is never dropped). One placer is
made per frame by :func:`render.draw.frame.draw_frame`, so nothing here is
kept between frames.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

Point = tuple[float, float]
Line = tuple[Point, Point]


class Placer:
    """The rectangles and lines taken so far in one frame."""

    def __init__(self, taken: Iterable[pygame.Rect] = (), clip: pygame.Rect | None = None
                 ) -> None:
        self.taken: list[pygame.Rect] = list(taken)
        self.lines: list[Line] = []
        self.clip = clip

    def block(self, box: pygame.Rect) -> None:
        self.taken.append(box)

    def keep_clear(self, a: Point, b: Point) -> None:
        """A line no label may cover (the sight line, the line of cover)."""
        self.lines.append((a, b))

    def free(self, box: pygame.Rect) -> bool:
        """Whether ``box`` meets no taken rectangle and no kept line."""
        if box.collidelist(self.taken) >= 0:
            return False
        return not any(box.clipline(a, b) for a, b in self.lines)

    def fit(self, size: tuple[int, int], centre: Point) -> pygame.Rect:
        """The box of ``size`` centred on ``centre``, moved inside the clip (the board)."""
        box = pygame.Rect(0, 0, *size)
        box.center = (round(centre[0]), round(centre[1]))
        clip = self.clip
        if clip is not None and clip.w > box.w + 6 and clip.h > box.h + 2:
            box = box.clamp(clip.inflate(-6, -2))
        return box

    def place(self, size: tuple[int, int], spots: Sequence[Point], pad: int = 0) -> pygame.Rect:
        """The box of the first free spot among ``spots`` (else the first), now taken.

        ``pad`` pixels are kept free on each side of the box as well (between names).
        """
        first: pygame.Rect | None = None
        for spot in spots:
            box = self.fit(size, spot)
            first = first or box
            if self.free(box.inflate(2 * pad, 0)):
                self.taken.append(box.inflate(2 * pad, 0))
                return box
        if first is None:
            raise ValueError("Placer.place: no spot offered")
        self.taken.append(first.inflate(2 * pad, 0))
        return first
