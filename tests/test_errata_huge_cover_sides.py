"""Issue 36, R-COV-6 (revised): a huge model gives cover to a smaller target whatever
its side, the attacker's own included, unless the target is in close combat (base
contact) with it; a target of equal or larger base gets none; an elevated shooter
counts it only within Orange of the target (R-ELEV-4). Normal models keep R-COV-5:
the attacker's own side never gives cover.

One lane: a 30 mm trooper of side ``a`` shoots east at a 30 mm trooper of side
``b``; a 70 mm behemoth stands 0.9 in south of the line of cover (inside its
1.38 in radius, so the line passes through its base), either halfway or in base
contact with the target. A sight line passes north of it (R-LOS-3 blocks only the
lines through it), so every shot here can be taken.
"""

from __future__ import annotations

import math

import pytest

from sim.cli import main
from sim.scenario.objects import Armor, ModelPlacement, Scenario, Side, Unit, Weapon
from sim.scenario.positions import Position, initial_positions
from sim.shooting.analysis import (
    FRIENDLY,
    HUGE_IN_MELEE,
    HUGE_NOT_LARGER,
    ShotAnalysis,
    analyse,
    analyse_many,
)
from sim.shooting.elevation_rules import FAR_FROM_TARGET
from sim.shooting.shot_analysis import HUGE_COVER
from tests.conftest import SCENARIOS

SPECIAL = {k: 5 for k in "SPECIAL"}
RIFLE = Weapon("rifle", "Rifle", "rifle", "red", "green", ("accuracy",), ("damage",), 2,
               "physical")
MM = 25.4
R_TROOPER, R_BEHEMOTH = 30 / MM / 2, 70 / MM / 2
SHOOTER, TARGET = (2.0, 10.5), (15.0, 10.5)
OFF_LINE = 0.9  # the behemoth's centre south of the line of cover
HALFWAY = 8.5
# x of a behemoth 0.9 in off the line whose base touches the target's (gap 0)
IN_CONTACT = TARGET[0] - math.sqrt((R_TROOPER + R_BEHEMOTH) ** 2 - OFF_LINE ** 2)
SIDES = {"a": "the attacker's own side", "b": "the target's side", "n": "a neutral side"}


def unit(uid: str, base: float) -> Unit:
    return Unit(uid, uid, base, "yellow", "red", SPECIAL, {"rifle": "P"}, 3, Armor(1, 1, 1),
                frozenset({"human"}), ("rifle",))


def lane(huge_side: str, huge_x: float, target_unit: str = "trooper",
         more: tuple[ModelPlacement, ...] = ()) -> Scenario:
    models = (ModelPlacement("shooter", "trooper", "a", SHOOTER),
              ModelPlacement("target", target_unit, "b", TARGET),
              ModelPlacement("beh", "behemoth", huge_side, (huge_x, TARGET[1] + OFF_LINE)),
              *more)
    return Scenario(
        name="huge cover", rules="rulebook", board=(30.0, 30.0),  # type: ignore[arg-type]
        sides={"a": Side("a", "A"), "b": Side("b", "B"), "n": Side("n", "N", neutral=True)},
        units={"trooper": unit("trooper", 30), "behemoth": unit("behemoth", 70),
               "colossus": unit("colossus", 90)},
        weapons={"rifle": RIFLE}, terrain=(), models=models)


def shot(s: Scenario, positions: dict[str, Position] | None = None) -> ShotAnalysis:
    pos = dict(initial_positions(s)) if positions is None else positions
    one = analyse(s, pos, "shooter", "target")
    # the window's one-against-many call gives the same answer (analyse_many)
    assert analyse_many(s, pos, "shooter", ["target"])["target"] == one
    return one


def ignored(a: ShotAnalysis) -> list[tuple[str, str]]:
    return [(i.id, i.reason) for i in a.ignored_cover]


def test_the_lane_is_as_drawn() -> None:
    """The behemoth's base is entered by the line of cover (0.9 in < 1.38 in), and at
    IN_CONTACT it touches the target's base (R-UNIT-2) without overlapping it."""
    gap = math.hypot(TARGET[0] - IN_CONTACT, OFF_LINE) - R_TROOPER - R_BEHEMOTH
    assert abs(gap) < 1e-9 and OFF_LINE < R_BEHEMOTH
    assert SHOOTER[0] + R_TROOPER + 1 < HALFWAY - R_BEHEMOTH  # nowhere near the shooter


@pytest.mark.parametrize("side", sorted(SIDES))
def test_a_huge_model_covers_a_smaller_target_whatever_its_side(side: str) -> None:
    """R-COV-6 (revised): own side (was: no cover, "friendly model"), enemy and neutral
    alike: -2 to the skill and +1 armor once (R-COV-3)."""
    a = shot(lane(side, HALFWAY))
    assert a.line_of_sight
    assert a.cover == ("beh",) and a.cover_reasons == (HUGE_COVER,)
    assert (a.skill_modifier, a.armor_bonus) == (-2, 1)
    assert ignored(a) == []


@pytest.mark.parametrize("side", ["a", "n"])
def test_a_huge_model_in_close_combat_with_the_target_gives_it_no_cover(side: str) -> None:
    """R-COV-6: the target in base contact with a huge model not of its side (the
    attacker's own fighting it, or a neutral one) gets no cover from it."""
    a = shot(lane(side, IN_CONTACT))
    assert a.line_of_sight
    assert a.cover == () and (a.skill_modifier, a.armor_bonus) == (0, 0)
    assert ignored(a) == [("beh", HUGE_IN_MELEE)]


def test_a_huge_friend_in_base_contact_with_the_target_still_covers_it() -> None:
    """R-COV-6: a huge model of the target's own side touching it is not in close
    combat with it (close combat is between enemies), so it still gives cover."""
    a = shot(lane("b", IN_CONTACT))
    assert a.cover == ("beh",) and a.skill_modifier == -2 and ignored(a) == []


@pytest.mark.parametrize("side", sorted(SIDES))
@pytest.mark.parametrize("target_unit", ["behemoth", "colossus"])
def test_a_target_of_equal_or_larger_base_gets_no_cover(side: str, target_unit: str) -> None:
    """R-COV-6: a 70 mm or a 90 mm target behind the 70 mm behemoth gets no cover from
    it, whatever the behemoth's side; the line of cover still passes through it."""
    a = shot(lane(side, HALFWAY, target_unit))
    assert a.cover == () and a.skill_modifier == 0
    assert ignored(a) == [("beh", HUGE_NOT_LARGER)]


def test_normal_models_of_the_attackers_side_still_give_no_cover() -> None:
    """R-COV-5 is unchanged: a 30 mm friend of the shooter on the line is no cover, a
    30 mm neutral is."""
    pal = ModelPlacement("pal", "trooper", "a", (5.0, 10.5))
    by = ModelPlacement("by", "trooper", "n", (12.0, 10.5))
    a = shot(lane("b", 20.0, more=(pal, by)))  # the behemoth off the line
    assert a.cover == ("by",) and ignored(a) == [("pal", FRIENDLY)]


@pytest.mark.parametrize("side", ["a", "n"])
def test_an_elevated_shooter_counts_a_huge_model_only_within_orange_of_the_target(
        side: str) -> None:
    """R-ELEV-4 applies to a huge model as to any cover: the shooter 3 in up (elevated,
    R-ELEV-1); the behemoth halfway (far from the target) is ignored, the behemoth
    0.69 in from the target's base (within Orange) counts."""
    up = {"shooter": Position(*SHOOTER, 3.0), "target": Position(*TARGET, 0.0)}
    far_s = lane(side, HALFWAY)
    far = shot(far_s, {**up, "beh": Position(HALFWAY, TARGET[1] + OFF_LINE, 0.0)})
    assert far.elevated.attacker
    assert far.cover == () and [i for i, _ in ignored(far)] == ["beh"]
    assert ignored(far)[0][1] == FAR_FROM_TARGET and "R-ELEV-4" in FAR_FROM_TARGET
    near_x = 12.5
    gap = math.hypot(TARGET[0] - near_x, OFF_LINE) - R_TROOPER - R_BEHEMOTH
    orange = far_s.rules_data.orange
    assert 0.01 < gap < orange  # near, but not in base contact
    near = shot(lane(side, near_x), {**up, "beh": Position(near_x, TARGET[1] + OFF_LINE, 0.0)})
    assert near.cover == ("beh",) and near.skill_modifier == -2


def test_wasteland_los_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped lanes (``scenarios/errata-huge-cover-own-side.toml``): the CLI gives
    the same words as the analysis, for the own-side brute in the middle and the one
    in base contact with the raider."""
    path = str(SCENARIOS / "errata-huge-cover-own-side.toml")
    assert main(["los", path, "settler-1", "raider-1"]) == 0
    out = capsys.readouterr().out
    assert "cover: brute-1 (skill -2, armor +1, rulebook)" in out
    assert f"counts: brute-1: {HUGE_COVER}" in out
    assert main(["los", path, "settler-2", "raider-2"]) == 0
    out = capsys.readouterr().out
    assert "no cover" in out and f"ignored: brute-2: {HUGE_IN_MELEE}" in out
