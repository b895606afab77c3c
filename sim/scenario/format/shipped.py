"""The scenarios and unit library shipped inside the package, found by name.

The shipped files live in the ``scenarios`` package (package data of the
wheel, the ``scenarios/`` folder of a checkout); :func:`shipped_dir` finds it
through :mod:`importlib.resources`, so it works from a checkout, an editable
install and a wheel alike, from any working folder.

A SCENARIO argument on the command line is a file path or a shipped name:
:func:`resolve_scenario` decides which (Decision in docs/cli.md: a file that
exists wins, so a user's own ``skirmish.toml`` in the working folder is never
shadowed by the shipped one).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from sim.errors import Problem, ScenarioError

SUFFIX = ".toml"
SHIPPED_PREFIX = "wasteland:"  # names a shipped file anywhere: saves, includes, arguments
UNITS_FOLDER = "units"  # the shipped unit and weapon library, scenarios/units/*.toml


def shipped_dir() -> Path:
    """The folder holding the shipped scenarios (and ``units/``, the unit library)."""
    root = resources.files("scenarios")
    path = Path(str(root))
    if not path.is_dir():  # a zipped install: the files are not on disk
        raise ScenarioError([Problem(str(root), "", "the shipped scenarios are not a folder "
                                     "on disk (a zipped install?); reinstall the package")])
    return path


def shipped_units_dir() -> Path:
    """The shipped unit and weapon library folder (``scenarios/units``)."""
    return shipped_dir() / UNITS_FOLDER


def shipped_names() -> list[str]:
    """The names of the shipped scenarios, sorted (file names without ``.toml``)."""
    return sorted(p.stem for p in shipped_dir().glob(f"*{SUFFIX}") if p.is_file())


def shipped_path(name: str) -> Path | None:
    """The shipped scenario called ``name`` (with or without ``.toml``), or None."""
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    if not stem or "/" in stem or "\\" in stem or stem.startswith("."):
        return None
    path = shipped_dir() / f"{stem}{SUFFIX}"
    return path if path.is_file() else None


def shipped_name_of(path: str | Path) -> str | None:
    """The shipped name of ``path`` when it is a shipped scenario file, else None.

    For saves: a game of a shipped scenario can refer to it by name instead of
    by a site-packages path.
    """
    p = Path(path)
    try:
        inside = p.resolve().parent == shipped_dir().resolve()
    except OSError:
        return None
    if inside and p.suffix == SUFFIX and p.is_file():
        return p.stem
    return None


@dataclass(frozen=True)
class ScenarioArg:
    """What a SCENARIO argument names: a file, a shipped scenario, or stdin (``-``)."""

    given: str
    path: Path | None  # None for stdin
    shipped: str | None = None  # the shipped name, when it names one

    @property
    def is_stdin(self) -> bool:
        return self.path is None


def resolve_scenario(arg: str) -> ScenarioArg:
    """Resolve a SCENARIO argument: ``-`` (stdin), an existing file, or a shipped name.

    A shipped name is the file name with or without ``.toml`` (``skirmish``),
    or the same with the ``wasteland:`` prefix that saves and includes use
    (``wasteland:skirmish.toml``), which never looks at the working folder.

    Raises
    ------
    ScenarioError
        When ``arg`` is neither an existing file nor a shipped name; the
        message lists the shipped names.
    """
    if arg == "-":
        return ScenarioArg(arg, None)
    try:
        return _resolve(arg)
    except ScenarioError:
        raise
    except (OSError, ValueError) as exc:  # a name too long for the system, a NUL byte...
        shown = arg if len(arg) <= 80 else f"{arg[:77]}..."
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ScenarioError([Problem(shown, "", f"cannot use this path: {why}")]) from None


def _not_shipped(arg: str, name: str, what: str) -> ScenarioError:
    close = difflib.get_close_matches(Path(name).stem, shipped_names(), n=3)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    return ScenarioError([Problem(arg, "", f"{what}{hint} (`wasteland scenarios` lists "
                                  "the shipped ones)")])


def _resolve(arg: str) -> ScenarioArg:
    path = Path(arg)
    if path.is_file():
        return ScenarioArg(arg, path, shipped_name_of(path))
    if path.is_dir():
        raise ScenarioError([Problem(arg, "", "is a folder; expected a scenario file (.toml) "
                                     "or a shipped scenario name")])
    if path.exists():  # a device or a FIFO: the loader names it (and never opens it)
        return ScenarioArg(arg, path)
    if arg.startswith(SHIPPED_PREFIX):  # explicitly shipped, whatever the working folder holds
        name = arg.removeprefix(SHIPPED_PREFIX)
        found = shipped_path(name)
        if found is None:
            raise _not_shipped(arg, name, "no shipped scenario has that name")
        return ScenarioArg(arg, found, found.stem)
    found = shipped_path(arg)
    if found is None:
        raise _not_shipped(arg, arg, "file not found, and no shipped scenario has that name")
    return ScenarioArg(arg, found, found.stem)
