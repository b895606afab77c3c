"""The one error hierarchy of wasteland-sim.

Every error raised for bad input (a scenario file, a save, a CLI argument,
an illegal action) is a :class:`WastelandError`, itself a ``ValueError`` as in
python-chess, so callers can catch one type. Messages quote the bad input
with ``!r`` and name the file, the key path or the action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class WastelandError(ValueError):
    """Base class of every error the project raises for bad input."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in an input file: where, and what was expected."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class ScenarioError(WastelandError):
    """A scenario, library or rules-data file is invalid.

    Carries every problem found, not only the first (``wasteland check``
    prints them all).
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class IllegalActionError(WastelandError):
    """An action that may not be applied now; the game state is unchanged."""

    def __init__(self, action: object, reason: str, model: str | None = None) -> None:
        self.action = action
        self.model = model
        self.reason = reason
        who = f" (model {quoted(model, 40)})" if model else ""
        super().__init__(f"illegal action {quoted(str(action))}{who}: {reason}")


SHOWN_CHARS = 120  # of a text quoted back in a message (an action text can be 1 MiB)


def quoted(text: str, limit: int = SHOWN_CHARS) -> str:
    """``repr(text)``, cut to about ``limit`` characters with the length said.

    >>> quoted("move knight 3 4")
    "'move knight 3 4'"
    >>> quoted("x" * 1000, 10)
    "'xxxxxxxxxx'... (1000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class SaveError(WastelandError):
    """A save file cannot be read or no longer matches its scenario."""


class UsageError(WastelandError):
    """A command-line argument is wrong (unknown model id, bad option...)."""
