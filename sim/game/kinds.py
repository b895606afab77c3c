"""The game's action kinds, built and wired in this one place.

Listing order (what ``legal_actions`` lists first, and so what a seeded
random playout picks) is the order below: move, charge, leave, shoot,
close-combat. A charge that reaches its target ends with the close-combat
attack, declared here rather than registered by an import.
``GAME_KINDS`` is read at call time, so a test may swap the whole registry.

>>> list(GAME_KINDS)
['move', 'charge', 'leave', 'shoot', 'close-combat']
>>> str(parse_action("move settler-1 10.5 3.0"))
'move settler-1 10.5 3.0'
"""

from __future__ import annotations

from sim.combat.plan import CloseCombatKind, ShootKind, charge_attack
from sim.engine.actions import Action
from sim.engine.kinds import KindRegistry
from sim.engine.rng import GameRng
from sim.engine.state import GameState
from sim.movement.kinds import ChargeKind, LeaveKind, MoveKind
from sim.scenario.objects import Scenario

GAME_KINDS = KindRegistry((MoveKind(), ChargeKind(after_contact=charge_attack), LeaveKind(),
                           ShootKind(), CloseCombatKind()))


def game_kinds() -> KindRegistry:
    """The registry games use now (``GAME_KINDS``, read at call time)."""
    return GAME_KINDS


def new_game(scenario: Scenario, seed: int | None = None, *, rounds: int | None = None,
             rng: GameRng | None = None, kinds: KindRegistry | None = None) -> GameState:
    """A game of ``scenario`` with the game's kinds (or ``kinds``); see GameState."""
    return GameState(scenario, seed, rounds=rounds, rng=rng,
                     kinds=game_kinds() if kinds is None else kinds)


def parse_action(text: str, kinds: KindRegistry | None = None) -> Action:
    """Read an action from its text form (the inverse of ``str(action)``).

    Raises :class:`~sim.errors.IllegalActionError` naming the text and the
    expected form when the text is not an action.
    """
    return (game_kinds() if kinds is None else kinds).parse(text)
