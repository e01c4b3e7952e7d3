"""Quiz results: accuracy (exact match) with 95 % Wilson intervals and mean set F1, overall, per
kind, per mode and per table size, for every *arm* (a model player answering one language's
questions under one rules document), next to the random-guess baseline of the same questions.
A dataset's languages hold the same questions by id, so arms in different languages answer
identical questions."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from harness.runs import wilson

from .kinds import KIND_NAMES
from .quiz_records import Dataset, QuizQuestion
from .run import QuizAnswer
from .score import baseline

SUMMARY_FILE = "summary.json"


class Score(BaseModel):
    """Exact-match accuracy (``k`` of ``n``, Wilson interval) and mean F1 of a group; the random
    baseline's expected accuracy and F1 on the same questions; answers that fell back."""

    model_config = ConfigDict(extra="forbid")

    n: int
    k: int
    accuracy: float | None
    lo: float
    hi: float
    f1: float | None
    baseline_accuracy: float | None
    baseline_f1: float | None
    no_answer: int


class Arm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: str
    model: str
    rules: str
    rules_sha256: str
    locale: str = "en"  # the language of the questions
    overall: Score
    by_kind: dict[str, Score]
    by_mode: dict[str, Score]
    by_seats: dict[str, Score]
    cost_usd: float
    tokens: int


class QuizSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    run: str
    dataset: str
    questions: int  # questions answered by some arm (the baseline is over these)
    arms: list[Arm]
    baseline: dict[str, Score]  # by kind, and "overall", over the whole dataset


def score(answers: Sequence[QuizAnswer], questions: dict[str, QuizQuestion]) -> Score:
    n = len(answers)
    k = sum(a.exact for a in answers)
    lo, hi = wilson(k, n)
    bases = [_baseline(questions[a.question_id]) for a in answers]
    return Score(
        n=n,
        k=k,
        accuracy=k / n if n else None,
        lo=lo,
        hi=hi,
        f1=sum(a.f1 for a in answers) / n if n else None,
        baseline_accuracy=sum(b[0] for b in bases) / n if n else None,
        baseline_f1=sum(b[1] for b in bases) / n if n else None,
        no_answer=sum(a.given is None for a in answers),
    )


def _baseline(q: QuizQuestion) -> tuple[float, float]:
    return baseline(q.answer_shape, len(q.candidates), len(q.answer))


def baseline_score(questions: Iterable[QuizQuestion]) -> Score:
    qs = list(questions)
    n = len(qs)
    bases = [_baseline(q) for q in qs]
    acc = sum(b[0] for b in bases) / n if n else None
    return Score(
        n=n,
        k=0,
        accuracy=acc,
        lo=0.0,
        hi=1.0,
        f1=sum(b[1] for b in bases) / n if n else None,
        baseline_accuracy=acc,
        baseline_f1=sum(b[1] for b in bases) / n if n else None,
        no_answer=0,
    )


def _groups(
    answers: Sequence[QuizAnswer], key: Callable[[QuizAnswer], str], order: Sequence[str]
) -> dict[str, list[QuizAnswer]]:
    out: dict[str, list[QuizAnswer]] = {k: [] for k in order}
    for a in answers:
        out.setdefault(key(a), []).append(a)
    return {k: v for k, v in out.items() if v}


def summarize(run: str, dataset: Dataset, answers: Sequence[QuizAnswer]) -> QuizSummary:
    questions = {q.id: q for q in dataset.questions}
    answers = [a for a in answers if a.question_id in questions]
    arms: dict[tuple[str, str, str], list[QuizAnswer]] = {}
    for a in answers:
        arms.setdefault(a.arm, []).append(a)
    out = []
    for group in arms.values():
        first = group[0]
        out.append(
            Arm(
                player=first.player,
                model=first.model,
                rules=first.rules,
                rules_sha256=first.rules_sha256,
                locale=first.locale,
                overall=score(group, questions),
                by_kind={
                    k: score(v, questions)
                    for k, v in _groups(group, lambda a: a.kind, KIND_NAMES).items()
                },  # fmt: skip
                by_mode={
                    k: score(v, questions) for k, v in _groups(group, lambda a: a.mode, ()).items()
                },  # fmt: skip
                by_seats={
                    k: score(v, questions)
                    for k, v in _groups(group, lambda a: str(a.seats), ()).items()
                },  # fmt: skip
                cost_usd=round(sum(a.cost_usd or 0.0 for a in group), 6),
                tokens=sum(a.input_tokens + a.output_tokens for a in group),
            )
        )
    asked = {a.question_id for a in answers}
    pool = [q for q in dataset.questions if q.id in asked] or list(dataset.questions)
    base = {"overall": baseline_score(pool)}
    for kind in KIND_NAMES:
        qs = [q for q in pool if q.kind == kind]
        if qs:
            base[kind] = baseline_score(qs)
    return QuizSummary(run=run, dataset=dataset.label, questions=len(pool), arms=out, baseline=base)


def breakdown(summary: QuizSummary) -> list[dict[str, Any]]:
    """The summary's tables by kind, by mode and by table size: each row has its ``label``, the
    ``cells`` of the arms (a :class:`Score`, ``None`` where an arm has none) and the ``base``
    accuracy of a random guess."""
    arms = summary.arms
    kinds = [k for k in KIND_NAMES if k in summary.baseline]
    tables: list[dict[str, Any]] = [
        {
            "title": "by kind",
            "rows": [
                {
                    "label": k,
                    "cells": [a.by_kind.get(k) for a in arms],
                    "base": summary.baseline[k].accuracy,
                }
                for k in kinds
            ],
        }
    ]
    for title, attr in (("by mode", "by_mode"), ("by seats", "by_seats")):
        keys = sorted({k for a in arms for k in getattr(a, attr)})
        rows = []
        for key in keys:
            cells = [getattr(a, attr).get(key) for a in arms]
            base = next((c.baseline_accuracy for c in cells if c is not None), None)
            rows.append({"label": key, "cells": cells, "base": base})
        tables.append({"title": title, "rows": rows})
    return tables


def write_summary(out_dir: Path, summary: QuizSummary) -> Path:
    path = out_dir / SUMMARY_FILE
    path.write_text(
        json.dumps(summary.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    return path


def read_summary(path: Path) -> QuizSummary:
    return QuizSummary.model_validate_json(path.read_text(encoding="utf-8"))


__all__ = [
    "SUMMARY_FILE",
    "Arm",
    "QuizSummary",
    "Score",
    "baseline_score",
    "breakdown",
    "read_summary",
    "summarize",
    "write_summary",
]
