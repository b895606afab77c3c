"""What players see besides the rules answers: the hand-over banner, the dice
card, the attack headlines and "what if" (issue 16).

:class:`Show` is their owner, held by the window (:class:`render.app.App`)
and updated once a frame from the controller's public state; nothing here
decides a rule. The banner appears when the round or the side to act
changes (R-TURN-3, R-TURN-8) and stays until the next player dismisses it;
a dice card appears for each attack the engine rolls (its typed record,
:mod:`sim.combat.rolls`) and stays on the board :data:`CARD_MS`
milliseconds of the frame clock; the headlines are those of
:mod:`render.explain.headline`; "what if" is :mod:`render.explain.what_if`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from render.draw.dice_card import CARD_MS, card_lines
from render.draw.overlays import ShotOverlay
from render.draw.pinned import AgiCard, Banner, DiceCard, Shown, WhatIfShown
from render.draw.side_view import SideView
from render.draw.theme import TEXT, side_colour
from render.draw.view import TextLine, ViewState
from render.explain.answers import state_key
from render.explain.headline import charge_headline, headline
from render.explain.setup import current_weapon, of_kind, options
from render.explain.side_view import side_view
from render.explain.what_if import Pointing, WhatIf
from render.scene import Scene
from sim.combat.plan import CloseCombatKind, ShootKind, ranged_weapons
from sim.combat.rolls import AttackRoll, attack_rolls, rolls_by_event
from sim.engine.actions import Action
from sim.engine.gamedata import Event, Phase
from sim.engine.state import GameState
from sim.scenario.names import display_names

# What the side to act does first, under its banner (R-TURN-3..5).
PHASE_HINT = {
    Phase.CHOOSE_FIRST: "you hold the advantage: choose who goes first",
    Phase.READY: "ready one of your Unready models",
    Phase.CHOOSE_OPTION: "choose option A or B",
    Phase.ACTIVATE: "activate a Ready model, or end the turn",
    Phase.ACTIVATION: "your model is active",
}


class AiLog(Protocol):
    """What the log reads of the AI's sides in solo play (render.input.ai_turns)."""

    @property
    def reasons(self) -> Mapping[int, str]: ...
    def plays(self, state: GameState | None) -> bool: ...
    def log_lines(self, state: GameState, lines: Sequence[str] | None = None
                  ) -> tuple[str, ...]: ...


class Followed(Pointing, Protocol):
    """What :class:`Show` follows each frame: the input state, the AI's sides and the
    engine's legal actions (listed once per state, render.explain.answers.Answers)."""

    @property
    def ai(self) -> AiLog | None: ...
    def legal(self) -> list[Action]: ...
    def view(self) -> ViewState: ...


class Show:
    """The banner, the dice card, the headlines and "what if" of one window."""

    def __init__(self) -> None:
        self.banner: Banner | None = None
        self._turn: tuple[int, str | None] | None = None
        self.card: DiceCard | None = None
        self.test: AgiCard | None = None  # the last AGI test for climbing (R-CLIMB-2)
        self._events = 0
        self._reasons = 0  # the AI's reasons the log holds (solo play)
        self._rolls: tuple[AttackRoll, ...] = ()
        self.log: tuple[str, ...] = ()
        self.headlines: tuple[TextLine, ...] = ()
        self._headline_key: object = None
        self.what_if = WhatIf()
        self.side_on = False  # F6: the side view of the shot shown
        self.side: SideView | None = None
        self._side_key: object = None

    # --- the hand-over -----------------------------------------------------------
    def dismiss(self) -> bool:
        """The next player dismisses the banner; whether one was up."""
        up = self.banner is not None
        self.banner = None
        return up

    def _hand_over(self, state: GameState, ai_plays: bool = False) -> None:
        turn = (state.round, state.acting)
        if state.is_over or turn == self._turn:
            return
        self._turn = turn
        if ai_plays:  # solo play: no one to hand the screen to; the AI's reasons show
            self.banner = None
            return
        side = display_names(state.scenario).side(state.acting) if state.acting else "-"
        self.banner = Banner(f"{side} - your turn, round {state.round}",
                             PHASE_HINT.get(state.phase, ""))

    # --- the side view (F6) -----------------------------------------------------------
    def toggle_side(self) -> str:
        """F6: the side view on or off; the status bar's words."""
        self.side_on = not self.side_on
        return ("side view on: pick a pair (debug view) or aim a shot" if self.side_on
                else "side view off (F6: on)")

    def _side(self, c: Followed) -> None:
        """The side view of the shot the window shows (its pair's), kept per state."""
        state = c.state
        pair = None if not self.side_on or state is None else next(
            (o.pair for o in c.view().overlays if isinstance(o, ShotOverlay) and o.pair), None)
        if pair is None or state is None:
            self.side, self._side_key = None, None
            return
        key = (state_key(state), pair)
        if key != self._side_key:
            pos = state.positions()
            climbing = frozenset(i for i in pos if state.model(i).climbing)
            self.side, self._side_key = side_view(state.scenario, pos, *pair, climbing), key

    # --- the dice ------------------------------------------------------------------
    def card_visible(self, now_ms: int) -> bool:
        return self.card is not None and now_ms - self.card.since_ms < CARD_MS

    def card_up(self, now_ms: int) -> bool:
        """Whether a dice card (an attack's or an AGI test's) is on the board."""
        return self.card_visible(now_ms) or (
            self.test is not None and now_ms - self.test.since_ms < CARD_MS)

    def _dice(self, state: GameState, now_ms: int, ai: AiLog | None = None) -> None:
        events = state.events
        reasons = 0 if ai is None else len(ai.reasons)
        if (len(events), reasons) == (self._events, self._reasons):
            return
        self._reasons = reasons
        rolls = attack_rolls(events)
        grew = len(events) > self._events
        tests = [e for e in events[self._events:] if e.kind == "dice"
                 and e.data.get("test") == "AGI"] if grew else []
        if tests:
            e = tests[-1]
            self.test = AgiCard(display_names(state.scenario).model(e.models[0]),
                                 int(e.data["roll"]), int(e.data["target"]),
                                 bool(e.data["passed"]), now_ms)
        elif self.test is not None and not grew:
            self.test = None  # taken back (undo)
        if grew and rolls and rolls != self._rolls[: len(rolls)]:
            self.card = _card(state, rolls[-1], now_ms)
        elif self.card is not None and self.card.roll not in rolls:
            self.card = None  # taken back (undo)
        self._events, self._rolls = len(events), rolls
        self.log = log_lines(state, events)
        if ai is not None:  # solo play: each AI action's reason before its events
            self.log = ai.log_lines(state, self.log)

    # --- the headlines ---------------------------------------------------------------
    def _headlines(self, c: Followed) -> None:
        state, s = c.state, c.setup
        setup = None if s is None else (s.kind.keyword, s.model, s.target, s.weapon)
        key = (None if state is None else state_key(state), setup, c.hovered)
        if key == self._headline_key:
            return
        self._headline_key = key
        self.headlines = () if state is None else tuple(self._find_headlines(c, state))

    def _find_headlines(self, c: Followed, state: GameState) -> list[TextLine]:
        s, hovered = c.setup, c.hovered
        mine = hovered is not None and _enemies(state, _active(state), hovered)
        enemy = hovered if mine else None
        if s is None:
            me = _active(state)
            if me is None or enemy is None:
                return []
            ranged = ranged_weapons(state.scenario, me)
            return [headline(state, me, enemy, ranged[0] if ranged else None)]
        if isinstance(s.kind, ShootKind | CloseCombatKind):
            target = s.target or enemy
            if target is None:
                return []
            legal = c.legal()
            weapon = current_weapon(state.scenario, legal, s)
            close = isinstance(s.kind, CloseCombatKind)
            bands = sorted({str(a.values().get("band")) for a in options(legal, s, target)
                            if a.values().get("weapon") == weapon and not close})
            per_band: list[str | None] = list(bands) or [None]
            return [headline(state, s.model, target, weapon, b, close) for b in per_band]
        if s.form.target and s.form.points:  # a charge: every target it may choose
            if s.target is not None:
                return [charge_headline(state, s.model, s.target)]
            legal = c.legal()
            targets = sorted({str(a.values()["target"]) for a in of_kind(legal, s)
                              if a.model == s.model})
            if enemy is not None and enemy not in targets:
                targets.append(enemy)
            first = [enemy] if enemy in targets else []
            rest = [t for t in targets if t != enemy]
            return [charge_headline(state, s.model, t) for t in first + rest]
        return []

    def shown(self, now_ms: int, scene: Scene) -> Shown:
        """What the frame draws of all this at ``now_ms`` (frame clock)."""
        w = self.what_if.answer
        marks = None if w is None else WhatIfShown(
            (w.spot.x, w.spot.y), w.radius,
            tuple(s.witness for s in w.seen_by if s.witness is not None),
            sum(1 for s in w.seen_by if s.weapon is not None))
        acting = scene.side_to_act
        colour = TEXT
        if acting is not None and acting in scene.scenario.sides:
            colour = side_colour(scene.side_index(acting), scene.scenario.sides[acting].neutral)
        return Shown(
            banner=self.banner, colour=colour,
            card=self.card if self.card_visible(now_ms) else None,
            test=self.test if self.card_up(now_ms) else None,
            pinned=self.headlines + self.what_if.text, what_if=marks, log=self.log,
            side=self.side)

    # --- each frame ----------------------------------------------------------------
    def update(self, c: Followed, now_ms: int) -> None:
        """Follow the controller's game: turn changes, new rolls, the pointer."""
        state = c.state
        if state is None:
            return
        self._hand_over(state, c.ai is not None and c.ai.plays(state))
        self._dice(state, now_ms, c.ai)
        self._headlines(c)
        self.what_if.update(c)
        self._side(c)


def _active(state: GameState) -> str | None:
    return state.activation.model if state.activation is not None else None


def _enemies(state: GameState, me: str | None, other: str) -> bool:
    if me is None or not state.model(other).in_play:
        return False
    return state.model(me).side != state.model(other).side


def _card(state: GameState, roll: AttackRoll, now_ms: int) -> DiceCard:
    names = display_names(state.scenario)
    weapons = state.scenario.weapons

    def weapon_name(w: str) -> str | None:
        return weapons[w].name if w in weapons else None

    big, lines = card_lines(roll, names.models.get, weapon_name)
    return DiceCard(roll, now_ms, big, lines)


def log_lines(state: GameState, events: Sequence[Event]) -> tuple[str, ...]:
    """The event log with each attack's verdict after its last event (``>> HIT - 2 damage``)."""
    names = display_names(state.scenario)
    rolls = rolls_by_event(events)
    out = [str(e) for e in events]
    for i, roll in rolls.items():
        big, _ = card_lines(roll, names.models.get, lambda w: None)
        out[i] += f"  >> {big}"
    return tuple(out)


