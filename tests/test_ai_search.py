"""The search player's look-ahead parts (issue 18, docs/ai.md): the leaf evaluation
of both sides' threats (sim.ai.leaf) and the charges it weighs.

Small boards of our own: a Behemoth (close combat only, the green charge ruler:
8 in, R-RULER-1) and Settlers (a pipe pistol, 30 mm bases).
"""

from __future__ import annotations

from pathlib import Path

from sim.ai.greedy import weigh
from sim.ai.leaf import firepower
from sim.ai.registry import make_player
from sim.ai.scoring import APPROACH as GREEDY_APPROACH
from sim.ai.scoring import Scorer, situation_with
from sim.ai.search import PLAYOUTS, SAFE, SHORTLIST, SearchPlayer, Weights, late_weights
from sim.combat.situation import Situation
from sim.engine.actions import Action, ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.movement.kinds import Charge, Move
from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import Position

BEHEMOTH_RADIUS = 80 / 25.4 / 2
SETTLER_RADIUS = 30 / 25.4 / 2


def _board(tmp_path: Path, settlers: list[tuple[float, float]], behemoth: tuple[float, float],
           terrain: str = "") -> GameState:
    models = "".join(
        f'[[models]]\nid = "settler-{k}"\nunit = "settler"\nside = "settlers"\nat = [{x}, {y}]\n'
        for k, (x, y) in enumerate(settlers))
    text = (
        'format = 1\nname = "Search test"\nrules = "rulebook"\nboard = [30, 30]\nrounds = 6\n'
        'include = ["wasteland:units/wasteland.toml"]\n'
        '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n'
        f'{terrain}{models}'
        f'[[models]]\nid = "behemoth"\nunit = "behemoth"\nside = "mutants"\n'
        f'at = [{behemoth[0]}, {behemoth[1]}]\n')
    path = tmp_path / "search-test.toml"
    path.write_text(text, encoding="utf-8")
    return new_game(load_scenario(path), seed=3)


def test_a_melee_model_threatens_an_enemy_within_its_charge_ruler_only(tmp_path: Path) -> None:
    """Greedy's spot counts close combat only in base contact; the leaf counts the
    charge a model could make (the Behemoth has no gun: its threat is its charge)."""
    gap = 6.0  # between the bases: within the green ruler (8 in)
    near = _board(tmp_path, [(5, 5)], (5, 5 + SETTLER_RADIUS + BEHEMOTH_RADIUS + gap))
    assert firepower(near, Scorer(), "mutants") > 0.0
    gap = 9.0  # beyond it
    far = _board(tmp_path, [(5, 5)], (5, 5 + SETTLER_RADIUS + BEHEMOTH_RADIUS + gap))
    assert firepower(far, Scorer(), "mutants") == 0.0
    assert firepower(far, Scorer(), "settlers") > 0.0  # the pistol still reaches (12 in)


def test_greedy_and_search_charge_across_difficult_ground(tmp_path: Path) -> None:
    """R-MOV-1: a charge may cross difficult ground on the shorter ruler (red, 6 in
    for the green charge). A low wall lies between the Behemoth and a Settler 3 in
    away; the charge over it is the Behemoth's best action (a 2-health target). (The
    sampled charges avoid difficult ground: the kinds' straight charges find it.)"""
    wall = ('[[terrain]]\nid = "low-wall"\npolygon = [[2, 9.3], [12, 9.3], [12, 9.7], [2, 9.7]]\n'
            'movement = "difficult"\ncover = true\nheight = 1\n')
    y = 9.5 + 1.5 + BEHEMOTH_RADIUS
    state = _board(tmp_path, [(7, 9.5 - 1.5 - SETTLER_RADIUS), (28, 2)], (7, y), wall)
    greedy = make_player("greedy", 1)
    while state.phase is not Phase.ACTIVATION:  # the Mutants, fewer, take the first turn
        state.apply(greedy.decide(state).action)
    assert state.activation is not None and state.activation.model == "behemoth"
    for player in ("greedy", "search"):
        decision = make_player(player, 1).decide(state)
        assert isinstance(decision.action, Charge), f"{player}: {decision.why}"
        assert decision.action.target == "settler-0"


def _hound_board(tmp_path: Path, hound_y: float = 27,
                 block: str = "[[10, 18], [14, 18], [14, 21], [10, 21]]") -> GameState:
    """A Mutant Hound to act (readied by hand), a Super Mutant that Rifleman A shoots
    first (the closer, better shot: greedy readies A), and Rifleman B far up the
    board, whose long shot reaches the open ground in front of the hound. A building
    to the hound's left hides it from both."""
    def model(i: str, unit: str, side: str, x: float, y: float) -> str:
        return f'[[models]]\nid = "{i}"\nunit = "{unit}"\nside = "{side}"\nat = [{x}, {y}]\n'

    text = (
        'format = 1\nname = "Search test"\nrules = "rulebook"\nboard = [30, 30]\nrounds = 6\n'
        'include = ["wasteland:units/wasteland.toml"]\n'
        '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n'
        f'[[terrain]]\nid = "block"\npolygon = {block}\n'
        'movement = "impassable"\nblocks_los = true\ncover = true\nheight = 3\n'
        + model("rifle-a", "settler_rifle", "settlers", 28, 6)
        + model("rifle-b", "settler_rifle", "settlers", 15, 6)
        + model("hound", "mutant_hound", "mutants", 15, hound_y)
        + model("decoy", "super_mutant", "mutants", 27, 13))
    path = tmp_path / "hound-test.toml"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_scenario(path), seed=3)
    greedy = make_player("greedy", 1)
    while state.phase is not Phase.ACTIVATION:
        action = greedy.decide(state).action
        if state.acting == "mutants" and isinstance(action, ReadyModel):
            action = ReadyModel("hound")
        state.apply(action)
    return state


def test_search_keeps_a_hound_out_of_the_second_replys_sight(tmp_path: Path) -> None:
    """The opponent's first reply (Rifleman A, on the Super Mutant) does not touch the
    hound; its second (Rifleman B, R-LOS-1 sight and the black long band) would shoot
    it on the open ground ahead. Greedy, and a search that plays out one reply, walk
    it there (the nearer the enemy the better); the search playing out the round's
    next replies keeps it behind the building, out of both riflemen's sight."""
    state = _hound_board(tmp_path)
    assert state.activation is not None and state.activation.model == "hound"
    sit = Situation.of_state(state)
    for player in ("greedy", "search"):
        decision = make_player(player, 1).decide(state)
        assert isinstance(decision.action, Move), decision.why
        end = decision.action.steps[-1]
        at = situation_with(state, "hound", Position(end.x, end.y, 0.0))
        seen = [r for r in ("rifle-a", "rifle-b")
                if Scorer().best_shot(at, r, "hound") is not None]
        if player == "greedy":
            assert seen == ["rifle-b"], decision.why  # the trap is there
        else:
            assert seen == [], decision.why
    assert sit.positions["hound"] == state.model("hound").position  # state untouched


def test_a_level_side_plays_for_the_win_in_the_last_round(tmp_path: Path) -> None:
    """R-TURN-10: after the last round a level score is a draw, no win. Level in the
    last round, search weighs the opponent's answer less and its own attacks more,
    as a side behind does (ahead, it is the other way round); before it, as given."""
    state = _board(tmp_path, [(5, 5)], (20, 20))
    w = Weights(answer=1.0, counter=0.3, danger=0.3, gain=1.0)
    assert late_weights(state, w) == w  # round 1 of 6
    last = new_game(state.scenario, seed=3, rounds=1)
    level = late_weights(last, w)
    assert level.answer < w.answer and level.danger < w.danger
    assert level.counter > w.counter and level.gain > w.gain


def test_a_spent_time_budget_tries_no_further_choice(tmp_path: Path) -> None:
    """The window's time budget caps a decision: once spent, no further candidate is
    tried ahead and the best of those tried is chosen. With no time at all that is
    the first of the shortlist only; with a playout budget alone, all of it (greedy's
    six best and the two places least in the enemies' reach)."""
    state = _hound_board(tmp_path)
    timed = SearchPlayer(1, seconds=0.0).decide(state)
    assert "1 choice tried ahead" in timed.why and " against " not in timed.why
    full = SearchPlayer(1).decide(state)
    assert f"{SHORTLIST + SAFE} choices tried ahead" in full.why
    assert state.is_legal(timed.action)


def test_search_weighs_hanging_back(tmp_path: Path) -> None:
    """Greedy's pull toward the enemy ranks every step forward above staying put, so
    its six best are all walks into the open (at greedy's pull). The hound stands
    in front of a building, where only Rifleman B's long band reaches it; search
    also tries the places least in the enemies' reach (:data:`SAFE`): places fewer
    riflemen reach than greedy's best, and none reached by more than any of its six,
    are weighed ahead too."""
    state = _hound_board(tmp_path, hound_y=21, block="[[12, 23.5], [18, 23.5], [18, 25], [12, 25]]")
    assert state.activation is not None and state.activation.model == "hound"

    def reached_by(decision_action: object) -> list[str]:
        at = state.model("hound").position
        if isinstance(decision_action, Move):
            end = decision_action.steps[-1]
            at = Position(end.x, end.y, 0.0)
        sit = situation_with(state, "hound", at)
        return [r for r in ("rifle-a", "rifle-b") if Scorer().best_shot(sit, r, "hound")]

    for player in (SearchPlayer(1, approach=GREEDY_APPROACH), SearchPlayer(1)):
        options = weigh(state, player.scorer, player.reaches)
        short = player._shortlist(state, options)
        assert len(short) == SHORTLIST + SAFE
        best = [len(reached_by(w.decision.action)) for w in short[:SHORTLIST]]
        safe = [len(reached_by(w.decision.action)) for w in short[SHORTLIST:]]
        assert max(safe) < best[0] and min(safe) <= min(best), (best, safe)
    assert "8 choices tried ahead" in make_player("search", 1).decide(state).why


def test_search_does_not_trade_cover_for_a_few_inches(tmp_path: Path) -> None:
    """Greedy's pull toward the enemy (0.03 a inch, sim.ai.scoring.APPROACH) is a
    guess at what closing in buys; the playouts measure that (the attacks that
    follow, the threats left after the answer), so search keeps only a
    tie-breaker of it (sim.ai.search.APPROACH). The hound 23 in down the board, greedy's
    six best tried ahead: at greedy's pull the look-ahead still walks it into both
    riflemen's sight (R-LOS-1), at search's own it keeps it where neither sees it."""
    state = _hound_board(tmp_path, hound_y=23)

    def seen_by(decision_action: object) -> list[str]:
        at = state.model("hound").position
        if isinstance(decision_action, Move):
            end = decision_action.steps[-1]
            at = Position(end.x, end.y, 0.0)
        sit = situation_with(state, "hound", at)
        return [r for r in ("rifle-a", "rifle-b") if Scorer().best_shot(sit, r, "hound")]

    pulled = SearchPlayer(1, approach=GREEDY_APPROACH, safe=0).decide(state)
    assert seen_by(pulled.action) == ["rifle-a", "rifle-b"], pulled.why
    kept = SearchPlayer(1, safe=0).decide(state)
    assert isinstance(kept.action, Move) and seen_by(kept.action) == [], kept.why
    assert seen_by(make_player("search", 1).decide(state).action) == []


def test_a_spent_time_budget_caps_the_choice_of_model_too() -> None:
    """The window's budget caps the turn choice as well: with no time only greedy's
    most urgent model is tried (and readied), and the reason says so; with a playout
    budget alone every Unready model is tried."""
    from tests.conftest import SCENARIOS

    state = new_game(load_scenario(SCENARIOS / "skirmish.toml"), seed=5)
    greedy = make_player("greedy", 1)
    while state.phase is not Phase.READY:
        state.apply(greedy.decide(state).action)
    unready = [a for a in state.legal_actions() if isinstance(a, ReadyModel)]
    assert len(unready) == 6
    timed = SearchPlayer(1, seconds=0.0).decide(state)
    assert f"1 of {len(unready)} models tried (time)" in timed.why
    assert timed.action == greedy.decide(state).action  # greedy's most urgent model
    full = SearchPlayer(1).decide(state)
    assert "models tried (time)" not in full.why and isinstance(full.action, ReadyModel)


def test_a_move_is_played_out_on_every_seed(tmp_path: Path) -> None:
    """A move rolls no dice itself, but the replies after it roll theirs (who is
    hit and removed decides what follows): search weighs it by the mean over the
    same PLAYOUTS seeds every candidate gets, not by one sample of that luck."""
    played: list[tuple[str, int]] = []

    class Recording(SearchPlayer):
        def _playout(self, state: GameState, action: Action, seed: int, weights: Weights,
                     target: str | None = None) -> tuple[float, bool]:
            played.append((repr(action), seed))
            return super()._playout(state, action, seed, weights, target)

    state = _hound_board(tmp_path)
    decision = Recording(1).decide(state)
    assert f"{SHORTLIST + SAFE} choices tried ahead" in decision.why
    seeds: dict[str, list[int]] = {}
    for action, seed in played:
        seeds.setdefault(action, []).append(seed)
    assert len(seeds) == SHORTLIST + SAFE  # every candidate is a move or a stay here
    runs = list(seeds.values())
    assert all(r == runs[0] for r in runs) and len(runs[0]) == PLAYOUTS
    assert len(set(runs[0])) == PLAYOUTS
