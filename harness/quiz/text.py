"""The terminal summary of a quiz run (``prompts/quiz/summary.txt.j2``)."""

from __future__ import annotations

from harness.views.render import environment

from .kinds import KIND_NAMES
from .summary import QuizSummary, Score


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def accuracy(s: Score | None) -> str:
    if s is None or s.accuracy is None:
        return "–"
    return f"{pct(s.accuracy)} [{100 * s.lo:.0f}–{100 * s.hi:.0f}] n={s.n}"


def summary_text(summary: QuizSummary) -> str:
    arms = summary.arms
    head = [
        {
            "name": f"{a.player} ({a.model})",
            "rules": a.rules,
            "overall": accuracy(a.overall),
            "f1": "–" if a.overall.f1 is None else f"{a.overall.f1:.2f}",
            "no_answer": a.overall.no_answer,
            "tokens": f"{a.tokens:,}",
            "cost": f"{a.cost_usd:.4f}",
        }
        for a in arms
    ]
    tables = []
    kinds = [k for k in KIND_NAMES if k in summary.baseline]
    tables.append(
        {
            "title": "by kind",
            "rows": [
                {
                    "label": k,
                    "cells": [accuracy(a.by_kind.get(k)) for a in arms],
                    "base": pct(summary.baseline[k].accuracy),
                }
                for k in kinds
            ],
        }
    )
    for title, attr in (("by mode", "by_mode"), ("by seats", "by_seats")):
        keys = sorted({k for a in arms for k in getattr(a, attr)})
        rows = []
        for key in keys:
            cells = [accuracy(getattr(a, attr).get(key)) for a in arms]
            base = [
                getattr(a, attr)[key].baseline_accuracy for a in arms if key in getattr(a, attr)
            ]
            rows.append({"label": key, "cells": cells, "base": pct(base[0] if base else None)})
        tables.append({"title": title, "rows": rows})
    return (
        environment()
        .get_template("quiz/summary.txt.j2")
        .render(
            s=summary,
            arms=head,
            tables=tables,
            base_overall=pct(summary.baseline["overall"].accuracy),
        )
        .rstrip()
    )


__all__ = ["accuracy", "pct", "summary_text"]
