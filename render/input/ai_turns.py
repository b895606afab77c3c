"""Solo play: AI players take their sides' turns in the window (issue 18, docs/ai.md).

:class:`AiTurns` is held by the controller (``controller.ai``). Each frame the
window calls :meth:`AiTurns.tick` with its frame clock: when a side the AI
plays is to act and :data:`PACE_MS` have passed since its last action (or
since the human's), it asks the player (sim.ai) for a decision and applies it
through the controller, like a click would; the decision's reason goes to the
window's event log, before the events it caused, and to the status bar. The
human cannot act for an AI side meanwhile (the controller refuses, saying who
plays). Undo (:meth:`AiTurns.undo`) takes back the AI's actions since the
human's last decision, and that decision too, so the human decides again.

No sleep and no waiting: the pace is the frame clock's, and the player thinks
in a daemon thread on a copy of the game (render.input.thinking), from the
moment its side is to act; so the window keeps drawing and answering (quit,
help, undo) while it thinks and between its actions. When the pace has passed
and the decision is not back, the status bar says the AI is thinking. A
decision about a position since undone is dropped. The search player gets a
time budget per decision, :data:`SEARCH_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from render.input.thinking import Thought
from sim.ai.player import Decision, Player
from sim.ai.registry import make_player
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.scenario.names import display_names

#: Milliseconds between two AI actions: time to see each one happen.
PACE_MS = 700
#: Seconds search may think per decision in the window: once spent it tries no
#: further candidate and takes the best of those tried (docs/ai.md, Solo play).
SEARCH_SECONDS = 1.5
#: How the window's log marks an AI's reason.
MARK = "AI: "


class Applies(Protocol):
    """What AiTurns needs of the controller: its game and its way to apply an action."""

    @property
    def state(self) -> GameState | None: ...
    def apply(self, action: Action) -> bool: ...


class AiTurns:
    """The AI players of some sides of one game, and the reasons they gave."""

    def __init__(self, players: Mapping[str, Player], pace_ms: int = PACE_MS) -> None:
        self.players = dict(players)
        self.pace_ms = pace_ms
        self.reasons: dict[int, str] = {}  # history index of an AI action -> its reason
        self.acting = False  # True while applying the AI's own action
        self._due: int | None = None
        self._thought: Thought | None = None  # the decision being worked out, or kept
        self._told: Thought | None = None  # the thought the status bar says is going on

    @classmethod
    def named(cls, sides: Mapping[str, str], seed: int = 0) -> AiTurns:
        """AI players by name for ``sides`` (side id -> player name, sim.ai.registry);
        search with the window's time budget, :data:`SEARCH_SECONDS`."""
        return cls({side: make_player(name, seed + i, seconds=SEARCH_SECONDS)
                    for i, (side, name) in enumerate(sides.items())})

    def plays(self, state: GameState | None) -> bool:
        """Whether an AI side is to act now."""
        return state is not None and not state.is_over and state.acting in self.players

    def blocks(self, state: GameState | None) -> str | None:
        """Why a human may not act now (an AI side's turn), or None."""
        if self.acting or not self.plays(state):
            return None
        assert state is not None and state.acting is not None
        side = display_names(state.scenario).side(state.acting)
        return f"{side} is played by the AI ({self.players[state.acting].name}); wait for it"

    def tick(self, controller: Applies, now_ms: int,
             say: Callable[[str], object] | None = None) -> bool:
        """Take one AI action when one is due and decided; True when one was taken.
        ``say`` puts the reason, or that the AI is thinking, in the status bar (the
        window passes its controller's).

        Never waits: the decision is worked out in a thread (:meth:`decided`)."""
        state = controller.state
        if not self.plays(state):
            self._due = None
            return False
        assert state is not None and state.acting is not None
        if self._due is None:
            self._due = now_ms + self.pace_ms
        decision = self.decided(state)
        if decision is None or now_ms < self._due:
            if now_ms >= self._due and self._told is not self._thought:
                self._told = self._thought  # said once: a refused click's words stay up
                side = display_names(state.scenario).side(state.acting)
                if say is not None:
                    say(f"{side} ({self.players[state.acting].name}) is thinking...")
            return False
        self._thought = None
        index = len(state.history)
        self.acting = True
        try:
            done = controller.apply(decision.action)
        finally:
            self.acting = False
        if done:
            # the player's own figures (search's plans tried ahead) only in the debug view
            figures = (f" [{decision.debug}]" if decision.debug
                       and getattr(controller, "debug", False) is True else "")
            self.reasons[index] = decision.why + figures
            if say is not None:
                say(f"{MARK}{decision.why}{figures}")
        self._due = now_ms + self.pace_ms
        return done

    def decided(self, state: GameState) -> Decision | None:
        """The decision for ``state`` once its player has made it, else None (then it is
        thinking, asked now if it was not yet). One thought at a time: one about a
        position since undone is waited for, then dropped (a player is not asked twice
        at once). Raises the player's own error, should it fail."""
        thought = self._thought
        if thought is not None and not thought.done:
            return None
        if thought is None or not thought.fits(state):
            assert state.acting is not None
            self._thought = Thought(self.players[state.acting], state)
            return None
        return thought.decision()

    @property
    def thinking(self) -> bool:
        """Whether a player is working out a decision now."""
        return self._thought is not None and not self._thought.done

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the decision being worked out (tests,
        benchmarks; the window never waits); whether none is being worked out."""
        return self._thought is None or self._thought.wait(timeout)

    def undo(self, state: GameState) -> tuple[str, bool]:
        """Undo back over the AI's actions to the human's last decision, that one
        included: the status text and whether it is an error."""
        if not state.history:
            return "there is no action to take back", True
        if set(state.sides) <= set(self.players):  # AI against AI: one action at a time
            self.reasons.pop(len(state.history) - 1, None)
            return f"undone: {state.undo()}", False
        taken: list[Action] = []
        try:
            while state.history:
                taken.append(state.undo())
                if state.acting not in self.players:
                    break  # that was the human's decision
        except WastelandError as exc:
            return str(exc), True
        for i in [i for i in self.reasons if i >= len(state.history)]:
            del self.reasons[i]
        self._due = None
        ai = len(taken) - 1 if state.acting not in self.players else len(taken)
        return (f"undone: your last decision and the AI's {ai} action(s) after it"
                if ai else "undone: your last decision"), False

    def log_lines(self, state: GameState, lines: Sequence[str] | None = None
                  ) -> tuple[str, ...]:
        """The event log with each AI action's reason before the events it caused;
        ``lines``: one text per event of ``state.events`` (the window's, with the
        attacks' verdicts), else each event as text."""
        texts = [str(e) for e in state.events] if lines is None else list(lines)
        out: list[str] = []
        at = 0
        for i, (action, events) in enumerate(state.log_by_action()):
            why = self.reasons.get(i - 1) if action is not None else None
            if why is not None:
                out.append(f"{MARK}{why}")
            out.extend(texts[at:at + len(events)])
            at += len(events)
        return tuple(out)

