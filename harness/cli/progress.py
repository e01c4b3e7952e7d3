"""The progress display of long commands lives in :mod:`harness.bench.progress` (benchmarks and
``league run`` share it); command modules import it from here."""

from harness.bench.progress import PLAIN_INTERVAL_S, Progress, duration

__all__ = ["PLAIN_INTERVAL_S", "Progress", "duration"]
