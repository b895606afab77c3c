"""Save a game as JSON and load it back by replaying its actions (R-ALL-1).

A save holds the scenario's path (relative to the save file; a shipped
scenario by its name, ``wasteland:skirmish.toml``), a hash of the
scenario file and every file it includes, the seed, the last-round override
and the applied actions as text. Loading replays the actions from the seed,
so the loaded state equals the saved one, dice included. A save whose
scenario changed since is refused (docs/engine.md, "Save format").

Examples
--------
>>> from sim.scenario.format.loader import load_scenario
>>> from sim.game.kinds import new_game
>>> state = new_game(load_scenario("scenarios/seed-activation.toml"), seed=3)
>>> data = save_data(state, Path("."))
>>> data["scenario"], data["seed"], data["actions"]
('wasteland:seed-activation.toml', 3, [])
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.atomic import write_file, write_new
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.errors import SaveError, WastelandError
from sim.game.kinds import new_game, parse_action
from sim.scenario.format.files import (
    NESTING_MESSAGE,
    SHIPPED_PREFIX,
    ReadProblem,
    decode,
    include_target,
    parse_toml,
    path_problem,
    read_bytes,
    read_text,
    shipped_name,
    too_deep,
)
from sim.scenario.format.ids import show
from sim.scenario.format.limits import MAX_INCLUDED_FILES
from sim.scenario.format.loader import load_scenario
from sim.scenario.format.shipped import shipped_dir

SAVE_FORMAT = "wasteland-save"
SAVE_VERSION = 1


def scenario_hash(path: Path) -> str:
    """SHA-256 over a scenario file and, recursively, the files it includes (each once)."""
    digest = hashlib.sha256()
    seen: set[Path] = set()
    pending = [path]  # depth first, in include order, as the loader reads them
    while pending:
        p = pending.pop()
        try:
            p = p.resolve()
        except (OSError, RuntimeError):
            continue
        if p in seen or len(seen) > MAX_INCLUDED_FILES:
            continue  # a diamond, a cycle or too many: the loader reports those
        seen.add(p)
        try:
            raw = read_bytes(p)
        except ReadProblem as exc:
            raise SaveError(f"cannot read scenario file {str(p)!r}: {exc}") from None
        digest.update(str(len(raw)).encode() + b"\0" + raw)
        try:
            includes = parse_toml(decode(raw)).get("include", [])
        except ReadProblem:
            continue
        if isinstance(includes, list):
            pending.extend(reversed(_include_files(includes, p)))
    return digest.hexdigest()


def _include_files(names: list[Any], here: Path) -> list[Path]:
    out = []
    for name in names:
        if isinstance(name, str):
            try:
                out.append(include_target(name, here, Path(here.anchor))[0])
            except ReadProblem:
                continue
    return out


def save_data(state: GameState, save_dir: Path) -> dict[str, Any]:
    """The JSON-able save of ``state``, with the scenario path relative to ``save_dir``."""
    source = state.scenario.source
    if source is None:
        raise SaveError(f"cannot save a game of {state.scenario.name!r}: its scenario was "
                        "not loaded from a file")
    if not isinstance(state.rng, SeededRng):
        raise SaveError("cannot save a game played with a substituted generator "
                        f"({type(state.rng).__name__}): a save replays from the seed")
    ref = shipped_name(source)  # a shipped scenario by name: the save works anywhere
    if ref is None:
        try:
            ref = Path(os.path.relpath(source.resolve(), save_dir.resolve())).as_posix()
        except ValueError:  # another drive: keep it absolute
            ref = source.resolve().as_posix()
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "scenario": ref,
        "scenario_sha256": scenario_hash(source),
        "seed": state.seed,
        "rounds": state.rounds if state.rounds != state.scenario.rounds else None,
        "actions": [str(a) for a in state.history],
    }


def save_game(state: GameState, path: str | Path) -> None:
    """Write ``state`` to ``path`` as a JSON save, replacing any file there atomically
    (:mod:`sim.atomic`: a crash or a full disk leaves the old save whole).

    Raises
    ------
    SaveError
        The game cannot be saved (no scenario file, a substituted generator).
    WriteError
        The file cannot be written; it names the path and the OS's reason.
    """
    path = Path(path)
    write_file(path, _save_text(state, path))


def save_new_game(state: GameState, path: str | Path) -> bool:
    """Write ``state`` to ``path`` only if no file has that name (claimed atomically, so
    two windows saving in one folder never overwrite each other): False when taken.
    Raises as :func:`save_game`."""
    path = Path(path)
    return write_new(path, _save_text(state, path))


def _save_text(state: GameState, path: Path) -> str:
    return json.dumps(save_data(state, path.parent), indent=2) + "\n"


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str,
           where: str, *, optional: bool = False) -> Any:
    if key not in data:
        if optional:
            return None
        raise SaveError(f"{where}: missing key {key!r} ({what})")
    value = data[key]
    if optional and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind):
        raise SaveError(f"{where}: {key}: expected {what}, got {show(value)}")
    return value


def _scenario_path(ref: str, save_dir: Path, where: str) -> Path:
    """The scenario file a save names: ``wasteland:NAME`` (shipped) or a path."""
    why = path_problem(ref)
    if why is not None:
        raise SaveError(f"{where}: scenario: {why}")
    if ref.startswith(SHIPPED_PREFIX):
        try:
            return include_target(ref, shipped_dir() / "x", shipped_dir().resolve())[0]
        except ReadProblem:
            raise SaveError(f"{where}: scenario: {show(ref)} is outside the shipped "
                            "scenarios folder") from None
    return Path(ref) if Path(ref).is_absolute() else save_dir / ref


def game_from_save(data: Any, save_dir: Path, where: str) -> GameState:
    """Rebuild a game from save ``data`` (``where`` names the save in messages)."""
    if not isinstance(data, dict):
        raise SaveError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{where}: not a wasteland save (format {show(data.get('format'))}, "
                        f"expected {SAVE_FORMAT!r})")
    version = data.get("version")
    if version != SAVE_VERSION:
        raise SaveError(f"{where}: unknown save version {show(version)}; this version reads "
                        f"{SAVE_VERSION}")
    ref = _field(data, "scenario", str, "a scenario path", where)
    want = _field(data, "scenario_sha256", str, "a hex digest", where)
    seed = _field(data, "seed", int, "an integer", where)
    rounds = _field(data, "rounds", int, "a positive integer or null", where, optional=True)
    actions = _field(data, "actions", list, "a list of action texts", where)
    if rounds is not None and rounds < 1:
        raise SaveError(f"{where}: rounds: expected a positive integer or null, got {rounds!r}")
    path = _scenario_path(ref, save_dir, where)
    try:
        read_bytes(path)
    except ReadProblem as exc:
        what = "not found" if str(exc) == "file not found" else str(exc)
        raise SaveError(f"{where}: scenario {show(ref)} {what} (looked at {str(path)!r})"
                        ) from None
    got = scenario_hash(path)
    if got != want:
        raise SaveError(f"{where}: scenario {ref!r} changed since the game was saved "
                        f"(hash {got[:12]}…, saved {want[:12]}…); the game cannot be replayed")
    try:
        scenario = load_scenario(path)
    except WastelandError as exc:
        raise SaveError(f"{where}: scenario {ref!r} does not load:\n{exc}") from None
    state = new_game(scenario, seed, rounds=rounds)
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise SaveError(f"{where}: actions[{i}]: expected an action text, got {show(text)}")
        try:
            state.apply(parse_action(text))
        except WastelandError as exc:
            raise SaveError(f"{where}: actions[{i}]: {exc}") from None
    return state


def load_game(path: str | Path) -> GameState:
    """Load a save and replay it to the identical state (``wasteland play --load``)."""
    path = Path(path)
    try:
        text = read_text(path)
    except ReadProblem as exc:
        raise SaveError(f"cannot read save {str(path)!r}: {exc}") from None
    return game_from_text(text, path.parent, str(path))


def game_from_text(text: str, folder: Path, name: str) -> GameState:
    """A save's text (read from ``name``; its scenario relative to ``folder``) replayed:
    the JSON checks of :func:`load_game`, for a file or stdin alike."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{name}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    except (RecursionError, ValueError):  # nesting, or an integer of thousands of digits
        raise SaveError(f"{name}: {NESTING_MESSAGE} or a number too long") from None
    if too_deep(data):
        raise SaveError(f"{name}: {NESTING_MESSAGE}")
    return game_from_save(data, folder, name)
