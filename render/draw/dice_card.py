"""The dice card: one attack's dice drawn on the board for a moment (issue 16).

The d20 against its target number (R-SHOOT-2, accuracy lowering it), each
effect die with its symbols, the armor roll against the effective armor
(R-ARM-1), a big HIT or MISS and the damage dealt (R-DMG-1). Every number
is a field of the engine's :class:`sim.combat.rolls.AttackRoll`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from render.draw import theme
from render.draw.layout import Rect
from render.draw.panels import cut_text
from sim.combat.rolls import AttackRoll

CARD_MS = 2500  # how long a card stays on the board (frame clock)

# The effect symbols as drawn on a die (rules data names them, sim/data/rules.toml).
SYMBOLS = {"damage": "+1", "accuracy": "ACC", "armor-reduction": "AR-1", "nuka": "NUKA",
           "special": "SP"}
DIE_COLOURS = {"damage": (200, 70, 60), "accuracy": (70, 140, 210),
               "armor-reduction": (220, 180, 50), "special": (150, 100, 200)}

Names = Callable[[str], str | None]


def card_lines(roll: AttackRoll, model_name: Names, weapon_name: Names
               ) -> tuple[str, tuple[str, ...]]:
    """The verdict (``HIT - 2 damage``) and the card's lines, from the record."""
    if roll.hit:
        big = f"HIT - {roll.dealt} damage" if roll.dealt else "HIT - no damage (armor)"
    else:
        big = "MISS"
    a, t = model_name(roll.attacker) or roll.attacker, model_name(roll.target) or roll.target
    who = f"{a} -> {t}"
    weapon = weapon_name(roll.weapon)
    lines = [who + (f", {weapon}" if weapon else "")]
    d20 = f"d20: {roll.skill_roll}"
    if roll.accuracy:
        d20 += f" - {roll.accuracy} accuracy = {roll.result}"
    lines.append(f"{d20} vs {roll.target_number} or less")
    for kind, face in roll.effects:
        lines.append(f"{kind} die: {', '.join(face) or 'blank'}")
    if roll.hit:
        armor = ("no armor roll" if roll.armor_roll is None else
                 f"armor roll {roll.armor_roll} vs {roll.effective_armor}")
        lines.append(f"damage {roll.damage_total}, {armor}: {roll.dealt} dealt")
    return big, tuple(lines)


def card_rect(board: Rect) -> Rect:
    """Where the card goes: the middle of the board's top half."""
    w, h = min(board.w - 20, 360), 190
    return Rect(board.x + (board.w - w) // 2, board.y + max(10, board.h // 4 - h // 2), w, h)


def draw_test_card(surface: Any, board: Rect, who: str, roll: int, target: int,
                   passed: bool) -> None:
    """The card of an AGI test for climbing (R-CLIMB-2): the d20 against A, PASS or FAIL."""
    r = card_rect(board)
    r = Rect(r.x, r.y, r.w, 150)
    shade = pygame.Surface((r.w, r.h), pygame.SRCALPHA)
    shade.fill((20, 22, 26, 230))
    surface.blit(shade, (r.x, r.y))
    pygame.draw.rect(surface, theme.PANEL_EDGE, r.as_tuple(), 2, border_radius=6)
    size, words = card_title(f"{who}: AGI test for climbing", r.w - 20)
    surface.blit(theme.text(words, size, theme.TEXT), (r.x + 10, r.y + 6))
    x, y = r.x + 10, r.y + 30
    _die(surface, pygame.Rect(x, y, 58, 58), (235, 235, 225) if passed else (120, 120, 120), [])
    img = theme.text(str(roll), 30, (10, 10, 10), bold=True)
    surface.blit(img, img.get_rect(center=(x + 29, y + 24)))
    sub = theme.text("d20", 13, (60, 60, 60))
    surface.blit(sub, sub.get_rect(center=(x + 29, y + 48)))
    surface.blit(theme.text(f"needs A {target} or less", 15, theme.TEXT), (x + 70, y + 20))
    big = "PASS - climbs" if passed else "FAIL - falls (R-CLIMB-2)"
    img = theme.text(big, 30, theme.TEXT_GOOD if passed else theme.TEXT_BAD, bold=True)
    surface.blit(img, img.get_rect(midbottom=(r.x + r.w // 2, r.bottom - 8)))


def card_title(who: str, width: int) -> tuple[int, str]:
    """The card's title inside ``width`` pixels: smaller type first, then cut with an
    ellipsis (it ran past the card's edge: issue 34, bug 3); its font size and text."""
    for size in (16, 14):
        if theme.font(size).size(who)[0] <= width:
            return size, who
    return 14, cut_text(who, 14, width)


def _die(surface: Any, box: pygame.Rect, colour: theme.Colour, words: list[str]) -> None:
    pygame.draw.rect(surface, colour, box, border_radius=6)
    pygame.draw.rect(surface, (15, 15, 15), box, 2, border_radius=6)
    words = words or ["-"]
    step = box.h // (len(words) + 1)
    for i, w in enumerate(words):
        img = theme.text(w, 16, (255, 255, 255), bold=True)
        surface.blit(img, img.get_rect(center=(box.centerx, box.y + step * (i + 1))))


def draw_dice_card(surface: Any, board: Rect, roll: AttackRoll, big: str, who: str) -> None:
    """The card over the board (see the module docstring)."""
    r = card_rect(board)
    shade = pygame.Surface((r.w, r.h), pygame.SRCALPHA)
    shade.fill((20, 22, 26, 230))
    surface.blit(shade, (r.x, r.y))
    pygame.draw.rect(surface, theme.PANEL_EDGE, r.as_tuple(), 2, border_radius=6)
    size, words = card_title(who, r.w - 20)
    surface.blit(theme.text(words, size, theme.TEXT), (r.x + 10, r.y + 6))
    x, y = r.x + 10, r.y + 30
    ok = roll.result <= roll.target_number
    _die(surface, pygame.Rect(x, y, 58, 58), (235, 235, 225) if ok else (120, 120, 120),
         [])
    img = theme.text(str(roll.skill_roll), 30, (10, 10, 10), bold=True)
    surface.blit(img, img.get_rect(center=(x + 29, y + 24)))
    sub = theme.text("d20", 13, (60, 60, 60))
    surface.blit(sub, sub.get_rect(center=(x + 29, y + 48)))
    need = f"needs {roll.target_number} or less"
    if roll.accuracy:
        need = f"-{roll.accuracy} acc. = {roll.result}, {need}"
    surface.blit(theme.text(need, 15, theme.TEXT), (x, y + 64))
    x += 70
    for kind, face in roll.effects:
        _die(surface, pygame.Rect(x, y + 4, 46, 50), DIE_COLOURS.get(kind, (90, 90, 90)),
             [SYMBOLS.get(s, s) for s in face])
        x += 52
    if roll.armor_roll is not None:
        _die(surface, pygame.Rect(x, y + 4, 46, 50), (80, 80, 90), [str(roll.armor_roll)])
        lab = theme.text(f"armor {roll.effective_armor}", 13, theme.TEXT_DIM)
        surface.blit(lab, lab.get_rect(midtop=(x + 23, y + 56)))
    colour = theme.TEXT_GOOD if roll.hit else theme.TEXT_BAD
    img = theme.text(big, 34, colour, bold=True)
    surface.blit(img, img.get_rect(midbottom=(r.x + r.w // 2, r.bottom - 8)))
