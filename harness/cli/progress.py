"""The progress display of long commands lives in :mod:`harness.bench.progress_display`
(benchmarks and ``league run`` share it); command modules import it from here."""

from harness.bench.progress_display import PLAIN_INTERVAL_S, Progress, duration

__all__ = ["PLAIN_INTERVAL_S", "Progress", "duration"]
