"""Start-up of the command line (issue 30): the CPU time of whole ``python -m sim ...``
processes against a bare ``python -c pass`` measured in the same run.

CPU time of the child (user + system, from ``resource.getrusage(RUSAGE_CHILDREN)``),
median of several runs. The light commands (``--help``,
``--version``, ``scenarios``, ``check``) import neither numba nor pygame
(tests/test_startup.py); ``los`` loads the compiled kernels, for scale.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
COMMANDS = {
    "bare python -c pass": ["-c", "pass"],
    "--help": ["-m", "sim", "--help"],
    "--version": ["-m", "sim", "--version"],
    "scenarios": ["-m", "sim", "scenarios"],
    "check skirmish": ["-m", "sim", "check", "skirmish"],
    "los skirmish knight mutant-2": ["-m", "sim", "los", "skirmish", "knight", "mutant-2"],
}


def child_cpu(argv: list[str]) -> float:
    """CPU seconds of one ``python ARGV`` process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run() -> None:
    bare = None
    print(f"start-up CPU per process, median of {RUNS} (ratio to a bare interpreter):")
    for name, argv in COMMANDS.items():
        cpu = statistics.median(child_cpu(argv) for _ in range(RUNS))
        bare = bare if bare is not None else cpu
        print(f"  {name:<30} {cpu * 1000:7.1f} ms CPU  {cpu / bare:5.1f}x")
