"""How every compiled kernel is compiled: numba, nopython, with its machine code cached on
disk wherever this user can write one.

numba keeps a kernel's machine code beside its source (``__pycache__``) or in the
user's home (``~/.cache/numba``); when neither can be written (a package installed
by root, run by a user whose home is read-only) ``cache=True`` fails at import with
"cannot cache function ...: no locator available". :func:`jit` then points numba's
cache at a folder this user can write (platformdirs' user cache, then a private
folder in the temp folder) or, failing both, compiles without a cache, and says
which once on stderr: the program runs either way.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

NO_LOCATOR = "no locator available"  # numba's words when no cache folder is writable
# Set once no folder can hold the cache: the later kernels (and worker processes) compile
# uncached without asking again or saying so again.
NO_CACHE = "WASTELAND_NO_KERNEL_CACHE"


def jit(fn: F) -> F:
    """``fn`` compiled in nopython mode, cached on disk (see the module's docstring)."""
    from numba import njit  # here: importing geometry costs no numba until a kernel is made

    if os.environ.get(NO_CACHE):
        return cast(F, njit(cache=False)(fn))
    try:
        return cast(F, njit(cache=True)(fn))
    except RuntimeError as exc:
        if NO_LOCATOR not in str(exc):
            raise
    folder = writable_cache_folder()
    if folder is not None:
        use_cache_folder(folder)
        try:
            compiled = njit(cache=True)(fn)
        except RuntimeError as exc:
            if NO_LOCATOR not in str(exc):
                raise
        else:  # the later kernels find the folder set: this is said once
            _notice(f"the compiled kernels are cached in {folder} (numba cannot write beside "
                    "the installed code or in the home folder)")
            return cast(F, compiled)
    os.environ[NO_CACHE] = "1"
    _notice("no folder can hold the compiled kernels' cache: each run compiles them again "
            "(about 20-40 s)")
    return cast(F, njit(cache=False)(fn))


def writable_cache_folder() -> Path | None:
    """A folder only this user can write, for numba's cache: platformdirs' user cache, then
    one in the temp folder; None when neither can be made and written."""
    import platformdirs

    uid = os.getuid() if hasattr(os, "getuid") else 0
    for folder in (Path(platformdirs.user_cache_dir("wasteland-sim")) / "numba",
                   Path(tempfile.gettempdir()) / f"wasteland-sim-{uid}" / "numba"):
        if _can_write(folder, uid):
            return folder
    return None


def use_cache_folder(folder: Path) -> None:
    """Point numba's cache at ``folder`` (its NUMBA_CACHE_DIR), in this process and in the
    worker processes it starts."""
    from numba.core import config

    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    setattr(config, "CACHE_DIR", str(folder))  # noqa: B010 (numba reads it per function)


def _can_write(folder: Path, uid: int) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if hasattr(os, "getuid") and folder.parent.stat().st_uid != uid:
            return False  # a shared temp folder: only a folder of this user's own
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _notice(text: str) -> None:
    print(f"wasteland: {text}", file=sys.stderr, flush=True)
