"""The debug view (F2): any pair's shot, every sight line (F3), edges and reach (F4).

F4's reachable areas take 0.1 to 0.3 s each, so they are worked out a few
per frame (:func:`work_out_reach`) and Details counts those already known.
"""

from __future__ import annotations

import time

from render.draw.overlays import AreaOverlay, EdgesOverlay, SightWeb
from render.draw.theme import TEXT_DIM, TEXT_WARN
from render.draw.view import Overlay, TextLine
from render.explain.answers import Answers
from render.scene import Scene
from sim.engine.state import GameState


def reach_models(scene: Scene) -> list[str]:
    """The models whose reachable areas F4 shows: those on the table."""
    return [m.id for m in scene.models if m.on_board]


def reach_done(answers: Answers, state: GameState | None, scene: Scene) -> bool:
    """Whether every area F4 shows is worked out."""
    return all(answers.reach_known(state, i) for i in reach_models(scene))


def work_out_reach(answers: Answers, state: GameState, scene: Scene, budget: float) -> int:
    """Work out areas not yet known until ``budget`` seconds are spent (at least one).

    Returns how many were worked out.
    """
    start = time.perf_counter()
    done = 0
    for i in reach_models(scene):
        if not answers.reach_known(state, i):
            answers.reach_area(state, i)
            done += 1
            if time.perf_counter() - start >= budget:
                break
    return done


def _sight(answers: Answers, scene: Scene) -> tuple[list[Overlay], list[TextLine]]:
    web = SightWeb(answers.sight_web(scene.scenario, scene.positions(), scene.climbing()))
    return [web], [TextLine("F3: every model's sight to every enemy: green, the sight line "
                            "found; dashed red, none (R-LOS-1)", TEXT_DIM)]


def _reach_overlays(answers: Answers, state: GameState | None, scene: Scene
           ) -> tuple[list[Overlay], list[TextLine]]:
    overlays: list[Overlay] = [EdgesOverlay(scene.edges)]
    ids = reach_models(scene)
    done = [i for i in ids if answers.reach_known(state, i)]
    for i in done:  # only areas already worked out: work_out_reach adds the rest
        area = answers.reach_area(state, i)
        if area is not None:
            overlays.append(AreaOverlay(area))
    more = f", working out {len(ids) - len(done)} more" if len(done) < len(ids) else ""
    return overlays, [TextLine(f"F4: significant edges (R-ELEV-2) and where each model "
                               f"can end a Move: {len(done)}/{len(ids)} areas{more}", TEXT_DIM)]


def _pair(answers: Answers, scene: Scene, picks: list[str]
          ) -> tuple[list[Overlay], list[TextLine]]:
    positions = scene.positions()
    if len(picks) != 2 or picks[0] == picks[1] or not all(p in positions for p in picks):
        return [], []
    a, t = picks
    carried = scene.scenario.unit_of(a).weapons  # rings of its first weapon
    shot, text = answers.shot(scene.scenario, positions, a, t,
                              carried[0] if carried else None, scene.climbing(), ids=True)
    return [shot], list(text)


def debug_details(answers: Answers, state: GameState | None, scene: Scene, picks: list[str],
                  sight: bool, reach: bool) -> tuple[list[Overlay], list[TextLine]]:
    """Overlays and Details text of the debug view (its answers kept in ``answers``)."""
    overlays: list[Overlay] = []
    lines = [TextLine("DEBUG VIEW (F2 to leave): click two models", TEXT_WARN)]
    parts = [_sight(answers, scene) if sight else None,
             _reach_overlays(answers, state, scene) if reach else None,
             _pair(answers, scene, picks)]
    for part in parts:
        if part is not None:
            overlays += part[0]
            lines += part[1]
    return overlays, lines
