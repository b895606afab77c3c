"""What an id may be, and quoting bad values on one line (every input file uses these).

Ids (sides, units, weapons, skills, terrain, models, keywords, ruler
colours) are tokens of action texts and saves, so they must be single words.

>>> id_problem("laser_rifle") is None
True
>>> id_problem("laser rifle").split(" (")[0]
"id 'laser rifle' holds whitespace or an invisible character"
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sim.scenario.format.limits import MAX_ID_CHARS

SHOW_CHARS = 80  # a quoted bad value is cut to this many characters


def show(value: Any) -> str:
    """``repr(value)`` on one line, cut to :data:`SHOW_CHARS` characters."""
    text = repr(value)
    return text if len(text) <= SHOW_CHARS else text[: SHOW_CHARS - 3] + "..."


def id_problem(value: Any) -> str | None:
    """Why ``value`` cannot be an id, or None. Ids are tokens of action texts and saves.

    Not empty, at most :data:`~sim.scenario.format.limits.MAX_ID_CHARS` characters, no
    whitespace of any kind (a no-break space included) and no control or
    invisible format characters.
    """
    if not isinstance(value, str):
        return f"expected an id (a string), got {show(value)}"
    if not value:
        return "expected an id, got an empty string"
    if len(value) > MAX_ID_CHARS:
        return f"id {show(value)} is longer than {MAX_ID_CHARS} characters"
    for ch in value:
        if ch.isspace() or unicodedata.category(ch).startswith(("C", "Z")):
            return (f"id {show(value)} holds whitespace or an invisible character "
                    f"(U+{ord(ch):04X}); ids are single words such as 'laser_rifle'")
    return None
