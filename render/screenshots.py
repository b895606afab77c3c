"""``python -m render.screenshots DIR`` (``make screenshots``): the README pictures.

Plays the shipped scenarios through the window's own controller (the same
calls clicks make) and saves what the window shows, headless:

- ``turn.png``: the default scenario in round 1, some models Used or Ready,
  a Move being planned with the reachable area and the live ruler;
- ``shot-preview.png``: seed 004 cover example 1, the mutant about to shoot
  the knight: sight line, line of cover, both covers counted, range rings,
  the odds;
- ``debug-view.png``: the debug view on the default scenario: every sight
  line between enemies, significant edges, reachable areas, and a picked pair;
- ``handover.png``: the hand-over banner of the side to act and the per-side
  strip of readiness and health (issue 16);
- ``headline.png``: the headline pinned at the top of Details while the
  mutant aims at the knight of seed 004 (issue 16);
- ``dice-card.png``: the dice card of a shot just rolled (seed-plasma, a hit
  with an armor roll; issue 16).
"""

from __future__ import annotations

import math
import os
import sys
from importlib import resources
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from render.app import App
from render.draw import theme
from render.input.controller import Controller
from render.png import write_png
from sim.game import kinds
from sim.movement.plan import Step
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario

SIZE = (1280, 800)


def shipped(name: str) -> Scenario:
    """A scenario shipped as package data (works outside the checkout)."""
    with resources.as_file(resources.files("scenarios").joinpath(name)) as path:
        return load_scenario(path)


def press(c: Controller, label: str) -> None:
    """Press the button labelled ``label`` (it must be offered)."""
    labels = [b.label for b in c.buttons()]
    if label not in labels:
        raise RuntimeError(f"{label!r} is not offered; offered: {labels}")
    c.press_button(labels.index(label))


def click_model(c: Controller, model: str) -> None:
    m = c.scene().model(model)
    c.click(m.x, m.y)


def legal_point(c: Controller, model: str, frac: float) -> tuple[float, float]:
    """A point the engine accepts as a one-leg move, ``frac`` of the Move ruler away,
    heading for the middle of the board."""
    s, st = c.setup, c.state
    assert s is not None and st is not None
    m = c.scene().model(model)
    length = c.scenario.rules_data.ruler(c.scenario.unit_of(model).move) * frac
    bw, bh = c.scenario.board
    head = math.atan2(bh / 2 - m.y, bw / 2 - m.x)
    for k in range(24):
        a = head + (k // 2) * 0.3 * (1 if k % 2 else -1)
        p = (m.x + length * math.cos(a), m.y + length * math.sin(a))
        action = c.build(s, [Step("walk", *p)])
        if action is not None and st.why_illegal(action) is None:
            return p
    raise RuntimeError(f"no legal move for {model}")


def move(c: Controller, model: str, frac: float = 0.8) -> None:
    press(c, "Move")
    c.click(*legal_point(c, model, frac))
    c.command("confirm")


def save(c: Controller, path: Path, show: bool = False, banner: bool = False) -> Path:
    """The window's frame; with ``show`` the headline and a dice card just rolled as
    well (a fixed frame clock), with ``banner`` the hand-over banner too."""
    app = App(c, pygame.Surface(SIZE))
    if show:
        app.clock = lambda: 0
        app.show.update(c, 0)
    if not banner:
        app.show.dismiss()
    app.draw()
    write_png(app.surface, path)
    return path


SEED = 1  # the pictures are the same on every run (the advantage roll, R-TURN-2)


def new_game(scenario: Scenario) -> Controller:
    """A new game with a fixed seed, so ``make screenshots`` does not churn docs/img."""
    return Controller(scenario, state=kinds.new_game(scenario, seed=SEED))


def sides(c: Controller) -> tuple[str, str]:
    assert c.state is not None
    return c.state.sides


def turn_in_progress(out: Path) -> Path:
    c = new_game(shipped("skirmish.toml"))
    st = c.state
    assert st is not None
    settlers, mutants = sides(c)
    press(c, f"{c.scenario.sides[settlers].name} goes first")
    for model in ("knight", "survivor"):
        click_model(c, model)  # ready
        if str(st.phase) == "choose-option":
            press(c, "Activate Ready (option B)")
        click_model(c, model)  # activate
        move(c, model)
        press(c, "End activation")
        # the mutants' turn: ready one, option A (it stays Ready)
        mutant = next(m.id for m in st.side_models(mutants) if str(m.readiness) == "unready")
        click_model(c, mutant)
        press(c, "Activate none (option A)")
    click_model(c, "settler-1")
    if str(st.phase) == "choose-option":
        press(c, "Activate Ready (option B)")
    click_model(c, "settler-1")
    press(c, "Move")
    first = legal_point(c, "settler-1", 0.45)
    c.click(*first)
    m = c.scene().model("settler-1")
    dx, dy = first[0] - m.x, first[1] - m.y
    turn = math.radians(-55)  # a second leg, turned, so the path has a bend
    c.hover((first[0] + 0.9 * (dx * math.cos(turn) - dy * math.sin(turn)),
             first[1] + 0.9 * (dx * math.sin(turn) + dy * math.cos(turn))))
    return save(c, out)


def shot_preview(out: Path) -> Path:
    c = new_game(shipped("seed-cover-1.toml"))
    _aiming(c)
    return save(c, out)


def handover(out: Path) -> Path:
    c = new_game(shipped("skirmish.toml"))
    settlers, _ = sides(c)
    press(c, f"{c.scenario.sides[settlers].name} goes first")
    click_model(c, "knight")  # ready: the strip shows it Ready
    if c.state is not None and str(c.state.phase) == "choose-option":
        press(c, "Activate none (option A)")  # the turn passes: the mutants' banner
    return save(c, out, show=True, banner=True)


def _aiming(c: Controller) -> None:
    """seed 004: the mutant's Shoot set up, the pointer on the knight."""
    _, mutants = sides(c)
    press(c, f"{c.scenario.sides[mutants].name} goes first")
    click_model(c, "mutant")
    assert c.state is not None
    if str(c.state.phase) == "choose-option":
        press(c, "Activate Ready (option B)")
    click_model(c, "mutant")
    press(c, "Shoot")
    knight = c.scene().model("knight")
    c.hover((knight.x, knight.y))


def headline(out: Path) -> Path:
    c = new_game(shipped("seed-cover-1.toml"))
    _aiming(c)
    return save(c, out, show=True)


DICE_SEED = 10  # seed-plasma: this seed's shot hits, with an armor roll


def dice_card(out: Path) -> Path:
    """The survivor of seed-plasma shoots mutant A at short range: the card just rolled."""
    scenario = shipped("seed-plasma.toml")
    c = Controller(scenario, state=kinds.new_game(scenario, seed=DICE_SEED))
    assert c.state is not None
    press(c, f"{scenario.sides[c.state.model('survivor').side].name} goes first")
    click_model(c, "survivor")
    if str(c.state.phase) == "choose-option":
        press(c, "Activate Ready (option B)")
    click_model(c, "survivor")
    press(c, "Shoot")
    click_model(c, "mutant-a")  # the engine rolls (seeded)
    return save(c, out, show=True)


def debug_view(out: Path) -> Path:
    c = new_game(shipped("skirmish.toml"))
    c.command("debug")
    c.command("all_sight")
    c.command("edges_reach")
    click_model(c, "knight")
    click_model(c, "mutant-2")
    c.settle()  # every reachable area, not only the first frame's share
    return save(c, out)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/img")
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    theme.reset_fonts()
    for make, name in ((turn_in_progress, "turn.png"), (shot_preview, "shot-preview.png"),
                       (debug_view, "debug-view.png"), (handover, "handover.png"),
                       (headline, "headline.png"), (dice_card, "dice-card.png")):
        print(f"wrote {make(out / name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
