"""The rules glue for sight, cover and range (sim.shooting.analysis): which pieces block,
which objects are cover, huge models, overrides, rule sets, and caching."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from pathlib import Path

import pytest

from sim.errors import UsageError
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import (
    Armor,
    ModelPlacement,
    Scenario,
    Side,
    TerrainPiece,
    TerrainProps,
    Unit,
    Weapon,
)
from sim.scenario.positions import Position, initial_positions
from sim.scenario.rules import default_rules
from sim.shooting.analysis import (
    FRIENDLY,
    HUGE_IN_MELEE,
    PreparedBoard,
    analyse,
    analyse_many,
    prepared_board,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SPECIAL = {k: 5 for k in "SPECIAL"}


def unit(uid: str, base: float) -> Unit:
    return Unit(uid, uid, base, "yellow", "red", SPECIAL, {"rifle": "P"}, 3, Armor(1, 1, 1),
                frozenset({"human"} if base < 60 else {"creature"}), ("rifle",))


RIFLE = Weapon("rifle", "Rifle", "rifle", "red", "green", ("accuracy",), ("damage",), 2,
               "physical")


def scenario(models: list[ModelPlacement], terrain: tuple[TerrainPiece, ...] = (),
             rules: str = "rulebook") -> Scenario:
    return Scenario(
        name="test", rules=rules, board=(30.0, 30.0),  # type: ignore[arg-type]
        sides={"a": Side("a", "A"), "b": Side("b", "B"), "n": Side("n", "N", neutral=True)},
        units={"trooper": unit("trooper", 30), "brute": unit("brute", 40),
               "behemoth": unit("behemoth", 70)},
        weapons={"rifle": RIFLE}, terrain=terrain, models=tuple(models))


def m(mid: str, u: str, side: str, x: float, y: float) -> ModelPlacement:
    return ModelPlacement(mid, u, side, (x, y))


WALL = TerrainPiece("wall", TerrainProps(movement="impassable", blocks_los=True, cover=True,
                                         height=3), polygon=((9, 5), (10, 5), (10, 15), (9, 15)),
                    overrides={"huge": {"blocks_los": False}})


def test_piece_blocks_only_when_it_blocks_for_both_models() -> None:
    """R-TER-2, R-LOS-1: a huge model sees over the wall (override), and is seen over it;
    the wall is then cover (R-COV-2)."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("beh", "behemoth", "b", 15, 20.5)], (WALL,))
    pos = initial_positions(s)
    small = analyse(s, pos, "t1", "t2")
    assert not small.line_of_sight and small.sight.blocked_by == ("wall",)
    s2 = replace(s, models=(m("t1", "trooper", "a", 5, 10), m("beh", "behemoth", "b", 15, 10)))
    big = analyse(s2, initial_positions(s2), "t1", "beh")
    assert big.line_of_sight and big.cover == ("wall",)
    back = analyse(s2, initial_positions(s2), "beh", "t1")
    assert back.line_of_sight and back.cover == ("wall",)


def test_huge_base_blocks_when_larger_than_either_base() -> None:
    """R-LOS-3 (revised): a huge base blocks when it is larger than the base of at least
    one of the two models; it is also cover for a smaller target (R-COV-6)."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("beh", "behemoth", "n", 10, 10)])
    shot = analyse(s, initial_positions(s), "t1", "t2")
    assert not shot.line_of_sight and shot.sight.blocked_by == ("beh",)
    assert shot.cover == ("beh",)
    # A trooper and a behemoth: the middle behemoth (70 mm) is larger than the
    # trooper's base (30 mm), so it blocks, either way (was: only when larger than both).
    s3 = replace(s, models=(m("t1", "trooper", "a", 5, 10), m("b2", "behemoth", "b", 17, 10),
                            m("beh", "behemoth", "n", 10, 10)))
    for a, t in (("t1", "b2"), ("b2", "t1")):
        small_big = analyse(s3, initial_positions(s3), a, t)
        assert not small_big.line_of_sight and small_big.sight.blocked_by == ("beh",)
        assert [r.id for r in small_big.sight_reasons] == ["beh"]
        assert "R-LOS-3" in small_big.sight_reasons[0].reason
    # Two behemoths: the middle one is not larger than either; it does not block.
    s2 = replace(s, models=(m("b1", "behemoth", "a", 3, 10), m("b2", "behemoth", "b", 17, 10),
                            m("beh", "behemoth", "n", 10, 10)))
    assert analyse(s2, initial_positions(s2), "b1", "b2").line_of_sight


def test_normal_models_never_block_sight() -> None:
    """R-LOS-2: an enemy brute between two troopers gives cover, never blocks."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("brute", "brute", "b", 10, 10)])
    shot = analyse(s, initial_positions(s), "t1", "t2")
    assert shot.line_of_sight and shot.cover == ("brute",)


def test_huge_model_in_melee_with_target_gives_no_cover() -> None:
    """R-COV-6: the target in base contact with the huge model gets no cover from it."""
    r_t, r_h = 30 / 25.4 / 2, 70 / 25.4 / 2
    hx = 15 - ((r_t + r_h) ** 2 - 0.3**2) ** 0.5  # touching the target's base, on the LoC
    s = scenario([m("t1", "trooper", "a", 2, 10.5), m("t2", "trooper", "b", 15, 10.5),
                  m("beh", "behemoth", "n", hx, 10.8)])
    shot = analyse(s, initial_positions(s), "t1", "t2")
    assert ("beh", HUGE_IN_MELEE) in [(i.id, i.reason) for i in shot.ignored_cover]
    assert "beh" not in shot.cover


def test_a_huge_friend_of_the_target_touching_it_still_gives_cover() -> None:
    """R-COV-6: only close combat (an enemy in base contact) takes a huge model's cover
    away; a huge model beside a friend of its own side is not in close combat."""
    r_t, r_h = 30 / 25.4 / 2, 70 / 25.4 / 2
    hx = 15 - ((r_t + r_h) ** 2 - 0.3**2) ** 0.5
    s = scenario([m("t1", "trooper", "a", 2, 10.5), m("t2", "trooper", "b", 15, 10.5),
                  m("beh", "behemoth", "b", hx, 10.8)])
    shot = analyse(s, initial_positions(s), "t1", "t2")
    assert shot.cover == ("beh",) and shot.skill_modifier == -2
    assert shot.ignored_cover == ()


def test_a_huge_enemy_of_the_target_at_another_height_is_not_in_close_combat() -> None:
    """R-COV-6 with base contact (sim.movement.contact): bases touching in plan view but at
    different heights are not in contact, so the huge model gives cover."""
    r_t, r_h = 30 / 25.4 / 2, 70 / 25.4 / 2
    hx = 15 - ((r_t + r_h) ** 2 - 0.3**2) ** 0.5
    s = scenario([m("t1", "trooper", "a", 2, 10.5), m("t2", "trooper", "b", 15, 10.5),
                  m("beh", "behemoth", "n", hx, 10.8)])
    pos = dict(initial_positions(s))
    pos["t2"] = Position(15, 10.5, 1.0)
    assert analyse(s, pos, "t1", "t2").cover == ("beh",)


def test_climbing_models_neither_block_nor_give_cover_but_can_be_shot() -> None:
    """R-CLIMB-3: a climbing model is taken off the table (its position marked): it can
    be shot, but while it climbs it gives no cover and blocks nothing."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("brute", "brute", "b", 10, 10), m("beh", "behemoth", "n", 10, 14)])
    pos = initial_positions(s)
    assert analyse(s, pos, "t1", "t2").cover == ("brute",)
    assert analyse(s, pos, "t1", "t2", climbing={"brute"}).cover == ()
    at_beh = {**pos, "t2": Position(15, 18)}
    assert not analyse(s, at_beh, "t1", "t2").line_of_sight  # the behemoth blocks
    assert analyse(s, at_beh, "t1", "t2", climbing={"beh"}).line_of_sight
    shot = analyse_many(s, pos, "t1", ["brute", "t2"], climbing={"brute"})
    assert shot["brute"].line_of_sight and shot["t2"].cover == ()


def test_friendly_and_neutral_models() -> None:
    """R-COV-5: the attacker's own side gives no cover; a neutral model does."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("pal", "trooper", "a", 8, 10), m("bystander", "trooper", "n", 12, 10)])
    shot = analyse(s, initial_positions(s), "t1", "t2")
    assert shot.cover == ("bystander",)
    assert [(i.id, i.reason) for i in shot.ignored_cover] == [("pal", FRIENDLY)]


def test_vts_rule_set_gives_an_armor_boost_instead() -> None:
    """R-COV-3: rulebook +1 armor once; vts-1.5 exactly one Armor Boost."""
    models = [m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
              m("x", "trooper", "n", 8, 10), m("y", "trooper", "n", 12, 10)]
    book = analyse(scenario(models), initial_positions(scenario(models)), "t1", "t2")
    vts_s = scenario(models, rules="vts-1.5")
    vts = analyse(vts_s, initial_positions(vts_s), "t1", "t2")
    assert (book.armor_bonus, book.armor_boost, book.skill_modifier) == (1, 0, -4)
    assert (vts.armor_bonus, vts.armor_boost, vts.skill_modifier) == (0, 1, -4)
    assert "Armor Boost" in str(vts)


def test_cover_modifier_comes_from_rules_data() -> None:
    """R-COV-2: the -2 per object is rules data, not code."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("x", "trooper", "n", 10, 10)])
    s = replace(s, rules_data=replace(default_rules(), cover_modifier=-3))
    assert analyse(s, initial_positions(s), "t1", "t2").skill_modifier == -3


def test_cover_armor_effects_come_from_rules_data() -> None:
    """R-COV-3: the +1 armor (rulebook) and the one Armor Boost (vts-1.5) are rules data."""
    models = [m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
              m("x", "trooper", "n", 10, 10)]
    data = replace(default_rules(), cover_armor_bonus=2, cover_armor_boost=3)
    book = replace(scenario(models), rules_data=data)
    vts = replace(scenario(models, rules="vts-1.5"), rules_data=data)
    assert analyse(book, initial_positions(book), "t1", "t2").armor_bonus == 2
    assert analyse(vts, initial_positions(vts), "t1", "t2").armor_boost == 3


def test_dense_area_blocks_only_for_models_it_is_dense_for() -> None:
    """R-LOS-4, R-TER-2: smoke dense for troopers, thin for a behemoth."""
    smoke = TerrainPiece("smoke", TerrainProps(area=True, dense=True, cover=True),
                         polygon=((8, 0), (12, 0), (12, 30), (8, 30)),
                         overrides={"behemoth": {"dense": False}})
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("beh", "behemoth", "b", 16, 20)], (smoke,))
    pos = initial_positions(s)
    assert not analyse(s, pos, "t1", "t2").line_of_sight
    seen = analyse(s, pos, "t1", "beh")
    assert seen.line_of_sight and seen.cover == ("smoke",)


def test_models_off_the_table_neither_block_nor_cover() -> None:
    """Positions hold the models on the table; others are gone."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("beh", "behemoth", "n", 10, 10)])
    pos = {k: v for k, v in initial_positions(s).items() if k != "beh"}
    shot = analyse(s, pos, "t1", "t2")
    assert shot.line_of_sight and shot.cover == ()
    with pytest.raises(UsageError, match="'beh' is not on the table"):
        analyse(s, pos, "t1", "beh")


def test_positions_override_the_scenario_placement() -> None:
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10)], (WALL,))
    pos = {"t1": Position(5, 10), "t2": Position(5, 20)}
    shot = analyse(s, pos, "t1", "t2", "rifle")
    assert shot.line_of_sight
    assert shot.distance == pytest.approx(10 - 30 / 25.4)
    assert shot.bands == ("long",)


def test_unknown_ids_list_known_ones() -> None:
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10)])
    pos = initial_positions(s)
    with pytest.raises(UsageError, match="known models: t1, t2"):
        analyse(s, pos, "t1", "t3")
    with pytest.raises(UsageError, match="known weapons: rifle"):
        analyse(s, pos, "t1", "t2", "bow")


def test_result_is_immutable_and_json_has_the_issue_keys() -> None:
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10)])
    shot = analyse(s, initial_positions(s), "t1", "t2", "rifle")
    with pytest.raises(AttributeError):
        shot.cover = ("x",)  # type: ignore[misc]
    assert set(shot.to_json()) == {
        "line_of_sight", "sight_line", "blocked_by", "cover", "ignored_cover",
        "skill_modifier", "armor_bonus", "armor_boost", "distance", "bands", "in_range",
        "elevated"}  # issue 4 (R-ELEV-1)


def test_prepared_board_is_cached_per_scenario_object() -> None:
    """One preparation per scenario object (Scenario.prepared); an equal but distinct
    scenario gets its own, and the preparation goes with the scenario."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10)], (WALL,))
    board = prepared_board(s)
    assert isinstance(board, PreparedBoard) and prepared_board(s) is board
    twin = replace(s)
    assert twin == s and prepared_board(twin) is not board
    gone, kept = weakref.ref(twin), weakref.ref(board)
    del twin, board
    gc.collect()
    assert gone() is None  # the scenario is not kept alive by its own preparation
    assert kept() is prepared_board(s)
    del s
    gc.collect()
    assert kept() is None


def test_one_against_all_gives_each_pair_its_own_answer() -> None:
    """analyse_many (the window's overlay) answers exactly like analyse, pair by pair:
    huge bases and overrides apply per pair (R-LOS-3, R-TER-2)."""
    s = scenario([m("t1", "trooper", "a", 5, 10), m("t2", "trooper", "b", 15, 10),
                  m("beh", "behemoth", "n", 10, 21), m("t3", "trooper", "b", 15, 21),
                  m("t4", "trooper", "b", 5, 25), m("brute", "brute", "b", 12, 16)], (WALL,))
    pos = initial_positions(s)
    for attacker in pos:
        many = analyse_many(s, pos, attacker, weapon_id="rifle")
        assert set(many) == set(pos) - {attacker}
        for target, shot in many.items():
            assert shot == analyse(s, pos, attacker, target, "rifle")
    with pytest.raises(UsageError, match="cannot shoot itself"):
        analyse_many(s, pos, "t1", ["t1"])


@pytest.mark.parametrize("name", sorted(p.stem for p in SCENARIOS.glob("*.toml")))
def test_every_shipped_scenario_sight_is_symmetric(name: str) -> None:
    """R-LOS-1 (and R-ELEV-2, R-ELEV-5, which apply to and from a model): on every shipped
    board, A sees B exactly when B sees A, and one-against-all agrees with single queries."""
    s = load_scenario(SCENARIOS / f"{name}.toml")
    pos = initial_positions(s)
    seen = {a: analyse_many(s, pos, a) for a in pos}
    for a, shots in seen.items():
        for t, shot in shots.items():
            assert shot.line_of_sight == seen[t][a].line_of_sight, (a, t)
    ids = list(pos)
    if len(ids) > 1:
        assert analyse(s, pos, ids[0], ids[1]) == seen[ids[0]][ids[1]]
