"""Every file the project writes, written so that nothing is lost (issue 31).

A file is written whole or not at all: the bytes go to a temporary file in
the target's folder, are flushed and fsynced, and the temporary file is
renamed over the target (then the folder is fsynced, so the rename itself
survives a power cut). A process killed at any moment leaves either the old
file or the new one, never a truncated one; a full disk leaves the old file
as it was and raises :class:`WriteError` naming the path and the OS's reason.

:func:`write_new` claims a name that no other file has, atomically: the
finished temporary file is hard-linked to the name, which fails if the name
is taken (two windows saving in one folder never overwrite each other).

Examples
--------
>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_file(folder / "a.txt", "one")
>>> write_file(folder / "a.txt", "two")
>>> (folder / "a.txt").read_text(), write_new(folder / "a.txt", "three")
('two', False)
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from sim.errors import WastelandError

# link(2) failing for these means the file system has no hard links (FAT, some network
# mounts): the name is then claimed with O_EXCL before the rename.
_NO_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                       errno.ENOSYS, errno.EMLINK})


class WriteError(WastelandError):
    """A file could not be written; the file that was there (if any) is unchanged."""

    def __init__(self, path: Path, exc: OSError) -> None:
        self.path = path
        self.reason = exc.strerror or str(exc) or type(exc).__name__  # the OS's words
        super().__init__(f"cannot write {str(path)!r}: {self.reason}")


def write_file(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, replacing any file there atomically.

    A symbolic link is written through (its target is replaced), and a replaced file keeps
    its permission bits.

    Raises
    ------
    WriteError
        The folder cannot be written, the disk is full...; the old file is as it was.
    """
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    tmp = _written_temp(path, target, data)
    _finish(path, tmp, lambda: os.replace(tmp, target))
    _sync_folder(target.parent)


def write_new(path: str | Path, data: bytes | str) -> bool:
    """Write ``data`` to ``path`` only if no file has that name: True when written, False
    when the name was taken (nothing written). The name never shows a partial file.

    Raises
    ------
    WriteError
        As :func:`write_file`.
    """
    path = Path(path)
    tmp = _written_temp(path, path, data)
    claimed = [True]

    def claim() -> None:
        try:
            os.link(tmp, path)
        except FileExistsError:
            claimed[0] = False
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise
            claimed[0] = _claim_excl(path)
            if claimed[0]:
                os.replace(tmp, path)
                return
        os.unlink(tmp)

    _finish(path, tmp, claim)
    _sync_folder(path.parent)
    return claimed[0]


def _claim_excl(path: Path) -> bool:
    """Create ``path`` empty with O_EXCL: False if it exists."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:
        return False
    return True


def _written_temp(path: Path, target: Path, data: bytes | str) -> Path:
    """``data`` in a new temporary file beside ``target``, fsynced; its path. The name
    keeps the target's suffix, so tools that go by it (pygame) see the right kind."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = target.with_name(f".{target.stem[:100]}.{secrets.token_hex(6)}.tmp{target.suffix}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o666)
    except OSError as exc:
        raise WriteError(path, exc) from None
    try:
        try:
            _keep_mode(fd, target)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        _remove(tmp)
        raise WriteError(path, exc) from None
    except BaseException:  # KeyboardInterrupt while writing: no temporary file left behind
        _remove(tmp)
        raise
    return tmp


def _finish(path: Path, tmp: Path, rename: Callable[[], None]) -> None:
    try:
        rename()
    except OSError as exc:
        _remove(tmp)
        raise WriteError(path, exc) from None


def _keep_mode(fd: int, target: Path) -> None:
    """Give the new file a replaced file's permission bits (a new one: 0o666 less the
    umask, as open() gives)."""
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        return
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; some systems cannot fsync a folder (the file is written)."""
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
