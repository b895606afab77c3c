"""What every ``wasteland`` sub-command shares: SCENARIO arguments (a file, a
shipped name or ``-`` for stdin), JSON output with its ``format`` field, and
errors as JSON under ``--json`` (docs/cli.md, ``wasteland schema``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from sim.errors import Problem, ScenarioError, WastelandError

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

STDIN = "-"
FORMAT_VERSION = 1


def json_format(kind: str) -> str:
    """The ``format`` field of one kind of JSON output, e.g. ``wasteland-los/1``."""
    return f"wasteland-{kind}/{FORMAT_VERSION}"


def print_json(kind: str, data: dict[str, Any]) -> None:
    """Print one JSON output object, its ``format`` field first."""
    print(json.dumps({"format": json_format(kind), **data}, indent=2))


def error_json(error: WastelandError | str, exit_status: int) -> dict[str, Any]:
    """The ``wasteland-error/1`` object: the message, and file and key where known."""
    out: dict[str, Any] = {"format": json_format("error"), "exit_status": exit_status,
                           "error": str(error)}
    if isinstance(error, ScenarioError) and error.problems:
        out["file"] = error.problems[0].file
        out["key"] = error.problems[0].path or None
        out["problems"] = [{"file": p.file, "key": p.path or None, "message": p.message}
                           for p in error.problems]
    return out


def print_json_error(error: WastelandError | str, exit_status: int) -> None:
    print(json.dumps(error_json(error, exit_status), indent=2))


def read_stdin_text() -> str:
    """All of stdin as text, within the file size limit, UTF-8 like any input file."""
    # (the scenario modules load numpy and shapely: imported here, so `wasteland --help`
    # and every error printed as JSON start without them)
    from sim.scenario.format.files import ReadProblem, decode
    from sim.scenario.format.limits import MAX_FILE_BYTES
    from sim.scenario.format.loader import STDIN_NAME

    stream = getattr(sys.stdin, "buffer", None)  # a text stand-in (tests) has no buffer
    try:
        raw = (stream.read(MAX_FILE_BYTES + 1) if stream is not None
               else sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: stdin closed
        raise WastelandError(f"{STDIN_NAME}: cannot read: {exc}") from None
    if not raw.strip():
        raise ScenarioError([Problem(STDIN_NAME, "", "is empty: nothing was piped in (give a "
                                     "file's contents on stdin, or a file name instead of -)")])
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError([Problem(STDIN_NAME, "", f"is over {MAX_FILE_BYTES} bytes, "
                                     "the limit")])
    try:
        return decode(raw)
    except ReadProblem as exc:
        raise ScenarioError([Problem(STDIN_NAME, "", str(exc))]) from None


def load_scenario_arg(arg: str) -> Scenario:
    """The scenario a SCENARIO argument names: ``-`` (stdin), a file, or a shipped name."""
    from sim.scenario.format import loader
    from sim.scenario.format.shipped import resolve_scenario

    where = resolve_scenario(arg)
    if where.path is None:
        return loader.load_scenario_text(read_stdin_text())
    return loader.load_scenario(where.path)


def check_model(scenario: Scenario, model_id: str, role: str) -> str:
    """``model_id`` when the scenario has it; else an error listing the known models."""
    if model_id not in scenario.model_ids:
        raise WastelandError(f"unknown {role} {model_id!r}; known models: "
                             f"{', '.join(scenario.model_ids)}")
    return model_id
