"""Scenario format v1: loading, checking, bad input and round trips (issue 2)."""

from __future__ import annotations

import re
import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ScenarioError, WastelandError
from sim.scenario.format.loader import load_scenario
from sim.scenario.format.writer import scenario_to_toml
from tests.conftest import DATA, SCENARIOS

BAD = sorted((DATA / "bad").glob("*.toml"))
SHIPPED = sorted(SCENARIOS.glob("*.toml"))


def expectations(path: Path) -> list[str]:
    """The `# expect:` lines at the top of a bad file: substrings of its error."""
    return re.findall(r"^# expect: (.*)$", path.read_text(encoding="utf-8"), re.M)


def test_every_bad_file_states_what_it_expects() -> None:
    assert len(BAD) >= 20
    for path in BAD:
        assert expectations(path), f"{path.name} has no '# expect:' line"


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_file_is_refused_with_its_message(path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = str(info.value)
    for expected in expectations(path):
        assert expected in message
    # Every problem names a file; the error type is the project's one hierarchy.
    assert isinstance(info.value, WastelandError) and isinstance(info.value, ValueError)
    assert all(p.file for p in info.value.problems)


def test_invalid_toml_message_has_the_line_number() -> None:
    with pytest.raises(ScenarioError, match=r"line 7"):
        load_scenario(DATA / "bad" / "invalid-toml.toml")


def test_all_problems_are_reported_not_only_the_first(tmp_path: Path) -> None:
    text = (DATA / "bad" / "unknown-unit.toml").read_text()
    text = text.replace('side = "a"', 'side = "zz"').replace('board = [20, 20]', 'board = [20]')
    bad = tmp_path / "many.toml"
    bad.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(bad)
    paths = {p.path for p in info.value.problems}
    assert {"board", "models[0].side", "models[1].unit"} <= paths


def test_check_command_prints_ok_for_every_shipped_scenario(capsys) -> None:
    assert main(["check", *map(str, SHIPPED)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{p}: ok" for p in SHIPPED]


def test_check_command_prints_every_error_and_exits_1(capsys) -> None:
    assert main(["check", str(SHIPPED[0]), *map(str, BAD)]) == 1
    out = capsys.readouterr().out
    assert f"{SHIPPED[0]}: ok" in out
    for path in BAD:
        for expected in expectations(path):
            assert expected in out


def test_missing_file_is_a_clear_error(capsys) -> None:
    assert main(["check", "no/such/file.toml"]) == 1
    assert "no/such/file.toml: file not found" in capsys.readouterr().out


def test_the_issue_example_loads_as_written() -> None:
    s = load_scenario(DATA / "good" / "crate-and-wall.toml")
    assert s.board == (30.0, 20.0)
    assert s.units["knight"].armor.energy == 3
    assert s.weapons["laser_rifle"].long == "blue"
    assert s.piece("wall").props.blocks_los
    assert s.model("kp").z == 0.0


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_round_trip_gives_equal_objects(path: Path, tmp_path: Path) -> None:
    original = load_scenario(path)
    copy = tmp_path / path.name
    copy.write_text(scenario_to_toml(original), encoding="utf-8")
    again = load_scenario(copy)
    assert again == original
    assert again.rules_data == original.rules_data


def test_default_scenario_is_a_real_board() -> None:
    s = load_scenario(SCENARIOS / "skirmish.toml")
    assert s.board == (36.0, 36.0)
    assert len(s.terrain) >= 20
    sides = {m.side for m in s.models}
    assert sides == {"settlers", "mutants"}
    for side in sides:
        assert 5 <= sum(m.side == side for m in s.models) <= 6
    kinds = {p.props.movement for p in s.terrain}
    assert kinds == {"normal", "difficult", "impassable"}
    assert any(p.props.dense for p in s.terrain) and any(p.props.area for p in s.terrain)
    assert any(p.props.climbable for p in s.terrain) and any(p.circle for p in s.terrain)
    assert any(p.overrides for p in s.terrain)
    assert any(s.size_class_of(m) == "huge" for m in s.model_ids)


def test_shipped_scenarios_are_package_data() -> None:
    resource = files("scenarios") / "skirmish.toml"
    assert resource.is_file()
    library = files("scenarios") / "units" / "wasteland.toml"
    assert library.is_file()


def test_z_defaults_to_the_top_of_the_surface_under_the_centre() -> None:
    s = load_scenario(SCENARIOS / "skirmish.toml")
    assert s.model("sniper").z == s.piece("rock-shelf").props.height == 3.0
    assert s.model("survivor").z == 0.0


def test_a_given_z_must_match_a_surface(tmp_path: Path) -> None:
    text = (SCENARIOS / "skirmish.toml").read_text()
    text = text.replace('at = [34, 15.5]', 'at = [34, 15.5]\nz = 0')
    shutil.copytree(SCENARIOS / "units", tmp_path / "units")
    (tmp_path / "s.toml").write_text(text)
    # The ground under the shelf is a surface too, but the shelf is impassable there.
    with pytest.raises(ScenarioError, match=r"stands on impassable terrain 'rock-shelf'"):
        load_scenario(tmp_path / "s.toml")


def test_includes_are_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    shutil.copy(SCENARIOS / "units" / "wasteland.toml", tmp_path / "lib" / "w.toml")
    text = (SCENARIOS / "skirmish.toml").read_text().replace("units/wasteland.toml",
                                                              "lib/w.toml")
    (tmp_path / "s.toml").write_text(text)
    assert load_scenario(tmp_path / "s.toml").units["behemoth"].base == 80.0


def test_rules_data_overrides_apply_to_that_scenario_only(tmp_path: Path) -> None:
    text = (DATA / "good" / "crate-and-wall.toml").read_text()
    text += "\n[rules_data]\nrulers = [\n" + ",\n".join(
        f'  {{ colour = "{c}", length = {n} }}'
        for c, n in [("orange", 3), ("yellow", 5), ("red", 7), ("green", 9), ("blue", 11),
                     ("black", 13)]) + "\n]\n"
    (tmp_path / "s.toml").write_text(text)
    s = load_scenario(tmp_path / "s.toml")
    assert s.rules_data.ruler("orange") == 3.0
    assert load_scenario(DATA / "good" / "crate-and-wall.toml").rules_data.ruler("orange") == 2.0


def test_terrain_overrides_go_from_size_class_to_keyword_to_unit() -> None:
    """R-TER-2: the most specific override wins."""
    s = load_scenario(SCENARIOS / "skirmish.toml")
    water = s.piece("shallow-water")
    deathclaw = s.units["deathclaw"]
    settler = s.units["settler"]
    assert water.props_for("deathclaw", deathclaw.keywords, "large").movement == "normal"
    assert water.props_for("settler", settler.keywords, "normal").movement == "difficult"
    deep = s.piece("deep-water")
    handy = s.units["mister_handy"]
    assert deep.props_for("mister_handy", handy.keywords, "large").movement == "normal"
    assert deep.props_for("settler", settler.keywords, "normal").movement == "impassable"


def test_the_documented_complete_example_loads(tmp_path: Path) -> None:
    doc = (SCENARIOS.parent / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example", 1)[1]
    text = re.search(r"```toml\n(.*?)```", example, re.S)
    assert text is not None
    (tmp_path / "example.toml").write_text(text.group(1))
    s = load_scenario(tmp_path / "example.toml")
    assert s.advantage == "bos" and s.rounds == 4 and s.seed == 7
    assert {m.id for m in s.models} == {"kp", "sm"}
