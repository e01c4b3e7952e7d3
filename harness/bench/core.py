"""What every benchmark shares: its error type, timing (wall and CPU), rounds, the machine's load
average, a temporary folder and the final JSON line.

A benchmark prints its figures as text lines and ends with exactly one JSON line on stdout
(:func:`print_result`); progress goes to stderr (:mod:`harness.bench.progress_display`).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "BenchError",
    "LoadAverage",
    "cpu_seconds",
    "elapsed_since",
    "peak_rss_mb",
    "print_result",
    "python_version",
    "rounds",
    "temp_dir",
]


class BenchError(Exception):
    """Bad benchmark options or a missing optional package: one line, exit code 2."""


def python_version() -> str:
    return platform.python_version()


def cpu_seconds(children: bool = False) -> float:
    """CPU time (user + system) of this process, and with ``children`` of its finished child
    processes too."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime
    return total


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MB (Linux reports kB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def rounds(total: int, n: int) -> list[int]:
    """``total`` split into ``n`` rounds as even as can be, the larger ones first."""
    return [total // n + (1 if r < total % n else 0) for r in range(n)]


class LoadAverage:
    """The machine's 1-minute load average when made and at :meth:`after`: other work on the
    machine lowers every figure, so a benchmark reports both."""

    def __init__(self) -> None:
        self.before = os.getloadavg()[0]
        self.cores = os.cpu_count()

    def after(self) -> list[float]:
        """``[before, now]``, rounded to two decimals."""
        return [round(self.before, 2), round(os.getloadavg()[0], 2)]

    def line(self, figures: list[float]) -> str:
        return (
            f"load average (1 min) {figures[0]:.2f} before, {figures[1]:.2f} after, "
            f"on {self.cores} cores"
        )


@contextmanager
def temp_dir(prefix: str = "bangarena-bench-") -> Iterator[Path]:
    """A temporary folder for a benchmark's runs; removed afterwards (nothing is kept)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as d:
        yield Path(d)


def elapsed_since(t0: float, digits: int) -> float:
    return round(time.perf_counter() - t0, digits)


def print_result(result: dict[str, Any]) -> int:
    """Print the final JSON line of a benchmark; returns the exit code 0."""
    print(json.dumps(result))
    return 0
