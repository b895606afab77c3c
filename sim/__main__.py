"""``python -m sim``: the ``wasteland`` command line (:func:`sim.cli.main`)."""

from __future__ import annotations

import sys

from sim.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m sim"))
