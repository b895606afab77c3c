"""``wasteland edit [SCENARIO | --new WxH] [-o FILE]``: the scenario editor window.

SCENARIO is a file (saved in place, changing only what changed in it) or a
shipped scenario name (edited as a copy in the working folder, since the
installed files are not the player's to change); ``--new 36x36`` starts an
empty board of that many inches. ``-o FILE`` saves elsewhere. Imports
:mod:`render` (and so pygame) lazily, through :mod:`sim.cli_render`; without
a display it exits 1 with one line, like ``play``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli_io import STDIN
from sim.commands.play import display_missing
from sim.errors import UsageError, WastelandError
from sim.scenario.format.files import read_text, shipped_name
from sim.scenario.format.shipped import resolve_scenario

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

NO_DISPLAY = "wasteland edit: no display found (set DISPLAY, or run under Xvfb); nothing opened"
NEW_NAME = "untitled"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "edit",
        help="build or change a scenario in a window",
        description="Open the scenario editor: draw terrain, place models, set the scenario "
        "up, check it as you go and save a file that loads. F1 in the window lists the keys.",
    )
    p.add_argument("scenario", nargs="?", metavar="SCENARIO",
                   help="scenario file to change, or a shipped scenario name (edited as a copy)")
    p.add_argument("--new", metavar="WxH", help="start an empty board, e.g. 36x36 (inches)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="the file to save to (default: SCENARIO itself, or untitled.toml)")
    p.add_argument("--size", metavar="WxH",
                   help="window size in pixels, e.g. 1366x700 (default: fits the screen)")
    p.set_defaults(run=run, parser=p)


def board_size(text: str) -> tuple[float, float]:
    """``"36x36"`` -> ``(36.0, 36.0)``; :class:`UsageError` unless it is two numbers."""
    w_text, sep, h_text = text.lower().partition("x")
    try:
        if sep:
            return float(w_text), float(h_text)
    except ValueError:
        pass
    raise UsageError(f"--new: expected WIDTHxHEIGHT in inches, e.g. 36x36; got {text!r}")


def free_name(folder: Path, stem: str) -> Path:
    """``stem.toml`` in ``folder``, or ``stem-2.toml``... the first that does not exist."""
    path, n = folder / f"{stem}.toml", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.toml"
    return path


def with_shipped_includes(s: Scenario) -> Scenario:
    """``s`` with its includes named ``wasteland:...`` so a copy elsewhere still finds them."""
    if s.source is None:
        return s
    names = []
    for name in s.includes:
        shipped = None if name.startswith("wasteland:") else shipped_name(s.source.parent / name)
        names.append(shipped or name)
    return replace(s, includes=tuple(names))


def opened(args: argparse.Namespace) -> tuple[Scenario, Path, str | None]:
    """The scenario to edit, the file to save it to, and the text that file holds now."""
    from sim.scenario.draft import blank  # (numpy, shapely: when run)
    from sim.scenario.format.loader import load_scenario

    out = None if args.output is None else Path(args.output)
    if args.new is not None:
        if args.scenario is not None:
            args.parser.error("give a SCENARIO or --new WxH, not both")
        target = out or free_name(Path.cwd(), NEW_NAME)
        if out is not None and out.exists():
            raise WastelandError(f"-o: {str(out)!r} exists; open it with: wasteland edit {out}")
        try:
            board = board_size(args.new)
        except UsageError as exc:
            args.parser.error(str(exc))
        return blank(board, target), target, None
    if args.scenario is None:
        args.parser.error("give a SCENARIO to change or --new WxH for an empty board")
    if args.scenario == STDIN:
        raise WastelandError("'-' (stdin) is not accepted: the editor saves to a file")
    found = resolve_scenario(args.scenario)
    assert found.path is not None  # only stdin has no path, refused above
    scenario = load_scenario(found.path)
    if not Path(args.scenario).is_file():  # a shipped name: a copy here, never the installed file
        target = out or free_name(Path.cwd(), found.path.stem)
        return with_shipped_includes(scenario), target, None
    target = out or found.path
    if target.resolve() != found.path.resolve():  # saved elsewhere: written anew
        return with_shipped_includes(scenario), target, None
    return scenario, target, read_text(found.path)


def run(args: argparse.Namespace) -> int:
    from sim import cli_render

    scenario, target, text = opened(args)
    try:
        pixels = cli_render.window_size(args.size)
    except UsageError as exc:
        args.parser.error(str(exc))
    if display_missing():
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    return cli_render.open_editor_window(scenario, target, text, NO_DISPLAY, pixels)
