"""The search player in the scenario's last round (sim.ai.last_round, docs/ai.md).

The game is won on models removed and ends with the last round (R-TURN-10), so
there the chance to eliminate is what an attack is worth, damage short of it
only while a later attack of the same side can still finish the target.

The board: a Knight (Laser Rifle) and a Settler far away against a Super Mutant
wounded to 2 health behind a low wall (R-COV-2) and an unhurt Mutant Hound in the
open. The turns are played by hand so that, when the Knight has one action left,
every other model is Used: no one can answer, and no later attack can follow.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sim.ai.greedy import weigh
from sim.ai.last_round import action_score, follow_up, for_the_score, is_last_round
from sim.ai.registry import make_player
from sim.ai.scoring import Scorer
from sim.ai.search import SearchPlayer
from sim.combat.plan import Shoot
from sim.combat.situation import Situation
from sim.engine.actions import (
    Action,
    Activate,
    ChooseFirst,
    EndActivation,
    OptionA,
    OptionB,
    ReadyModel,
)
from sim.engine.state import GameState, StateWriter
from sim.game.kinds import new_game
from sim.movement.kinds import Move
from sim.movement.plan import walk
from sim.scenario.format.loader import load_scenario

WALL = ('[[terrain]]\nid = "low-wall"\npolygon = [[11.5, 8], [11.9, 8], [11.9, 12], [11.5, 12]]\n'
        'movement = "difficult"\ncover = true\nheight = 1\n')


def _model(i: str, unit: str, side: str, x: float, y: float) -> str:
    return f'[[models]]\nid = "{i}"\nunit = "{unit}"\nside = "{side}"\nat = [{x}, {y}]\n'


def _board(tmp_path: Path, rounds: int) -> GameState:
    text = (f'format = 1\nname = "Last round"\nrules = "rulebook"\nboard = [30, 30]\n'
            f'rounds = {rounds}\ninclude = ["wasteland:units/wasteland.toml"]\n'
            '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n' + WALL
            + _model("knight", "knight", "settlers", 5, 15)
            + _model("spare", "settler", "settlers", 28, 28)
            + _model("wounded", "super_mutant", "mutants", 13, 10)
            + _model("fresh", "mutant_hound", "mutants", 13, 20))
    path = tmp_path / "last-round.toml"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_scenario(path), seed=3)
    StateWriter(state).set_model(replace(state.model("wounded"), health=2))
    return state


#: Round 1's turns up to the Knight's last action (seed 3 gives the Mutants the
#: advantage): the Mutants hold a Ready model (option A), the Settler acts, the
#: Mutants act with both, the Knight steps once.
SCRIPT: tuple[Action, ...] = (
    ChooseFirst("mutants"), ReadyModel("wounded"), OptionA(),
    ReadyModel("spare"), OptionB(), Activate("spare"), EndActivation(),
    ReadyModel("fresh"), Activate("wounded"), EndActivation(), Activate("fresh"),
    EndActivation(), ReadyModel("knight"), Activate("knight"),
    Move("knight", walk((5, 15.2))),
)


def _knights_last_action(tmp_path: Path, rounds: int = 1) -> GameState:
    state = _board(tmp_path, rounds)
    for action in SCRIPT:
        state.apply(action)
    assert state.activation is not None and state.activation.model == "knight"
    assert state.activation.actions_left == 1
    return state


def _shot_at(action: Action) -> str | None:
    return action.target if isinstance(action, Shoot) else None


def test_the_premise_more_damage_on_the_hound_a_better_chance_to_kill_the_mutant(
        tmp_path: Path) -> None:
    """By the exact odds the Hound takes more of its health (the better value
    before the last round) and the wounded Mutant in cover is likelier to go."""
    state = _knights_last_action(tmp_path)
    sit, scorer = Situation.of_state(state), Scorer()
    wounded = scorer.best_shot(sit, "knight", "wounded")
    fresh = scorer.best_shot(sit, "knight", "fresh")
    assert wounded is not None and fresh is not None
    assert wounded.cover < 0 and fresh.cover == 0
    assert wounded.p_kill > fresh.p_kill
    assert fresh.value > wounded.value


def test_the_last_attack_of_the_game_goes_for_the_kill(tmp_path: Path) -> None:
    """R-TURN-10: with the game's last action, damage that does not eliminate
    changes nothing. Greedy shoots the Hound (more damage); search shoots the
    wounded Mutant (the better chance to score)."""
    state = _knights_last_action(tmp_path)
    assert is_last_round(state)
    assert _shot_at(make_player("greedy", 1).decide(state).action) == "fresh"
    decision = make_player("search", 1).decide(state)
    assert _shot_at(decision.action) == "wounded", decision.why


def test_before_the_last_round_the_place_and_the_damage_count(tmp_path: Path) -> None:
    """The same position in round 1 of 2: another round follows, so where the Knight
    stands and the damage it deals still count, and search does not take the long
    shot at the wounded Mutant for its chance to eliminate alone."""
    state = _knights_last_action(tmp_path, rounds=2)
    assert not is_last_round(state)
    decision = make_player("search", 1).decide(state)
    assert _shot_at(decision.action) != "wounded", decision.why


def test_damage_counts_while_a_later_attack_of_the_side_may_follow(tmp_path: Path) -> None:
    """A follow-up: the attacker's own later action, or a model of its side not yet
    Used this round (R-TURN-6)."""
    state = _board(tmp_path, rounds=1)
    for action in SCRIPT[:4]:  # the Settler readied, not yet activated
        state.apply(action)
    assert follow_up(state, "knight", 0)
    done = _knights_last_action(tmp_path)
    assert not follow_up(done, "knight", 0)
    assert follow_up(done, "knight", 1)


def test_the_last_action_is_worth_its_chance_to_eliminate_and_nothing_else(
        tmp_path: Path) -> None:
    """Weighed for the score, a shot with no follow-up is its chance to eliminate,
    and a stay or a move with no action left is worth nothing: greedy's pull toward
    the enemy and its attack next turn mean nothing after the last round."""
    state = _knights_last_action(tmp_path)
    scorer = Scorer()
    sit = Situation.of_state(state)
    options = weigh(state, scorer)
    for w in options:
        a = w.decision.action
        score = action_score(state, scorer, a)
        if isinstance(a, Shoot):
            shot = scorer.best_shot(sit, "knight", a.target)
            assert shot is not None and a.band == shot.band
            assert score == pytest.approx(shot.p_kill)
        elif isinstance(a, Move | EndActivation):
            assert score == 0.0
    assert any(isinstance(w.decision.action, Move) and w.score != 0.0 for w in options)


def test_every_attack_is_weighed_ahead_in_the_last_round(tmp_path: Path) -> None:
    """A move's charge threat (the shortlist's bonus for a melee model's next charge)
    means nothing with no action left in the last round: it must not push an attack
    out of the moves tried ahead."""
    state = _knights_last_action(tmp_path)
    player = SearchPlayer(1)
    options = for_the_score(state, player.scorer, weigh(state, player.scorer, player.reaches))
    short = player._shortlist(state, options)
    assert {_shot_at(w.decision.action) for w in short} >= {"wounded", "fresh"}


def test_in_the_last_round_a_move_into_charge_reach_is_worth_the_charge(
        tmp_path: Path) -> None:
    """A Mutant Hound (red move 6 in, blue charge 10 in, R-RULER-1) 14 in from a
    Settler, the last round: no shot, so a walk scores nothing but the charge it
    sets up for its second action (R-TURN-7). Weighed for the score, a walk into
    charge reach is worth that charge's chance to eliminate (times 0.9, as greedy
    counts an attack after a move), and search walks in rather than stand idle
    out of everyone's reach."""
    gap = 14.0
    hound_r, settler_r = 40 / 25.4 / 2, 30 / 25.4 / 2
    text = ('format = 1\nname = "Last charge"\nrules = "rulebook"\nboard = [30, 30]\n'
            'rounds = 1\ninclude = ["wasteland:units/wasteland.toml"]\n'
            '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n'
            + _model("target", "settler", "settlers", 15, 4)
            + _model("spare", "settler", "settlers", 2, 2)
            + _model("hound", "mutant_hound", "mutants", 15, 4 + settler_r + hound_r + gap))
    path = tmp_path / "last-charge.toml"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_scenario(path), seed=3)
    for action in (ChooseFirst("mutants"), ReadyModel("hound"), Activate("hound")):
        state.apply(action)
    assert state.activation is not None and state.activation.model == "hound"
    scorer = Scorer()
    ruler = state.rules.ruler(state.scenario.unit_of("hound").charge)

    def gap_after(a: Action) -> float:
        end = a.steps[-1] if isinstance(a, Move) else state.model("hound").position
        target = state.model("target").position
        return float(((end.x - target.x) ** 2 + (end.y - target.y) ** 2) ** 0.5
                     - hound_r - settler_r)

    moves = [w.decision.action for w in weigh(state, scorer)
             if isinstance(w.decision.action, Move)]
    into = [a for a in moves if gap_after(a) <= ruler - 0.1]
    assert into, "some walk ends within charge reach"
    charge = scorer.melee(Situation.of_state(state), "hound", "target")
    assert charge is not None and charge.p_kill > 0.0
    for a in into:
        assert action_score(state, scorer, a) == pytest.approx(0.9 * charge.p_kill)
    decision = make_player("search", 1).decide(state)
    assert isinstance(decision.action, Move), decision.why
    assert gap_after(decision.action) <= ruler, decision.why


def test_in_the_last_round_the_model_readied_first_is_the_one_likeliest_to_score(
        tmp_path: Path) -> None:
    """The turn choice weighs each model's first action as its activation will: in
    the last round for the score alone (R-TURN-10). A Super Mutant with a shot at
    a Knight (4 health, armour 3: damage, no chance to eliminate) and a Mutant Hound
    that can walk into charge reach of a Settler: greedy's place terms favour the
    shot, the score the hound's charge (its chance to eliminate), so search readies
    the hound first (R-TURN-4), before the Settlers can act."""
    hound_r, settler_r = 40 / 25.4 / 2, 30 / 25.4 / 2
    text = ('format = 1\nname = "Last choice"\nrules = "rulebook"\nboard = [30, 30]\n'
            'rounds = 1\ninclude = ["wasteland:units/wasteland.toml"]\n'
            '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n'
            + _model("target", "settler", "settlers", 15, 4)
            + _model("far", "knight", "settlers", 2, 28)
            + _model("spare", "settler", "settlers", 28, 2)
            + _model("hound", "mutant_hound", "mutants", 15, 4 + settler_r + hound_r + 14)
            + _model("gunner", "super_mutant", "mutants", 2, 17))
    path = tmp_path / "last-choice.toml"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_scenario(path), seed=3)
    state.apply(ChooseFirst("mutants"))
    assert weigh(state, Scorer())[0].decision.action == ReadyModel("gunner")  # greedy's pick
    decision = make_player("search", 1).decide(state)
    assert decision.action == ReadyModel("hound"), decision.why
