"""The rules-quiz page (``quiz.html``): accuracy per arm with 95 % intervals, per kind, mode and
table size next to a random guess, and every question with the right answer and each arm's
answer.  Self-contained (inline CSS and a few lines of JS), text from
``prompts/report/quiz.html.j2`` with the words of the report's labels
(:mod:`harness.report.labels`) in the dataset's language (or ``locale``).

A league report links the quiz pages of its run: :func:`copy_quiz_pages` copies every
``RUN/quiz/<dataset>/quiz.html`` next to ``index.html``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from harness.engine.roles import MODES
from harness.paths import PROMPTS_DIR
from harness.quiz.kinds import KIND_NAMES
from harness.quiz.quiz_records import Dataset
from harness.quiz.quiz_summary import QuizSummary, breakdown
from harness.quiz.run import QuizAnswer
from harness.views.names import mode_name, text_direction

from .labels import count, fill, labels

QUIZ_PAGE = "quiz.html"
# The breakdown tables (harness.quiz.quiz_summary.breakdown) by their titles: the label keys
# ``accuracy_<key>`` (heading) and ``<key>`` (first column).
TABLE_KEYS = {"by kind": "kind", "by mode": "mode", "by seats": "seats"}


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR / "report"),
        undefined=StrictUndefined,
        autoescape=select_autoescape(("html", "html.j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.1f} %"
    env.filters["fix"] = lambda x: "–" if x is None else f"{x:.2f}"
    return env


def render_quiz_page(
    summary: QuizSummary,
    dataset: Dataset,
    answers: Sequence[QuizAnswer],
    locale: str | None = None,
) -> str:
    """The page's HTML, its words in ``locale`` (default: the dataset's language)."""
    locale = locale or dataset.header.locale
    words = labels(locale)
    arm_index = {(a.player, a.rules_sha256, a.locale): i for i, a in enumerate(summary.arms, 1)}
    by_question: dict[str, list[QuizAnswer]] = {}
    for a in answers:
        by_question.setdefault(a.question_id, []).append(a)
    questions = []
    for q in dataset.questions:
        if q.id not in by_question:
            continue  # not asked in this folder
        label = {c.id: c.label for c in q.candidates}
        rows = []
        for a in sorted(by_question.get(q.id, []), key=lambda a: arm_index.get(a.arm, 0)):
            rows.append(
                {
                    "arm": arm_index.get(a.arm, "?"),
                    "given": None
                    if a.given is None
                    else [{"id": g, "label": label.get(g, "")} for g in a.given],
                    "ok": a.exact,
                    "f1": a.f1,
                    "note": fill(
                        words.quiz["fallback"],
                        reason=words.fallback_reasons.get(a.fallback, a.fallback),
                    )
                    if a.fallback
                    else "",
                }
            )
        questions.append(
            {
                "id": q.id,
                "kind": q.kind,
                "mode": q.mode,
                "seats": q.seats,
                "cites": q.cites,
                "text": q.text,
                "right": [{"id": r, "label": label[r]} for r in q.answer],
                "answers": rows,
                "wrong": any(not r["ok"] for r in rows),
            }
        )
    return (
        _environment()
        .get_template("quiz.html.j2")
        .render(
            Q=words.quiz,
            fill=fill,
            count=lambda n, noun: count(n, noun, words),
            modes={m: mode_name(m, locale) for m in MODES},
            page_dir=text_direction(locale),
            s=summary,
            tables=[{**t, "key": TABLE_KEYS[t["title"]]} for t in breakdown(summary)],
            questions=questions,
            kinds=[k for k in KIND_NAMES if k in summary.baseline],
            locale=locale,
            generated=time.strftime("%Y-%m-%d %H:%M"),
        )
    )


def write_quiz_page(
    out_dir: Path, summary: QuizSummary, dataset: Dataset, answers: Sequence[QuizAnswer]
) -> Path:
    path = out_dir / QUIZ_PAGE
    path.write_text(render_quiz_page(summary, dataset, answers), encoding="utf-8")
    return path


def copy_quiz_pages(run_dir: Path, out_dir: Path) -> list[tuple[str, str]]:
    """Copy the quiz pages of ``run_dir`` (``quiz/<dataset>/quiz.html``) into ``out_dir`` as
    ``quiz-<dataset>.html``; returns (dataset, file name) of each."""
    found = []
    for page in sorted((Path(run_dir) / "quiz").glob(f"*/{QUIZ_PAGE}")):
        name = f"quiz-{page.parent.name}.html"
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, out_dir / name)
        found.append((page.parent.name, name))
    return found


__all__ = ["QUIZ_PAGE", "copy_quiz_pages", "render_quiz_page", "write_quiz_page"]
