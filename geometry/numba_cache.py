"""Keeping numba's on-disk cache honest for kernels split over several files.

numba checks a cached function against its own file only; a kernel whose compiled
functions call functions of other files (and read their constants) would load
stale machine code after an edit there. :func:`drop_stale` removes the cached code
of a folder's modules whenever any module of that folder is newer than it, so the
next call compiles afresh. It runs when the folder's package is imported, before
any kernel is called; it imports nothing heavy.
"""

from __future__ import annotations

from pathlib import Path


def drop_stale(folder: Path) -> int:
    """Drop the cached numba code in ``folder/__pycache__`` that is older than the
    newest ``.py`` file of ``folder``; the number of cache entries dropped.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     drop_stale(Path(d))
    0
    """
    cache = folder / "__pycache__"
    try:
        newest = max(p.stat().st_mtime for p in folder.glob("*.py"))
        stale = [p for p in cache.glob("*.nbi") if p.stat().st_mtime < newest]
    except (OSError, ValueError):  # no sources, no cache folder: nothing to drop
        return 0
    for index in stale:
        stem = index.name[: -len(".nbi")]  # "kernel._one-598.py311": index and data files
        for entry in cache.glob(stem + ".*"):
            try:
                entry.unlink()
            except OSError:  # read-only install: its sources never change either
                return 0
    return len(stale)
