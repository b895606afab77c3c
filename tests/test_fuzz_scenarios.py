"""Fuzzing scenario files (issue 13): what ``check`` accepts plays, saves and reloads.

Two kinds of mutation of real scenarios: structural (a value replaced by a
hostile one, a key deleted, renamed or duplicated, a list entry copied) and
textual (bytes flipped, inserted, cut). Every result is either refused, with
problems that each name a file and fit on one line, or accepted, and then it
survives ``los`` between two of its models, a write and re-read by the
writer, and a short random playout with a save and a reload (R-ALL-1).
``WASTELAND_FUZZ_EXAMPLES`` raises the number of examples (``make fuzz``).
"""

from __future__ import annotations

import copy
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomlkit
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.errors import ScenarioError
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.format.writer import scenario_to_toml
from tests.conftest import SCENARIOS
from tests.fuzz_util import (
    FUZZ,
    HOSTILE_NUMBERS,
    HOSTILE_TEXT,
    hostile_values,
    playout_save_reload,
)

# Small two-sided games (fast playouts) with terrain, heights, shooting and falls.
BASES = [SCENARIOS / f"{name}.toml" for name in
         ("seed-cover-1", "seed-fall", "seed-hound", "seed-plasma", "elev-two-storey")]
TABLES = {p.name: tomllib.loads(p.read_text(encoding="utf-8")) for p in BASES}
SYNTAX = ["[", "]]", "=", "\n[[models]]\n", "{", '"', "\\u0000", "\n[rules_data]\n",
          "9" * 4400]  # issue 31: more digits than Python reads in one integer
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in BASES}


def node_paths(tree: Any) -> list[tuple[Any, ...]]:
    """Every path from the root to a value (keys and list indices), the root excluded."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        children: Iterator[tuple[Any, Any]] = (
            iter(node.items()) if isinstance(node, dict)
            else iter(enumerate(node)) if isinstance(node, list) else iter(()))
        for k, v in children:
            out.append((*path, k))
            stack.append(((*path, k), v))
    return out


def _strings(tree: Any) -> list[Any]:
    """Every string and boolean in the file, and every table key: plausible values."""
    out: set[Any] = set()
    for path in node_paths(tree):
        value = _at(tree, path)
        if isinstance(path[-1], str):
            out.add(path[-1])
        if isinstance(value, str | bool):
            out.add(value)
    return sorted(out, key=repr)


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        tree = tree[k]
    return tree


def _holes(polygon: Any, count: int) -> list[list[list[float]]]:
    """``count`` small triangles along the middle of a polygon's bounding box."""
    try:
        xs, ys = [float(p[0]) for p in polygon], [float(p[1]) for p in polygon]
    except (TypeError, ValueError, IndexError, KeyError):
        return []
    x0, x1, y = min(xs), max(xs), (min(ys) + max(ys)) / 2
    step = (x1 - x0) / (count + 1)
    return [[[x0 + step * (i + 0.8), y], [x0 + step * (i + 1.2), y],
             [x0 + step * (i + 1), y + step * 0.3]] for i in range(count)]


@st.composite
def mutated_table(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(TABLES)))
    tree = copy.deepcopy(TABLES[name])
    for _ in range(draw(st.integers(1, 4))):
        paths = node_paths(tree)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, k = _at(tree, path[:-1]), path[-1]
        op = draw(st.sampled_from(["replace", "nudge", "nudge", "swap", "swap", "delete",
                                   "copy", "rename", "rules", "holes"]))
        value = parent[k]
        if op == "rules":  # issue 31: a hostile rules-data value, touch_tolerance first
            key = draw(st.sampled_from(["touch_tolerance", "touch_tolerance", "mm_per_inch"]))
            tree.setdefault("rules_data", {})[key] = draw(st.sampled_from(HOSTILE_NUMBERS))
        elif op == "holes" and tree.get("terrain"):  # issue 31: a roof full of holes
            piece = draw(st.sampled_from([t for t in tree["terrain"] if "polygon" in t] or
                                         [None]))
            if piece is not None:
                piece["holes"] = _holes(piece["polygon"], draw(st.integers(1, 14)))
        elif op == "replace":
            parent[k] = draw(hostile_values())
        elif op == "nudge" and isinstance(value, int | float) and not isinstance(value, bool):
            parent[k] = value + draw(st.sampled_from([-3, -1, -0.5, 0.25, 1, 2.5, 10]))
        elif op == "swap" and isinstance(value, str | bool):  # another value of the file
            parent[k] = draw(st.sampled_from(_strings(tree) or [value]))
        elif op in ("nudge", "swap"):
            continue
        elif op == "delete":
            del parent[k]
        elif op == "copy" and isinstance(parent, list):
            parent.insert(k, copy.deepcopy(parent[k]))
        elif op == "copy":
            parent[draw(st.sampled_from(HOSTILE_TEXT))] = copy.deepcopy(parent[k])
        elif isinstance(parent, dict):  # rename a key: ids with spaces, empty ids...
            parent[draw(st.sampled_from(HOSTILE_TEXT))] = parent.pop(k)
    return name, tree


@st.composite
def mutated_text(draw: st.DrawFn) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(TEXTS)))
    raw = bytearray(TEXTS[name].encode("utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(raw)))
        op = draw(st.sampled_from(["flip", "insert", "cut", "repeat"]))
        if op == "flip" and at < len(raw):
            raw[at] = draw(st.integers(0, 255))
        elif op == "insert":
            piece = draw(st.one_of(st.sampled_from([*HOSTILE_TEXT, *SYNTAX]), st.text(max_size=6)))
            raw[at:at] = piece.encode("utf-8")
        elif op == "cut":
            del raw[at: at + draw(st.integers(1, 40))]
        else:
            end = min(len(raw), at + draw(st.integers(1, 200)))
            raw[at:at] = raw[at:end]
    return name, bytes(raw)


def _folder_with_library(tmp: Path) -> Path:
    shutil.copytree(SCENARIOS / "units", tmp / "units")
    return tmp


def check_one(path: Path, tmp: Path) -> None:
    """Refused cleanly, or accepted and played, saved and reloaded."""
    try:
        scenario = load_scenario(path)
    except ScenarioError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.file and "\n" not in str(problem), str(problem)
        assert main(["check", str(path)]) == 1
        return
    assert main(["check", str(path)]) == 0
    if len(scenario.model_ids) >= 2:  # a board without models is a valid (empty) game
        first, last = scenario.model_ids[0], scenario.model_ids[-1]
        assert main(["los", str(path), first, last]) == 0
    copy_path = tmp / f"copy-{path.name}"  # the writer keeps what the loader accepted
    copy_path.write_text(scenario_to_toml(scenario), encoding="utf-8")
    assert load_scenario(copy_path) == scenario
    playout_save_reload(new_game(scenario, seed=scenario.seed or 1), tmp, policy_seed=3)


@FUZZ
@given(mutated_table())
def test_structurally_mutated_scenarios_are_refused_or_play(
        case: tuple[str, dict[str, Any]]) -> None:
    name, tree = case
    try:
        text = tomlkit.dumps(tree)
    except Exception:  # a tree TOML cannot write (tomlkit's limits, not ours): nothing to test
        return
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = _folder_with_library(Path(tmp_name))
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        check_one(path, tmp)


@FUZZ
@given(mutated_text())
def test_textually_mutated_scenarios_are_refused_or_play(case: tuple[str, bytes]) -> None:
    name, raw = case
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = _folder_with_library(Path(tmp_name))
        path = tmp / name
        path.write_bytes(raw)
        check_one(path, tmp)


@settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 4))
@given(mutated_table())
def test_accepted_mutated_scenarios_render(case: tuple[str, dict[str, Any]]) -> None:
    """``wasteland render`` draws whatever ``check`` accepts (a quarter of the examples)."""
    name, tree = case
    try:
        text = tomlkit.dumps(tree)
    except Exception:
        return
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = _folder_with_library(Path(tmp_name))
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        try:
            load_scenario(path)
        except ScenarioError:
            return
        out = tmp / "board.png"
        scenario = load_scenario(path)
        reach = ["--reach", scenario.model_ids[0]] if scenario.model_ids else []
        assert main(["render", str(path), "-o", str(out), *reach]) == 0  # issue 31: reach
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
