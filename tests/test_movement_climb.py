"""Climbing, falling and jumping, with scripted dice (R-CLIMB-1..5, R-JUMP-1,
R-FALL-1..4, R-MOV-5). Each scenario is a shipped file; both rule sets."""

from __future__ import annotations

import pytest

from sim.engine.gamedata import Status
from sim.game.kinds import GAME_KINDS
from sim.scenario.rules import default_rules
from tests.dice_script import ScriptedRng, ScriptExhaustedError, armor_face, effect_face, skill_face
from tests.movement_util import AGAINST_30MM, AGAINST_40MM, RULE_SETS, activated, do, why

RULES = default_rules()
R_SETTLER = 15 / 25.4


def agi(value: int) -> object:
    return skill_face(RULES, value)


def dice(*rolls: object) -> ScriptedRng:
    return ScriptedRng(rolls)  # type: ignore[arg-type]


# --- climbing up (R-CLIMB-1, R-CLIMB-2, R-CLIMB-5) -------------------------------------

def test_climb_pass_rulebook() -> None:
    """AGI 5: a 5 passes; the settler ends on the ledge's top at 1.2 in."""
    rng = dice(agi(5))
    state = activated("move-climb", "climber", rng=rng)
    do(state, "move climber climb 1.2 4.2 4.0")
    m = state.model("climber")
    assert (m.position.x, m.position.y, m.position.z) == (4.2, 4.0, 1.2)
    assert not m.climbing and rng.remaining == 0


def test_climb_pass_vts_needs_no_test() -> None:
    state = activated("move-climb", "climber", "vts-1.5", rng=dice())
    do(state, "move climber climb 1.2 4.2 4.0")
    assert state.model("climber").position.z == 1.2


@pytest.mark.parametrize("rules", RULE_SETS)
def test_climb_is_difficult_and_counts_its_height(rules: str) -> None:
    """R-CLIMB-1 and R-MOV-5: Yellow becomes Orange (2 in); 1.2 + 1.19 in is too long."""
    state = activated("move-climb", "climber", rules)
    reason = why(state, "move climber climb 1.2 4.6 4.0")
    assert reason is not None and "orange ruler (climbing) is 2 in" in reason
    assert "2.39 in" in reason


def test_climb_fail_falls_from_the_start_and_ends_the_action() -> None:
    """R-CLIMB-2: a 6 fails against AGI 5; the fall is measured from the start (the
    ground: 0 in, no damage, no more dice) and the rest of the movement is lost."""
    rng = dice(agi(6))
    state = activated("move-climb", "climber", rng=rng)
    do(state, "move climber climb 1.2 4.2 4.0")
    m = state.model("climber")
    assert m.position.xy == pytest.approx((4 - R_SETTLER, 4.0)) and m.position.z == 0.0
    assert m.health == 2 and not m.climbing
    assert state.activation is not None and state.activation.actions_left == 1
    assert "climb-failed" in [e.kind for e in state.events]


def test_part_way_climb_and_resume_rulebook() -> None:
    """R-CLIMB-3: 2 in up the 3 in cliff the settler is climbing (off the table,
    position kept); its next movement starts there with a new AGI test."""
    rng = dice(agi(3), agi(4))
    state = activated("move-climb", "cliffer", rng=rng)
    do(state, "move cliffer climb 2.0")
    m = state.model("cliffer")
    assert m.climbing and m.position.z == 2.0
    assert m.position.xy == pytest.approx((14 - R_SETTLER, 5.0))
    reason = why(state, "move cliffer 12.0 5.0")
    assert reason is not None and "climb or jump" in reason
    do(state, "move cliffer climb 3.0 14.3 5.0")
    m = state.model("cliffer")
    assert not m.climbing and (m.position.x, m.position.z) == (14.3, 3.0)
    assert rng.remaining == 0


def test_part_way_climb_then_fail_falls_from_where_it_hangs() -> None:
    """The second test fails at 2 in: a fall of 2 in (up to Orange: no damage)."""
    rng = dice(agi(3), agi(12))
    state = activated("move-climb", "cliffer", rng=rng)
    do(state, "move cliffer climb 2.0")
    do(state, "move cliffer climb 3.0 14.3 5.0")
    m = state.model("cliffer")
    assert not m.climbing and m.position.z == 0.0 and m.health == 2
    fell = [e for e in state.events if e.kind == "fell"]
    assert len(fell) == 1 and fell[0].data["distance"] == pytest.approx(2.0)


def test_vts_refuses_part_way_climbs() -> None:
    state = activated("move-climb", "cliffer", "vts-1.5")
    reason = why(state, "move cliffer climb 2.0")
    assert reason is not None and "R-CLIMB-5" in reason
    # The whole cliff is 3 + 0.89 in, more than Orange.
    whole = why(state, "move cliffer climb 3.0 14.3 5.0")
    assert whole is not None and "the orange ruler (climbing) is 2 in" in whole


@pytest.mark.parametrize("rules", RULE_SETS)
def test_unhindered_deathclaw_climbs_with_its_full_ruler(rules: str) -> None:
    """R-CLIMB-1 with R-MOV-2: climbing is difficult ground, which an unhindered
    model treats as normal, so Move Red (6 in) stays Red: 3 + 2.98 in."""
    rng = dice(agi(8)) if rules == "rulebook" else dice()
    state = activated("move-climb", "claw", rules, rng=rng)
    too_far = why(state, "move claw climb 3.0 16.1 7.5")
    assert too_far is not None and "the path is 6.08 in long; the red ruler is 6 in" in too_far
    do(state, "move claw climb 3.0 16.0 7.5")
    assert state.model("claw").position.z == 3.0 and rng.remaining == 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_climb_incapable_never_climbs(rules: str) -> None:
    state = activated("move-climb", "hound", rules)
    reason = why(state, "move hound climb 2.0")
    assert reason is not None and "climb-incapable" in reason


@pytest.mark.parametrize("rules", RULE_SETS)
def test_only_climbable_faces(rules: str) -> None:
    state = activated("move-climb", "waller", rules)
    reason = why(state, "move waller climb 2.0")
    assert reason is not None and "no climbable face" in reason


# --- the seed's fall example (R-FALL-1, R-FALL-2) ---------------------------------------

FALL = f"move survivor {AGAINST_30MM!r} 8.0 climb 3.65"


def test_seed_fall_example() -> None:
    """Above Yellow, within Red: +4; one damage symbol: 5; armor 3, roll 2: 3 damage."""
    rng = dice(agi(15), effect_face(RULES, "damage", ("damage",)), armor_face(RULES, 2))
    state = activated("seed-fall", "survivor", rng=rng)
    do(state, FALL)
    m = state.model("survivor")
    assert m.health == 4 - 3 and m.in_play
    assert m.position.z == 0.0 and not m.climbing
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["colour"] == "red" and fell.data["base"] == 4 and fell.data["dealt"] == 3
    assert rng.remaining == 0


def test_seed_fall_cannot_happen_in_vts() -> None:
    """vts-1.5: no part-way climbs, so no fall (and no dice)."""
    state = activated("seed-fall", "survivor", "vts-1.5", rng=dice())
    reason = why(state, FALL)
    assert reason is not None and "a climb must end on a surface (R-CLIMB-5)" in reason


def test_power_armor_ignores_a_fall_from_above_black() -> None:
    """R-FALL-4: 13 in, no damage, no dice, still on the table."""
    rng = dice(agi(20))
    state = activated("move-power-armor", "knight", rng=rng)
    do(state, f"move knight {AGAINST_40MM!r} 5.0 climb 11.9")
    k = state.model("knight")
    assert k.in_play and k.health == 4 and k.position.z == 0.0 and rng.remaining == 0


def test_fall_from_above_black_removes() -> None:
    rng = dice(agi(20))
    state = activated("move-power-armor", "settler", rng=rng)
    do(state, f"move settler {AGAINST_30MM!r} 13.0 climb 11.7")
    assert state.model("settler").status is Status.ELIMINATED and rng.remaining == 0


# --- jumping down (R-JUMP-1, R-FALL-3) -----------------------------------------------------

def test_jump_up_to_orange_is_harmless_and_the_move_goes_on() -> None:
    rng = dice()  # no die may be rolled
    state = activated("move-jump", "low", rng=rng)
    do(state, "move low 10.590551181102363 5.0 jump 0.0 11.5 5.0")
    m = state.model("low")
    assert (m.position.x, m.position.y, m.position.z) == (11.5, 5.0, 0.0) and m.health == 2


def test_red_jump_is_damaged_as_yellow_and_always_completes() -> None:
    """6 in (Red) counts as Yellow: +2, blank black die, armor 3 rolls 4: 2 damage.
    0.69 + 6 in is longer than the Yellow ruler, but a jump always completes."""
    rng = dice(effect_face(RULES, "damage", ()), armor_face(RULES, 4))
    state = activated("move-jump", "high", rng=rng)
    do(state, "move high 13.409448818897637 5.0 jump 0.0")
    m = state.model("high")
    assert m.health == 4 - 2 and m.position.z == 0.0
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["colour"] == "yellow" and fell.data["dealt"] == 2


def test_a_jump_does_not_stretch_the_ruler_for_what_follows() -> None:
    state = activated("move-jump", "high")
    reason = why(state, "move high 13.409448818897637 5.0 jump 0.0 12.0 5.0")
    assert reason is not None and "yellow ruler is 4 in" in reason


def test_damaged_by_a_jump_the_move_ends_where_it_lands() -> None:
    """R-FALL-3: the hound (armor 1) takes 2 from a 4.5 in jump and stops there."""
    rng = dice(effect_face(RULES, "damage", ()), armor_face(RULES, 2))
    state = activated("move-jump", "hound", rng=rng)
    do(state, "move hound 13.21259842519685 14.0 jump 0.0 12.7 14.0")
    h = state.model("hound")
    assert h.health == 1 and h.position.xy == pytest.approx((13.21259842519685, 14.0))


def test_no_jumping_in_vts() -> None:
    state = activated("move-jump", "low", "vts-1.5")
    reason = why(state, "move low 10.590551181102363 5.0 jump 0.0")
    assert reason is not None and "no jumping" in reason


def test_scripted_dice_catch_extra_rolls() -> None:
    """Guard for the tests above: a die rolled that was not scripted fails loudly."""
    state = activated("move-jump", "high", rng=dice())
    with pytest.raises(ScriptExhaustedError):
        do(state, "move high 13.409448818897637 5.0 jump 0.0")
    assert state.model("high").position.z == 6.0


def test_stopping_at_the_top_of_the_face_is_climbing() -> None:
    """At the lip (centre not on the top yet) the model is still climbing (rulebook);
    vts-1.5 refuses it: the movement must end on the surface (R-CLIMB-5)."""
    state = activated("move-climb", "climber", rng=dice(agi(1)))
    do(state, "move climber climb 1.2")
    m = state.model("climber")
    assert m.climbing and m.position.z == 1.2
    vts = activated("move-climb", "climber", "vts-1.5")
    reason = why(vts, "move climber climb 1.2")
    assert reason is not None and "cannot end part-way up a face (R-CLIMB-5)" in reason


def test_a_climbing_model_can_be_charged_from_within_orange(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-CLIMB-3: the cliffer hangs 2 in up the cliff; the deathclaw on the ground
    (2 in below, within Orange) charges into contact with its marker."""

    monkeypatch.setattr(GAME_KINDS["charge"], "after_contact", None)
    rng = dice(agi(1))
    state = activated("move-climb", "cliffer", rng=rng)
    do(state, "move cliffer climb 2.0")
    do(state, "end-activation")
    for text in ("ready claw", "option-b", "activate claw"):
        do(state, text)
    marker = state.model("cliffer").position
    reach = 15 / 25.4 + 25 / 25.4
    x = 14 - 25 / 25.4  # the claw keeps touching the cliff
    y = marker.y + (reach**2 - (x - marker.x) ** 2) ** 0.5
    assert why(state, f"charge claw cliffer {x!r} {y!r}") is None
    assert "base contact" in (why(state, f"charge claw cliffer {x!r} {y + 0.1!r}") or "")


def test_from_the_top_of_the_face_the_climb_walks_on() -> None:
    """Hanging at the lip, the next movement may step onto the top (no new test:
    no vertical movement); it still counts as climbing (Orange)."""
    rng = dice(agi(1))
    state = activated("move-climb", "climber", rng=rng)
    do(state, "move climber climb 1.2")
    do(state, "move climber 4.5 4.0")
    m = state.model("climber")
    assert not m.climbing and (m.position.x, m.position.z) == (4.5, 1.2)
    assert rng.remaining == 0


# --- a jump after a climb, and the climb offers (issue 32's surviving mutants) ----------

CLIMB_THEN_JUMP = '''format = 1
name = "Climb then jump"
rules = "rulebook"
board = [20, 12]
advantage = "a"
include = ["wasteland:units/wasteland.toml"]
[sides.a]
name = "A"
[sides.b]
name = "B"
[units.scout]
name = "Scout"
base = 30
move = "red"
charge = "green"
special = { S = 5, P = 5, E = 5, C = 5, I = 5, A = 6, L = 5 }
skills = { melee = "S" }
health = 2
armor = { physical = 1, energy = 0, radiation = 0 }
[[terrain]]
id = "block"
polygon = [[6, 2], [12, 2], [12, 10], [6, 10]]
movement = "impassable"
climbable = true
height = 2
[[terrain]]
id = "step"
polygon = [[2, 7], [6, 7], [6, 10], [2, 10]]
movement = "impassable"
climbable = true
height = 1
[[models]]
id = "scout"
unit = "scout"
side = "a"
at = [5.409448818897637, 4]
[[models]]
id = "stepper"
unit = "scout"
side = "a"
at = [5.409448818897637, 8.5]
[[models]]
id = "far"
unit = "settler"
side = "b"
at = [18, 11]
'''


@pytest.mark.parametrize(("model", "y", "z", "out", "legal"), [
    ("scout", 4.0, 0.0, 0.9, True), ("scout", 4.0, 0.0, 1.2, False),
    ("stepper", 8.5, 1.0, 1.4, True), ("stepper", 8.5, 1.0, 1.6, False)])
def test_the_climb_counts_before_a_last_jump(model: str, y: float, z: float, out: float,
                                             legal: bool) -> None:
    """R-JUMP-1: a last jump completes even past the ruler, but what comes before it must
    fit. A scout (Red, so Yellow 4 in when climbing, R-CLIMB-1) climbs the 2 in block from
    the ground or from the 1 in step beside it, walks ``out`` onto it and back to the face,
    then jumps back down to where it started. From the ground 2 + 2 x 0.9 = 3.8 in fits and
    2 + 2 x 1.2 = 4.4 does not; from the step the climb is 1 in: 1 + 2 x 1.4 = 3.8 fits,
    1 + 2 x 1.6 = 4.2 does not (the jump's own inches are never counted)."""
    from sim.scenario.format.loader import load_scenario_text

    state = activated(load_scenario_text(CLIMB_THEN_JUMP), model)
    assert state.model(model).position.z == z
    x0 = 6 - R_SETTLER  # the scout's 30 mm base against the block's west face
    reason = why(state, f"move {model} climb 2.0 {x0 + out!r} {y} {x0!r} {y} jump {z}")
    if legal:
        assert reason is None
    else:
        assert reason is not None and "yellow ruler (climbing) is 4 in" in reason


def test_a_part_way_offer_is_the_highest_tenth_the_ruler_leaves() -> None:
    """R-CLIMB-3: after 0.55 in along the cliff's face the settler's Orange ruler leaves
    1.45 in of climb: the offers are the whole inch 1 and the highest tenth, 1.4 (1.5 would
    not fit); each is a step the movement rules accept."""
    from sim.movement.plan import Step, plan_movement, vertical_offers, walk

    state = activated("move-climb", "cliffer")
    along = list(walk((AGAINST_30MM + 4, 5.55)))  # the face is x = 14: 13.409, still touching
    offers = vertical_offers(state, "cliffer", along)
    assert [(s.kind, s.z) for s in offers] == [("climb", 1.0), ("climb", 1.4)]
    for step in offers:
        assert plan_movement(state, "cliffer", [*along, step]).legal
    assert not plan_movement(state, "cliffer", [*along, Step("climb", z=1.5)]).legal


def test_a_climb_with_no_face_names_where_the_base_is() -> None:
    """R-CLIMB-1: the refusal says where the base stands when it tries, x then y."""
    state = activated("move-climb", "cliffer")
    reason = why(state, "move cliffer 12.0 2.5 climb 1.0")
    assert reason is not None and "touches the base at (12.00, 2.50)" in reason
