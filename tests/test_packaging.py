"""Every folder of code or shipped data is a package of the wheel, with its files.

Without a build: pyproject.toml's [tool.setuptools] lists every such folder
and its package-data globs match every shipped data file, so an install
neither drops files nor warns "Package ... is absent from the packages
configuration" (a folder Python can import but setuptools was not told of).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.conftest import ROOT

SHIPPED = ("geometry", "sim", "render", "scenarios")
DATA_SUFFIXES = (".toml",)


def setuptools_table() -> dict[str, object]:
    raw = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, object] = raw["tool"]["setuptools"]
    return table


def folders_with_files() -> dict[str, list[Path]]:
    """Dotted package name -> its code and data files, for every shipped folder."""
    out: dict[str, list[Path]] = {}
    for top in SHIPPED:
        for folder in [ROOT / top, *sorted((ROOT / top).rglob("*"))]:
            if not folder.is_dir() or "__pycache__" in folder.parts:
                continue
            files = [p for p in folder.iterdir()
                     if p.is_file() and p.suffix in (".py", *DATA_SUFFIXES)]
            if files:
                out[".".join(folder.relative_to(ROOT).parts)] = files
    return out


def test_every_folder_is_a_listed_package() -> None:
    packages = set(setuptools_table()["packages"])  # type: ignore[call-overload]
    found = set(folders_with_files())
    assert {"scenarios", "scenarios.units", "sim.data"} <= found
    assert found - packages == set()


def test_every_data_file_is_package_data() -> None:
    globs: dict[str, list[str]] = setuptools_table()["package-data"]  # type: ignore[assignment]
    for package, files in folders_with_files().items():
        data = [f for f in files if f.suffix in DATA_SUFFIXES]
        for f in data:
            patterns = globs.get(package, [])
            assert any(f.match(p) for p in patterns), f"{f.relative_to(ROOT)} not in {package}"
