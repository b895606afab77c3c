"""Where the board and the panels go in a window of any size.

A pure function of the window size and the board size: the board keeps its
aspect ratio in the left part, the side panel (turn, actions, details,
legend, event log) takes the right part and the status bar the bottom line.
Nothing here draws, so tests can check that no two areas overlap.

Examples
--------
>>> lay = compute_layout((1280, 800), (36.0, 36.0))
>>> lay.board.right <= lay.panel.x
True
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_WINDOW = (800, 560)
MARGIN = 10
STATUS_HEIGHT = 28
STRIP_HEIGHT = 48  # the per-side strip under the board (render.draw.banner), the window's only


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in pixels (x right, y down)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.right and self.y <= py < self.bottom

    def overlaps(self, other: Rect) -> bool:
        """True when the two rectangles share any pixel."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True)
class Camera:
    """How far the fitted board is zoomed (1: the whole board fits) and panned
    (pixels its origin moved); render.draw.transform zooms and pans it (issue 34)."""

    zoom: float = 1.0
    dx: float = 0.0
    dy: float = 0.0


@dataclass(frozen=True)
class Layout:
    """Every area of the window; the panel areas lie inside ``panel``."""

    window: Rect
    board: Rect  # exactly the board (aspect kept), inside board_area
    board_area: Rect
    panel: Rect
    header: Rect  # round, advantage, side to act
    buttons: Rect  # the legal choices
    details: Rect  # selected model, shot preview, analysis text
    legend: Rect
    log: Rect
    status: Rect | None
    strip: Rect | None = None  # each side's models, readiness and health (the window's)
    camera: Camera = Camera()  # the board zoomed and panned inside ``board``

    @property
    def legend_shares_log(self) -> bool:
        """In a short window the legend and the event log take turns in one box (L)."""
        return self.legend == self.log

    def areas(self) -> dict[str, Rect]:
        """The areas that must not overlap one another."""
        out = {
            "board": self.board,
            "header": self.header,
            "buttons": self.buttons,
            "details": self.details,
            "log": self.log,
        }
        if not self.legend_shares_log:
            out["legend"] = self.legend
        if self.status is not None:
            out["status"] = self.status
        if self.strip is not None:
            out["strip"] = self.strip
        return out


def _fit(area: Rect, board: tuple[float, float]) -> Rect:
    """The largest rectangle of the board's aspect centred in ``area``."""
    bw, bh = board
    scale = min(area.w / bw, area.h / bh)
    w, h = max(1, int(bw * scale)), max(1, int(bh * scale))
    return Rect(area.x + (area.w - w) // 2, area.y + (area.h - h) // 2, w, h)


def compute_layout(
    size: tuple[int, int], board: tuple[float, float], status: bool = True,
    buttons: bool = True, strip: bool | None = None,
) -> Layout:
    """Split a window of ``size`` pixels for a board of ``board`` inches.

    Windows smaller than :data:`MIN_WINDOW` are laid out as if they were that
    big (the window clamps its size, the PNG export never asks for less).
    """
    w, h = max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1])
    window = Rect(0, 0, w, h)
    status_rect = Rect(0, h - STATUS_HEIGHT, w, STATUS_HEIGHT) if status else None
    body_h = h - (STATUS_HEIGHT if status else 0)
    panel_w = max(300, min(460, int(w * 0.3)))
    panel = Rect(w - panel_w, 0, panel_w, body_h)
    board_area = Rect(MARGIN, MARGIN, w - panel_w - 2 * MARGIN, body_h - 2 * MARGIN)
    strip_rect = None
    if (buttons if strip is None else strip):  # the window has one; a PNG has none
        board_area = Rect(MARGIN, MARGIN, board_area.w, board_area.h - STRIP_HEIGHT - MARGIN // 2)
        strip_rect = Rect(MARGIN, board_area.bottom + MARGIN // 2, board_area.w, STRIP_HEIGHT)
    inner_x, inner_w = panel.x + MARGIN // 2, panel_w - MARGIN
    heights = _panel_heights(body_h - MARGIN, buttons)
    rects: list[Rect] = []
    y = MARGIN // 2
    for ph in heights:
        rects.append(Rect(inner_x, y, inner_w, ph - 4))
        y += ph
    header, choices, details, legend, log = rects
    if legend.h <= 0:  # no room for both: they share the log's box (Layout.legend_shares_log)
        legend = log
    fitted = _fit(board_area, board)
    if strip_rect is not None:  # right under the board, however wide the board is
        strip_rect = Rect(strip_rect.x, fitted.bottom + MARGIN // 2, strip_rect.w, STRIP_HEIGHT)
    return Layout(
        window=window,
        board=fitted,
        board_area=board_area,
        panel=panel,
        header=header,
        buttons=choices,
        details=details,
        legend=legend,
        log=log,
        status=status_rect,
        strip=strip_rect,
    )


def _panel_heights(total: int, with_buttons: bool = True) -> list[int]:
    """Heights of header, buttons, details, legend and log; they sum to ``total``."""
    header = 62
    legend = 190 if total >= 700 else 0
    rest = total - header - legend
    buttons = int(rest * 0.30) if with_buttons else 4
    details = int(rest * 0.38)
    log = rest - buttons - details
    return [header, buttons, details, legend, log]
