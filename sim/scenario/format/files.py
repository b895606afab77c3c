"""Reading input files safely: size limit, regular files only, UTF-8, nesting depth.

Every file the game reads (scenario, library, save) goes through
:func:`read_text`: a directory, ``/dev/zero`` or a FIFO is refused before it
is opened, a file over :data:`~sim.scenario.format.limits.MAX_FILE_BYTES` is refused, and
text that is not UTF-8 is named with its line. :func:`include_target` turns
one ``include`` entry into a file, the shipped unit library included
(``include = ["wasteland:units/wasteland.toml"]``).
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from sim.scenario.format.limits import MAX_FILE_BYTES, MAX_NAME_BYTES, MAX_NESTING, MAX_PATH_BYTES
from sim.scenario.format.shipped import shipped_dir

SHIPPED_PREFIX = "wasteland:"  # names a file of the shipped scenarios folder


class ReadProblem(Exception):
    """Why a file cannot be read, in words (the caller adds the file name)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`; else :class:`ReadProblem`.

    The file is opened without blocking and checked on the open descriptor,
    so a FIFO or a device put in its place meanwhile is refused too.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise ReadProblem("file not found") from None
    except UnicodeEncodeError as exc:  # a lone surrogate: no file system has such a name
        raise ReadProblem(f"the file name holds a lone surrogate "
                          f"{exc.object[exc.start:exc.end]!r}, not a character") from None
    except ValueError:  # an embedded NUL byte in the name
        raise ReadProblem("the file name holds a NUL byte") from None
    except OSError as exc:
        raise ReadProblem(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadProblem(f"is {_kind(info.st_mode)}, not a file")
        if info.st_size > MAX_FILE_BYTES:
            raise ReadProblem(f"is {info.st_size} bytes; the limit is {MAX_FILE_BYTES}")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ReadProblem(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise ReadProblem(f"is over {MAX_FILE_BYTES} bytes, the limit")
    return raw


def decode(raw: bytes) -> str:
    """UTF-8 text (a leading byte-order mark dropped); else :class:`ReadProblem` with the line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ReadProblem(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line} "
                          "(save the file as UTF-8)") from None
    return text.removeprefix("\ufeff")


def read_text(path: Path) -> str:
    return decode(read_bytes(path))


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether lists and tables nest deeper than ``limit`` in ``value`` (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


NESTING_MESSAGE = f"values nested too deeply (the limit is {MAX_NESTING} levels)"


def parse_toml(text: str) -> dict[str, Any]:
    """A TOML document; :class:`ReadProblem` for invalid TOML or too deep nesting."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ReadProblem(f"invalid TOML: {exc}") from None
    except RecursionError:
        raise ReadProblem(NESTING_MESSAGE) from None
    except ValueError:  # Python's limit on the digits of an integer (issue 31)
        raise ReadProblem(_long_number(text)) from None
    if too_deep(data):
        raise ReadProblem(NESTING_MESSAGE)
    return data


def _long_number(text: str) -> str:
    """Why TOML text with an integer Python will not read is refused, with the line."""
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"\d(?:_?\d){{{limit},}}", text)  # TOML allows 1_000
    line = "" if found is None else f" at line {text.count(chr(10), 0, found.start()) + 1}"
    return f"invalid TOML: a number of more than {limit} digits{line}"


def path_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file path in a scenario or a save, or None."""
    if not name.strip():
        return "expected a file path, got an empty string"
    if "\0" in name:
        return "a file path cannot hold a NUL byte"
    try:
        os.fsencode(name)  # names this system cannot decode travel as U+DC80..U+DCFF: fine
    except UnicodeEncodeError as exc:
        return (f"a file path cannot hold a lone surrogate {exc.object[exc.start:exc.end]!r}, "
                "not a character")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        return f"the path is longer than {MAX_PATH_BYTES} bytes"
    parts = name.removeprefix(SHIPPED_PREFIX).replace("\\", "/").split("/")
    if any(len(p.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES for p in parts):
        return f"a file or folder name in the path is longer than {MAX_NAME_BYTES} bytes"
    return None


def include_target(name: str, here: Path, root: Path) -> tuple[Path, Path]:
    """The file ``name`` (included from the file ``here``) and the folder tree it must stay in.

    A name starting ``wasteland:`` is a file of the shipped scenarios folder
    (``wasteland:units/wasteland.toml``); any other name is relative to
    ``here`` and must stay inside ``root``. :class:`ReadProblem` otherwise.
    """
    why = path_problem(name)
    if why is not None:
        raise ReadProblem(why)
    if name.startswith(SHIPPED_PREFIX):
        root = shipped_dir().resolve()
        base, rel = root, name.removeprefix(SHIPPED_PREFIX)
    else:
        base, rel = here.parent, name
    try:
        target = (base / rel).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise ReadProblem(f"cannot resolve {name!r}: {exc}") from None
    if not target.is_relative_to(root):
        raise ReadProblem(f"include {name!r} is outside the scenario's folder tree ({root})")
    return target, root


def shipped_name(path: Path) -> str | None:
    """``wasteland:NAME`` when ``path`` is a shipped scenario file, else None."""
    root = shipped_dir().resolve()
    try:
        rel = path.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):
        return None
    return SHIPPED_PREFIX + rel.as_posix()
