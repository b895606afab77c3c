"""A scenario with every file it reads, as texts, to load anywhere (issue 31).

A worker of ``simulate`` (on this machine or a Dask worker on another) is sent
the scenario packed: the top file's text and each included library's, the
folder tree it was read from kept as relative paths, and the shipped
libraries (``wasteland:`` names) as their texts too, so the worker needs none
of the client's files and plays the very scenario the client loaded, even if
a file changes meanwhile. Unpacking runs the one loader on those texts.

Examples
--------
>>> packed, scenario = pack_file("scenarios/skirmish.toml")
>>> packed.top, [name for name, _ in packed.shipped]
('skirmish.toml', ['units/wasteland.toml'])
>>> packed.load() == scenario  # the source path aside
True
"""

from __future__ import annotations

import contextlib
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sim.scenario.format.files import SHIPPED_PREFIX, ReadProblem, shipped_name
from sim.scenario.format.loader import Loader
from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class PackedScenario:
    """Texts keyed by path: ``files`` relative to the top file's folder (the top file is
    ``top``), ``shipped`` relative to the shipped scenarios folder. Plain, picklable data."""

    top: str
    files: tuple[tuple[str, str], ...]
    shipped: tuple[tuple[str, str], ...] = ()

    def load(self) -> Scenario:
        """The scenario, loaded from the texts alone (its ``source`` is a name in a folder
        that does not exist).

        Raises :class:`~sim.errors.ScenarioError` as the loader does."""
        scenario: Scenario = _Unpacking(self).load()
        return scenario


def pack_file(path: str | Path) -> tuple[PackedScenario, Scenario]:
    """The scenario file ``path`` packed, and the scenario as loaded here.

    Raises :class:`~sim.errors.ScenarioError` as :func:`~sim.scenario.format.loader.load_scenario`.
    """
    return _pack(_Recording(Path(path)))


def pack_text(text: str, name: str) -> tuple[PackedScenario, Scenario]:
    """Scenario text (read from stdin, shown as ``name``) packed, its includes read from the
    working folder as if the text were a file there; and the scenario as loaded here."""
    return _pack(_Recording(Path(name), text))


class _Recording(Loader):
    """The loader, keeping the text of every file it reads."""

    def __init__(self, path: Path, text: str | None = None) -> None:
        super().__init__(path)
        self.text = text
        self.texts: dict[Path, str] = {}

    def read_file(self, path: Path) -> str:
        top = self.text is not None and path is self.path
        text = self.text if top and self.text is not None else super().read_file(path)
        self.texts[path] = text
        return text


def _pack(recording: _Recording) -> tuple[PackedScenario, Scenario]:
    scenario: Scenario = recording.load()
    here = recording.path.absolute()
    with contextlib.suppress(OSError, RuntimeError):  # as the loader resolves it
        here = here.resolve()
    files: dict[str, str] = {}
    shipped: dict[str, str] = {}
    for path, text in recording.texts.items():
        if path is recording.path:
            files[here.name] = text
            continue
        if path.is_relative_to(here.parent):
            files[path.relative_to(here.parent).as_posix()] = text
        name = shipped_name(path)  # a shipped file may be both (a shipped top file's folder)
        if name is not None:
            shipped[name.removeprefix(SHIPPED_PREFIX)] = text
    return PackedScenario(here.name, tuple(files.items()), tuple(shipped.items())), scenario


class _Unpacking(Loader):
    """The loader reading the packed texts: the top file and its tree stand in a folder
    that does not exist (so the paths the loader works out are only names)."""

    def __init__(self, packed: PackedScenario) -> None:
        nowhere = f"wasteland-packed-{secrets.token_hex(8)}"
        self.folder = Path(tempfile.gettempdir()).resolve() / nowhere
        super().__init__(self.folder / packed.top)
        self.files = dict(packed.files)
        self.shipped = dict(packed.shipped)

    def read_file(self, path: Path) -> str:
        if path.is_relative_to(self.folder):
            text = self.files.get(path.relative_to(self.folder).as_posix())
        else:
            name = shipped_name(path)
            text = None if name is None else self.shipped.get(name.removeprefix(SHIPPED_PREFIX))
        if text is None:
            raise ReadProblem("file not found")
        return text
