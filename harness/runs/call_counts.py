"""What reading shares with running: the model-call counts of a run's records (fallbacks,
timeouts, latencies, tokens, the history policy) and the binomial intervals.  They live on the
league floor because the runner counts calls and the balance measurement draws intervals as they
go; they are named here so that the readers of a run (the HTML report, the Inspect scores) import
one package, :mod:`harness.runs`."""

from __future__ import annotations

from harness.league.model_calls import (
    DEFAULT_HISTORY,
    ModelCounts,
    count_model_calls,
    history_policies,
)
from harness.league.stats_basic import clustered_wilson, wilson

__all__ = [
    "DEFAULT_HISTORY",
    "ModelCounts",
    "clustered_wilson",
    "count_model_calls",
    "history_policies",
    "wilson",
]
