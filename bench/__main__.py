"""``make bench``: run every benchmark module in this package.

Each module ``bench/<topic>.py`` defines ``run() -> None`` that prints its
figures, always as ratios to a baseline run in the same process where the
issues name one. A new module is picked up automatically; modules without
``run`` are helpers (random boards, the sampler) and are skipped.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main(argv: list[str]) -> int:
    wanted = set(argv)
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or (wanted and info.name not in wanted):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        if not hasattr(module, "run"):  # a helper (boards, sampler), not a benchmark
            continue
        print(f"== {info.name}")
        module.run()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
