"""Placing labels on the board so none covers another, a base's marks or a line
(issue 16, bug 8; issue 34, bug 3).

A :class:`Placer` holds the screen rectangles already taken (bases, health
pips, model names, terrain height labels, overlay labels) and the lines that
must stay readable (the sight line, the line of cover). :meth:`Placer.place`
gives the first candidate spot whose box meets none of them; when every one
is taken it looks further out around the first spot, ring by ring
(:func:`search_spots`); only when the whole neighbourhood is full does it take
the spot that covers least. A label is never dropped, and never laid over a
base or its pips while room is near. One placer is made per frame by
:func:`render.draw.frame.draw_frame`, so nothing here is kept between frames.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence

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

    def covered(self, box: pygame.Rect) -> int:
        """How many pixels of ``box`` taken rectangles cover, plus a penalty per kept line
        it crosses (the measure of the least bad spot when none is free)."""
        area = sum(box.clip(r).w * box.clip(r).h for r in self.taken if box.colliderect(r))
        return area + sum(box.w * box.h for a, b in self.lines if box.clipline(a, b))

    def place(self, size: tuple[int, int], spots: Sequence[Point], pad: int = 0) -> pygame.Rect:
        """The box of the first free spot among ``spots``, else of the nearest free spot
        around the first one, else of the spot covering least; now taken.

        ``pad`` pixels are kept free on each side of the box as well (between names).
        """
        if not spots:
            raise ValueError("Placer.place: no spot offered")
        tried: list[pygame.Rect] = []
        for spot in itertools.chain(spots, search_spots(spots[0], size)):
            box = self.fit(size, spot)
            if self.free(box.inflate(2 * pad, 0)):
                self.taken.append(box.inflate(2 * pad, 0))
                return box
            tried.append(box)
        best = min(tried, key=lambda b: self.covered(b.inflate(2 * pad, 0)))
        self.taken.append(best.inflate(2 * pad, 0))
        return best


SEARCH_RINGS = 6  # rings tried around a label's first spot when every offered spot is taken


RING = tuple((math.cos(j * math.tau / 12), math.sin(j * math.tau / 12)) for j in range(12))


def search_spots(centre: Point, size: tuple[int, int]) -> Iterator[Point]:
    """Spots on rings around ``centre``, nearest first, a label's height apart, 12 to a
    ring (made one by one: most labels fit at an offered spot)."""
    step = max(8, size[1] + 2)
    for k in range(1, SEARCH_RINGS + 1):
        for cos, sin in RING:  # wider than high, as labels are
            yield (centre[0] + 1.6 * k * step * cos, centre[1] + k * step * sin)
