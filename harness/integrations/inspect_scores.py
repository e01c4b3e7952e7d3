"""The metrics of the Inspect task, counted as ``league report`` counts a model player: win rates by
role over decided games, the fallback, invalid and timeout shares of model decisions, the flag of a
run whose fallback share passes ``max_fallback_rate``, and the void games."""

from __future__ import annotations

from collections import Counter

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    metric,
)

from harness.engine.roles import ROLES
from harness.integrations.inspect_counts import counts_from_json, merged_counts
from harness.runs import DEFAULT_MAX_FALLBACK_RATE, ModelCounts, fallback_flags

__all__ = ["fallback_flag", "model_counts", "rate", "task_metrics"]


def model_counts(scores: list[SampleScore]) -> ModelCounts | None:
    """The model seat's counts over every scored game (``None`` when none was)."""
    parts = []
    for s in scores:
        meta = s.score.metadata or {}
        if isinstance(meta.get("counts"), dict):
            parts.append(counts_from_json(meta["counts"]))
    if not parts:
        return None
    return merged_counts(parts[0].player, parts)


def fallback_flag(counts: ModelCounts, limit: float) -> str | None:
    """The league's flag message when ``counts``' fallback share passes ``limit``."""
    flags = fallback_flags([], {counts.player: counts}, limit)
    return flags[0].message if flags else None


def rate(x: float | None) -> float:
    """A rate for a metric (Inspect metrics are numbers): 0.0 when nothing was decided."""
    return 0.0 if x is None else float(x)


@metric
def win_rate_by_role() -> Metric:
    """Share of decided games won: ``all`` and one entry per role played (void games left out)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        played: Counter[str] = Counter()
        won: Counter[str] = Counter()
        for s in scores:
            value = s.score.value
            if not isinstance(value, dict) or value.get("void"):
                continue
            role = str(s.score.answer)
            for key in ("all", role):
                played[key] += 1
                won[key] += int(value["win"])
        keys = ["all", *(r for r in ROLES if played[r])]
        return {k: won[k] / played[k] if played[k] else 0.0 for k in keys}

    return compute


@metric
def fallback_rate() -> Metric:
    """Model decisions that fell back / model decisions (decisions with more than one option),
    over all games: ``league report``'s ``fallback_rate``."""

    def compute(scores: list[SampleScore]) -> float:
        c = model_counts(scores)
        return rate(c.fallback_per_decision if c else None)

    return compute


@metric
def invalid_rate() -> Metric:
    """Model decisions with at least one invalid answer / model decisions."""

    def compute(scores: list[SampleScore]) -> float:
        c = model_counts(scores)
        return rate(c.invalid_per_decision if c else None)

    return compute


@metric
def timeout_rate() -> Metric:
    """Model decisions with a timed-out call (or cut off by the timer) / model decisions."""

    def compute(scores: list[SampleScore]) -> float:
        c = model_counts(scores)
        return rate(c.timeout_per_decision if c else None)

    return compute


@metric
def flagged(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> Metric:
    """1.0 when the run's fallback share of model decisions passes ``max_fallback_rate`` (its
    win rates are not valid; each game's score names its own flag), else 0.0."""

    def compute(scores: list[SampleScore]) -> float:
        c = model_counts(scores)
        return 1.0 if c is not None and fallback_flag(c, max_fallback_rate) else 0.0

    return compute


@metric
def void_games() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        return float(
            sum(1 for s in scores if isinstance(s.score.value, dict) and s.score.value["void"])
        )

    return compute


def task_metrics(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> list[Metric]:
    return [
        win_rate_by_role(),
        fallback_rate(),
        invalid_rate(),
        timeout_rate(),
        flagged(max_fallback_rate),
        void_games(),
    ]
