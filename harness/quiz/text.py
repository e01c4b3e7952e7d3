"""The terminal summary of a quiz run (``prompts/quiz/summary.txt.j2``)."""

from __future__ import annotations

from harness.views.render import environment

from .quiz_summary import QuizSummary, Score, breakdown


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
            "locale": a.locale,
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
    for t in breakdown(summary):  # the same tables as the HTML page, as text
        rows = [
            {**r, "cells": [accuracy(c) for c in r["cells"]], "base": pct(r["base"])}
            for r in t["rows"]
        ]
        tables.append({**t, "rows": rows})
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
