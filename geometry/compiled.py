"""The compiled kernels (numba), compiled once per machine and cached on disk.

numba compiles a kernel on its first call and keeps the machine code in its
cache (``cache=True``, beside the source or in the user's cache folder); later
processes load it in a fraction of a second. The first compilation takes tens
of seconds, so callers that can wait visibly do it up front: ``make`` after
installing, the command line before a command that needs sight
(:func:`ensure_compiled` with a notice).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from geometry.cover import filters as line_filters
from geometry.cover import kernel as cover_kernel
from geometry.sight import kernel as sight_kernel

# The entry point of each kernel, whose cache index tells whether it is compiled.
_ENTRIES = (sight_kernel.ENTRY, cover_kernel.polygon_hit, line_filters.sides_crossed)


def is_cached() -> bool:
    """Whether every kernel's machine code is in numba's cache already."""
    for entry in _ENTRIES:
        # numba's cache file of the kernel (not public API: when it cannot be found,
        # say "not cached", and the kernels are compiled or loaded up front anyway).
        index = getattr(getattr(getattr(entry, "_cache", None), "_cache_file", None),
                        "_index_path", None)
        if not isinstance(index, str) or not os.path.exists(index):
            return False
    return True


def compile_all() -> float:
    """Compile (or load from the cache) every kernel; seconds taken."""
    start = time.perf_counter()
    cover_kernel.compile_now()
    line_filters.compile_now()
    sight_kernel.compile_now()
    return time.perf_counter() - start


def ensure_compiled(notice: Callable[[str], None]) -> None:
    """Compile the kernels now if they are not cached, saying so first."""
    if not is_cached():
        notice("compiling the sight kernels for this machine, once (about 20-40 s) ...")
        compile_all()
