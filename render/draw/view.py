"""What a frame shows besides the board: buttons, text, overlays, flags.

The controller produces a :class:`ViewState` each update; drawing reads it
and never changes it (pygame_gui style: events -> update -> draw).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from render.draw import theme
from render.draw.transform import BoardTransform


class Overlay(Protocol):
    """Something drawn over the board in board coordinates."""

    def draw(self, surface: Any, t: BoardTransform) -> None: ...


@dataclass(frozen=True)
class Button:
    """A legal choice offered in the side panel; ``key`` is handed back on click."""

    label: str
    key: object
    enabled: bool = True
    hint: str = ""
    number: int | None = None  # the number key that presses it (a menu's entry), shown
    hotkey: str = ""  # its fixed key ("M", "Enter"), shown after the label
    minor: bool = False  # a rarely wanted choice (Leave), drawn less prominent

    @property
    def caption(self) -> str:
        """The label as drawn: ``"2. Ready Knight"``, ``"Move [M]"``."""
        if self.number is not None:
            return f"{self.number}. {self.label}"
        return f"{self.label} [{self.hotkey}]" if self.hotkey else self.label


@dataclass(frozen=True)
class TextLine:
    text: str
    colour: theme.Colour = theme.TEXT


@dataclass(frozen=True)
class ViewState:
    """Everything a frame draws apart from the :class:`render.scene.Scene`."""

    buttons: tuple[Button, ...] = ()
    buttons_title: str = "Choices"
    details: tuple[TextLine, ...] = ()
    log: tuple[str, ...] = ()
    status: str = ""
    status_error: bool = False
    overlays: tuple[Overlay, ...] = ()
    highlight: frozenset[str] = field(default_factory=frozenset)
    show_help: bool = False
    debug: bool = False
    hover_button: int | None = None
    game_over: str | None = None
    legend: str = "terrain"  # which legend: "terrain" or "overlays"
    show_legend: bool = False  # a short window's shared box shows the legend, not the log
    details_scroll: int = 0  # rows scrolled (mouse wheel) in Details
    log_scroll: int = 0  # rows scrolled back in the event log
