"""KindRegistry: the model action kinds of one game, by keyword, in listing order.

The registry is built once, in one place (sim.game.kinds for the game; the
engine tests build their own), and handed to every GameState. Nothing is
found by importing modules named in strings, and the order kinds are listed
in is the order they were given, so a save replays the same way in every
process (docs/engine.md, "The registry").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from sim.engine.actions import TURN_ACTIONS, Action, ActionKind, ModelAction, parse_turn_action
from sim.errors import IllegalActionError, WastelandError, quoted


class KindRegistry(Mapping[str, ActionKind[Any]]):
    """Model action kinds by keyword, in listing order.

    A keyword given twice, or one of the turn actions' keywords, is refused.
    """

    def __init__(self, kinds: Iterable[ActionKind[Any]]) -> None:
        turn_words = {t.keyword for t in TURN_ACTIONS}
        self._kinds: dict[str, ActionKind[Any]] = {}
        for kind in kinds:
            if kind.keyword in self._kinds or kind.keyword in turn_words:
                raise WastelandError(f"action keyword {kind.keyword!r} of "
                                     f"{type(kind).__name__} is defined twice")
            self._kinds[kind.keyword] = kind

    def __getitem__(self, keyword: str) -> ActionKind[Any]:
        return self._kinds[keyword]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def __repr__(self) -> str:
        return f"KindRegistry({', '.join(self._kinds)})"

    def kind_of(self, action: ModelAction) -> ActionKind[Any] | None:
        """The kind handling ``action``, or None."""
        kind = self._kinds.get(action.keyword)
        if kind is None or not isinstance(action, kind.action_type):
            return None
        return kind

    def parse(self, text: str) -> Action:
        """Read an action, turn actions included, from its text (the inverse of ``str``).

        Raises :class:`IllegalActionError` naming the text and the expected
        form when the text is not an action of these kinds.
        """
        turn = parse_turn_action(text)
        if turn is not None:
            return turn
        word, *args = text.split()
        kind = self._kinds.get(word)
        if kind is None:
            known = [t.keyword for t in TURN_ACTIONS] + sorted(self._kinds)
            raise IllegalActionError(text, f"unknown action {quoted(word, 40)}; known: "
                                           f"{', '.join(known)}")
        parsed: Action = kind.parse(text, args)
        return parsed
