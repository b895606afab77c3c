"""Shooting and close combat: the target preview, range-band choices, the hover check.

While a Shoot or Close combat is set up, hovering a model previews the
attack (sight, cover and range from the analysis, the engine's odds for each
band it lists, R-RANGE-1). Outside a set-up, hovering an enemy of the
active model says whether it could be shot (issue 8).
"""

from __future__ import annotations

from render.draw.view import Overlay, TextLine
from render.explain import answers
from render.explain.answers import Answers
from render.explain.setup import Setup, options
from render.scene import Scene
from sim.combat.plan import CloseCombatKind, Shoot, ShootKind, ranged_weapons
from sim.engine.actions import Action, ModelAction
from sim.engine.state import GameState


def ways_to_attack(legal: list[Action], s: Setup, target: str, weapon: str | None
                   ) -> list[ModelAction]:
    """The listed ways to attack ``target``: with the current weapon when it has any."""
    ways = options(legal, s, target)
    if len(ways) > 1 and s.form.weapon:
        mine = [a for a in ways if a.values().get("weapon") == weapon]
        ways = mine or ways
    return ways


def attack_preview(kept: Answers, state: GameState | None, scene: Scene, legal: list[Action],
                   s: Setup, target: str, weapon: str | None
                   ) -> tuple[list[Overlay], list[TextLine], bool]:
    """The attack on ``target`` as set up: overlay, text, and whether it is close combat.

    Close combat shows base contact and odds only: sight, cover and range do
    not apply, and nothing else follows it in Details.
    """
    if isinstance(s.kind, CloseCombatKind) and state is not None:
        return [], answers.close_combat_lines(state, s.model, target, weapon), True
    shot, text = kept.shot(scene.scenario, scene.positions(), s.model, target,
                           weapon, scene.climbing())
    lines = list(text)
    if isinstance(s.kind, ShootKind) and state is not None:
        bands: list[str | None] = [
            a.band for a in options(legal, s, target)
            if isinstance(a, Shoot) and a.weapon == weapon] if s.form.band else []
        for band in bands or [None]:
            lines += answers.odds_lines(state, s.model, target, weapon, band)
    return [shot], lines, False


def hovered_enemy(state: GameState | None, hovered: str | None, quiet: str | None
                  ) -> str | None:
    """The hovered model when it is an enemy of the model being activated."""
    if hovered is not None and hovered == quiet:
        return None  # just attacked: its dice and outcome show instead
    if state is None or hovered is None or state.activation is None or not state.model(
            hovered).in_play:
        return None
    me = state.activation.model
    return hovered if state.model(me).side != state.model(hovered).side else None


def could_shoot(kept: Answers, state: GameState, scene: Scene, target: str
                ) -> tuple[Overlay | None, list[TextLine]]:
    """Why the active model can or cannot shoot ``target`` (issue 8): the
    analysis with its first ranged weapon and the engine's own verdict."""
    assert state.activation is not None
    me = state.activation.model
    weapons = ranged_weapons(scene.scenario, me)
    if not weapons or not state.model(me).in_play:
        return None, []
    shot, text = kept.shot(scene.scenario, scene.positions(), me, target, weapons[0],
                           scene.climbing())
    return shot, [*text, *answers.odds_lines(state, me, target, weapons[0])]
